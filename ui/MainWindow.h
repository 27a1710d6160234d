#pragma once

#include "MeasurePage.h"
#include "ResultTabs.h"
#include "engine/Engine.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QLabel;

class QTabWidget;

namespace wb {

class ComparisonChart;
class ComparisonView;
class HistoryPanel;
class ResultStore;
class PlanFileActions;
class PreflightGate;
class SessionRecorder;
class StoreSwitcher;
class Config;
class HostListPanel;
class LinkCheckPanel;
class PlanEditorPanel;
class Responder;
class ResultsTable;
class RunControlPanel;
class SummaryTable;
class ThroughputChart;
class LatencyChart;

/// Wires the panels to the engine and the embedded responder; holds no measuring or drawing logic.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// config (and store, when given) must outlive the window. Without a store (or with one that could not be
    /// opened) the window measures as usual and the History and Compare pages say why they are empty.
    explicit MainWindow(Config *config, ResultStore *store = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    HostListPanel *hostList() const { return m_measure->hosts(); }
    PlanEditorPanel *planEditor() const { return m_measure->plan(); }
    RunControlPanel *runControl() const { return m_measure->run(); }
    ThroughputChart *throughputChart() const { return m_measure->live(); }
    LatencyChart *latencyChart() const { return m_measure->latency(); }
    ComparisonChart *comparisonChart() const { return m_measure->comparison(); }
    ResultsTable *resultsTable() const { return m_measure->tabs()->results(); }
    SummaryTable *summaryTable() const { return m_measure->tabs()->summary(); }
    LinkCheckPanel *linkCheck() const { return m_measure->tabs()->linkCheck(); }
    HistoryPanel *historyPanel() const { return m_history; }
    ComparisonView *comparisonView() const { return m_compareView; }
    Engine *engine() { return &m_engine; }
    /// The embedded responder's port, 0 when it is not running.
    quint16 embeddedPort() const;
    /// Moves the store to the server the settings name, if any (not when --store chose one); nullptr without a store.
    StoreSwitcher *storeSwitcher() const { return m_storeSwitcher; }
    void useConfiguredStore();

public slots:
    /// Checks, then starts, the plan of the ticked hosts (PreflightGate: problems are shown first); false (with
    /// the reason in the status line) when it cannot start.
    bool startPlan();
    void stopPlan();
    void showAbout();
    /// The saved geometry when it fits this screen, else a size from the screen's available area, centred.
    void placeOnScreen(const QByteArray &saved);

signals:
    void planDone(bool cancelled);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void startEmbeddedResponder();
    void connectEngine();
    void updateStartEnabled();
    void onPlanFinished(bool cancelled);
    /// Starts plan in the engine, without the runs report's problems stand in the way of.
    void runCheckedPlan(const TestPlan &plan, const PreflightReport &report);
    void connectStore(ResultStore *store);
    /// Opens the session being (or last) measured in History and shows it; false, with a status line, when
    /// the store does not hold it.
    bool openCurrentSessionInHistory();

    Config *m_config = nullptr;
    // Declared before the engine so that the engine (and its running driver) goes first.
    std::unique_ptr<Responder> m_responder;
    Engine m_engine;
    QString m_responderError;
    MeasurePage *m_measure = nullptr; ///< owns and lays out the panels; they are wired here
    QTabWidget *m_pages = nullptr;
    HistoryPanel *m_history = nullptr;
    ComparisonView *m_compareView = nullptr;
    SessionRecorder *m_recorder = nullptr;
    PlanFileActions *m_planFiles = nullptr;
    PreflightGate *m_preflight = nullptr;
    QLabel *m_statusLabel = nullptr;
    QLabel *m_storeLabel = nullptr; ///< where results go (SettingsDialog, StoreSwitcher)
    StoreSwitcher *m_storeSwitcher = nullptr;
    QAction *m_reportAction = nullptr;
    QAction *m_exportDataAction = nullptr;
    qint64 m_lastSessionId = 0; ///< the session with the latest stored run, for File > Report and Export data
};

} // namespace wb
