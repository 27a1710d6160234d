#pragma once

#include "engine/Engine.h"
#include "latency/LatencyRecorder.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QSignalSpy>
#include <QString>

namespace wb::test {

/// An engine with spies on the runs it finishes and on its end, for a test that checks each step itself.
struct EngineSpies
{
    Engine engine;
    QSignalSpy finished{&engine, &Engine::runFinished};
    QSignalSpy done{&engine, &Engine::planFinished};
};

/// The latency probe's idle lead before each run of a lab test whose plan sets none: the probe still finds its
/// target, times idle rounds (5 at 10 Hz) and runs through the load as in any run, but a test of a few dozen runs
/// no longer waits the product's 2 s before each (TestTruthSweep: 48 runs, 96 s of its 229 s). A test that judges
/// the probe sets its own (TestLatencyLab: 3 s).
constexpr int kLabIdleLeadMs = 500;

/// `plan` with kLabIdleLeadMs as its idle lead unless it sets one.
inline TestPlan withLabIdleLead(TestPlan plan)
{
    if (!plan.params.options.contains(LatencyRecorder::idleOption()))
        plan.params.options.insert(LatencyRecorder::idleOption(), kLabIdleLeadMs);
    return plan;
}

/// Runs `plan` (withLabIdleLead) on an Engine made here (its worker thread starts in the calling thread's network
/// namespace) until the plan ends or timeoutMs pass: the result of every run that finished, in order. error, when
/// given, says why the list may be short ("" when the plan ran to its end).
inline RunResultList runPlanToEnd(const TestPlan &plan, int timeoutMs, QString *error = nullptr)
{
    Engine engine;
    QSignalSpy finished(&engine, &Engine::runFinished);
    QSignalSpy done(&engine, &Engine::planFinished);
    QString why;
    if (!engine.start(withLabIdleLead(plan)))
        why = QStringLiteral("the engine did not start the plan");
    else if (!done.wait(timeoutMs) && done.isEmpty())
        why = QStringLiteral("the plan did not finish within %1 s").arg(timeoutMs / 1000);
    if (error)
        *error = why;
    RunResultList out;
    for (const QList<QVariant> &args : std::as_const(finished))
        out << args.at(0).value<RunResult>();
    return out;
}

} // namespace wb::test
