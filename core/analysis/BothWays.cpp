#include "BothWays.h"

#include "Ceiling.h"

#include <algorithm>

namespace wb {

namespace {

/// "the 100 Mbit/s link at MTU 1500": the frame the ceiling is for (the one the run's MSS makes).
QString linkAt(const Evidence &e)
{
    return QStringLiteral("the %1 link at MTU %2%3")
        .arg(Ceiling::formatLinkSpeed(e.linkSpeedMbps))
        .arg(e.mtu)
        .arg(e.ipv6 ? QStringLiteral(" over IPv6") : QString());
}

/// "send 11.43 MB/s (99.9%), receive 11.42 MB/s (99.8%)": each figure with its share of the per-direction ceiling.
QString figures(const Evidence &e)
{
    const double ceiling = e.ceilingBytesPerSecond();
    const auto one = [&](double rate) {
        const double percent = Ceiling::percentOf(rate, ceiling);
        return percent >= 0 ? QStringLiteral("%1 (%2)").arg(Ceiling::formatMBps(rate), Ceiling::formatPercent(percent))
                            : Ceiling::formatMBps(rate);
    };
    return QStringLiteral("send %1, receive %2").arg(one(e.measuredBytesPerSecond), one(e.reverseBytesPerSecond));
}

QString boundedSentence(const Evidence &e)
{
    const double sum = e.measuredBytesPerSecond + e.reverseBytesPerSecond;
    const double oneWay = e.oneWayCeilingBytesPerSecond();
    return QStringLiteral("the two directions share one bound: send %1 and receive %2 add up to %3, %4 of what one "
                          "direction alone carries on %5 (%6), where a full-duplex link carries %7 each way at once: a "
                          "half-duplex link or a shared medium (Wi-Fi, a hub, one shaper or queue for both directions)")
        .arg(Ceiling::formatMBps(e.measuredBytesPerSecond), Ceiling::formatMBps(e.reverseBytesPerSecond),
             Ceiling::formatMBps(sum), Ceiling::formatPercent(Ceiling::percentOf(sum, oneWay)), linkAt(e),
             Ceiling::formatMBps(oneWay), Ceiling::formatMBps(e.ceilingBytesPerSecond()));
}

} // namespace

bool BothWays::sumIsBounded(const Evidence &e, const AnalysisThresholds &t)
{
    const double oneWay = e.oneWayCeilingBytesPerSecond();
    const double ceiling = e.ceilingBytesPerSecond();
    if (!(oneWay > 0) || !(ceiling > 0))
        return false;
    const double sumPercent = Ceiling::percentOf(e.measuredBytesPerSecond + e.reverseBytesPerSecond, oneWay);
    const double best = Ceiling::percentOf(std::max(e.measuredBytesPerSecond, e.reverseBytesPerSecond), ceiling);
    return sumPercent >= t.nearLimitPercent && sumPercent <= 100.0 + t.aboveTolerancePercent
        && best < t.atLineRatePercent;
}

QString BothWays::sentence(const Evidence &e, const AnalysisThresholds &t)
{
    const double ceiling = e.ceilingBytesPerSecond();
    if (!(ceiling > 0)) {
        const QString why = e.linkNote.isEmpty() ? QStringLiteral("loopback/virtual") : e.linkNote;
        return QStringLiteral("link speed unknown (%1): send %2, receive %3 at once; set it per host to judge each "
                              "direction against line rate")
            .arg(why, Ceiling::formatMBps(e.measuredBytesPerSecond), Ceiling::formatMBps(e.reverseBytesPerSecond));
    }
    const double send = Ceiling::percentOf(e.measuredBytesPerSecond, ceiling);
    const double receive = Ceiling::percentOf(e.reverseBytesPerSecond, ceiling);
    const QString perDirection = QStringLiteral("of what each direction of %1 carries while the other direction's "
                                                "ACKs share it (%2, full duplex)")
                                     .arg(linkAt(e), Ceiling::formatMBps(ceiling));
    // What cannot be exceeded is one direction alone on the wire: the shared figure assumes one ACK per two
    // segments, and Linux often sends fewer (a healthy run may pass it).
    const double oneWay = e.oneWayCeilingBytesPerSecond();
    const double bound = oneWay > 0 ? oneWay : ceiling;
    const double fastest = std::max(e.measuredBytesPerSecond, e.reverseBytesPerSecond);
    if (Ceiling::percentOf(fastest, bound) > 100.0 + t.aboveTolerancePercent)
        return QStringLiteral("above the line-rate ceiling: %1 %2, and %3 above what one direction alone carries on "
                              "%4 (%5), which no direction can exceed, so a cache, compression or a counting error")
            .arg(figures(e), perDirection, Ceiling::formatMBps(fastest), linkAt(e), Ceiling::formatMBps(bound));
    if (std::min(send, receive) >= t.atLineRatePercent)
        return QStringLiteral("at line rate both ways at once: %1 %2").arg(figures(e), perDirection);
    if (sumIsBounded(e, t))
        return boundedSentence(e);
    const QString weaker = send < receive ? QStringLiteral("send") : QStringLiteral("receive");
    const QStringList causes = Bottleneck::evidentCauses(e, t);
    return QStringLiteral("the %1 direction is below line rate: %2 %3%4")
        .arg(weaker, figures(e), perDirection,
             causes.isEmpty() ? QString() : QStringLiteral("; likely %1").arg(causes.join(QStringLiteral("; "))));
}

QStringList BothWays::warnings(const Evidence &e, const AnalysisThresholds &t)
{
    QStringList out;
    const double ceiling = e.ceilingBytesPerSecond();
    if (!(ceiling > 0))
        return out;
    if (sumIsBounded(e, t)) {
        out << boundedSentence(e);
        return out;
    }
    const struct
    {
        const char *name;
        double rate;
    } directions[] = {{"send", e.measuredBytesPerSecond}, {"receive", e.reverseBytesPerSecond}};
    const double oneWay = e.oneWayCeilingBytesPerSecond();
    const double bound = oneWay > 0 ? oneWay : ceiling;
    for (const auto &d : directions) {
        const double percent = Ceiling::percentOf(d.rate, ceiling);
        const double ofBound = Ceiling::percentOf(d.rate, bound);
        if (ofBound > 100.0 + t.aboveTolerancePercent)
            out << QStringLiteral("the %1 direction's %2 is above what one direction alone carries on %3 (%4, %5 of "
                                  "it), which no direction can exceed: a cache, compression or a counting error")
                       .arg(QLatin1String(d.name), Ceiling::formatMBps(d.rate), linkAt(e), Ceiling::formatMBps(bound),
                            Ceiling::formatPercent(ofBound));
        else if (percent < t.farBelowPercent)
            out << QStringLiteral("the %1 direction's %2 is far below what each direction of %3 carries at once: %4 of "
                                  "%5")
                       .arg(QLatin1String(d.name), Ceiling::formatMBps(d.rate), linkAt(e),
                            Ceiling::formatPercent(percent), Ceiling::formatMBps(ceiling));
    }
    return out;
}

} // namespace wb
