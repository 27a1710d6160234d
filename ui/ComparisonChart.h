#pragma once

#include "model/RunResult.h"
#include "stats/Units.h"

#include <QList>
#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPErrorBars;
class QCPItemText;
class QCPTextElement;

namespace wb {

class UnitComboBox;

/// The comparison bar chart: one group per test (protocol x frame size), one bar per host, bar height the
/// median over the successful repetitions, error bars from min to max, a value label on every bar and a
/// legend "host name (OS label)". A host keeps its colour (ChartStyle::hostColor).
class ComparisonChart : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonChart(QWidget *parent = nullptr);

    RateUnit unit() const { return m_unit; }
    QCustomPlot *plot() const { return m_plot; }
    const RunResultList &results() const { return m_results; }

    /// Tests in the order of their groups on the x axis ("tcp-send @ 1500").
    QStringList testKeys() const { return m_testKeys; }
    /// The bars of a host (by display name); key i + 1 +/- offset is test i. nullptr if unknown.
    QCPBars *barsForHost(const QString &hostName) const;
    QCPErrorBars *errorBarsForHost(const QString &hostName) const;
    /// Texts of the value labels, in drawing order.
    QStringList valueLabels() const;
    QString title() const;

public slots:
    void setUnit(wb::RateUnit unit);
    void clear();
    void addResult(const wb::RunResult &result);
    void setResults(const wb::RunResultList &results);

signals:
    void unitChanged(wb::RateUnit unit);

private:
    struct HostBars
    {
        QString name;
        QCPBars *bars = nullptr;
        QCPErrorBars *errors = nullptr;
    };

    void rebuild();
    void showContextMenu(const QPoint &pos);

    QCustomPlot *m_plot = nullptr;
    UnitComboBox *m_unitCombo = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPItemText *m_hint = nullptr;
    QList<QCPItemText *> m_labels;
    QList<HostBars> m_hostBars;
    QStringList m_testKeys;
    RunResultList m_results;
    RateUnit m_unit = RateUnit::MBps;
};

} // namespace wb
