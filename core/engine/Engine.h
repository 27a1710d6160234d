#pragma once

#include "PreflightReport.h"
#include "model/RunResult.h"
#include "model/Sample.h"
#include "plan/TestPlan.h"

#include <QObject>
#include <QThread>

#include <memory>

namespace wb {

class EngineWorker;

/// Runs a plan's matrix on a worker thread it owns. Lives on the caller's (GUI) thread; every signal
/// carries plain value types and arrives queued.
class Engine : public QObject
{
    Q_OBJECT
public:
    explicit Engine(QObject *parent = nullptr);
    ~Engine() override;

    bool isRunning() const { return m_running; }
    /// Takes a copy of the plan: the caller may edit the next one while this runs.
    /// Returns false (and emits nothing) when a plan is already running or the plan is invalid.
    /// The runs that a problem of `checked` (Preflight) stands in the way of are not run: each is reported
    /// (runFinished) with status NotRun and the problem, in its turn.
    bool start(const TestPlan &plan, const PreflightReport &checked = {});
    /// The current run ends within a second; finished runs stay reported.
    void stop();

signals:
    void planStarted(int runCount);
    void runStarted(const wb::RunSpec &spec);
    void samplesReady(const wb::SampleList &samples);
    void latencyReady(const wb::LatencySampleList &samples); ///< the latency probe's round trips (EngineWorker)
    void statusChanged(const QString &text);
    void runFinished(const wb::RunResult &result);
    /// runsDone of runsTotal; secondsLeft is the estimated time to the end of the plan.
    void progressChanged(int runsDone, int runsTotal, double secondsLeft);
    void planFinished(bool cancelled);

private:
    void onWorkerFinished(bool cancelled);

    QThread m_thread;
    EngineWorker *m_worker = nullptr; // owned by m_thread's finished() -> deleteLater
    bool m_running = false;
};

/// Registers the value types with the meta-type system (idempotent). Called by Engine's constructor.
void registerEngineMetaTypes();

} // namespace wb
