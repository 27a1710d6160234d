#include "Iperf3ServerOutput.h"

#include "net/Socket.h"
#include "wire/Text.h"

#include <algorithm>

namespace wb {

using namespace wb::net;
using wire::format;

namespace {

constexpr std::int64_t kIntervalNs = 1000000000; // iperf3's server reports every second (-i is not sent to it)
constexpr std::int64_t kShortestIntervalNs = kIntervalNs / 10;

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
std::string iperfUnits(double bytes, bool bits)
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
    const char *pattern = value < 9.995 ? "%4.2f %s" : value < 99.95 ? "%4.1f %s" : "%4.0f %s";
    return format(pattern, value, bits ? bitLabels[conv] : byteLabels[conv]);
}

/// "[  5]" or "[SUM]", then "   0.00-1.00   sec  2.62 GBytes  22.5 Gbits/sec".
std::string lineStart(int id, bool sum, double from, double to, std::int64_t bytes)
{
    const double seconds = to - from;
    const std::string rate = iperfUnits(seconds > 0 ? double(bytes) / seconds : 0.0, true);
    const std::string tag = sum ? std::string("[SUM]") : format("[%3d]", id);
    return tag
        + format(" %6.2f-%-6.2f sec  %ss  %ss/sec", from, to, iperfUnits(double(bytes), false).c_str(), rate.c_str());
}

std::string lostText(std::int64_t lost, std::int64_t packets)
{
    const double percent = packets > 0 ? 100.0 * double(lost) / double(packets) : 0.0;
    return format("%lld/%lld (%.2g%%)", static_cast<long long>(lost), static_cast<long long>(packets), percent);
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
        m_lines.push_back(
            format("Accepted connection from %s, port %u\n", hostText(client).c_str(), unsigned(portOf(client))));
}

void Iperf3ServerOutput::streamConnected(int id, const sockaddr_storage &local, const sockaddr_storage &remote)
{
    if (!m_enabled)
        return;
    m_ids.push_back(id);
    m_lines.push_back(format("[%3d] local %s port %u connected to %s port %u\n", id, hostText(local).c_str(),
                             unsigned(portOf(local)), hostText(remote).c_str(), unsigned(portOf(remote))));
}

void Iperf3ServerOutput::start(std::int64_t nowNs, const std::vector<Counts> &counts, bool omitting)
{
    m_originNs = m_intervalStartNs = nowNs;
    m_last = m_base = counts;
    m_omitting = omitting;
}

bool Iperf3ServerOutput::due(std::int64_t nowNs) const
{
    return m_enabled && nowNs - m_intervalStartNs >= kIntervalNs;
}

void Iperf3ServerOutput::interval(std::int64_t nowNs, const std::vector<Counts> &counts)
{
    if (!m_enabled || counts.size() != m_last.size() || counts.empty())
        return;
    const Counts total = sumOf(counts), before = sumOf(m_last);
    // As iperf3: a short last interval with nothing in it (TEST_END queued behind the data) is not shown.
    if (nowNs - m_intervalStartNs >= kShortestIntervalNs || total.bytes > before.bytes) {
        if (!m_headerShown)
            m_lines.push_back(intervalHeader());
        else if (counts.size() > 1)
            m_lines.push_back(std::string(kSeparator));
        m_headerShown = true;
        const double from = double(m_intervalStartNs - m_originNs) / 1e9, to = double(nowNs - m_originNs) / 1e9;
        for (size_t i = 0; i < counts.size(); ++i)
            m_lines.push_back(
                intervalLine(i < m_ids.size() ? m_ids[i] : int(i), from, to, counts[i], m_last[i], false));
        if (counts.size() > 1)
            m_lines.push_back(intervalLine(0, from, to, total, before, true));
    }
    m_last = counts;
    m_intervalStartNs = nowNs;
}

void Iperf3ServerOutput::endOmitting(std::int64_t nowNs, const std::vector<Counts> &counts)
{
    if (!m_enabled)
        return;
    interval(nowNs, counts);
    m_omitting = false;
    start(nowNs, counts, false);
}

void Iperf3ServerOutput::finish(std::int64_t nowNs, const std::vector<Counts> &counts, double measuredSeconds)
{
    if (!m_enabled || counts.size() != m_base.size() || counts.empty())
        return;
    interval(nowNs, counts);
    m_lines.push_back(std::string(kSeparator));
    m_lines.push_back(summaryHeader());
    for (size_t i = 0; i < counts.size(); ++i)
        m_lines.push_back(
            summaryLine(i < m_ids.size() ? m_ids[i] : int(i), measuredSeconds, counts[i], m_base[i], false));
    if (counts.size() > 1)
        m_lines.push_back(summaryLine(0, measuredSeconds, sumOf(counts), sumOf(m_base), true));
}

std::string Iperf3ServerOutput::intervalHeader() const
{
    if (m_udp)
        return std::string(m_sender ? kUdpSenderHeader : kUdpHeader);
    return std::string(m_sender ? kBwRetransCwndHeader : kBwHeader);
}

std::string Iperf3ServerOutput::summaryHeader() const
{
    if (m_udp)
        return std::string(kUdpHeader);
    return std::string(m_sender ? kBwRetransHeader : kBwHeader);
}

std::string Iperf3ServerOutput::intervalLine(int id, double from, double to, const Counts &now, const Counts &then,
                                             bool sum) const
{
    const std::string start = lineStart(id, sum, from, to, now.bytes - then.bytes);
    const std::string omitted = m_omitting ? std::string(kOmitted) : std::string();
    if (m_udp && m_sender)
        return start + format("  %lld  %s\n", static_cast<long long>(now.packets - then.packets), omitted.c_str());
    if (m_udp) {
        const std::int64_t streams
            = sum ? std::int64_t(std::max<size_t>(1, m_last.size())) : 1; // the sum's jitter is the mean
        return start + format("  %5.3f ms  ", now.jitterSeconds * 1000.0 / double(streams))
            + lostText(now.lost - then.lost, now.packets - then.packets) + "  " + omitted + "\n";
    }
    if (m_sender && sum)
        return start + format("  %3lld             ", static_cast<long long>(now.retransmits - then.retransmits))
            + omitted + '\n';
    if (m_sender) {
        return start
            + format("  %3lld   %ss       ", static_cast<long long>(now.retransmits - then.retransmits),
                     iperfUnits(double(now.cwndBytes), false).c_str())
            + omitted + '\n';
    }
    return start + "                  " + omitted + "\n";
}

std::string Iperf3ServerOutput::summaryLine(int id, double seconds, const Counts &now, const Counts &then,
                                            bool sum) const
{
    const std::string start = lineStart(id, sum, 0.0, seconds, now.bytes - then.bytes);
    const std::string role = m_sender ? std::string("sender") : std::string("receiver");
    if (m_udp) {
        // The sender counts no loss or jitter: iperf3's server prints 0 for them, as here.
        const std::int64_t streams = sum ? std::int64_t(std::max<size_t>(1, m_base.size())) : 1;
        std::string line = start + format("  %5.3f ms  ", m_sender ? 0.0 : now.jitterSeconds * 1000.0 / double(streams))
            + lostText(m_sender ? 0 : now.lost - then.lost, now.packets - then.packets) + "  " + role + "\n";
        if (!m_sender && !sum && now.outOfOrder - then.outOfOrder > 0)
            line += format("[%3d] %4.1f-%4.1f sec  %lld datagrams received out-of-order\n", id, 0.0, seconds,
                           static_cast<long long>(now.outOfOrder - then.outOfOrder));
        return line;
    }
    if (m_sender)
        return start + format("  %3lld             ", static_cast<long long>(now.retransmits - then.retransmits)) + role
            + '\n';
    return start + "                  " + role + "\n";
}

std::string Iperf3ServerOutput::text() const
{
    std::string all;
    for (const std::string &line : m_lines)
        all += line;
    return all;
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
