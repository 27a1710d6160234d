#include "Frame.h"

#include <QStringList>

#include <algorithm>

namespace wb {

namespace {
constexpr int kMinMaxSeg = 88; // Linux refuses a smaller TCP_MAXSEG (TCP_MIN_MSS)
}

QString Frame::rangeText()
{
    return QStringLiteral("%1..%2").arg(kMinBytes).arg(kMaxBytes);
}

int Frame::maxSegFor(int frame, bool ipv6)
{
    const int seg = frame - ipHeaderBytes(ipv6) - kTcpHeaderBytes;
    return seg >= kMinMaxSeg ? seg : 0;
}

int Frame::mssFor(int frame, bool ipv6, bool timestamps)
{
    const int mss = frame - ipHeaderBytes(ipv6) - kTcpHeaderBytes - (timestamps ? kTimestampOptionBytes : 0);
    return mss > 0 ? mss : 0;
}

int Frame::frameOf(int mss, bool ipv6, bool timestamps)
{
    if (mss <= 0)
        return 0;
    return mss + ipHeaderBytes(ipv6) + kTcpHeaderBytes + (timestamps ? kTimestampOptionBytes : 0);
}

int Frame::datagramFor(int frame, bool ipv6)
{
    const int payload = frame - ipHeaderBytes(ipv6) - kUdpHeaderBytes;
    return payload > 0 ? payload : 0;
}

int Frame::frameOfDatagram(int payload, bool ipv6)
{
    return payload + ipHeaderBytes(ipv6) + kUdpHeaderBytes;
}

bool Frame::timestampsFromMss(int mss, bool ipv6, const QList<int> &candidateMtus, bool fallback)
{
    if (mss <= 0)
        return fallback;
    for (int mtu : candidateMtus) {
        if (mtu <= 0)
            continue;
        if (frameOf(mss, ipv6, true) == mtu)
            return true;
        if (frameOf(mss, ipv6, false) == mtu)
            return false;
    }
    return fallback;
}

int Frame::usedFrame(const RunResult &r)
{
    bool ok = false;
    const int used = r.extra.value(QStringLiteral("frame_used")).toInt(&ok);
    return ok && used > 0 ? used : r.spec.frameSize;
}

QList<int> Frame::usedFrames(const RunResultList &runs)
{
    QList<int> used;
    bool anyOk = false;
    for (const RunResult &r : runs)
        anyOk = anyOk || r.ok();
    for (const RunResult &r : runs) {
        const int f = usedFrame(r);
        if ((r.ok() || !anyOk) && f > 0 && !used.contains(f))
            used.append(f);
    }
    std::sort(used.begin(), used.end());
    return used;
}

QString Frame::frameText(const RunResultList &runs)
{
    if (runs.isEmpty())
        return {};
    const QList<int> used = usedFrames(runs);
    const int planned = runs.first().spec.frameSize;
    if (used.isEmpty() || (used.size() == 1 && used.first() == planned))
        return QString::number(planned);
    QStringList parts;
    for (int f : used)
        parts << QString::number(f);
    return QStringLiteral("%1 (%2 planned)").arg(parts.join(QLatin1Char('/'))).arg(planned);
}

} // namespace wb
