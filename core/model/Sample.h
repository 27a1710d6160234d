#pragma once

#include <QList>
#include <QMetaType>

namespace wb {

/// Bytes the receiver counted during one sampling interval of a run.
struct Sample
{
    int runIndex = 0;       ///< RunSpec::index
    double endSeconds = 0;  ///< end of the interval, seconds since the run's start
    double intervalSeconds = 0;
    qint64 bytes = 0;

    double bytesPerSecond() const { return intervalSeconds > 0 ? bytes / intervalSeconds : 0; }
};

using SampleList = QList<Sample>;

} // namespace wb

Q_DECLARE_METATYPE(wb::Sample)
Q_DECLARE_METATYPE(wb::SampleList)
