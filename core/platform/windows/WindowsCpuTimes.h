#pragma once

#include "platform/CpuTimes.h"

namespace wb::platform {

/// GetSystemTimes (the whole system only: no per-CPU figures yet), GetProcessTimes and GetThreadTimes.
class WindowsCpuTimes : public CpuTimes
{
public:
    std::vector<CpuTicks> systemTicks() const override;
    double processSeconds() const override;
    double threadSeconds() const override;
    std::optional<ThreadSeconds> threadSplit() const override;
    std::optional<ThreadSchedule> threadSchedule() const override;
};

} // namespace wb::platform
