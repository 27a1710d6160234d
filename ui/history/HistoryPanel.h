#pragma once

#include "model/RunResult.h"
#include "storage/StoreTypes.h"

#include <QList>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace wb {

class ComparisonChart;
class ResultStore;
class ResultsTable;
class ThroughputChart;

/// The history: the stored sessions (date, hosts, protocols, frame sizes, state, runs) with a search box and a
/// state filter. Opening one shows its results table, its live graphs replayed from the stored samples (one test
/// at a time, as during the run) and its comparison chart; it can be reported (HTML + PDF), exported (CSV, JSON),
/// handed to the comparison view, or deleted after a confirmation.
class HistoryPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column { Date, Hosts, Protocols, FrameSizes, State, Runs, Computer, ColumnCount };

    /// `store` is not owned and must outlive the panel; a closed store shows its error and an empty list.
    explicit HistoryPanel(ResultStore *store, QWidget *parent = nullptr);

    QTableWidget *sessionTable() const { return m_table; }
    /// Lists the next page of older sessions (shown when the list holds a full page and the store has more).
    QPushButton *moreButton() const { return m_moreButton; }
    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *stateCombo() const { return m_stateCombo; }
    QComboBox *testCombo() const { return m_testCombo; }
    ResultsTable *resultsTable() const { return m_results; }
    ThroughputChart *throughputChart() const { return m_throughput; }
    ComparisonChart *comparisonChart() const { return m_comparison; }
    /// The sessions listed, in table order.
    SessionInfoList sessions() const { return m_sessions; }
    qint64 openSessionId() const { return m_openId; }
    RunResultList openRuns() const { return m_openRuns; }
    /// Ids of the selected rows.
    QList<qint64> selectedSessionIds() const;

public slots:
    /// Re-reads the list from the store with the current search text and state filter.
    void refresh();
    /// Shows one session's table, live graphs and chart. Returns false when it is not in the store.
    bool openSession(qint64 sessionId);
    /// Replays the stored samples of test `index` of testCombo() into the live graph.
    void showTest(int index);
    /// Deletes a session; with askFirst a confirmation dialog comes first. Returns true when it was deleted.
    bool deleteSession(qint64 sessionId, bool askFirst = true);
    /// The open session's report (either path may be empty). Returns false with a one-line reason.
    bool writeReport(const QString &htmlPath, const QString &pdfPath, QString *error = nullptr);
    /// The open session's runs as CSV (.csv) or JSON in the documented schema with samples (.json).
    bool exportData(const QString &path, QString *error = nullptr);
    /// Asks for an HTML file name, then writes the open session's report there and a PDF beside it.
    void askReport();
    /// Asks for a .csv or .json file name, then exports the open session's runs there.
    void askExportData();

signals:
    void sessionOpened(qint64 sessionId);
    void sessionDeleted(qint64 sessionId);
    /// The user asked to compare these sessions (MainWindow hands them to ComparisonView::addSession).
    void compareRequested(const QList<qint64> &sessionIds);
    /// The user wants to run the open session's plan again (MainWindow puts it into the Measure tab).
    void planRequested(const wb::TestPlan &plan);

private:
    void buildUi();
    void onCurrentRowChanged();
    void askDelete();
    void updateButtons();

    ResultStore *m_store = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_stateCombo = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_moreButton = nullptr;
    QLabel *m_sessionLabel = nullptr;
    QPushButton *m_compareButton = nullptr;
    QPushButton *m_reportButton = nullptr;
    QPushButton *m_exportButton = nullptr;
    QPushButton *m_usePlanButton = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QTabWidget *m_tabs = nullptr;
    ResultsTable *m_results = nullptr;
    QComboBox *m_testCombo = nullptr;
    ThroughputChart *m_throughput = nullptr;
    ComparisonChart *m_comparison = nullptr;
    QTimer m_searchTimer;
    /// While History is shown, a look every few seconds at what another writer (a scheduled run, a second window or
    /// wirebench-cli) changed in the store: new sessions and runs appear without Refresh.
    QTimer m_watchTimer;
    QString m_seenMark; ///< the store's change mark when the list was last read
    static constexpr int kPage = 200;
    int m_pageLimit = kPage; ///< sessions listed: a page, and another for each "Show older"
    SessionInfoList m_sessions;
    qint64 m_openId = 0;
    RunResultList m_openRuns;
};

} // namespace wb
