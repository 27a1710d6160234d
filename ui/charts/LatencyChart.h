#pragma once

#include "model/RunLatency.h"
#include "model/RunResult.h"
#include "model/RunSpec.h"

#include <QHash>
#include <QTimer>
#include <QWidget>

class QCPAxis;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;

namespace wb {

class Engine;

/// The live latency graph under the live throughput graph: the round trip to the host (ms) while each repetition
/// of the current test moves data, one line per repetition, on the throughput graph's time axis (followTimeAxis),
/// and the idle round trip before the load as a dashed line. Round trips are appended as the engine batches them
/// (Engine::latencyReady); drawing happens on a ~100 ms timer with rpQueuedReplot, as the throughput graph's. A lost
/// probe is a gap in its line. When a run ends, its line takes the run's own record (RunResult::latency).
class LatencyChart : public QWidget
{
    Q_OBJECT
public:
    explicit LatencyChart(QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    /// The line of run runIndex (RunSpec::index), or nullptr.
    QCPGraph *graphForRun(int runIndex) const;
    int lineCount() const { return int(m_lines.size()); }
    /// The idle median drawn (ms), negative when none.
    double idleLineMs() const;
    QString idleLabel() const;
    QString hint() const;
    /// Follows the engine's runs and their round trips.
    void follow(const Engine *engine);
    /// Keeps this graph's time range the same as axis's (the live throughput graph's).
    void followTimeAxis(QCPAxis *axis);

public slots:
    void clear();
    void onPlanStarted();
    void onRunStarted(const wb::RunSpec &spec);
    void addSamples(const wb::LatencySampleList &samples);
    void onRunFinished(const wb::RunResult &result);
    void replotNow();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    /// Shows `text` over the plot, wrapped to its width.
    void showHint(const QString &text);

    struct Line
    {
        QCPGraph *graph = nullptr;
        double maxMs = 0;
        QList<double> idle; ///< idle round trips (ms) seen live, for the dashed line until the run ends
    };
    void add(Line &line, const LatencySample &s);
    void showIdle(double medianMs);
    void updateValueAxis();

    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPItemText *m_hint = nullptr;
    QString m_hintText; ///< the hint before wrapping, wrapped again at each resize
    QCPItemStraightLine *m_idleLine = nullptr;
    QCPItemText *m_idleText = nullptr;
    QTimer m_replotTimer;
    bool m_dirty = false;
    QString m_testKey;
    QHash<int, Line> m_lines; ///< by RunSpec::index
};

} // namespace wb
