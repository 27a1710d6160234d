#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace wb::platform {

/// Clock ticks one CPU (or the whole system) spent since boot, and how many of them it was busy.
struct CpuTicks
{
    std::uint64_t busy = 0; ///< not idle and not waiting for I/O
    std::uint64_t total = 0;
    std::uint64_t stolen = 0; ///< of total, run by the hypervisor for other guests (Linux "steal"; 0 elsewhere)
};

/// User and system seconds of one thread, apart.
struct ThreadSeconds
{
    double user = 0;
    double system = 0;
};

/// Where one thread's time went since it started, as the scheduler counts it: on a CPU, runnable but waiting for
/// one, and how often it gave the CPU up (to sleep: I/O, a lock, its event loop) or had it taken.
struct ThreadSchedule
{
    double runMs = 0;
    double waitMs = 0;
    long voluntarySwitches = 0;
    long involuntarySwitches = 0;
};

/// The CPU time counters CpuMeter takes its deltas from. Linux: /proc/stat and getrusage(2); a Windows port
/// would use GetSystemTimes, GetProcessTimes and GetThreadTimes.
class CpuTimes
{
public:
    virtual ~CpuTimes() = default;
    /// Index 0 the whole system, then one entry per logical CPU; empty when the OS gives no figures.
    virtual std::vector<CpuTicks> systemTicks() const = 0;
    /// User + system seconds of this process, all threads, and of the children it has waited for; 0 when
    /// unknown.
    virtual double processSeconds() const = 0;
    /// User + system seconds of the calling thread; -1 when the OS cannot tell.
    virtual double threadSeconds() const = 0;
    /// The same apart (iperf3 reports them so); nullopt when the OS cannot tell.
    virtual std::optional<ThreadSeconds> threadSplit() const = 0;
    /// The calling thread's schedule; nullopt when the OS cannot tell (Linux without CONFIG_SCHEDSTATS, Windows).
    virtual std::optional<ThreadSchedule> threadSchedule() const = 0;
};

} // namespace wb::platform
