#pragma once

#include "model/RunLatency.h"
#include "stats/Statistics.h"

#include <QString>

namespace wb {

/// The one rule for latency under load (bufferbloat): what the load added to the round trip is the loaded median
/// minus the idle median, which is the time a packet waits in the fullest queue on the path. Under kGoodMs is good
/// (Flent's and Crusader's users call a few ms a well-managed queue; 20 ms and more make calls and interactive
/// file access sluggish while a transfer runs). Pure functions; every branch unit-tested (TestBufferbloat).
class Bufferbloat
{
public:
    static constexpr double kGoodMs = 5;

    /// "the queue on the path adds 23 ms at full load (round trip 23.4 ms loaded against 0.4 ms idle, medians);
    /// under 5 ms is good". Empty when the load added less than kGoodMs, or without both phases.
    static QString sentence(const RunLatency &latency);
    /// "latency under load +23 ms over the idle 0.4 ms (loaded: median 23.4 ms, p90 24.1 ms, p99 25.0 ms, max
    /// 26.2 ms; idle: ...)", the figures of every measured run; the note when there are none; empty when the run
    /// had no far host.
    static QString figures(const RunLatency &latency);
    /// One test over its runs: "latency under load +23 ms over the idle 0.4 ms (loaded 23 ms; medians of 3 runs)";
    /// empty when no run measured both phases.
    static QString testFigures(const Summary &idleMs, const Summary &loadedMs);
    /// "median 23.4 ms, p90 24.1 ms, p99 25.0 ms, max 26.2 ms" (and ", 2 of 40 lost" when some were).
    static QString statsText(const LatencyStats &stats);
    /// A round trip in ms with the digits it needs: "0.05 ms", "0.4 ms", "4.2 ms", "23 ms".
    static QString ms(double value);
};

} // namespace wb
