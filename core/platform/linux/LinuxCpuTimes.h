#pragma once

#include "platform/CpuTimes.h"

namespace wb::platform {

/// /proc/stat for the system and each CPU, getrusage(2) for this process (RUSAGE_SELF) and thread (RUSAGE_THREAD),
/// /proc/thread-self/schedstat for a thread's run and run-queue time.
class LinuxCpuTimes : public CpuTimes
{
public:
    std::vector<CpuTicks> systemTicks() const override;
    double processSeconds() const override;
    double threadSeconds() const override;
    std::optional<ThreadSeconds> threadSplit() const override;
    std::optional<ThreadSchedule> threadSchedule() const override;
};

} // namespace wb::platform
