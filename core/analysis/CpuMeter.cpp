#include "CpuMeter.h"

#include "platform/Platform.h"

#include <algorithm>

namespace wb {

CpuMeter::Snapshot CpuMeter::take()
{
    const platform::CpuTimes &cpu = platform::Platform::cpuTimes();
    Snapshot s;
    for (const platform::CpuTicks &t : cpu.systemTicks()) {
        s.total.append(t.total);
        s.busy.append(t.busy);
    }
    s.processSeconds = cpu.processSeconds();
    s.threadSeconds = cpu.threadSeconds();
    return s;
}

void CpuMeter::start()
{
    m_start = take();
    m_clock.start();
}

CpuUsage CpuMeter::stop() const
{
    CpuUsage u;
    if (!m_clock.isValid())
        return u;
    const Snapshot end = take();
    u.wallSeconds = m_clock.nsecsElapsed() / 1e9;
    if (u.wallSeconds <= 0)
        return u;
    u.processCpuSeconds = std::max(0.0, end.processSeconds - m_start.processSeconds);
    u.processPercent = u.processCpuSeconds / u.wallSeconds * 100.0;
    if (end.threadSeconds >= 0 && m_start.threadSeconds >= 0) {
        u.threadCpuSeconds = std::max(0.0, end.threadSeconds - m_start.threadSeconds);
        u.threadPercent = std::min(100.0, u.threadCpuSeconds / u.wallSeconds * 100.0);
    }
    u.valid = true;
    if (end.total.size() >= 2 && end.total.size() == m_start.total.size()) {
        u.cores = int(end.total.size()) - 1;
        auto percent = [&](int i) {
            const quint64 dt = end.total.at(i) - m_start.total.at(i);
            const quint64 db = end.busy.at(i) >= m_start.busy.at(i) ? end.busy.at(i) - m_start.busy.at(i) : 0;
            return dt > 0 ? std::clamp(double(db) / double(dt) * 100.0, 0.0, 100.0) : 0.0;
        };
        // The whole system's share is summed from the cores' own lines, not read from the kernel's "cpu" line: that
        // one is rounded to clock ticks on its own, so over a second it can sit a tick above every core (a busiest
        // core below the average). Summed, the average is a weighted mean of the cores and never above the busiest.
        quint64 sumTotal = 0, sumBusy = 0;
        u.busiestCorePercent = 0;
        for (int i = 1; i < end.total.size(); ++i) {
            u.perCorePercent.append(percent(i));
            u.busiestCorePercent = std::max(u.busiestCorePercent, u.perCorePercent.last());
            sumTotal += end.total.at(i) - m_start.total.at(i);
            if (end.busy.at(i) >= m_start.busy.at(i))
                sumBusy += end.busy.at(i) - m_start.busy.at(i);
        }
        u.systemPercent
            = sumTotal > 0 ? std::clamp(double(sumBusy) / double(sumTotal) * 100.0, 0.0, 100.0) : percent(0);
        // Busy time summed over the cores, from the average so that clock-tick rounding stays small.
        u.systemBusyCpuSeconds = u.systemPercent / 100.0 * u.cores * u.wallSeconds;
    }
    return u;
}

double CpuMeter::serviceDemandUsPerKB(double cpuSeconds, qint64 bytes)
{
    if (cpuSeconds < 0 || bytes <= 0)
        return -1;
    return cpuSeconds * 1e6 / (double(bytes) / 1024.0);
}

} // namespace wb
