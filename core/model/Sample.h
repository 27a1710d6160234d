#pragma once

#include <QList>
#include <QMetaType>

namespace wb {

/// Bytes the receiver counted during one sampling interval of a run.
struct Sample
{
    int runIndex = 0;      ///< RunSpec::index
    double endSeconds = 0; ///< end of the interval, seconds since the run's start
    double intervalSeconds = 0;
    qint64 bytes = 0;
    /// Each parallel stream's share of bytes (ThroughputMeter::setStreams); empty for one stream. Display only: the
    /// shares are rounded on their own, so their sum may differ from bytes by a byte per stream.
    QList<qint64> streamBytes;
    /// Both directions at once (tcp-bidir, iperf3-bidir): a sample of the second direction, server -> client.
    bool reverse = false;

    double bytesPerSecond() const { return intervalSeconds > 0 ? bytes / intervalSeconds : 0; }
};

using SampleList = QList<Sample>;

} // namespace wb

Q_DECLARE_METATYPE(wb::Sample)
Q_DECLARE_METATYPE(wb::SampleList)
