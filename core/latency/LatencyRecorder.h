#pragma once

#include "LatencyProbe.h"

#include "model/RunLatency.h"
#include "model/RunSpec.h"
#include "model/Sample.h"
#include "protocols/DriverRegistry.h"

#include <functional>
#include <memory>

namespace wb {

/// The latency probe around one run, for the engine's worker: the target, an idle lead of
/// `latency.idle_ms` (TestParams::options, default kDefaultIdleMs; 0 turns the probe off) before the driver
/// starts, a pause while it sets up, the load from its first sample with bytes, and the rounds put on the run's
/// clock: the throughput samples' (their t = 0 is the meter's start, seen as the earliest arrival minus its
/// endSeconds), so both graphs share one time axis.
class LatencyRecorder
{
public:
    static constexpr int kDefaultIdleMs = 2000;
    static constexpr int kTargetTimeoutMs = 2000;
    static QString idleOption() { return QStringLiteral("latency.idle_ms"); }
    /// The plan-wide setting behind idleOption(), for `--set`, `wirebench-cli protocols` and the plan editor.
    static OptionSpec planOption();
    /// The idle lead of a run of `protocol` (ms): the option, or 0 for a protocol without a far host to probe and
    /// for a reference stream (TestPlan::ReferenceKey).
    /// The one rule that the engine, its time estimate, the CLI's plan length and the plan editor's use.
    static int idleMsOf(const TestParams &params, const QString &protocol);
    static int idleMsOf(const RunSpec &spec) { return idleMsOf(spec.params, spec.protocol); }

    /// Finds the target and probes the idle path for the lead (returns early once stop() says so). Blocking.
    void begin(const RunSpec &spec, const std::function<bool()> &stop);
    void driverStarts();
    void sampled(const Sample &sample); ///< every sample of the run, as it reaches the worker
    /// The rounds finished since the last call, on the run's clock; none until the run's clock is known.
    LatencySampleList takeLive();
    /// Stops the probe (waiting at most LatencyProbe::kTimeoutMs for answers on their way) and sums the run up.
    RunLatency finish();

private:
    void collect();
    LatencySample onRunClock(const LatencyProbe::Round &round) const;

    RunSpec m_spec;
    LatencyTarget m_target;
    std::unique_ptr<LatencyProbe> m_probe;
    QList<LatencyProbe::Round> m_rounds;
    qsizetype m_shown = 0;
    std::int64_t m_driverStartNs = 0;
    std::int64_t m_originNs = -1; ///< the meter's start on the steady clock; -1 until the first sample
    bool m_loaded = false;
};

} // namespace wb
