#pragma once

#include "FarEndFacts.h"
#include "platform/DropCounters.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QVariantMap>

namespace wb {

/// What one end of a test dropped while it ran, by place: the JSON object both ends write (this computer's
/// under RunResult::extra "drops", the far host's under "remote_drops", which wirebenchd sends in its result),
/// and the sums over a test's runs that the bottleneck sentence names. Counts are packets as each place counts
/// them (a qdisc may count a 64 KB GSO packet once), so they name a place, not a share of the retransmissions.
struct DropCounts
{
    /// Version of the JSON object. A later version may add members, never change these.
    static constexpr int kJsonVersion = FarEndFacts::kDropsJsonVersion;

    bool known = false;    ///< the end's counters were read (false: an older wirebenchd, another server)
    QString interfaceName; ///< the interface towards the other end
    QString qdiscKinds;    ///< "tbf", "mq fq_codel"
    QString duplex = QStringLiteral("unknown");
    double netdevMaxBacklog = -1;         ///< net.core.netdev_max_backlog; -1 = not readable (not the first namespace)
    QString shaper;                       ///< the qdisc whose rate caps what the interface sends ("tbf"); empty: none
    double shaperRateBytesPerSecond = -1; ///< that rate (DropReading::shaperRateBytesPerSecond); -1 = none
    QMap<QString, double> counters;       ///< every counter read, by its JSON name (DropReading::fields)

    double qdisc() const;       ///< qdisc_drops
    double backlog() const;     ///< backlog_drops (softnet_stat)
    double interfaceRx() const; ///< rx_dropped + rx_missed_errors + rx_fifo_errors
    double interfaceTx() const; ///< tx_dropped
    double tcp() const; ///< TCPBacklogDrop + RcvPruned + OfoPruned + TCPRcvQDrop + ListenDrops + TCPReqQFullDrop
    double total() const { return qdisc() + backlog() + interfaceRx() + interfaceTx() + tcp(); }
    /// A shaper's rate caps what this end's interface sends.
    bool shaped() const { return known && shaperRateBytesPerSecond > 0; }
    /// The counters among names that counted something, "TCPBacklogDrop 12, TCPRcvQDrop 3": the evidence of a
    /// place in the sentence.
    QString detail(const QStringList &names) const;

    /// A run's delta as the versioned JSON object ({"version": 1, "interface", "qdisc", "duplex", counters...};
    /// unknown figures left out).
    static QJsonObject toJson(const platform::DropReading &delta);
    /// One end's counts from that object or its QVariantMap in RunResult::extra; known stays false for an
    /// absent object or another major version, and a count that is not a whole number >= 0 is left out.
    static DropCounts fromJson(const QJsonObject &o);
    static DropCounts fromVariant(const QVariant &v) { return fromJson(QJsonObject::fromVariantMap(v.toMap())); }
    /// Adds another run's counts (the test's sum); settings and names from the later run.
    void add(const DropCounts &other);
    /// This computer's counters of interface name now (platform::DropCounters).
    static platform::DropReading readLocal(const QString &interfaceName);
};

} // namespace wb
