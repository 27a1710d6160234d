#pragma once

#include "model/RunResult.h"
#include "stats/Units.h"
#include "storage/StoreTypes.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPBars;
class QCPErrorBars;
class QCPItemText;
class QCPTextElement;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace wb {

class GroupedBars;
class ResultStore;
class RunOverlayChart;
class FindingsPanel;
class UnitComboBox;

/// A stored run as the comparison view holds it: the run and the session it came from.
struct ComparedRun
{
    qint64 sessionId = 0;
    QString sessionLabel; ///< "2024-05-01 14:03 (#12)" or the import's title
    RunResult run;
};

/// What forms the groups on the x axis, or the bars within a group.
enum class CompareDimension { Test, Protocol, FrameSize, Host, Os, Session };
enum class ErrorBarMode { MinMax, Ci95, None };

/// Any selection of runs from any sessions side by side. The user picks what forms the groups and what forms the
/// bars within a group ("Linux versus Windows per test at 1500 and at 9000": groups = test, bars = OS), error bars
/// (min-max around the median, or the 95% confidence interval around the mean), value labels with their unit and,
/// on request, the percentage of the line-rate ceiling. A second tab overlays the selected runs' live graphs.
class ComparisonView : public QWidget
{
    Q_OBJECT
public:
    /// One bar: the ok runs of one (group, bar) pair.
    struct BarValue
    {
        QString group;
        QString bar;
        int okRuns = 0;
        int failedRuns = 0;
        double value = 0;             ///< bytes/s: the median (MinMax, None) or the mean (Ci95)
        double low = 0;               ///< bytes/s: lower end of the error bar
        double high = 0;              ///< bytes/s: upper end
        double percentOfCeiling = -1; ///< median of the runs' extra "percent_of_ceiling"; -1 = unknown
        double idleLatencyMs = -1;    ///< median of the runs' idle round-trip medians (RunLatency); -1 = none measured
        double loadedLatencyMs = -1;  ///< the same of their loaded medians
    };

    /// `store` is not owned and may be nullptr (then only setRuns() feeds the view).
    explicit ComparisonView(ResultStore *store, QWidget *parent = nullptr);
    ~ComparisonView() override;

    static QString dimensionName(CompareDimension dimension);
    static QString keyOf(const ComparedRun &run, CompareDimension dimension);
    /// The bars for a selection: groups in order (frame sizes ascending, others first seen), bars likewise.
    static QList<BarValue> computeBars(const QList<ComparedRun> &runs, CompareDimension groups, CompareDimension bars,
                                       ErrorBarMode mode, QStringList *groupKeys = nullptr,
                                       QStringList *barKeys = nullptr);

    QList<ComparedRun> selectedRuns() const { return m_selected; }
    CompareDimension groupDimension() const;
    CompareDimension barDimension() const;
    ErrorBarMode errorBarMode() const;
    RateUnit unit() const { return m_unit; }

    QCustomPlot *barPlot() const { return m_plot; }
    RunOverlayChart *overlayChart() const { return m_overlay; }
    QStringList groupKeys() const { return m_groupKeys; }
    QStringList barKeys() const { return m_barKeys; }
    /// The bars of one bar key (e.g. a host or "Linux"); key i + 1 +/- offset is group i. nullptr if unknown.
    QCPBars *barsFor(const QString &barKey) const;
    QCPErrorBars *errorBarsFor(const QString &barKey) const;
    QStringList valueLabels() const;
    QString title() const;
    QString footnote() const;
    /// What the compared runs show together, as the panel under the chart shows it.
    const FindingsPanel *findingsPanel() const { return m_findings; }

public slots:
    /// Re-reads the session list from the store (keeps what is checked).
    void reload();
    /// Checks every run of a stored session (loading it).
    void addSession(qint64 sessionId);
    /// Replaces the selection (clears the tree's checks).
    void setRuns(const QList<wb::ComparedRun> &runs);
    void setGrouping(wb::CompareDimension groups, wb::CompareDimension bars);
    void setErrorBarMode(wb::ErrorBarMode mode);
    void setShowPercentOfCeiling(bool show);
    /// Adds each bar's latency under load (what the load added to the idle round trip) to its label.
    void setShowLatency(bool show);
    void setUnit(wb::RateUnit unit);
    /// Draws now (normally a zero-delay timer coalesces changes).
    void rebuildNow();

signals:
    void selectionChanged(int runCount);

private:
    void buildUi();
    void loadSessionChildren(QTreeWidgetItem *sessionItem);
    QTreeWidgetItem *addSessionItem(const SessionInfo &info);
    void onItemChanged(QTreeWidgetItem *item, int column);
    void collectSelection();
    void scheduleRebuild();
    void rebuildBars();
    QString legendOf(const QString &barKey, CompareDimension bars) const;
    void rebuildOverlay();
    void exportBars();
    void copyBars();

    ResultStore *m_store = nullptr;
    QTreeWidget *m_tree = nullptr;
    QComboBox *m_groupCombo = nullptr;
    QComboBox *m_barCombo = nullptr;
    QComboBox *m_errorCombo = nullptr;
    QCheckBox *m_ceilingCheck = nullptr;
    QCheckBox *m_latencyCheck = nullptr;
    UnitComboBox *m_unitCombo = nullptr;
    QTabWidget *m_tabs = nullptr;
    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPItemText *m_hint = nullptr;
    RunOverlayChart *m_overlay = nullptr;
    FindingsPanel *m_findings = nullptr;
    std::unique_ptr<GroupedBars> m_bars;
    QStringList m_groupKeys;
    QStringList m_barKeys;
    QList<ComparedRun> m_selected;
    /// The tree lists the newest sessions; older ones come when History hands them over (addSession).
    static constexpr int kTreePage = 300;
    QList<qint64> m_added;
    QHash<qint64, QList<ComparedRun>> m_loaded; ///< session id -> its runs (loaded on demand)
    QTimer m_rebuildTimer;
    RateUnit m_unit = RateUnit::MBps;
    bool m_updatingTree = false;
    bool m_manualSelection = false; ///< setRuns() fed the selection, not the tree
};

} // namespace wb

Q_DECLARE_METATYPE(wb::ComparedRun)
