#pragma once

#include <ctime>
#include <functional>
#include <string>

namespace wb {

/// What wirebenchd's main needs of the OS around the servers: the request to stop and the local time of its log
/// lines. DaemonSystemPosix.cpp: SIGINT and SIGTERM by sigwait(2), localtime_r; DaemonSystemWindows.cpp: the
/// console's Ctrl-C, Ctrl-Break, close, log-off and shut-down events (SetConsoleCtrlHandler), the service control
/// manager's stop (StartServiceCtrlDispatcher), localtime_s.
class DaemonSystem
{
public:
    /// Before any thread starts: the stop requests are held for waitForStop() (POSIX blocks the signals in every
    /// thread, which the servers' threads inherit, and ignores SIGPIPE), and sockets can be used (Winsock). As a
    /// Windows service (--service) the log goes to %ProgramData%\Wirebench\wirebenchd.log (a service has no
    /// console). False with the reason in *error (--service on another OS, say).
    static bool prepare(bool asService, std::string *error);
    /// serve() on this thread, or as a Windows service: under the service control manager (sc.exe start), whose
    /// stop is a stop request too; serve's exit code.
    static int run(bool asService, const std::function<int()> &serve);
    /// Until a stop is asked for; its name ("SIGTERM", "Ctrl-C", "service stop").
    static std::string waitForStop();
    static std::tm localTime(std::time_t t);
};

} // namespace wb
