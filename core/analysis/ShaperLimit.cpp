#include "ShaperLimit.h"

#include "Bottleneck.h"
#include "Ceiling.h"
#include "model/Frame.h"

namespace wb {

namespace {

/// Bytes of the Ethernet header a qdisc counts in each packet (the preamble, the FCS and the gap it never sees).
constexpr int kLinkHeaderBytes = 14;

/// A shaper's rate equal to the line's (the lab's tbf scaled for an Ethernet line) is the line itself: only one
/// below this share of the line's ceiling is named as a limit of its own.
constexpr double kBelowLineShare = 0.98;

QString endName(const Evidence &e, const DropCounts &end)
{
    const QString iface = end.interfaceName.isEmpty() ? QStringLiteral("its interface") : end.interfaceName;
    if (&end == &e.localDrops)
        return QStringLiteral("%1 of this computer").arg(iface);
    return QStringLiteral("%1 of %2").arg(iface, e.hostName.isEmpty() ? QStringLiteral("the far host") : e.hostName);
}

QString payloadKind(const Evidence &e)
{
    return e.udpTargetMbps > 0 ? QStringLiteral("UDP payload") : QStringLiteral("TCP payload");
}

/// The shaper and what it lets through, when it is this run's limit.
bool limits(const Evidence &e, const AnalysisThresholds &t, const DropCounts **end, double *goodput)
{
    *end = ShaperLimit::sendingEnd(e);
    *goodput = ShaperLimit::goodputBytesPerSecond(e);
    if (!*end || !(*goodput > 0) || e.measuredBytesPerSecond < *goodput * t.nearLimitPercent / 100.0)
        return false;
    const double line = e.ceilingBytesPerSecond();
    return !(line > 0) || *goodput < line * kBelowLineShare;
}

} // namespace

const DropCounts *ShaperLimit::sendingEnd(const Evidence &e)
{
    const DropCounts *local = e.localDrops.shaped() ? &e.localDrops : nullptr;
    const DropCounts *remote = e.remoteDrops.shaped() && !e.noWire() ? &e.remoteDrops : nullptr;
    if (e.bothWays || e.noWire()) {
        if (local && remote)
            return local->shaperRateBytesPerSecond <= remote->shaperRateBytesPerSecond ? local : remote;
        return local ? local : remote;
    }
    return e.dataFromServer ? remote : local;
}

double ShaperLimit::goodputBytesPerSecond(const Evidence &e)
{
    const DropCounts *end = sendingEnd(e);
    if (!end)
        return 0;
    int payload = 0, packet = 0;
    if (e.udpTargetMbps > 0) {
        packet = e.mtu;
        payload = e.mtu - (e.ipv6 ? 48 : 28);
    } else {
        payload = e.mss > 0 ? e.mss : Frame::mssFor(e.mtu, e.ipv6, e.timestamps);
        packet = Frame::frameOf(payload, e.ipv6, e.timestamps);
    }
    if (payload <= 0 || packet <= 0)
        return 0;
    return end->shaperRateBytesPerSecond * double(payload) / double(packet + kLinkHeaderBytes);
}

QString ShaperLimit::sentence(const Evidence &e, const AnalysisThresholds &t)
{
    const DropCounts *end = nullptr;
    double goodput = 0;
    if (!limits(e, t, &end, &goodput))
        return {};
    QString s
        = QStringLiteral("limited by a shaper: a %1 shaper on %2 limits this path to %3 (%4 of %5), and the "
                         "run reached %6 (%7 of that)")
              .arg(end->shaper, endName(e, *end), Ceiling::formatLinkSpeed(end->shaperRateBytesPerSecond * 8 / 1e6),
                   Ceiling::formatMBps(goodput), payloadKind(e), Ceiling::formatMBps(e.measuredBytesPerSecond),
                   Ceiling::formatPercent(e.measuredBytesPerSecond / goodput * 100.0));
    // What did not fit its queue, in the words the lost packets' sentence uses for that place.
    const double dropped = end->qdisc();
    if (dropped > 0)
        s += QStringLiteral("; dropped on %1: the qdisc %2 of %3 dropped %4 packets, its queue full (%5)")
                 .arg(&e.localDrops == end ? QStringLiteral("this computer")
                                           : (e.hostName.isEmpty() ? QStringLiteral("the far host") : e.hostName),
                      end->qdiscKinds.isEmpty() ? end->shaper : end->qdiscKinds,
                      end->interfaceName.isEmpty() ? QStringLiteral("its interface") : end->interfaceName)
                 .arg(qint64(dropped))
                 .arg(end->detail({QStringLiteral("qdisc_drops"), QStringLiteral("qdisc_overlimits")}));
    return s;
}

QString ShaperLimit::reason(const Evidence &e, const AnalysisThresholds &t)
{
    const DropCounts *end = nullptr;
    double goodput = 0;
    if (!limits(e, t, &end, &goodput))
        return {};
    return QStringLiteral("a %1 shaper on %2 at %3 (%4 of %5)")
        .arg(end->shaper, endName(e, *end), Ceiling::formatLinkSpeed(end->shaperRateBytesPerSecond * 8 / 1e6),
             Ceiling::formatMBps(goodput), payloadKind(e));
}

QString ShaperLimit::heldBackWithoutRate(const Evidence &e)
{
    if (e.bothWays || e.noWire())
        return {};
    const DropCounts &end = e.dataFromServer ? e.remoteDrops : e.localDrops;
    const double held = end.counters.value(QStringLiteral("qdisc_overlimits"), 0);
    if (!end.known || end.shaped() || !(held > 0))
        return {};
    const bool local = &end == &e.localDrops;
    return QStringLiteral("the qdisc %1 of %2 on %3 held packets back %4 times during the run (%5); its rate was not "
                          "reported")
        .arg(end.qdiscKinds.isEmpty() ? QStringLiteral("") : end.qdiscKinds,
             end.interfaceName.isEmpty() ? QStringLiteral("its interface") : end.interfaceName,
             local ? QStringLiteral("this computer")
                   : (e.hostName.isEmpty() ? QStringLiteral("the far host") : e.hostName))
        .arg(qint64(held))
        .arg(end.detail({QStringLiteral("qdisc_overlimits"), QStringLiteral("qdisc_drops")}));
}

} // namespace wb
