#pragma once

#include "RunLatency.h"
#include "RunSpec.h"
#include "Sample.h"

#include <QDateTime>
#include <QMetaType>
#include <QStringList>
#include <QVariantMap>

#include <optional>

namespace wb {

enum class RunStatus { Ok, Failed, Cancelled, NotRun };

QString runStatusName(RunStatus status); ///< "ok", "failed", "cancelled", "not-run"
RunStatus runStatusFromName(const QString &name);

/// Everything measured for one run. The figure is the receiver's byte count over the receiver's time.
struct RunResult
{
    RunSpec spec;
    RunStatus status = RunStatus::Failed;
    QString error; ///< one line: which host, what failed, what to try
    QStringList warnings;
    QDateTime startedAt;

    qint64 bytes = 0;       ///< counted by the receiver
    double seconds = 0;     ///< the receiver's elapsed time
    qint64 senderBytes = 0; ///< counted by the sender (verification)
    int mss = 0;            ///< MSS actually used (TCP_INFO), 0 = unknown
    QString serverOs;       ///< what the server said about itself
    SampleList samples;
    /// Both directions at once (tcp-bidir, iperf3-bidir): the second figure, of the direction server -> client, which
    /// this computer received and counted. bytes, seconds, senderBytes and samples above are then the first, client ->
    /// server, as the server counted it. Each is the receiver's count over that direction's window.
    struct Reverse
    {
        qint64 bytes = 0;
        double seconds = 0;
        qint64 senderBytes = 0;
        SampleList samples;
        double megabytesPerSecond() const { return seconds > 0 ? bytes / seconds / 1e6 : 0; }
    };
    std::optional<Reverse> reverse; ///< empty on a run of one direction
    bool bothWays() const { return reverse.has_value(); }
    RunLatency latency; ///< round trips to the host before and during the load (core/latency)
    /// Additional measured facts (rtt_us, retransmits, cpu_local, disk_MBps, ...), keyed by JSON name.
    QVariantMap extra;

    double bytesPerSecond() const { return seconds > 0 ? bytes / seconds : 0; }
    double megabytesPerSecond() const { return bytesPerSecond() / 1e6; }
    double megabitsPerSecond() const { return bytesPerSecond() * 8 / 1e6; }
    bool ok() const { return status == RunStatus::Ok; }
};

using RunResultList = QList<RunResult>;

} // namespace wb

Q_DECLARE_METATYPE(wb::RunResult)
Q_DECLARE_METATYPE(wb::RunResultList)
