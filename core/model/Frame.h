#pragma once

#include "model/RunResult.h"

#include <QList>
#include <QString>

namespace wb {

/// The one place where the rules of a frame size (an MTU: the IP packet, bytes) live: the sizes a plan may
/// ask for, and how a frame turns into a TCP MSS or a UDP payload and back. Every driver, the analysis, the
/// plan, the UI and the CLI ask here. IPv4 headers are 20 bytes, IPv6 40; TCP 20, and 12 more for the
/// timestamp option; UDP 8. The MSS here is what TCP_INFO's tcpi_snd_mss says: payload per segment, options
/// already taken off.
class Frame
{
public:
    /// The smallest frame a plan may ask for: the datagram every IPv4 host must take (RFC 791).
    static constexpr int kMinBytes = 576;
    /// The largest: what the IP total-length field can say.
    static constexpr int kMaxBytes = 65535;

    static constexpr int kIpv4HeaderBytes = 20;
    static constexpr int kIpv6HeaderBytes = 40;
    static constexpr int kTcpHeaderBytes = 20;
    static constexpr int kTimestampOptionBytes = 12;
    static constexpr int kUdpHeaderBytes = 8;

    /// Whether a plan may ask for frame (kMinBytes..kMaxBytes).
    static constexpr bool inRange(int frame) { return frame >= kMinBytes && frame <= kMaxBytes; }
    /// "576..65535", for messages and tooltips.
    static QString rangeText();

    static int ipHeaderBytes(bool ipv6) { return ipv6 ? kIpv6HeaderBytes : kIpv4HeaderBytes; }
    /// The TCP_MAXSEG a driver sets for frame size frame (the MSS it announces; the kernel takes the options
    /// off): 1460 at 1500 over IPv4, 1440 over IPv6. 0 when the frame is too small to clamp to.
    static int maxSegFor(int frame, bool ipv6);
    /// Payload per segment in frames of that size: 1448 at 1500 over IPv4 with timestamps, 1428 over IPv6.
    static int mssFor(int frame, bool ipv6, bool timestamps);
    /// The frame size (IP packet, bytes) that segments of mss payload make: the inverse of mssFor(); with
    /// timestamps false also the inverse of maxSegFor() (a TCP_MAXSEG or iperf3's -M back to its frame).
    static int frameOf(int mss, bool ipv6, bool timestamps);
    /// UDP payload per datagram in frames of that size: 1472 at 1500 over IPv4, 1452 over IPv6; 0 when none.
    static int datagramFor(int frame, bool ipv6 = false);
    /// The frame a datagram of payload bytes makes: the inverse of datagramFor().
    static int frameOfDatagram(int payload, bool ipv6 = false);
    /// Whether segments of mss payload carry the timestamp option, from the MTUs they may have been cut to
    /// (the plan's frame capped by the path, the path MTU, the interface MTU): the first that one reading
    /// fits exactly. fallback (the system's setting) when none fits.
    static bool timestampsFromMss(int mss, bool ipv6, const QList<int> &candidateMtus, bool fallback);

    /// The frame size a run really used: extra["frame_used"] (RunAnalyzer, from the MSS), else the plan's.
    static int usedFrame(const RunResult &r);
    /// The frames the successful runs used (all runs' when none succeeded; a lone run's always), ascending.
    static QList<int> usedFrames(const RunResultList &runs);
    /// For labels: "1500" when the plan's frame was used, "4000 (1500 planned)" when not; the frames used
    /// by several runs of one test are joined ("1500/4000 (1500 planned)"). Bytes; the caller adds "B".
    static QString frameText(const RunResultList &runs);
    static QString frameText(const RunResult &r) { return frameText(RunResultList{r}); }
};

} // namespace wb
