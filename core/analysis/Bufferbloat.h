#pragma once

#include "model/RunLatency.h"
#include "stats/Statistics.h"

#include <QString>

namespace wb {

/// The one rule for latency under load (bufferbloat): what the load added to the round trip is the loaded median
/// minus the idle median, which is the time a packet waits in the fullest queue on the path. Graded in words:
/// under kGoodMs nothing is said (Flent's and Crusader's users call a few ms a well-managed queue); from kGoodMs to
/// kWarnMs a note (the queue of a healthy 1 Gbit/s interface, 1000 frames = 12 ms, fills to that under TCP; it is
/// worth knowing, not a fault); from kWarnMs a warning (calls and interactive file access turn sluggish while a
/// transfer runs). Pure functions; every branch unit-tested (TestBufferbloat).
class Bufferbloat
{
public:
    static constexpr double kGoodMs = 5;
    static constexpr double kWarnMs = 30;
    enum class Grade { Unmeasured, Good, Note, Warning };

    /// The grade of what the load added (ms).
    static Grade gradeOf(double addedMs);
    /// The grade of a run: Unmeasured without both phases.
    static Grade gradeOf(const RunLatency &latency);
    /// "good", "note", "warning", "" (Unmeasured): the JSON's word.
    static QString gradeName(Grade grade);

    /// "the queue on the path adds 23 ms at full load (round trip 23.4 ms loaded against 0.4 ms idle, medians);
    /// under 5 ms is good". Empty when the load added less than kGoodMs, or without both phases.
    static QString sentence(const RunLatency &latency);
    /// The sentence when it is a warning (from kWarnMs), else empty: what RunAnalyzer adds to the run's warnings.
    static QString warning(const RunLatency &latency);
    /// The sentence when it is a note (kGoodMs to kWarnMs), else empty: said beside the figures, not a warning.
    static QString note(const RunLatency &latency);
    /// "latency under load +23 ms over the idle 0.4 ms (loaded: median 23.4 ms, p90 24.1 ms, p99 25.0 ms, max
    /// 26.2 ms; idle: ...)", the figures of every measured run; the note when there are none; empty when the run
    /// had no far host.
    static QString figures(const RunLatency &latency);
    /// One test over its runs: "latency under load +23 ms over the idle 0.4 ms (loaded 23 ms; medians of 3 runs)",
    /// and from kGoodMs "; the queue on the path adds 23 ms at full load; under 5 ms is good"; empty when no run
    /// measured both phases.
    static QString testFigures(const Summary &idleMs, const Summary &loadedMs);
    /// "median 23.4 ms, p90 24.1 ms, p99 25.0 ms, max 26.2 ms" (and ", 2 of 40 lost" when some were).
    static QString statsText(const LatencyStats &stats);
    /// A round trip in ms with the digits it needs: "0.05 ms", "0.4 ms", "4.2 ms", "23 ms".
    static QString ms(double value);
};

} // namespace wb
