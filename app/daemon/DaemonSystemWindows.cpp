#include "DaemonSystem.h"

#include "net/SocketApi.h"

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <windows.h>

namespace wb {

namespace {

std::mutex g_stopMutex;
std::condition_variable g_stopCv;
const char *g_stop = nullptr;
// The service's: its status handle, what it serves and how that ended.
SERVICE_STATUS_HANDLE g_status = nullptr;
std::function<int()> g_serve;
int g_exitCode = 0;

void requestStop(const char *name)
{
    {
        std::lock_guard lk(g_stopMutex);
        if (!g_stop)
            g_stop = name;
    }
    g_stopCv.notify_all();
}

/// Runs on a thread of its own that the system starts. Returning TRUE for a close, log-off or shut-down event
/// gives wirebenchd until the system's time-out (5 s for a close) to stop its servers: main returns meanwhile.
BOOL WINAPI onConsoleEvent(DWORD event)
{
    requestStop(event == CTRL_C_EVENT            ? "Ctrl-C"
                    : event == CTRL_BREAK_EVENT  ? "Ctrl-Break"
                    : event == CTRL_CLOSE_EVENT  ? "console closed"
                    : event == CTRL_LOGOFF_EVENT ? "log-off"
                                                 : "shut-down");
    return TRUE;
}

void report(DWORD state, int exitCode = 0)
{
    SERVICE_STATUS s{};
    s.dwServiceType = SERVICE_WIN32_OWN_PROCESS;
    s.dwCurrentState = state;
    s.dwControlsAccepted = state == SERVICE_RUNNING ? SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN : 0;
    s.dwWin32ExitCode = exitCode == 0 ? NO_ERROR : ERROR_SERVICE_SPECIFIC_ERROR;
    s.dwServiceSpecificExitCode = DWORD(exitCode);
    s.dwWaitHint = state == SERVICE_STOP_PENDING ? 15000 : 0; // the servers end their sessions first
    ::SetServiceStatus(g_status, &s);
}

DWORD WINAPI onServiceControl(DWORD control, DWORD, void *, void *)
{
    if (control == SERVICE_CONTROL_STOP || control == SERVICE_CONTROL_SHUTDOWN) {
        report(SERVICE_STOP_PENDING);
        requestStop(control == SERVICE_CONTROL_STOP ? "service stop" : "shut-down");
        return NO_ERROR;
    }
    return control == SERVICE_CONTROL_INTERROGATE ? NO_ERROR : ERROR_CALL_NOT_IMPLEMENTED;
}

void WINAPI serviceMain(DWORD, LPWSTR *)
{
    g_status = ::RegisterServiceCtrlHandlerExW(L"wirebenchd", onServiceControl, nullptr);
    if (!g_status)
        return;
    report(SERVICE_RUNNING);
    g_exitCode = g_serve();
    report(SERVICE_STOPPED, g_exitCode);
}

/// A service's stdout and stderr: appended to %ProgramData%\Wirebench\wirebenchd.log.
bool logToFile(std::string *error)
{
    const char *data = std::getenv("ProgramData");
    const std::string dir = std::string(data && *data ? data : "C:\\ProgramData") + "\\Wirebench";
    ::CreateDirectoryA(dir.c_str(), nullptr);
    const std::string log = dir + "\\wirebenchd.log";
    if (!std::freopen(log.c_str(), "a", stdout) || !std::freopen(log.c_str(), "a", stderr)) {
        *error = "wirebenchd: cannot write the log " + log;
        return false;
    }
    return true;
}

} // namespace

bool DaemonSystem::prepare(bool asService, std::string *error)
{
    if (asService && !logToFile(error))
        return false;
    if (!asService && !::SetConsoleCtrlHandler(onConsoleEvent, TRUE)) {
        *error = "wirebenchd: cannot take the console's stop events (SetConsoleCtrlHandler)";
        return false;
    }
    return net::startSockets(error);
}

int DaemonSystem::run(bool asService, const std::function<int()> &serve)
{
    if (!asService)
        return serve();
    g_serve = serve;
    SERVICE_TABLE_ENTRYW table[] = {{const_cast<LPWSTR>(L"wirebenchd"), serviceMain}, {nullptr, nullptr}};
    if (!::StartServiceCtrlDispatcherW(table)) {
        std::fprintf(stderr,
                     "wirebenchd: --service: not started by the service control manager (error %lu): "
                     "sc.exe start wirebenchd\n",
                     ::GetLastError());
        return 1;
    }
    return g_exitCode;
}

std::string DaemonSystem::waitForStop()
{
    std::unique_lock lk(g_stopMutex);
    g_stopCv.wait(lk, [] { return g_stop != nullptr; });
    return g_stop;
}

std::tm DaemonSystem::localTime(std::time_t t)
{
    std::tm local{};
    ::localtime_s(&local, &t);
    return local;
}

} // namespace wb
