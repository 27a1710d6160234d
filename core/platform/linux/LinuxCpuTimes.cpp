#include "LinuxCpuTimes.h"

#include "platform/linux/LinuxFiles.h"

#include <cstdlib>
#include <string>

#include <sys/resource.h>

namespace wb::platform {

namespace {

double seconds(const timeval &tv)
{
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

} // namespace

std::vector<CpuTicks> LinuxCpuTimes::systemTicks() const
{
    std::vector<CpuTicks> out;
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"; guest time is already inside
    // user, so it is not added again. Idle and iowait are not busy.
    for (const std::string &line : LinuxFiles::lines(LinuxFiles::read("/proc/stat"))) {
        if (line.rfind("cpu", 0) != 0)
            break;
        const std::vector<std::string> parts = LinuxFiles::words(line);
        if (parts.size() < 5)
            continue;
        std::uint64_t v[8] = {};
        for (size_t i = 0; i < 8 && i + 1 < parts.size(); ++i) {
            char *end = nullptr;
            const unsigned long long x = std::strtoull(parts[i + 1].c_str(), &end, 10);
            v[i] = end != nullptr && *end == '\0' && parts[i + 1][0] != '-' ? x : 0; // not a number: 0
        }
        const std::uint64_t total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
        const std::uint64_t idle = v[3] + v[4];
        out.push_back({total - idle, total, v[7]});
    }
    return out;
}

double LinuxCpuTimes::processSeconds() const
{
    // With the children it has waited for: the SMB driver's write and read connections are processes of their
    // own (SmbLanes), reaped within the run.
    rusage ru{};
    rusage children{};
    if (::getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    const double own = seconds(ru.ru_utime) + seconds(ru.ru_stime);
    if (::getrusage(RUSAGE_CHILDREN, &children) != 0)
        return own;
    return own + seconds(children.ru_utime) + seconds(children.ru_stime);
}

double LinuxCpuTimes::threadSeconds() const
{
    rusage rt{};
    if (::getrusage(RUSAGE_THREAD, &rt) != 0)
        return -1;
    return seconds(rt.ru_utime) + seconds(rt.ru_stime);
}

std::optional<ThreadSeconds> LinuxCpuTimes::threadSplit() const
{
    rusage rt{};
    if (::getrusage(RUSAGE_THREAD, &rt) != 0)
        return std::nullopt;
    return ThreadSeconds{seconds(rt.ru_utime), seconds(rt.ru_stime)};
}

std::optional<ThreadSchedule> LinuxCpuTimes::threadSchedule() const
{
    // "run_ns wait_ns timeslices"; absent without CONFIG_SCHEDSTATS.
    const std::vector<std::string> fields = LinuxFiles::words(LinuxFiles::read("/proc/thread-self/schedstat"));
    rusage rt{};
    if (fields.size() < 2 || ::getrusage(RUSAGE_THREAD, &rt) != 0)
        return std::nullopt;
    ThreadSchedule s;
    s.runMs = double(std::strtoull(fields[0].c_str(), nullptr, 10)) / 1e6;
    s.waitMs = double(std::strtoull(fields[1].c_str(), nullptr, 10)) / 1e6;
    s.voluntarySwitches = rt.ru_nvcsw;
    s.involuntarySwitches = rt.ru_nivcsw;
    return s;
}

} // namespace wb::platform
