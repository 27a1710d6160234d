#pragma once

#include "PreflightReport.h"
#include "analysis/RunAnalyzer.h"
#include "identity/SmbIdentityProbe.h"
#include "latency/LatencyRecorder.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"
#include "protocols/ProtocolDriver.h"
#include "protocols/tcp/FarCounters.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>

#include <atomic>

namespace wb {

/// The QObject that lives on the engine's thread and runs one plan at a time, blocking that thread
/// (never the GUI's). Stop is an atomic flag the drivers poll.
class EngineWorker : public QObject, private RunObserver
{
    Q_OBJECT
public:
    explicit EngineWorker(QObject *parent = nullptr);

    void requestStop() { m_stop.store(true); }

public slots:
    /// checked: what the check before the first run found (Engine::start).
    void runPlan(const wb::TestPlan &plan, const wb::PreflightReport &checked = {});

signals:
    void planStarted(int runCount);
    void runStarted(const wb::RunSpec &spec);
    void samplesReady(const wb::SampleList &samples);
    /// Round trips of the latency probe on the run's clock, batched with the samples (LatencyRecorder).
    void latencyReady(const wb::LatencySampleList &samples);
    void statusChanged(const QString &text);
    void runFinished(const wb::RunResult &result);
    void progressChanged(int runsDone, int runsTotal, double secondsLeft);
    void planFinished(bool cancelled);

private:
    void sample(const Sample &sample) override;
    bool stopRequested() const override { return m_stop.load(); }
    void status(const QString &text) override;
    void timedPartStarts() override;
    void timedPartEnds() override;
    void flushSamples();
    RunResult runOne(const RunSpec &spec);
    static QString stabilityKey(const RunSpec &spec);
    double estimateSecondsLeft(const QList<RunSpec> &runs, int current) const;
    void addSmbIdentity(RunResult &result);
    /// Why spec cannot work, so is not run: a problem the check found, or a failure of an earlier repetition
    /// of the same test that repeating cannot cure. Empty: run it.
    QString doomedReason(const RunSpec &spec) const;
    void noteLastingFailure(RunResult &result);

    std::atomic_bool m_stop{false};
    SampleList m_pendingSamples;
    QElapsedTimer m_sinceFlush;
    QElapsedTimer m_runClock;
    qint64 m_leadMs = 0;         ///< m_runClock when the driver started (after the latency probe's idle lead)
    double m_secondsPerByte = 0; ///< learnt from finished sized runs, for the time-left estimate
    QList<RunSpec> m_runs;       ///< the running plan, expanded
    int m_current = 0;
    int m_doneCount = 0;       ///< runs finished (skipped repetitions of settled tests not counted)
    int m_totalCount = 0;      ///< runs the plan will make, as far as known now
    RunAnalyzer m_analyzer;    ///< link, ceiling, CPU cost, warnings and bottleneck around each run
    LatencyRecorder m_latency; ///< round trips to the host before and during each run, on their own thread
    QHash<QString, SmbIdentityProbe::Result> m_smbIdentity; ///< per SMB server (address:port), once per plan
    PreflightReport m_checked;                              ///< the running plan's check before its first run
    QHash<QString, RunResult> m_lasting;                    ///< per test: its first failure that repeating cannot cure
    /// A file transfer's far end, when the host also runs wirebenchd: its counters over the timed part.
    FarCounters m_far;
    QVariantMap m_farDrops;  ///< what m_far said at the timed part's end (empty: nothing)
    QSet<QString> m_farNone; ///< the wirebenchds (address:port) that gave no counters, asked once per plan
    /// Greets the far end's wirebenchd before a file transfer (FTP, SMB) to a host that has one.
    void greetFarEnd(const RunSpec &spec);
};

} // namespace wb
