#include "LossPlace.h"

#include "Bottleneck.h"
#include "Ceiling.h"

#include <QStringList>

#include <algorithm>

namespace wb {

namespace {

const QStringList kQdiscCounters = {QStringLiteral("qdisc_drops"), QStringLiteral("qdisc_overlimits")};
const QStringList kBacklogCounters = {QStringLiteral("backlog_drops"), QStringLiteral("time_squeeze")};
const QStringList kRxCounters
    = {QStringLiteral("rx_dropped"), QStringLiteral("rx_missed_errors"), QStringLiteral("rx_fifo_errors")};
const QStringList kTcpCounters
    = {QStringLiteral("TCPBacklogDrop"), QStringLiteral("RcvPruned"),   QStringLiteral("OfoPruned"),
       QStringLiteral("TCPRcvQDrop"),    QStringLiteral("ListenDrops"), QStringLiteral("TCPReqQFullDrop"),
       QStringLiteral("PruneCalled")};

QString count(double n)
{
    return QString::number(qint64(n));
}

QString hostOf(const Evidence &e)
{
    return e.hostName.isEmpty() ? QStringLiteral("the far host") : e.hostName;
}

QString backlogSetting(const DropCounts &d)
{
    return d.netdevMaxBacklog > 0 ? QStringLiteral("net.core.netdev_max_backlog %1").arg(count(d.netdevMaxBacklog))
                                  : QStringLiteral("net.core.netdev_max_backlog");
}

/// A rate in the unit that reads best: GB/s from 10^9 bytes/s, else MB/s.
QString rateText(double bytesPerSecond)
{
    if (bytesPerSecond >= 1e9)
        return QStringLiteral("%1 GB/s").arg(bytesPerSecond / 1e9, 0, 'f', 1);
    return Ceiling::formatMBps(bytesPerSecond);
}

/// The places of one end that counted drops, the biggest first, each with its counters. onlyPath: the qdisc and
/// the interface alone (what belongs to the interface towards the host, not to the whole namespace or machine).
QStringList placesOf(const DropCounts &d, const QString &whose, bool onlyPath = false)
{
    struct Place
    {
        double n;
        QString text;
    };
    QList<Place> places;
    const QString iface = d.interfaceName.isEmpty() ? QStringLiteral("the interface") : d.interfaceName;
    if (d.qdisc() > 0) {
        const QString q
            = d.qdiscKinds.isEmpty() ? QStringLiteral("the qdisc") : QStringLiteral("the qdisc ") + d.qdiscKinds;
        places.append({d.qdisc(),
                       QStringLiteral("%1 of %2 dropped %3 packets, its queue full (%4)")
                           .arg(q, iface, count(d.qdisc()), d.detail(kQdiscCounters))});
    }
    if (d.interfaceRx() > 0)
        places.append({d.interfaceRx(),
                       QStringLiteral("%1 dropped %2 received packets (%3)")
                           .arg(iface, count(d.interfaceRx()), d.detail(kRxCounters))});
    if (d.interfaceTx() > 0)
        places.append({d.interfaceTx(),
                       QStringLiteral("%1 dropped %2 packets it was to send (tx_dropped %2)")
                           .arg(iface, count(d.interfaceTx()))});
    if (!onlyPath && d.backlog() > 0)
        places.append({d.backlog(),
                       QStringLiteral("%1 input backlog dropped %2 packets (%3; %4)")
                           .arg(whose, count(d.backlog()), d.detail(kBacklogCounters), backlogSetting(d))});
    if (!onlyPath && d.tcp() > 0)
        places.append({d.tcp(),
                       QStringLiteral("%1 TCP stack dropped %2 segments (%3)")
                           .arg(whose, count(d.tcp()), d.detail(kTcpCounters))});
    std::stable_sort(places.begin(), places.end(), [](const Place &a, const Place &b) { return a.n > b.n; });
    QStringList out;
    for (const Place &p : places)
        out << p.text;
    return out;
}

/// "eth0 counted 12 CRC and 0 frame errors during the run", "eth0 runs at half duplex", joined.
QString faultsOf(const QString &iface, double crc, double frame, const QString &duplex)
{
    QStringList seen;
    if (crc > 0 || frame > 0)
        seen << QStringLiteral("%1 counted %2 CRC and %3 frame errors during the run")
                    .arg(iface, count(std::max(0.0, crc)), count(std::max(0.0, frame)));
    if (duplex == QLatin1String("half"))
        seen << QStringLiteral("%1 runs at half duplex").arg(iface);
    return seen.join(QStringLiteral(" and "));
}

QString physicalFault(const Evidence &e)
{
    const QString iface = e.interfaceName.isEmpty() ? QStringLiteral("the local interface") : e.interfaceName;
    QStringList seen;
    if (e.physicalFaultSeen())
        seen << faultsOf(iface, e.crcErrors, e.frameErrors, e.duplex);
    if (e.remotePhysicalFaultSeen()) {
        const DropCounts &r = e.remoteDrops;
        seen << QStringLiteral("on %1, %2")
                    .arg(hostOf(e),
                         faultsOf(r.interfaceName.isEmpty() ? QStringLiteral("its interface") : r.interfaceName,
                                  r.counters.value(QStringLiteral("rx_crc_errors"), 0),
                                  r.counters.value(QStringLiteral("rx_frame_errors"), 0), r.duplex));
    }
    return QStringLiteral(": %1: look for a bad cable or a duplex mismatch").arg(seen.join(QStringLiteral("; ")));
}

/// What the interface alone says, as before the drop counters (they were not read).
QString overInterface(const Evidence &e)
{
    const QString iface = e.interfaceName.isEmpty() ? QStringLiteral("the local interface") : e.interfaceName;
    if (e.interfaceKind == QLatin1String("loopback"))
        return QStringLiteral(
                   " over the loopback interface %1: the packets were lost inside this computer, no cable is "
                   "involved")
            .arg(iface);
    if (e.interfaceKind == QLatin1String("virtual")) // a veth or bridge may lead anywhere: say no more than that
        return QStringLiteral(" over the virtual interface %1").arg(iface);
    if (e.crcErrors == 0 && e.frameErrors == 0)
        return QStringLiteral(" over %1, which counted no CRC or frame errors during the run").arg(iface);
    return QStringLiteral(" over %1 (its error counters could not be read)").arg(iface);
}

/// "the path between this computer and fs1 delivers about 38.2 Mbit/s, below the 1 Gbit/s set for it: ...".
QString betweenThem(const Evidence &e)
{
    const QString rate = Ceiling::formatLinkSpeed(e.measuredBytesPerSecond * 8 / 1e6);
    if (!(e.linkSpeedMbps > 0)) // nothing to say it is slower than: a queue on the way overflowed
        return QStringLiteral(
                   "the path between this computer and %1 dropped them (a switch or router queue, a shaper or "
                   "a policer on the way); it delivered about %2")
            .arg(hostOf(e), rate);
    const QString speed = Ceiling::formatLinkSpeed(e.linkSpeedMbps);
    const QString below = e.linkSpeedSource == QLatin1String("override")
        ? QStringLiteral("below the %1 set for it").arg(speed)
        : QStringLiteral("below the %1 of its link").arg(speed);
    return QStringLiteral("the path between this computer and %1 delivers about %2, %3: a slower link, a shaper or a "
                          "policer on the way")
        .arg(hostOf(e), rate, below);
}

} // namespace

QString LossPlace::afterRetransmissions(const Evidence &e)
{
    if (e.physicalFaultSeen() || e.remotePhysicalFaultSeen())
        return physicalFault(e);
    const DropCounts &local = e.localDrops;
    if (!local.known)
        return overInterface(e);
    if (e.noWire()) {
        // Over loopback both ends are this computer, its counters already.
        if (local.backlog() > 0 && local.backlog() >= local.total() / 2)
            return QStringLiteral(
                       ": dropped in this computer's input backlog (%1): the receiving CPU keeps up with %2, "
                       "no network is involved (%3)")
                .arg(backlogSetting(local), rateText(e.measuredBytesPerSecond), local.detail(kBacklogCounters));
        if (local.total() > 0)
            return QStringLiteral(": dropped inside this computer, no network is involved: %1")
                .arg(placesOf(local, QStringLiteral("its")).join(QStringLiteral("; ")));
        return overInterface(e);
    }
    const DropCounts &remote = e.remoteDrops;
    QStringList where;
    if (local.total() > 0)
        where << QStringLiteral("on this computer: %1")
                     .arg(placesOf(local, QStringLiteral("its")).join(QStringLiteral("; ")));
    if (remote.known && remote.total() > 0)
        where << QStringLiteral("on %1: %2")
                     .arg(hostOf(e), placesOf(remote, QStringLiteral("its")).join(QStringLiteral("; ")));
    if (!where.isEmpty())
        return QStringLiteral(": dropped %1").arg(where.join(QStringLiteral("; and ")));
    const QString qdisc = QStringLiteral("qdisc_drops");
    if (!local.counters.contains(qdisc)) // the interface towards the host was not found: its queue is unknown
        return overInterface(e);
    if (remote.known && remote.counters.contains(qdisc))
        return QStringLiteral(
                   ": neither end dropped them (the qdisc, input backlog, interface and TCP counters of this "
                   "computer and %1 stayed at 0): %2")
            .arg(hostOf(e), betweenThem(e));
    return QStringLiteral(
               "%1; this computer dropped none of them (its qdisc, input backlog, interface and TCP counters "
               "stayed at 0), and what %2 dropped is unknown (its server did not report it)")
        .arg(overInterface(e), hostOf(e));
}

QString LossPlace::withoutRetransmissionFigure(const Evidence &e)
{
    if (e.retransmits >= 0)
        return {};
    QStringList where;
    if (const QStringList l = placesOf(e.localDrops, QStringLiteral("its"), true); !l.isEmpty())
        where << QStringLiteral("on this computer: %1").arg(l.join(QStringLiteral("; ")));
    if (const QStringList r = placesOf(e.remoteDrops, QStringLiteral("its"), true); !r.isEmpty() && !e.noWire())
        where << QStringLiteral("on %1: %2").arg(hostOf(e), r.join(QStringLiteral("; ")));
    if (where.isEmpty())
        return {};
    return QStringLiteral("limited by lost packets: dropped %1").arg(where.join(QStringLiteral("; and ")));
}

QString LossPlace::lostPacketsReason(const Evidence &e)
{
    const QString s = withoutRetransmissionFigure(e);
    return s.isEmpty()
        ? s
        : QStringLiteral("lost packets (%1)").arg(s.mid(QStringLiteral("limited by lost packets: ").size()));
}

} // namespace wb
