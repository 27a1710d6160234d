#pragma once

#include <QString>

namespace wb {

struct AnalysisThresholds;
struct DropCounts;
struct Evidence;

/// A shaper on the data's way out (tbf, htb, cake, netem with a rate, on the interface of the end that sends the
/// test's data) as the limit of a run: what its rate lets through as TCP payload, and the sentence that names it
/// with its rate when the run reached that. The rate is the qdisc's own parameter, read by each end
/// (platform::DropReading::shaperRateBytesPerSecond) for the timed part. Pure functions.
class ShaperLimit
{
public:
    /// The end whose shaper holds the data back: the far host for a download, this computer for an upload, the
    /// slower of the two both ways. Null when neither end's interface has a shaper.
    static const DropCounts *sendingEnd(const Evidence &e);
    /// TCP (or UDP) payload per second that end's shaper lets out for this run's segments: its rate times the
    /// payload's share of each packet as the qdisc counts it (IP and TCP headers and the 14-byte Ethernet header;
    /// no preamble or FCS). 0 when there is no shaper.
    static double goodputBytesPerSecond(const Evidence &e);
    /// "limited by a shaper: a tbf shaper on wbs-1 of fs1 limits this path to 40 Mbit/s (4.73 MB/s of TCP
    /// payload), and the run reached 4.71 MB/s (99.6% of that)", with the drops of its queue; empty unless the
    /// run sits at that rate (AnalysisThresholds::nearLimitPercent) and the rate is below the line's ceiling.
    static QString sentence(const Evidence &e, const AnalysisThresholds &t);
    /// The same as one item of a warning's likely causes: "a tbf shaper on wbs-1 of fs1 at 40 Mbit/s (4.73 MB/s
    /// of TCP payload)"; empty when sentence() is.
    static QString reason(const Evidence &e, const AnalysisThresholds &t);
    /// The sending end's queue held packets back (qdisc_overlimits: a shaper over its rate) while its rate is
    /// unknown (a far end that does not report it): "the qdisc tbf of wbs-1 on fs1 held packets back 3500 times
    /// during the run (qdisc_overlimits 3500, qdisc_drops 22); its rate was not reported". Empty otherwise.
    static QString heldBackWithoutRate(const Evidence &e);
};

} // namespace wb
