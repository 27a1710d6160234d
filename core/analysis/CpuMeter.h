#pragma once

#include <QElapsedTimer>
#include <QList>

namespace wb {

/// CPU used over an interval (one run).
struct CpuUsage
{
    bool valid = false; ///< false when stop() came without start()
    double wallSeconds = 0;
    int cores = 0;                ///< logical CPUs counted in /proc/stat
    double systemPercent = -1;    ///< whole system, average over all cores, 0..100; -1 = unknown
    QList<double> perCorePercent; ///< each 0..100
    double busiestCorePercent = -1;
    double systemBusyCpuSeconds = -1; ///< busy CPU time summed over all cores (netperf's figure)
    double processCpuSeconds = 0;     ///< user + system time of this process (all threads)
    double processPercent = 0;        ///< processCpuSeconds / wall, like top: up to 100 x cores
    double threadCpuSeconds = -1;     ///< the calling thread (Linux RUSAGE_THREAD); -1 = unknown
    double threadPercent = -1;        ///< of one core, 0..100
};

/// Measures CPU between start() and stop(), on the same thread (the thread figure is that thread's).
/// Deltas of the platform's CPU times (platform::CpuTimes; Linux: /proc/stat and getrusage) for the whole
/// system, this process and the caller's thread.
class CpuMeter
{
public:
    void start();
    CpuUsage stop() const;

    /// Service demand as netperf defines it: microseconds of CPU (summed over all cores) per KB
    /// (1024 bytes) moved. -1 when either figure is missing.
    static double serviceDemandUsPerKB(double cpuSeconds, qint64 bytes);

private:
    struct Snapshot
    {
        QList<quint64> busy; ///< index 0 = total, then one per core (clock ticks)
        QList<quint64> total;
        double processSeconds = 0;
        double threadSeconds = -1;
    };
    static Snapshot take();

    Snapshot m_start;
    QElapsedTimer m_clock;
};

} // namespace wb
