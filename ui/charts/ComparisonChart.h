#pragma once

#include "model/RunResult.h"
#include "stats/Units.h"

#include <QList>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPBars;
class QCPErrorBars;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;

namespace wb {

class GroupedBars;
class UnitComboBox;
struct TestSummary;

/// The comparison bar chart: one group per test (protocol x frame size), one bar per host, a value label
/// on every bar and a legend "host name (OS label)". A host keeps its colour (ChartStyle::hostColor).
/// Error bars (the user chooses): the bar is the median with error bars from min to max, or the mean with
/// its 95% confidence interval (Student's t). A bar whose runs carry a warning gets a red outline and a
/// "!" in its label (the warning in its tooltip and in a note under the legend). A test that was not run
/// (e.g. a frame larger than the path MTU) leaves a gap labelled "not run" instead of a zero bar.
/// The x ticks say the frame size and the MSS actually used ("tcp-send\n1500 B frame\nMSS 1448 B").
class ComparisonChart : public QWidget
{
    Q_OBJECT
public:
    enum class ErrorBars { MinMax, Ci95 };

    /// A bar that carries a warning (or a gap that was not run), for tooltips and tests.
    struct Marker
    {
        QString host; ///< display name
        QString test; ///< "tcp-send @ 1500"
        QString text; ///< the warnings (or the not-run reason), one per line
        QRectF area;  ///< plot coordinates the tooltip answers in
        bool notRun = false;
    };

    explicit ComparisonChart(QWidget *parent = nullptr);
    ~ComparisonChart() override;

    RateUnit unit() const { return m_unit; }
    ErrorBars errorBars() const { return m_errorBars; }
    bool showsPercentOfCeiling() const { return m_showPercent; }
    QCustomPlot *plot() const { return m_plot; }
    const RunResultList &results() const { return m_results; }

    /// Tests in the order of their groups on the x axis ("tcp-send @ 1500").
    QStringList testKeys() const { return m_testKeys; }
    /// The x tick texts, one per test ("tcp-send\n1500 B frame\nMSS 1448 B").
    QStringList tickLabels() const { return m_tickLabels; }
    /// The bars of a host (by display name); key i + 1 +/- offset is test i. nullptr if unknown.
    QCPBars *barsForHost(const QString &hostName) const;
    QCPErrorBars *errorBarsForHost(const QString &hostName) const;
    /// Texts of the value labels, in drawing order.
    QStringList valueLabels() const;
    QString title() const;
    /// Bars with warnings (notRun false) and not-run gaps (notRun true).
    QList<Marker> markers() const { return m_markers; }
    /// The red outlines drawn around bars with warnings.
    QList<QCPItemRect *> warningOutlines() const { return m_outlines; }
    /// The note under the legend ("! = warning ..."); empty when no bar has one.
    QString warningNote() const;
    /// The text the tooltip shows at a point in plot coordinates; empty when nothing is there.
    QString toolTipAt(double key, double value) const;

public slots:
    void setUnit(wb::RateUnit unit);
    void setErrorBars(wb::ComparisonChart::ErrorBars mode);
    void setShowPercentOfCeiling(bool show);
    void clear();
    void addResult(const wb::RunResult &result);
    void setResults(const wb::RunResultList &results);

signals:
    void unitChanged(wb::RateUnit unit);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuild();
    void setTitle(int maxReps);
    void drawTest(const TestSummary &t, const Host &host, QStringList *noteLines);
    void setNote(QStringList lines);
    /// Shrinks the x tick labels' font (down to 6.5 pt) until each group's label fits under its group.
    void fitTickLabels();
    void showContextMenu(const QPoint &pos);

    QCustomPlot *m_plot = nullptr;
    UnitComboBox *m_unitCombo = nullptr;
    QComboBox *m_errorCombo = nullptr;
    QCheckBox *m_percentCheck = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPTextElement *m_note = nullptr;
    QCPItemText *m_hint = nullptr;
    std::unique_ptr<GroupedBars> m_bars;
    QList<QCPItemRect *> m_outlines;
    QList<Marker> m_markers;
    QStringList m_testKeys;
    QStringList m_tickLabels;
    RunResultList m_results;
    RateUnit m_unit = RateUnit::MBps;
    ErrorBars m_errorBars = ErrorBars::MinMax;
    bool m_showPercent = false;
};

} // namespace wb
