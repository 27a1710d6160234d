#pragma once

#include <QMetaType>
#include <QVariantMap>

namespace wb {

/// Settings shared by every run of a plan.
struct TestParams
{
    int durationMs = 10000;                     ///< length of one timed run
    int messageSize = 128 * 1024;               ///< bytes per send() call (netperf -m)
    int sendBufferBytes = 0;                    ///< SO_SNDBUF; 0 = the system's default
    int recvBufferBytes = 0;                    ///< SO_RCVBUF; 0 = the system's default
    int sampleIntervalMs = 100;                 ///< live sample rhythm
    int warmupMs = 0;                           ///< leading time left out of the figure (iperf3 -O)
    int streams = 1;                            ///< parallel streams where a protocol supports it
    qint64 fileSizeBytes = 256LL * 1024 * 1024; ///< file transfers (FTP, SMB, copy)
    bool stopOnError = false;                   ///< stop the plan at the first failed run
    /// "Repeat until stable" (netperf -i max,min -I 95,width): with a target > 0, a test stops repeating
    /// once the 95% interval's half-width is within this percentage of the mean, after at least
    /// minRepetitions and at most the plan's repetitions. 0 = always run every repetition.
    double stableTargetPercent = 0;
    int minRepetitions = 3;
    QVariantMap options; ///< protocol-specific extras

    bool operator==(const TestParams &) const = default;
};

} // namespace wb

Q_DECLARE_METATYPE(wb::TestParams)
