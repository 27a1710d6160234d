#include "Iperf3ServerOutput.h"

#include "net/Socket.h"

namespace wb {

using namespace wb::net;

namespace {

constexpr qint64 kIntervalNs = 1000000000; // iperf3's server reports every second (-i is not sent to it)
constexpr qint64 kShortestIntervalNs = kIntervalNs / 10;

// iperf 3.12's report lines (iperf_locale.c), the stream-role column left empty as without --bidir.
constexpr char kBwHeader[] = "[ ID] Interval           Transfer     Bitrate\n";
constexpr char kBwRetransHeader[] = "[ ID] Interval           Transfer     Bitrate         Retr\n";
constexpr char kBwRetransCwndHeader[] = "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n";
constexpr char kUdpHeader[] = "[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n";
constexpr char kUdpSenderHeader[] = "[ ID] Interval           Transfer     Bitrate         Total Datagrams\n";
constexpr char kSeparator[] = "- - - - - - - - - - - - - - - - - - - - - - - - -\n";
constexpr char kOmitted[] = "(omitted)";

/// iperf3's unit_snprintf: 'A' (bytes, steps of 1024: "4.74 GByte") or 'a' (bits, steps of 1000: "20.1 Gbit"),
/// always four places wide.
QString iperfUnits(double bytes, bool bits)
{
    static const char *const byteLabels[] = {"Byte", "KByte", "MByte", "GByte", "TByte"};
    static const char *const bitLabels[] = {"bit", "Kbit", "Mbit", "Gbit", "Tbit"};
    double value = bits ? bytes * 8 : bytes;
    const double step = bits ? 1000.0 : 1024.0;
    int conv = 0;
    while (value >= step && conv < 4) {
        value /= step;
        ++conv;
    }
    const char *format = value < 9.995 ? "%4.2f %s" : value < 99.95 ? "%4.1f %s" : "%4.0f %s";
    return QString::asprintf(format, value, bits ? bitLabels[conv] : byteLabels[conv]);
}

/// "[  5]" or "[SUM]", then "   0.00-1.00   sec  2.62 GBytes  22.5 Gbits/sec".
QString lineStart(int id, bool sum, double from, double to, qint64 bytes)
{
    const double seconds = to - from;
    const QString rate = iperfUnits(seconds > 0 ? double(bytes) / seconds : 0.0, true);
    const QString tag = sum ? QStringLiteral("[SUM]") : QString::asprintf("[%3d]", id);
    return tag + QString::asprintf(" %6.2f-%-6.2f sec  %ss  %ss/sec", from, to, qPrintable(iperfUnits(double(bytes), false)),
                                   qPrintable(rate));
}

QString lostText(qint64 lost, qint64 packets)
{
    const double percent = packets > 0 ? 100.0 * double(lost) / double(packets) : 0.0;
    return QString::asprintf("%lld/%lld (%.2g%%)", static_cast<long long>(lost), static_cast<long long>(packets), percent);
}

} // namespace

Iperf3ServerOutput::Iperf3ServerOutput(bool enabled, bool sender, bool udp)
    : m_enabled(enabled)
    , m_sender(sender)
    , m_udp(udp)
{
}

void Iperf3ServerOutput::accepted(const sockaddr_storage &client)
{
    if (m_enabled)
        m_lines << QStringLiteral("Accepted connection from %1, port %2\n").arg(hostText(client)).arg(portOf(client));
}

void Iperf3ServerOutput::streamConnected(int id, const sockaddr_storage &local, const sockaddr_storage &remote)
{
    if (!m_enabled)
        return;
    m_ids.push_back(id);
    m_lines << QString::asprintf("[%3d] local %s port %u connected to %s port %u\n", id, qPrintable(hostText(local)),
                                 uint(portOf(local)), qPrintable(hostText(remote)), uint(portOf(remote)));
}

void Iperf3ServerOutput::start(qint64 nowNs, const std::vector<Counts> &counts, bool omitting)
{
    m_originNs = m_intervalStartNs = nowNs;
    m_last = m_base = counts;
    m_omitting = omitting;
}

bool Iperf3ServerOutput::due(qint64 nowNs) const
{
    return m_enabled && nowNs - m_intervalStartNs >= kIntervalNs;
}

void Iperf3ServerOutput::interval(qint64 nowNs, const std::vector<Counts> &counts)
{
    if (!m_enabled || counts.size() != m_last.size() || counts.empty())
        return;
    const Counts total = sumOf(counts), before = sumOf(m_last);
    // As iperf3: a short last interval with nothing in it (TEST_END queued behind the data) is not shown.
    if (nowNs - m_intervalStartNs >= kShortestIntervalNs || total.bytes > before.bytes) {
        if (!m_headerShown)
            m_lines << intervalHeader();
        else if (counts.size() > 1)
            m_lines << QString::fromLatin1(kSeparator);
        m_headerShown = true;
        const double from = double(m_intervalStartNs - m_originNs) / 1e9, to = double(nowNs - m_originNs) / 1e9;
        for (size_t i = 0; i < counts.size(); ++i)
            m_lines << intervalLine(i < m_ids.size() ? m_ids[i] : int(i), from, to, counts[i], m_last[i], false);
        if (counts.size() > 1)
            m_lines << intervalLine(0, from, to, total, before, true);
    }
    m_last = counts;
    m_intervalStartNs = nowNs;
}

void Iperf3ServerOutput::endOmitting(qint64 nowNs, const std::vector<Counts> &counts)
{
    if (!m_enabled)
        return;
    interval(nowNs, counts);
    m_omitting = false;
    start(nowNs, counts, false);
}

void Iperf3ServerOutput::finish(qint64 nowNs, const std::vector<Counts> &counts, double measuredSeconds)
{
    if (!m_enabled || counts.size() != m_base.size() || counts.empty())
        return;
    interval(nowNs, counts);
    m_lines << QString::fromLatin1(kSeparator) << summaryHeader();
    for (size_t i = 0; i < counts.size(); ++i)
        m_lines << summaryLine(i < m_ids.size() ? m_ids[i] : int(i), measuredSeconds, counts[i], m_base[i], false);
    if (counts.size() > 1)
        m_lines << summaryLine(0, measuredSeconds, sumOf(counts), sumOf(m_base), true);
}

QString Iperf3ServerOutput::intervalHeader() const
{
    if (m_udp)
        return QString::fromLatin1(m_sender ? kUdpSenderHeader : kUdpHeader);
    return QString::fromLatin1(m_sender ? kBwRetransCwndHeader : kBwHeader);
}

QString Iperf3ServerOutput::summaryHeader() const
{
    if (m_udp)
        return QString::fromLatin1(kUdpHeader);
    return QString::fromLatin1(m_sender ? kBwRetransHeader : kBwHeader);
}

QString Iperf3ServerOutput::intervalLine(int id, double from, double to, const Counts &now, const Counts &then, bool sum) const
{
    const QString start = lineStart(id, sum, from, to, now.bytes - then.bytes);
    const QString omitted = m_omitting ? QString::fromLatin1(kOmitted) : QString();
    if (m_udp && m_sender)
        return start + QStringLiteral("  %1  %2\n").arg(now.packets - then.packets).arg(omitted);
    if (m_udp) {
        const qint64 streams = sum ? qint64(qMax<size_t>(1, m_last.size())) : 1; // the sum's jitter is the mean
        return start + QString::asprintf("  %5.3f ms  ", now.jitterSeconds * 1000.0 / double(streams))
               + lostText(now.lost - then.lost, now.packets - then.packets) + QStringLiteral("  %1\n").arg(omitted);
    }
    if (m_sender && sum)
        return start + QString::asprintf("  %3lld             ", static_cast<long long>(now.retransmits - then.retransmits)) + omitted + u'\n';
    if (m_sender) {
        return start + QString::asprintf("  %3lld   %ss       ", static_cast<long long>(now.retransmits - then.retransmits),
                                         qPrintable(iperfUnits(double(now.cwndBytes), false)))
               + omitted + u'\n';
    }
    return start + QStringLiteral("                  %1\n").arg(omitted);
}

QString Iperf3ServerOutput::summaryLine(int id, double seconds, const Counts &now, const Counts &then, bool sum) const
{
    const QString start = lineStart(id, sum, 0.0, seconds, now.bytes - then.bytes);
    const QString role = m_sender ? QStringLiteral("sender") : QStringLiteral("receiver");
    if (m_udp) {
        // The sender counts no loss or jitter: iperf3's server prints 0 for them, as here.
        const qint64 streams = sum ? qint64(qMax<size_t>(1, m_base.size())) : 1;
        QString line = start + QString::asprintf("  %5.3f ms  ", m_sender ? 0.0 : now.jitterSeconds * 1000.0 / double(streams))
                       + lostText(m_sender ? 0 : now.lost - then.lost, now.packets - then.packets) + QStringLiteral("  %1\n").arg(role);
        if (!m_sender && !sum && now.outOfOrder - then.outOfOrder > 0)
            line += QString::asprintf("[%3d] %4.1f-%4.1f sec  %lld datagrams received out-of-order\n", id, 0.0, seconds,
                                      static_cast<long long>(now.outOfOrder - then.outOfOrder));
        return line;
    }
    if (m_sender)
        return start + QString::asprintf("  %3lld             ", static_cast<long long>(now.retransmits - then.retransmits)) + role + u'\n';
    return start + QStringLiteral("                  %1\n").arg(role);
}

Iperf3ServerOutput::Counts Iperf3ServerOutput::sumOf(const std::vector<Counts> &counts)
{
    Counts sum;
    for (const Counts &c : counts) {
        sum.bytes += c.bytes;
        sum.retransmits += c.retransmits;
        sum.cwndBytes += c.cwndBytes;
        sum.packets += c.packets;
        sum.lost += c.lost;
        sum.outOfOrder += c.outOfOrder;
        sum.jitterSeconds += c.jitterSeconds;
    }
    return sum;
}

} // namespace wb
