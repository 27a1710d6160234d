#include "DaemonSystem.h"

#include <csignal>

#include <pthread.h>

namespace wb {

namespace {

sigset_t stopSignals()
{
    sigset_t quit;
    sigemptyset(&quit);
    sigaddset(&quit, SIGINT);
    sigaddset(&quit, SIGTERM);
    return quit;
}

} // namespace

bool DaemonSystem::prepare(bool asService, std::string *error)
{
    if (asService) {
        *error = "wirebenchd: --service is for Windows; on Linux systemd runs wirebenchd (wirebenchd.service)";
        return false;
    }
    const sigset_t quit = stopSignals();
    pthread_sigmask(SIG_BLOCK, &quit, nullptr);
    std::signal(SIGPIPE, SIG_IGN); // sends use MSG_NOSIGNAL anyway
    return true;
}

int DaemonSystem::run(bool, const std::function<int()> &serve)
{
    return serve();
}

std::string DaemonSystem::waitForStop()
{
    const sigset_t quit = stopSignals();
    int signal = 0;
    sigwait(&quit, &signal);
    return signal == SIGINT ? "SIGINT" : "SIGTERM";
}

std::tm DaemonSystem::localTime(std::time_t t)
{
    std::tm local{};
    ::localtime_r(&t, &local);
    return local;
}

} // namespace wb
