#pragma once

#include "model/RunResult.h"
#include "model/RunSpec.h"
#include "model/Sample.h"
#include "StreamLines.h"
#include "stats/Units.h"

#include <QHash>
#include <QList>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;

namespace wb {

class Engine;
class UnitComboBox;

/// The live graph: throughput against time, one line per repetition of the current test.
/// Samples are appended to the graphs' data as they arrive (sorted, at the end); drawing happens on a ~100 ms
/// timer with rpQueuedReplot. A redraw's cost follows the points drawn, not the points held: QCustomPlot's
/// adaptive sampling draws a dense line as its minimum and maximum per pixel column, so a short dip stays
/// visible; a dense line is drawn with a 1 px pen (Qt's fast path for thin lines: a 2 px antialiased line is
/// stroked as a polygon, ~10x the cost), and the axes follow a running maximum, not a scan of the data.
/// Every sample is held up to kMaxPointsPerLine (four hours at 10 Hz); past that, neighbours are merged in pairs
/// (byte-weighted) so memory stays bounded. Display only: the results and the store keep every sample.
class ThroughputChart : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxPointsPerLine = 4 * 3600 * 10;
    /// A line with more points than this (or of a timed test that will have more) is drawn with a 1 px pen (it is
    /// as wide as a few hundred pixels).
    static constexpr int kThinPenAbove = 600;

    explicit ThroughputChart(QWidget *parent = nullptr);

    RateUnit unit() const { return m_unit; }
    QCustomPlot *plot() const { return m_plot; }
    /// The line of repetition rep (1-based) of the current test, or nullptr.
    QCPGraph *graphForRepetition(int rep) const;
    /// Both ways at once: the line of the second direction (server -> client) of repetition rep, or nullptr.
    QCPGraph *reverseGraphForRepetition(int rep) const;
    /// The thin line of parallel stream `stream` (1-based) under repetition rep's line, or nullptr (one stream, or
    /// none of its samples came yet). Drawn while eachStreamShown().
    QCPGraph *streamGraph(int rep, int stream) const;
    bool eachStreamShown() const { return m_eachStream; }
    /// The "Each stream" check box: shown while a line of the test on screen has more than one stream.
    QCheckBox *eachStreamCheck() const { return m_eachStreamCheck; }
    int lineCount() const { return int(m_series.size()); }
    /// Seconds of warm-up shaded at the start of the time axis (0 = none shown).
    double warmupShownSeconds() const;
    /// The line under an exported live graph: the host (with OS), frame size and date of the lines shown.
    QString exportFootnote() const;
    QString title() const;
    /// The grey text over the chart while no line has a point (waiting, or what became of the runs); empty when
    /// hidden.
    QString hint() const;
    /// Follows a plan on the engine: its start, each run's start, samples and end, and the plan's end.
    void follow(const Engine *engine);

public slots:
    void setUnit(wb::RateUnit unit);
    /// Draws each parallel stream's line under the sum (on request: the sum is the figure).
    void setEachStreamShown(bool shown);
    void clear();
    void onPlanStarted(int runCount);
    void onRunStarted(const wb::RunSpec &spec);
    void addSamples(const wb::SampleList &samples);
    void onRunFinished(const wb::RunResult &result);
    /// Until a line has a point the hint says what became of the runs, rather than waiting for ever.
    void onPlanFinished(bool cancelled);
    /// Draws pending changes now (normally the timer does it).
    void replotNow();

signals:
    void unitChanged(wb::RateUnit unit);

private:
    struct Series
    {
        int runIndex = 0;
        int repetition = 0;
        bool reverse = false; ///< the second direction of a run both ways at once
        QCPGraph *graph = nullptr;
        QVector<double> end; ///< seconds since the run's start
        QVector<double> bytes;
        QVector<double> interval; ///< seconds
        int stride = 1;           ///< raw samples per stored point after decimation
        double maxValue = 0;      ///< the largest point, in the chart's unit
        bool thinPen = false;
        double pendingBytes = 0;
        double pendingInterval = 0;
        int pendingCount = 0;
        StreamLines streams; ///< each parallel stream's line, point for point with this one
    };

    /// How the runs ended, for the hint when no sample came.
    struct RunCounts
    {
        int ok = 0;
        int failed = 0;
        int notRun = 0;
        int cancelled = 0;
        void add(RunStatus status);
        int total() const { return ok + failed + notRun + cancelled; }
    };

    /// The position in m_series of the line a sample belongs to (a run's second direction's is made on its first
    /// sample), -1 for none.
    int seriesFor(const Sample &sample);
    bool hasPoints() const;
    QString noSamplesText(bool planEnded, bool cancelled) const;
    void appendPoint(Series &s, const Sample &sample);
    void updateStreamsNote();
    void decimate(Series &s);
    void rebuildGraph(Series &s);
    void setLinePen(Series &s, bool thin) const;
    void updateAxes();
    void showContextMenu(const QPoint &pos);
    double valueOf(double bytes, double interval) const;

    QCustomPlot *m_plot = nullptr;
    UnitComboBox *m_unitCombo = nullptr;
    QCheckBox *m_eachStreamCheck = nullptr;
    bool m_eachStream = false;
    QCPTextElement *m_title = nullptr;
    QCPItemText *m_hint = nullptr;
    QCPItemRect *m_warmupBand = nullptr; ///< the leading time left out of the figure
    QCPItemText *m_warmupLabel = nullptr;
    QTimer m_replotTimer;
    bool m_dirty = false;
    RateUnit m_unit = RateUnit::MBps;
    QString m_testLabel;
    QString m_testKey; ///< host + protocol + frame of the lines on screen
    double m_durationSeconds = 0;
    bool m_pointsShown = false; ///< dots on the lines (file transfers)
    QList<Series> m_series;
    RunResultList m_shownRuns;     ///< spec and start of each line, for the export's footnote
    QHash<int, int> m_seriesByRun; ///< RunSpec::index (-1 - index: its second direction) -> m_series position
    int m_planRuns = 0;
    bool m_planHadPoints = false; ///< a line of this plan had a point (maybe of a test cleared since)
    RunCounts m_planCounts;       ///< every run of the plan so far
    RunCounts m_testCounts;       ///< the runs of the test on screen
};

} // namespace wb
