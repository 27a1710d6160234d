#pragma once

#include <QString>

namespace wb {

struct Evidence;

/// Where a test's lost packets went, in words, from the drop counters of both ends (DropCounts): this
/// computer (its qdisc, input backlog, interface, TCP), the far host (the same places), or the path between
/// them when neither end dropped any; a cable or duplex only when an interface counted CRC or frame errors or
/// runs at half duplex. Each phrase carries the counters it rests on. Pure functions (docs/TRUST.md).
class LossPlace
{
public:
    /// What follows "limited by retransmissions (N segments resent, P of those sent)": ": dropped on this
    /// computer: ...", ": neither end dropped them (...): the path between ...", " over eth0, which ...".
    static QString afterRetransmissions(const Evidence &e);
    /// For a run without a retransmission figure (FTP, SMB):
    /// "limited by lost packets on the way from fs1 to this computer: dropped on fs1: ..." when the qdisc or the
    /// interface that the test's data went through counted drops at either end (the sender's queue and transmit
    /// side, the receiver's receive side); empty otherwise.
    static QString withoutRetransmissionFigure(const Evidence &e);
    /// The drops against the data's direction (a download's ACKs and requests in this computer's queue), which are
    /// no limit of the data: "on this computer, the qdisc tbf of wbc-1 dropped 12 packets, ...: ACKs and requests,
    /// as the data came the other way". Empty when there were none, or when the test went both ways.
    static QString againstTheData(const Evidence &e);
    /// The one-item reason for a warning's list of likely causes that goes with it ("packets dropped on this
    /// computer (the qdisc tbf of wbc-1: 312)"); empty when withoutRetransmissionFigure() is.
    static QString lostPacketsReason(const Evidence &e);
};

} // namespace wb
