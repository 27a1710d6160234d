#pragma once

#include "model/RunResult.h"
#include "stats/Units.h"

#include <QList>
#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPTextElement;
class QCPItemText;

namespace wb {

class UnitComboBox;

/// The live graphs of several stored runs (from any sessions) on one time axis: throughput against seconds
/// since each run's start, one line per run, coloured by host (ChartStyle::hostColor), dashed per repetition.
class RunOverlayChart : public QWidget
{
    Q_OBJECT
public:
    struct Line
    {
        QString label; ///< legend text; empty = "host protocol @ frame rep n"
        RunResult run;
    };

    explicit RunOverlayChart(QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    RateUnit unit() const { return m_unit; }
    int lineCount() const { return int(m_graphs.size()); }
    QCPGraph *graph(int index) const { return m_graphs.value(index); }
    QString title() const;
    /// The runs on screen (for footnotes and exports).
    RunResultList runs() const;

    static QString defaultLabel(const RunResult &run);

public slots:
    void setLines(const QList<wb::RunOverlayChart::Line> &lines);
    void setUnit(wb::RateUnit unit);
    void setTitle(const QString &title);

private:
    void rebuild();
    void showContextMenu(const QPoint &pos);

    QCustomPlot *m_plot = nullptr;
    UnitComboBox *m_unitCombo = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPItemText *m_hint = nullptr;
    QList<Line> m_lines;
    QList<QCPGraph *> m_graphs;
    RateUnit m_unit = RateUnit::MBps;
};

} // namespace wb
