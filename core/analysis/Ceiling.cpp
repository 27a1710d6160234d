#include "Ceiling.h"

#include "model/Frame.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {
// Up to three significant digits, without trailing zeros ("117.7", "4.1", "62", "0.052").
QString compact(double v, int maxDecimals)
{
    const double a = std::fabs(v);
    int decimals = a >= 100 ? 1 : (a >= 1 ? 1 : (a >= 0.1 ? 2 : 3));
    decimals = std::min(decimals, maxDecimals);
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}
} // namespace

double Ceiling::tcpGoodputForMss(double linkSpeedMbps, int mss, bool ipv6, bool timestamps)
{
    if (!(linkSpeedMbps > 0) || mss <= 0)
        return 0;
    const int frame = Frame::frameOf(mss, ipv6, timestamps);
    return linkSpeedMbps * 1e6 / 8.0 * double(mss) / double(frame + kEthernetOverheadBytes);
}

double Ceiling::tcpGoodputBothWays(double linkSpeedMbps, int mss, bool ipv6, bool timestamps, int segmentsPerAck)
{
    if (!(linkSpeedMbps > 0) || mss <= 0 || segmentsPerAck <= 0)
        return 0;
    constexpr int kMinFrameBytes = 64;       // Ethernet's shortest frame, header and FCS included
    constexpr int kPreambleAndGapBytes = 20; // of kEthernetOverheadBytes, outside the frame
    const int ackPacket
        = Frame::ipHeaderBytes(ipv6) + Frame::kTcpHeaderBytes + (timestamps ? Frame::kTimestampOptionBytes : 0);
    const int ackOnWire
        = std::max(kMinFrameBytes, ackPacket + kEthernetOverheadBytes - kPreambleAndGapBytes) + kPreambleAndGapBytes;
    const double dataOnWire = Frame::frameOf(mss, ipv6, timestamps) + kEthernetOverheadBytes;
    return linkSpeedMbps * 1e6 / 8.0 * double(mss) / (dataOnWire + double(ackOnWire) / segmentsPerAck);
}

double Ceiling::tcpGoodputBytesPerSecond(double linkSpeedMbps, int mtu, bool timestamps, bool ipv6)
{
    return tcpGoodputForMss(linkSpeedMbps, Frame::mssFor(mtu, ipv6, timestamps), ipv6, timestamps);
}

double Ceiling::udpGoodputBytesPerSecond(double linkSpeedMbps, int mtu)
{
    const int payload = Frame::datagramFor(mtu);
    if (!(linkSpeedMbps > 0) || payload <= 0)
        return 0;
    return linkSpeedMbps * 1e6 / 8.0 * double(payload) / double(mtu + kEthernetOverheadBytes);
}

double Ceiling::percentOf(double measured, double ceiling)
{
    if (!(ceiling > 0))
        return -1;
    return measured / ceiling * 100.0;
}

QString Ceiling::formatLinkSpeed(double mbps)
{
    if (!(mbps > 0))
        return QStringLiteral("unknown");
    if (mbps >= 1e6)
        return compact(mbps / 1e6, 3) + QStringLiteral(" Tbit/s");
    if (mbps >= 1000)
        return compact(mbps / 1000.0, 3) + QStringLiteral(" Gbit/s");
    return compact(mbps, 3) + QStringLiteral(" Mbit/s");
}

QString Ceiling::formatMBps(double bytesPerSecond)
{
    return compact(bytesPerSecond / 1e6, 3) + QStringLiteral(" MB/s");
}

QString Ceiling::formatBuffer(double bytes)
{
    if (bytes >= 1024.0 * 1024.0)
        return compact(bytes / (1024.0 * 1024.0), 2) + QStringLiteral(" MiB");
    if (bytes >= 1024.0)
        return compact(bytes / 1024.0, 1) + QStringLiteral(" KiB");
    return QString::number(qint64(std::llround(bytes))) + QStringLiteral(" B");
}

QString Ceiling::formatRtt(double us)
{
    if (us >= 1000) {
        // Two decimals under 10 ms (1.25 ms), one above (12.5 ms), trailing zeros dropped.
        QString s = QString::number(us / 1000.0, 'f', us < 10000 ? 2 : 1);
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
        return s + QStringLiteral(" ms");
    }
    return QString::number(qint64(std::llround(us))) + QStringLiteral(" us");
}

QString Ceiling::formatPercent(double percent)
{
    const double a = std::fabs(percent);
    if (a >= 10)
        return QString::number(qint64(std::llround(percent))) + QLatin1Char('%');
    return compact(percent, a >= 1 ? 1 : 2) + QLatin1Char('%');
}

} // namespace wb
