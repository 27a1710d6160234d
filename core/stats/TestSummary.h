#pragma once

#include "Statistics.h"
#include "model/RunResult.h"

#include <QList>

namespace wb {

/// One test (host x protocol x frame size) summarized over its successful repetitions, in MB/s.
struct TestSummary
{
    Host host;
    QString protocol;
    int frameSize = 0;
    int mss = 0;  ///< the MSS of the last successful run (0 = unknown)
    Summary MBps; ///< over status == ok runs only
    /// Both directions at once (tcp-bidir, iperf3-bidir): MBps is the send direction's, this the receive direction's.
    bool bothWays = false;
    Summary reverseMBps;
    /// Which figure MBps is, in the lists of byDirection(): a test of one direction is Only.
    enum class Direction { Only, Send, Receive };
    Direction direction = Direction::Only;

    /// "tcp-send", or "tcp-bidir send" and "tcp-bidir receive" for the two figures of a test of both directions.
    QString label() const;
    /// The summaries with each test of both directions as two, its send figure then its receive figure (MBps each),
    /// for what shows one figure per entry side by side (the comparison bars, the summary table, the report).
    static QList<TestSummary> byDirection(const QList<TestSummary> &summaries);
    /// The extra key of a run's share of its ceiling for this entry's figure ("percent_of_ceiling", or
    /// "reverse_percent_of_ceiling" for the receive figure of both directions).
    QString percentKey() const;
    int okRuns = 0;
    int failedRuns = 0;      ///< failed, cancelled or not run
    QStringList errors;      ///< distinct errors of the runs that did not succeed
    Summary idleLatencyMs;   ///< the idle round-trip medians (ms) of the ok runs that measured both phases
    Summary loadedLatencyMs; ///< their loaded medians (ms)

    /// Groups results in first-seen order of host, protocol and frame size.
    static QList<TestSummary> build(const RunResultList &results);
    /// True when the run belongs to this test (same host name, address and port, protocol, frame size).
    bool matches(const RunResult &result) const;
    /// The runs of this test, in their order in results.
    RunResultList runsOf(const RunResultList &results) const;
};

} // namespace wb
