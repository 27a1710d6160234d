#pragma once

#include "CliOptions.h"
#include "engine/Engine.h"
#include "storage/ResultStore.h"
#include "storage/SessionRecorder.h"

#include <QObject>
#include <QTimer>

namespace wb::cli {

/// `wirebench-cli run`: drives the same Engine as the GUI, prints one line per finished run and a summary
/// per test, writes the requested files and returns the exit status.
class RunCommand : public QObject
{
    Q_OBJECT
public:
    explicit RunCommand(const CliOptions &options, QObject *parent = nullptr);

    /// Runs the plan in the application's event loop; returns the process exit status.
    int exec();

private:
    void onPlanStarted(int runCount);
    void onRunFinished(const wb::RunResult &result);
    void onPlanFinished(bool cancelled);
    void checkInterrupt();
    QString runLine(const RunResult &result) const;
    QString figureText(qint64 bytes, double seconds) const;
    void printSummary();
    bool writeOutputs();
    /// 0 when every run the engine reported succeeded, 1 when one failed or was not run (said in one line on
    /// stderr) or a file could not be written, 130 when interrupted.
    int exitStatus(qsizetype reported, bool cancelled, bool written) const;

    CliOptions m_options;
    Engine m_engine;
    ResultStore m_store;
    SessionRecorder m_recorder{&m_engine, &m_store};
    QTimer m_signalPoll;
    RunResultList m_results;
    PreflightReport m_checked; ///< what the check before the first run found
    int m_runCount = 0;
    bool m_interrupted = false;
};

} // namespace wb::cli
