#pragma once

#include <QWidget>

class QSplitter;
class QStackedLayout;
class QTabWidget;

namespace wb {

class ComparisonChart;
class Config;
class HostListPanel;
class LatencyChart;
class PlanEditorPanel;
class ResultTabs;
class RunControlPanel;
class ThroughputChart;

/// The Measure page: hosts and plan on the left; run control, the live throughput graph with the latency graph
/// under it, the comparison chart and the result tabs on the right. It lays the panels out and keeps the user's
/// splitter positions; MainWindow wires the panels to the engine and to each other.
class MeasurePage : public QWidget
{
    Q_OBJECT
public:
    explicit MeasurePage(Config *config, QWidget *parent = nullptr);

    HostListPanel *hosts() const { return m_hosts; }
    PlanEditorPanel *plan() const { return m_plan; }
    RunControlPanel *run() const { return m_run; }
    ThroughputChart *live() const { return m_live; }
    LatencyChart *latency() const { return m_latency; }
    ComparisonChart *comparison() const { return m_comparison; }
    ResultTabs *tabs() const { return m_tabs; }

    void restoreLayout(const Config &config);
    void saveLayout(Config &config) const;

    /// Below this width the live graph and the comparison chart share one place as two tabs ("Live", "Comparison")
    /// instead of standing side by side: narrower, side by side, the comparison chart's
    /// controls fall off its edge (a 1366 or 1280 px wide screen, 1920 at 150% or 1920 with a 1600 px window).
    static constexpr int kCompactWidth = 1800;
    bool isCompact() const { return m_compact; }
    /// The tabs of the compact layout (hidden in the wide one).
    QTabWidget *chartTabs() const { return m_chartTabs; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void setCompact(bool compact);

    QList<QSplitter *> splitters() const;

    HostListPanel *m_hosts = nullptr;
    PlanEditorPanel *m_plan = nullptr;
    RunControlPanel *m_run = nullptr;
    ThroughputChart *m_live = nullptr;
    LatencyChart *m_latency = nullptr; ///< under m_live, on its time axis
    ComparisonChart *m_comparison = nullptr;
    ResultTabs *m_tabs = nullptr; ///< runs, summary per test, findings, link check
    QTabWidget *m_chartTabs = nullptr;
    QStackedLayout *m_chartStack = nullptr; ///< m_chartSplitter (wide) or m_chartTabs (compact)
    bool m_compact = false;
    bool m_layoutRestored = false; ///< the splitters came from the settings: no default sizes over them
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_rightSplitter = nullptr;
    QSplitter *m_chartSplitter = nullptr;
    QSplitter *m_liveSplitter = nullptr;
};

} // namespace wb
