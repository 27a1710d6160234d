#pragma once

#include <QString>

namespace wb {

/// The theoretical TCP goodput of an Ethernet link, and the plain-words formatting the analysis uses.
class Ceiling
{
public:
    /// Ethernet framing around one IP packet of MTU bytes: header 14 + FCS 4 + preamble 8 + gap 12.
    static constexpr int kEthernetOverheadBytes = 38;
    /// The TCP/IP and UDP headers and the timestamp option are Frame's (model/Frame.h).

    /// THE ceiling: TCP goodput in bytes/s that a link of linkSpeedMbps (10^6 bit/s) allows to segments of
    /// mss payload bytes (what the run really used, TCP_INFO): rate/8 x MSS / (frame + 38), where the frame
    /// is Frame::frameOf(mss, ipv6, timestamps). 100 Mbit/s, MSS 1448 over IPv4: 11.769 MB/s; MSS 1428
    /// over IPv6 (its headers are 20 bytes longer): 11.606 MB/s. 0 when unknown.
    static double tcpGoodputForMss(double linkSpeedMbps, int mss, bool ipv6, bool timestamps);
    /// The ceiling of each direction when both carry a stream at once on a full-duplex link (tcp-bidir, iperf3
    /// --bidir): each direction's wire carries its own data and the ACKs of the other direction's, one per
    /// segmentsPerAck segments (2: delayed ACKs), each a minimal frame (IP and TCP headers and the timestamp option,
    /// at least Ethernet's 64 bytes, + preamble and gap). rate/8 x MSS / (frame + 38 + ack on the wire /
    /// segmentsPerAck): 100 Mbit/s, MSS 1448 over IPv4: 12.5e6 x 1448 / (1538 + 90 / 2) = 11.434 MB/s, 97.2% of one
    /// way. 0 when unknown.
    static double tcpGoodputBothWays(double linkSpeedMbps, int mss, bool ipv6, bool timestamps, int segmentsPerAck = 2);
    /// The same for frames of size mtu (Frame::mssFor): rate x (MTU - 52)/(MTU + 38) over IPv4 with
    /// timestamps, (MTU - 40)/(MTU + 38) without; 20 bytes less per frame over IPv6. 0 when unknown.
    static double tcpGoodputBytesPerSecond(double linkSpeedMbps, int mtu, bool timestamps = true, bool ipv6 = false);
    /// UDP payload a link of that rate carries in full frames: rate/8 x (MTU - 28)/(MTU + 38); 0 = unknown.
    static double udpGoodputBytesPerSecond(double linkSpeedMbps, int mtu);
    /// measured as a percentage of ceiling; -1 when the ceiling is unknown (<= 0).
    static double percentOf(double measuredBytesPerSecond, double ceilingBytesPerSecond);

    /// "1 Gbit/s", "100 Mbit/s", "2.5 Gbit/s"; "unknown" for <= 0.
    static QString formatLinkSpeed(double linkSpeedMbps);
    /// "117.7 MB/s", "4.1 MB/s", "0.052 MB/s" (MB/s = 10^6 bytes/s).
    static QString formatMBps(double bytesPerSecond);
    /// "32 KiB", "4 MiB", "1500 B" (binary prefixes, as socket buffers are set).
    static QString formatBuffer(double bytes);
    /// "8 ms", "0.25 ms", "45 us" from microseconds.
    static QString formatRtt(double microseconds);
    /// "99%", "4.3%", "0.52%".
    static QString formatPercent(double percent);
};

} // namespace wb
