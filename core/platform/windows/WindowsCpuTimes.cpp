#include "WindowsCpuTimes.h"

#include <windows.h>

namespace wb::platform {

namespace {

std::uint64_t ticks(const FILETIME &t)
{
    return (std::uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime; // 100 ns units
}

double seconds(const FILETIME &t)
{
    return double(ticks(t)) / 1e7;
}

} // namespace

std::vector<CpuTicks> WindowsCpuTimes::systemTicks() const
{
    FILETIME idle{}, kernel{}, user{};
    if (!::GetSystemTimes(&idle, &kernel, &user))
        return {};
    // The kernel time includes the idle time.
    CpuTicks all;
    all.total = ticks(kernel) + ticks(user);
    all.busy = all.total - ticks(idle);
    return {all};
}

double WindowsCpuTimes::processSeconds() const
{
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user))
        return 0;
    return seconds(kernel) + seconds(user);
}

double WindowsCpuTimes::threadSeconds() const
{
    const std::optional<ThreadSeconds> split = threadSplit();
    return split ? split->user + split->system : -1;
}

std::optional<ThreadSeconds> WindowsCpuTimes::threadSplit() const
{
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!::GetThreadTimes(::GetCurrentThread(), &created, &exited, &kernel, &user))
        return std::nullopt;
    return ThreadSeconds{seconds(user), seconds(kernel)};
}

std::optional<ThreadSchedule> WindowsCpuTimes::threadSchedule() const
{
    return std::nullopt; // not yet: QueryThreadCycleTime gives the run time but not the wait for a core
}

} // namespace wb::platform
