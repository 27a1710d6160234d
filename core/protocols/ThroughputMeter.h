#pragma once

#include "ProtocolDriver.h"

#include <functional>
#include <vector>

namespace wb {

/// Turns the receiver's byte counts into samples on the plan's sampling interval. Every driver uses it, so
/// that the live graph and the final figure are made of the same numbers, by one rule:
///
/// - Sample k covers exactly [k x interval, (k+1) x interval) after start(), on the meter's clock, whenever
///   the driver happens to call in: the intervals are the clock's, not the driver's I/O calls'.
/// - Bytes count in the interval in which they reached the receiver. A driver reports them with the span of
///   time over which they arrived (addSpan); add() means "since the previous report, up to now". Bytes of a
///   span that crosses a boundary are split in proportion to time (the receiver's count interpolated
///   linearly between two readings), so a long blocking call or a late report makes no spike.
/// - The last, shorter sample ends at the last byte's arrival and is divided by its own duration.
/// - The samples add up exactly to total().
///
/// An interval is made once the reports cover it; a stall that the driver reports (add(0) while it
/// waits) shows as intervals of 0 bytes.
///
/// What is drawn (samples(), and what observers get) is a sample of what moved in its interval, never more than the
/// line carries in it:
/// - With the line known (setLine), a sample above it holds bytes that moved before and were counted late (a reader
///   kept from reading, a shaper's burst let through at once): the excess goes to the sample before it, where that
///   one has room below the line; else the two are drawn as one (one sample over both intervals). The first sample
///   above it has none before it: it is drawn with the next.
/// - The last, shorter sample faster than every full interval of the run (a receive buffer read at the end, at the
///   speed of memory) is drawn with the sample before it.
/// So observers get each sample one interval late: the next may still give it bytes. The sum stays total().
class ThroughputMeter
{
public:
    /// Nanoseconds on a monotonic clock. The default is the steady clock (the one net::nowNs() reads).
    using Clock = std::function<qint64()>;

    ThroughputMeter(int runIndex, int intervalMs, RunObserver &observer, Clock clock = {});

    void start(); ///< t = 0 (the receiver's clock for the figure)
    /// The samples carry each of `streams` parallel streams' share (Sample::streamBytes) when streams > 1; call before
    /// start(). Reports then name their stream (add(bytes, stream), setReceived(counts)); a report without one
    /// counts in the sum only.
    void setStreams(int streams);
    /// The line the bytes cross: linkSpeedMbps (0: not known) in frames of frameBytes (the IP packet). A sample is
    /// drawn at most at the rate of the IP packets the line carries (any payload is less). Call before start().
    void setLine(double linkSpeedMbps, int frameBytes);
    double lineBytesPerSecond() const { return m_lineBps; } ///< 0: not known
    /// Its samples are of the second direction of a run both ways at once (Sample::reverse).
    void setReverse(bool reverse) { m_reverse = reverse; }
    /// bytes reached the receiver between the previous report and now.
    void add(qint64 bytes);
    /// The same, for the parallel stream `stream` (0-based).
    void add(qint64 bytes, int stream);
    /// bytes reached the receiver between fromNs and toNs (the meter's clock, see now()). A span that starts
    /// before the previous report's end is taken from there; one that ends before it, up to now().
    void addSpan(qint64 bytes, qint64 fromNs, qint64 toNs);
    void addSpan(qint64 bytes, qint64 fromNs, qint64 toNs, int stream);
    /// The receiver's count since start() is now receivedBytes (a counter such as TCP_INFO's tcpi_bytes_acked);
    /// a count below total() is ignored.
    void setReceived(qint64 receivedBytes);
    /// Each stream's count since start() (counters such as every stream's tcpi_bytes_acked): a count below what the
    /// stream reported so far is ignored.
    void setReceived(const std::vector<qint64> &streamCounts);
    /// Emits the last, possibly shorter, interval; stops the clock.
    void finish();
    /// The same, with the clock stopped at endNs (the meter's clock, see now()) rather than now: the end as the
    /// process that moved the last bytes saw it, when this one noticed later. Never before the last bytes reported
    /// (they are spread up to their time). Reports after them that found nothing new do not hold the clock (the
    /// driver was still looking, as the lanes' counters after the last answer): samples they closed after the end
    /// are taken back from samples(), and the one that holds the end ends there (observers had them already).
    void finish(qint64 endNs);
    qint64 now() const { return m_clock(); } ///< the meter's clock, for addSpan()
    qint64 total() const { return m_total; } ///< bytes reported so far: what the samples add up to
    double elapsedSeconds() const;
    const SampleList &samples() const { return m_drawn; } ///< what is drawn (see the top)

private:
    qint64 intervalEnd() const { return (m_index + 1) * m_intervalNs; }
    void addShared(qint64 bytes, qint64 fromNs, qint64 toNs); ///< bytes over the span; the streams' shares in m_shares
    void spread(double bytes, qint64 from, qint64 to, bool withShares);
    void emitInterval(qint64 endNs, bool last = false);
    /// s (an interval just made) into m_drawn, by the rules at the top; observers get all but the one held.
    void draw(const Sample &s, bool last);
    void release(qsizetype upTo); ///< observers get m_drawn up to there
    void redraw(bool last);       ///< m_drawn again from m_samples (after takeBackAfter changed them)
    void stopAt(qint64 endNs);    ///< endNs since start()
    bool
    takeBackAfter(qint64 endNs); ///< finish(endNs) inside an emitted interval; false where one after it holds bytes

    int m_runIndex;
    qint64 m_intervalNs;
    RunObserver &m_observer;
    Clock m_clock;
    qint64 m_startNs = -1;
    qint64 m_finishedNs = -1;
    qint64 m_coveredNs = 0;     ///< reports cover [0, m_coveredNs) since start
    qint64 m_lastArrivalNs = 0; ///< end of the last span that held bytes
    qint64 m_index = 0;         ///< the interval being filled
    double m_spread = 0;        ///< bytes given to intervals so far (fractions of split spans included)
    qint64 m_total = 0;         ///< bytes reported
    qint64 m_emitted = 0;       ///< bytes in emitted samples
    SampleList m_samples;       ///< each interval as it was counted
    SampleList m_drawn;         ///< what is drawn: m_samples by the rules at the top
    qsizetype m_released = 0;   ///< m_drawn's samples that observers have
    bool m_heldMerged = false;  ///< the held sample is two drawn as one already
    bool m_quiet = false;       ///< redraw(): observers had these
    double m_lineBps = 0;
    double m_fastestFull = 0; ///< the fastest full interval counted so far, bytes/s
    bool m_reverse = false;
    // Parallel streams (empty for one): each stream's bytes reported, given to intervals, and emitted so far.
    std::vector<qint64> m_streamTotal;
    std::vector<double> m_streamSpread;
    std::vector<qint64> m_streamEmitted;
    std::vector<double> m_shares; ///< the report being spread: each stream's bytes of it
};

} // namespace wb
