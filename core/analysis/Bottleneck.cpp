#include "Bottleneck.h"

#include "BothWays.h"
#include "Ceiling.h"
#include "LossPlace.h"
#include "ShaperLimit.h"
#include "model/Frame.h"
#include "model/Streams.h"
#include "protocols/DriverRegistry.h"

#include <QHash>

#include <algorithm>

namespace wb {

double Evidence::ceilingBytesPerSecond() const
{
    if (udpTargetMbps > 0) {
        // A paced UDP test cannot beat its target (payload bits, as iperf3 -b counts them), nor the link.
        const double target = udpTargetMbps * 1e6 / 8;
        const double link = Ceiling::udpGoodputBytesPerSecond(linkSpeedMbps, mtu);
        return link > 0 ? std::min(target, link) : target;
    }
    return tcpCeilingAt(linkSpeedMbps);
}

double Evidence::tcpCeilingAt(double speedMbps) const
{
    if (bothWays) // each direction carries its data and the other direction's ACKs
        return Ceiling::tcpGoodputBothWays(speedMbps, mss > 0 ? mss : Frame::mssFor(mtu, ipv6, timestamps), ipv6,
                                           timestamps);
    if (mss > 0)
        return Ceiling::tcpGoodputForMss(speedMbps, mss, ipv6, timestamps);
    return Ceiling::tcpGoodputBytesPerSecond(speedMbps, mtu, timestamps, ipv6);
}

double Evidence::oneWayCeilingBytesPerSecond() const
{
    Evidence oneWay = *this;
    oneWay.bothWays = false;
    return oneWay.tcpCeilingAt(linkSpeedMbps);
}

double Evidence::percentOfCeiling() const
{
    return Ceiling::percentOf(measuredBytesPerSecond, ceilingBytesPerSecond());
}

double Evidence::bufferLimitBytesPerSecond() const
{
    if (!(socketBufferBytes > 0) || !(rttUs > 0))
        return 0;
    return std::max(1, streams) * socketBufferBytes / (rttUs / 1e6); // each stream has a window of its own
}

double Evidence::retransmitPercent() const
{
    if (retransmits < 0 || !(segments > 0))
        return -1;
    return retransmits / segments * 100.0;
}

bool Evidence::physicalFaultSeen() const
{
    return crcErrors > 0 || frameErrors > 0 || duplex == QLatin1String("half");
}

bool Evidence::remotePhysicalFaultSeen() const
{
    return remoteDrops.known
        && (remoteDrops.counters.value(QStringLiteral("rx_crc_errors"), 0) > 0
            || remoteDrops.counters.value(QStringLiteral("rx_frame_errors"), 0) > 0
            || remoteDrops.duplex == QLatin1String("half"));
}

bool Evidence::noWire() const
{
    return interfaceKind == QLatin1String("loopback");
}

namespace {

struct Cause
{
    QString sentence; ///< as the bottleneck of the test
    QString reason;   ///< as one item of a warning's list of likely causes
};

/// "MTU 1500", "MTU 1500 over IPv6": the frame the ceiling is for (the one the run's MSS makes).
QString mtuText(const Evidence &e)
{
    return QStringLiteral("MTU %1%2").arg(e.mtu).arg(e.ipv6 ? QStringLiteral(" over IPv6") : QString());
}

QString ceilingPhrase(const Evidence &e)
{
    if (e.udpTargetMbps > 0) {
        const double link = Ceiling::udpGoodputBytesPerSecond(e.linkSpeedMbps, e.mtu);
        if (link > 0 && link < e.udpTargetMbps * 1e6 / 8)
            return QStringLiteral("the %1 link's UDP ceiling at MTU %2 (%3; the target was %4)")
                .arg(Ceiling::formatLinkSpeed(e.linkSpeedMbps))
                .arg(e.mtu)
                .arg(Ceiling::formatMBps(link), Ceiling::formatLinkSpeed(e.udpTargetMbps));
        return QStringLiteral("the UDP target of %1 (%2)")
            .arg(Ceiling::formatLinkSpeed(e.udpTargetMbps), Ceiling::formatMBps(e.ceilingBytesPerSecond()));
    }
    return QStringLiteral("the %1 ceiling at %2 (%3)")
        .arg(Ceiling::formatLinkSpeed(e.linkSpeedMbps), mtuText(e), Ceiling::formatMBps(e.ceilingBytesPerSecond()));
}

/// What to check when nothing is evident: only what the figures have not already ruled out.
QString checkList(const Evidence &e)
{
    if (e.noWire())
        return QStringLiteral(
                   "the traffic stayed inside this computer (loopback interface %1), so no cable or switch is "
                   "involved")
            .arg(e.interfaceName);
    if (e.interfaceKind == QLatin1String("virtual"))
        return QStringLiteral("check what carries the virtual interface %1 and the far host").arg(e.interfaceName);
    QStringList items;
    if (!(e.crcErrors == 0 && e.frameErrors == 0))
        items << QStringLiteral("cabling");
    if (e.duplex != QLatin1String("full"))
        items << QStringLiteral("duplex");
    items << QStringLiteral("switch");
    if (items.size() == 1)
        return QStringLiteral("check the switch and the far host");
    const QString last = items.takeLast();
    return QStringLiteral("check %1 and %2").arg(items.join(QStringLiteral(", ")), last);
}

bool sitsAt(const Evidence &e, double limit, const AnalysisThresholds &t)
{
    return limit > 0 && e.measuredBytesPerSecond >= limit * t.nearLimitPercent / 100.0;
}

QList<Cause> causes(const Evidence &e, const AnalysisThresholds &t)
{
    QList<Cause> list;
    const double ceiling = e.ceilingBytesPerSecond();
    const QString iface = e.interfaceName.isEmpty() ? QStringLiteral("the local interface") : e.interfaceName;

    // The local interface negotiated less than the link speed the user set for this host.
    if (e.localSpeedMbps > 0 && e.linkSpeedMbps > 0 && e.localSpeedMbps < e.linkSpeedMbps) {
        const double local = e.tcpCeilingAt(e.localSpeedMbps);
        const QString what
            = QStringLiteral("%1 negotiated %2, below the %3 expected for this host")
                  .arg(iface, Ceiling::formatLinkSpeed(e.localSpeedMbps), Ceiling::formatLinkSpeed(e.linkSpeedMbps));
        list.append(
            {QStringLiteral("limited by the link: %1 (its ceiling is %2)").arg(what, Ceiling::formatMBps(local)),
             QStringLiteral("the link negotiated a lower speed (%1)").arg(what)});
    }
    if (e.duplex == QLatin1String("half")) {
        list.append({QStringLiteral("limited by a half-duplex link on %1: set both ends to auto-negotiate full duplex")
                         .arg(iface),
                     QStringLiteral("%1 runs at half duplex (collisions; set both ends to full duplex)").arg(iface)});
    }
    if (const QString shaper = ShaperLimit::sentence(e, t); !shaper.isEmpty())
        list.append({shaper, ShaperLimit::reason(e, t)});

    const double bufferLimit = e.bufferLimitBytesPerSecond();
    if (sitsAt(e, bufferLimit, t) && (ceiling <= 0 || bufferLimit < ceiling)) {
        const QString perStream
            = e.streams > 1 ? QStringLiteral(" per stream x %1").arg(Streams::label(e.streams)) : QString();
        const QString what = QStringLiteral("%1%2%3 at %4 RTT allows %5")
                                 .arg(Ceiling::formatBuffer(e.socketBufferBytes),
                                      e.socketBufferFromSystem ? QStringLiteral(" (the system's maximum)") : QString(),
                                      perStream, Ceiling::formatRtt(e.rttUs), Ceiling::formatMBps(bufferLimit));
        list.append({QStringLiteral("limited by the socket buffer: %1").arg(what),
                     QStringLiteral("a socket buffer too small for the round-trip time: %1, and the result sits at "
                                    "that limit")
                         .arg(what)});
    }
    const auto disk = [&](const QString &where, double rate, const QString &op) {
        if (!sitsAt(e, rate, t) || (ceiling > 0 && rate >= ceiling))
            return;
        const QString net
            = ceiling > 0 ? QStringLiteral(", network ceiling %1").arg(Ceiling::formatMBps(ceiling)) : QString();
        list.append({QStringLiteral("limited by the %1 disk (%2 %3%4)").arg(where, op, Ceiling::formatMBps(rate), net),
                     QStringLiteral("the %1 disk (%2 %3)").arg(where, op, Ceiling::formatMBps(rate))});
    };
    disk(QStringLiteral("local"), e.localDiskBytesPerSecond, e.localDiskOp);
    disk(QStringLiteral("remote"), e.remoteDiskBytesPerSecond, e.remoteDiskOp);
    if (e.remoteCpuPercent >= t.cpuBusyPercent) {
        const QString p = Ceiling::formatPercent(e.remoteCpuPercent);
        list.append({QStringLiteral("CPU-bound on the server (%1)").arg(p),
                     QStringLiteral("a busy CPU on the server (%1)").arg(p)});
    }
    if (e.localCpuPercent >= t.cpuBusyPercent) {
        const QString p = Ceiling::formatPercent(e.localCpuPercent);
        list.append({QStringLiteral("CPU-bound on this computer (%1)").arg(p),
                     QStringLiteral("a busy CPU on this computer (%1)").arg(p)});
    }
    const double resent = e.retransmitPercent();
    if (resent >= t.retransmitPercent && e.retransmits > 0) {
        const QString what = QStringLiteral("%1 segments resent, %2 of those sent")
                                 .arg(qint64(e.retransmits))
                                 .arg(Ceiling::formatPercent(resent));
        list.append({QStringLiteral("limited by retransmissions (%1)%2").arg(what, LossPlace::afterRetransmissions(e)),
                     QStringLiteral("retransmissions (%1)").arg(what)});
    }
    if (const QString lost = LossPlace::withoutRetransmissionFigure(e); !lost.isEmpty())
        list.append({lost, LossPlace::lostPacketsReason(e)});
    // A queue that held the data back while its rate is unknown: a guess, after what the counters show.
    if (ShaperLimit::sentence(e, t).isEmpty()) {
        if (const QString held = ShaperLimit::heldBackWithoutRate(e); !held.isEmpty())
            list.append({QStringLiteral("limited by a shaper, most likely: %1").arg(held),
                         QStringLiteral("a shaper, most likely (%1)").arg(held)});
    }
    // The whole machine busy while the test's own thread was not: other programs took the CPU. After the lost
    // packets: TCP that resends is held back by that whatever else runs, and where they were dropped says more.
    if (e.localSystemCpuPercent >= t.cpuBusyPercent && !(e.localCpuPercent >= t.cpuBusyPercent)) {
        const QString what = QStringLiteral("all cores %1 busy").arg(Ceiling::formatPercent(e.localSystemCpuPercent));
        const QString own = e.localCpuPercent >= 0
            ? QStringLiteral(", this test's thread %1 of one core").arg(Ceiling::formatPercent(e.localCpuPercent))
            : QString();
        list.append({QStringLiteral("limited by other programs on this computer (%1%2): run it on a quiet machine")
                         .arg(what, own),
                     QStringLiteral("other programs keeping this computer busy (%1%2)").arg(what, own)});
    }
    return list;
}

} // namespace

QStringList Bottleneck::evidentCauses(const Evidence &e, const AnalysisThresholds &t)
{
    QStringList out;
    for (const Cause &c : causes(e, t))
        out.append(c.reason);
    return out;
}

QString Bottleneck::sentence(const Evidence &e, const AnalysisThresholds &t)
{
    if (e.runs <= 0)
        return QStringLiteral("no successful run to judge");
    if (e.bothWays)
        return BothWays::sentence(e, t);
    const double percent = e.percentOfCeiling();
    if (percent >= 0) {
        if (percent > 100.0 + t.aboveTolerancePercent)
            return QStringLiteral("above the line-rate ceiling: %1 of %2, so a cache, compression or a counting error")
                .arg(Ceiling::formatPercent(percent), ceilingPhrase(e));
        if (percent >= t.atLineRatePercent && e.udpTargetMbps > 0)
            return QStringLiteral("at the UDP target rate (%1 of %2)")
                .arg(Ceiling::formatPercent(percent), ceilingPhrase(e));
        if (percent >= t.atLineRatePercent)
            return QStringLiteral("at line rate (%1 of the %2 ceiling)")
                .arg(Ceiling::formatPercent(percent), Ceiling::formatLinkSpeed(e.linkSpeedMbps));
    }
    const QList<Cause> found = causes(e, t);
    if (percent < 0) {
        const QString why = e.linkNote.isEmpty() ? QStringLiteral("loopback/virtual") : e.linkNote;
        if (found.isEmpty())
            return QStringLiteral("link speed unknown (%1): set it per host to compare with line rate").arg(why);
        return QStringLiteral("%1; link speed unknown (%2), so no line-rate comparison")
            .arg(found.first().sentence, why);
    }
    if (!found.isEmpty())
        return found.first().sentence;
    const QString against = LossPlace::againstTheData(e);
    return QStringLiteral("below expectation with no evident cause: %1 (%2 of the %3 ceiling)%4")
        .arg(checkList(e), Ceiling::formatPercent(percent), Ceiling::formatLinkSpeed(e.linkSpeedMbps),
             against.isEmpty() ? QString()
                               : QStringLiteral("; only packets against the data's direction were dropped, which do "
                                                "not hold the data back (%1)")
                                     .arg(against));
}

QStringList Bottleneck::warnings(const Evidence &e, const AnalysisThresholds &t)
{
    QStringList out;
    if (e.runs <= 0)
        return out;
    if (e.bothWays)
        return BothWays::warnings(e, t);
    const double percent = e.percentOfCeiling();
    if (percent < 0)
        return out;
    if (percent > 100.0 + t.aboveTolerancePercent) {
        if (e.udpTargetMbps > 0)
            out.append(QStringLiteral("%1 is above %2 (%3 of it): a counting error, or a sender that does not keep "
                                      "its pace")
                           .arg(Ceiling::formatMBps(e.measuredBytesPerSecond), ceilingPhrase(e),
                                Ceiling::formatPercent(percent)));
        else
            out.append(QStringLiteral("%1 is above the line-rate ceiling of %2 at %3 (%4, %5 of it): a cache, "
                                      "compression or a counting error")
                           .arg(Ceiling::formatMBps(e.measuredBytesPerSecond),
                                Ceiling::formatLinkSpeed(e.linkSpeedMbps), mtuText(e),
                                Ceiling::formatMBps(e.ceilingBytesPerSecond()), Ceiling::formatPercent(percent)));
    } else if (percent < t.farBelowPercent) {
        const QStringList found = evidentCauses(e, t);
        const QString link = e.noWire() || e.interfaceKind == QLatin1String("virtual") ? QString()
            : e.duplex == QLatin1String("full") ? QStringLiteral("a link negotiated at a lower speed, ")
                                                : QStringLiteral("a link negotiated at a lower speed or half duplex, ");
        const QString likely = found.isEmpty()
            ? QStringLiteral("none evident in the figures measured; check for %1a socket buffer too small for the "
                             "round-trip time, the local or remote disk, a busy CPU and retransmissions")
                  .arg(link)
            : found.join(QStringLiteral("; "));
        out.append(
            QStringLiteral("%1 is far below %2: %3 of %4. Likely causes: %5")
                .arg(Ceiling::formatMBps(e.measuredBytesPerSecond),
                     e.udpTargetMbps > 0 ? QStringLiteral("its ceiling") : QStringLiteral("the line-rate ceiling"),
                     Ceiling::formatPercent(percent), ceilingPhrase(e), likely));
    }
    return out;
}

namespace {

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2.0;
}

} // namespace

Evidence Bottleneck::evidenceFrom(const RunResultList &results)
{
    Evidence e;
    QList<double> rates;
    QList<double> reverseRates; // both directions at once: the second figure
    QHash<QString, QList<double>> numbers;
    const RunResult *last = nullptr;
    static const QStringList numericKeys = {QStringLiteral("link_speed_Mbps"),
                                            QStringLiteral("local_link_speed_Mbps"),
                                            QStringLiteral("ceiling_mtu"),
                                            QStringLiteral("socket_buffer_bytes"),
                                            QStringLiteral("rtt_us"),
                                            QStringLiteral("disk_MBps"),
                                            QStringLiteral("remote_disk_MBps"),
                                            QStringLiteral("cpu_local_percent"),
                                            QStringLiteral("cpu_thread_percent"),
                                            QStringLiteral("cpu_remote_percent"),
                                            QStringLiteral("retransmits"),
                                            QStringLiteral("segments"),
                                            QStringLiteral("udp_target_Mbps")};
    for (const RunResult &r : results) {
        if (!r.ok())
            continue;
        last = &r;
        rates.append(r.bytesPerSecond());
        if (r.reverse)
            reverseRates.append(r.reverse->seconds > 0 ? r.reverse->bytes / r.reverse->seconds : 0);
        for (const QString &key : numericKeys) {
            bool ok = false;
            const double v = r.extra.value(key).toDouble(&ok);
            if (r.extra.contains(key) && ok)
                numbers[key].append(v);
        }
        if (r.mss > 0)
            numbers[QStringLiteral("mss")].append(r.mss);
        if (!r.extra.contains(QStringLiteral("segments")) && r.extra.contains(QStringLiteral("retransmits"))) {
            // Segments the sender put on the wire, from its byte count and the MSS.
            const qint64 sent = r.senderBytes > 0 ? r.senderBytes : r.bytes;
            const int mss = r.mss > 0 ? r.mss : std::max(1, Frame::mssFor(r.spec.frameSize, false, true));
            numbers[QStringLiteral("segments")].append(double(sent) / mss);
        }
    }
    e.runs = int(rates.size());
    if (!last)
        return e;
    e.measuredBytesPerSecond = median(rates);
    e.bothWays = !reverseRates.isEmpty();
    if (e.bothWays)
        e.reverseBytesPerSecond = median(reverseRates);
    // Error counters add up over the runs: one frame with a bad CRC in any of them counts.
    const auto sum = [&](const QString &key) {
        double total = -1;
        for (const RunResult &r : results) {
            bool ok = false;
            const double v = r.extra.value(key).toDouble(&ok);
            if (r.ok() && r.extra.contains(key) && ok)
                total = qMax(0.0, total) + v;
        }
        return total;
    };
    const auto num = [&](const char *key, double fallback) {
        const QList<double> v = numbers.value(QLatin1String(key));
        return v.isEmpty() ? fallback : median(v);
    };
    const QVariantMap &x = last->extra;
    e.linkSpeedMbps = num("link_speed_Mbps", -1);
    e.linkSpeedSource = x.value(QStringLiteral("link_speed_source"), e.linkSpeedSource).toString();
    e.linkNote = x.value(QStringLiteral("link_speed_note")).toString();
    e.localSpeedMbps = num("local_link_speed_Mbps", -1);
    e.duplex = x.value(QStringLiteral("link_duplex"), e.duplex).toString();
    e.interfaceName = x.value(QStringLiteral("interface")).toString();
    e.interfaceKind = x.value(QStringLiteral("interface_kind"), e.interfaceKind).toString();
    e.crcErrors = sum(QStringLiteral("interface_crc_errors"));
    e.frameErrors = sum(QStringLiteral("interface_frame_errors"));
    e.mtu = int(num("ceiling_mtu", last->spec.frameSize));
    e.mss = int(num("mss", 0));
    e.ipv6 = x.value(QStringLiteral("ip_version")).toInt() == 6;
    e.udpTargetMbps = num("udp_target_Mbps", -1);
    e.timestamps = x.value(QStringLiteral("tcp_timestamps"), true).toBool();
    if (e.mss > 0 && e.udpTargetMbps <= 0) // the frame the segments made, whatever the plan said
        e.mtu = Frame::frameOf(e.mss, e.ipv6, e.timestamps);
    e.socketBufferBytes = num("socket_buffer_bytes", 0);
    e.socketBufferFromSystem = x.value(QStringLiteral("socket_buffer_source")).toString() == QLatin1String("system");
    e.rttUs = num("rtt_us", 0);
    e.streams = Streams::of(*last);
    e.localDiskBytesPerSecond = num("disk_MBps", 0) * 1e6;
    e.localDiskOp = x.value(QStringLiteral("disk_op"), e.localDiskOp).toString();
    e.remoteDiskBytesPerSecond = num("remote_disk_MBps", 0) * 1e6;
    e.remoteDiskOp = x.value(QStringLiteral("remote_disk_op"), e.remoteDiskOp).toString();
    e.localCpuPercent = num("cpu_thread_percent", -1);
    e.localSystemCpuPercent = num("cpu_local_percent", -1);
    e.remoteCpuPercent = num("cpu_remote_percent", -1);
    e.retransmits = num("retransmits", -1);
    e.segments = num("segments", 0);
    e.hostName = last->spec.host.displayName();
    if (const ProtocolInfo *info = DriverRegistry::find(last->spec.protocol))
        e.dataFromServer = info->flow == ProtocolInfo::Flow::FromServer && !e.bothWays;
    for (const RunResult &r : results) {
        if (!r.ok())
            continue;
        e.localDrops.add(DropCounts::fromVariant(r.extra.value(QStringLiteral("drops"))));
        e.remoteDrops.add(DropCounts::fromVariant(r.extra.value(QStringLiteral("remote_drops"))));
    }
    return e;
}

} // namespace wb
