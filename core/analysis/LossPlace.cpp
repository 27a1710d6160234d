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

/// What one end does with the test's data: its queue and its interface's transmit side carry the data only at the
/// end that sends it; at the other end they carry ACKs and requests, and its receive side carries the data.
enum class Role { Sends, Receives, Both };

Role localRole(const Evidence &e)
{
    return e.bothWays || e.noWire() ? Role::Both : e.dataFromServer ? Role::Receives : Role::Sends;
}

Role remoteRole(const Evidence &e)
{
    const Role local = localRole(e);
    return local == Role::Both ? Role::Both : local == Role::Sends ? Role::Receives : Role::Sends;
}

struct Place
{
    double n;
    QString text;
    bool dataPath; ///< the test's data went through this place (not only its ACKs and requests)
};

/// The places of one end that counted drops, the biggest first, each with its counters. onlyPath: the qdisc and
/// the interface alone (what belongs to the interface towards the host, not to the whole namespace or machine).
QList<Place> placesAt(const DropCounts &d, const QString &whose, Role role, bool onlyPath)
{
    QList<Place> places;
    const QString iface = d.interfaceName.isEmpty() ? QStringLiteral("the interface") : d.interfaceName;
    const bool sendsData = role != Role::Receives, receivesData = role != Role::Sends;
    // Against the data's direction only ACKs and requests pass: said, so that a download is not blamed on them.
    const QString acksOut = QStringLiteral(": ACKs and requests, as the data came the other way");
    const QString acksIn = QStringLiteral(": ACKs, as the data went the other way");
    if (d.qdisc() > 0) {
        const QString q
            = d.qdiscKinds.isEmpty() ? QStringLiteral("the qdisc") : QStringLiteral("the qdisc ") + d.qdiscKinds;
        places.append({d.qdisc(),
                       QStringLiteral("%1 of %2 dropped %3 packets, its queue full (%4)%5")
                           .arg(q, iface, count(d.qdisc()), d.detail(kQdiscCounters), sendsData ? QString() : acksOut),
                       sendsData});
    }
    if (d.interfaceRx() > 0)
        places.append(
            {d.interfaceRx(),
             QStringLiteral("%1 dropped %2 received packets (%3)%4")
                 .arg(iface, count(d.interfaceRx()), d.detail(kRxCounters), receivesData ? QString() : acksIn),
             receivesData});
    if (d.interfaceTx() > 0)
        places.append({d.interfaceTx(),
                       QStringLiteral("%1 dropped %2 packets it was to send (tx_dropped %2)%3")
                           .arg(iface, count(d.interfaceTx()), sendsData ? QString() : acksOut),
                       sendsData});
    if (!onlyPath && d.backlog() > 0)
        places.append({d.backlog(),
                       QStringLiteral("%1 input backlog dropped %2 packets (%3; %4)")
                           .arg(whose, count(d.backlog()), d.detail(kBacklogCounters), backlogSetting(d)),
                       true});
    if (!onlyPath && d.tcp() > 0)
        places.append(
            {d.tcp(),
             QStringLiteral("%1 TCP stack dropped %2 segments (%3)").arg(whose, count(d.tcp()), d.detail(kTcpCounters)),
             true});
    // The data's places first, then the biggest count.
    std::stable_sort(places.begin(), places.end(),
                     [](const Place &a, const Place &b) { return a.dataPath != b.dataPath ? a.dataPath : a.n > b.n; });
    return places;
}

QStringList texts(const QList<Place> &places, bool dataPathOnly)
{
    QStringList out;
    for (const Place &p : places) {
        if (p.dataPath || !dataPathOnly)
            out << p.text;
    }
    return out;
}

QStringList placesOf(const DropCounts &d, const QString &whose, Role role = Role::Both, bool onlyPath = false)
{
    return texts(placesAt(d, whose, role, onlyPath), false);
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
                     .arg(placesOf(local, QStringLiteral("its"), localRole(e)).join(QStringLiteral("; ")));
    if (remote.known && remote.total() > 0)
        where << QStringLiteral("on %1: %2")
                     .arg(hostOf(e), placesOf(remote, QStringLiteral("its"), remoteRole(e)).join(QStringLiteral("; ")));
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

namespace {

/// The drops on the data's path, "on this computer: ...; and on fs1: ...", and the direction the data went
/// (" on the way from fs1 to this computer"; empty both ways). False when none was dropped there.
bool lostOnDataPath(const Evidence &e, QString *way, QString *where)
{
    QStringList at;
    const QStringList local = texts(placesAt(e.localDrops, QStringLiteral("its"), localRole(e), true), true);
    if (!local.isEmpty())
        at << QStringLiteral("on this computer: %1").arg(local.join(QStringLiteral("; ")));
    if (!e.noWire()) {
        const QStringList r = texts(placesAt(e.remoteDrops, QStringLiteral("its"), remoteRole(e), true), true);
        if (!r.isEmpty())
            at << QStringLiteral("on %1: %2").arg(hostOf(e), r.join(QStringLiteral("; ")));
    }
    if (at.isEmpty())
        return false;
    *where = at.join(QStringLiteral("; and "));
    *way = localRole(e) == Role::Both ? QString()
        : e.dataFromServer            ? QStringLiteral(" on the way from %1 to this computer").arg(hostOf(e))
                                      : QStringLiteral(" on the way from this computer to %1").arg(hostOf(e));
    return true;
}

} // namespace

QString LossPlace::withoutRetransmissionFigure(const Evidence &e)
{
    if (e.retransmits >= 0)
        return {};
    QString way, where;
    if (!lostOnDataPath(e, &way, &where))
        return {};
    return QStringLiteral("limited by lost packets%1: dropped %2").arg(way, where);
}

QString LossPlace::againstTheData(const Evidence &e)
{
    if (localRole(e) == Role::Both)
        return {};
    QStringList where;
    for (const Place &p : placesAt(e.localDrops, QStringLiteral("its"), localRole(e), true)) {
        if (!p.dataPath)
            where << QStringLiteral("on this computer, %1").arg(p.text);
    }
    for (const Place &p : placesAt(e.remoteDrops, QStringLiteral("its"), remoteRole(e), true)) {
        if (!p.dataPath)
            where << QStringLiteral("on %1, %2").arg(hostOf(e), p.text);
    }
    return where.join(QStringLiteral("; "));
}

QString LossPlace::lostPacketsReason(const Evidence &e)
{
    if (e.retransmits >= 0)
        return {};
    QString way, where;
    if (!lostOnDataPath(e, &way, &where))
        return {};
    return QStringLiteral("lost packets%1 (dropped %2)").arg(way, where);
}

} // namespace wb
