// The history panel against a real store in a temporary folder, filled through the ResultStore API.
#include "ComparisonChart.h"
#include "HistoryPanel.h"
#include "HistoryTestData.h"
#include "ResultsTable.h"
#include "ThroughputChart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QDir>
#include <QTabWidget>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTest>

using namespace wb;

class TestHistoryPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void listsSessions();
    void stateFilterAndSearch();
    void openShowsTableGraphsAndChart();
    void deleteRemovesSession();
    void closedStoreShowsReason();
    void listsAPageOfALargeStore();
    void marksScheduledSessions();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ResultStore> m_store;
    qint64 m_big = 0;   // linux + windows, 1500 and 9000, 3 reps, finished
    qint64 m_small = 0; // linux, 1500, interrupted
};

void TestHistoryPanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<ResultStore>();
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));
    const QDateTime t0(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC);
    m_big = histtest::addSession(*m_store,
                                 histtest::plan({histtest::linuxHost(), histtest::windowsHost()}, {1500, 9000}), t0);
    m_small = histtest::addSession(*m_store, histtest::plan({histtest::linuxHost()}, {1500}, 2), t0.addDays(1),
                                   SessionState::Interrupted);
    QVERIFY(m_big > 0);
    QVERIFY(m_small > 0);
}

void TestHistoryPanel::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void TestHistoryPanel::listsSessions()
{
    HistoryPanel panel(m_store.get());
    QTableWidget *table = panel.sessionTable();
    QCOMPARE(table->rowCount(), 2);
    // Newest first: the interrupted linux-only session, then the big one.
    QCOMPARE(panel.sessions().at(0).id, m_small);
    QCOMPARE(table->item(0, HistoryPanel::State)->text(), QStringLiteral("interrupted"));
    QCOMPARE(table->item(1, HistoryPanel::State)->text(), QStringLiteral("finished"));
    QVERIFY(table->item(1, HistoryPanel::Hosts)->text().contains(QStringLiteral("win-fs (Windows Server 2003)")));
    QVERIFY(table->item(1, HistoryPanel::Hosts)->text().contains(QStringLiteral("linux-fs (Linux)")));
    QCOMPARE(table->item(1, HistoryPanel::FrameSizes)->text(), QStringLiteral("1500, 9000 B"));
    QCOMPARE(table->item(1, HistoryPanel::Protocols)->text(), QStringLiteral("tcp-send, tcp-recv"));
    QCOMPARE(table->item(1, HistoryPanel::Runs)->text(), QStringLiteral("24/24 of 24"));
    QCOMPARE(table->item(0, HistoryPanel::Runs)->text(), QStringLiteral("4/4 of 4"));
    // The date is the session's start (when beginSession ran), in local time, with its id.
    SessionInfo big;
    QVERIFY(m_store->session(m_big, &big));
    QCOMPARE(table->item(1, HistoryPanel::Date)->text(),
             big.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                 + QStringLiteral(" (#%1)").arg(m_big));
    // The computer that ran each session: a team's store holds many.
    QCOMPARE(table->horizontalHeaderItem(HistoryPanel::Computer)->text(), QStringLiteral("Computer"));
    QCOMPARE(table->item(1, HistoryPanel::Computer)->text(), QSysInfo::machineHostName());
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw-computer"));
        raw.setDatabaseName(m_store->path());
        QVERIFY(raw.open());
        QVERIFY(QSqlQuery(raw).exec(
            QStringLiteral("UPDATE sessions SET machine_hostname = 'lab-desk-2' WHERE id = %1").arg(m_small)));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw-computer"));
    HistoryPanel other(m_store.get());
    QCOMPARE(other.sessionTable()->item(0, HistoryPanel::Computer)->text(), QStringLiteral("lab-desk-2"));
    QCOMPARE(other.sessionTable()->item(1, HistoryPanel::Computer)->text(), QSysInfo::machineHostName());
}

void TestHistoryPanel::stateFilterAndSearch()
{
    HistoryPanel panel(m_store.get());
    QComboBox *state = panel.stateCombo();
    state->setCurrentIndex(state->findText(QStringLiteral("interrupted")));
    QCOMPARE(panel.sessionTable()->rowCount(), 1);
    QCOMPARE(panel.sessions().first().id, m_small);
    state->setCurrentIndex(state->findText(QStringLiteral("finished")));
    QCOMPARE(panel.sessionTable()->rowCount(), 1);
    QCOMPARE(panel.sessions().first().id, m_big);
    state->setCurrentIndex(0); // all
    QCOMPARE(panel.sessionTable()->rowCount(), 2);

    // Typing in the search box filters after a short pause.
    QTest::keyClicks(panel.searchEdit(), QStringLiteral("windows"));
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionTable()->rowCount(), 1, 5000);
    QCOMPARE(panel.sessions().first().id, m_big);
    panel.searchEdit()->setText(QStringLiteral("no-such-host"));
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionTable()->rowCount(), 0, 5000);
    panel.searchEdit()->clear();
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionTable()->rowCount(), 2, 5000);
}

void TestHistoryPanel::marksScheduledSessions()
{
    // What `wirebench-cli run --scheduled 6h` (the service of `wirebench-cli schedule`) stores: the mark is the title.
    QVERIFY(m_store->setSessionTitle(m_big, QStringLiteral("Scheduled every 6h: nightly.wbplan.json")));
    HistoryPanel panel(m_store.get());
    QTableWidget *table = panel.sessionTable();
    QCOMPARE(table->rowCount(), 2);
    QVERIFY2(table->item(1, HistoryPanel::Date)
                 ->text()
                 .endsWith(QStringLiteral(" Scheduled every 6h: nightly.wbplan.json (#%1)").arg(m_big)),
             qPrintable(table->item(1, HistoryPanel::Date)->text()));
    QVERIFY(!table->item(0, HistoryPanel::Date)->text().contains(QStringLiteral("Scheduled")));
    panel.searchEdit()->setText(QStringLiteral("scheduled"));
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionTable()->rowCount(), 1, 5000);
    QCOMPARE(panel.sessions().first().id, m_big);
}

void TestHistoryPanel::openShowsTableGraphsAndChart()
{
    HistoryPanel panel(m_store.get());
    panel.resize(1200, 900);
    panel.show();
    QSignalSpy opened(&panel, &HistoryPanel::sessionOpened);
    // Clicking the row opens the session.
    QTableWidget *table = panel.sessionTable();
    const QRect cell = table->visualItemRect(table->item(1, HistoryPanel::Hosts));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_COMPARE(opened.count(), 1);
    QCOMPARE(opened.first().first().toLongLong(), m_big);
    QCOMPARE(panel.openSessionId(), m_big);

    // Results table: every run with its figure.
    ResultsTable *results = panel.resultsTable();
    QCOMPARE(results->rowCount(), 24);
    QCOMPARE(results->item(0, ResultsTable::HostName)->text(), QStringLiteral("linux-fs"));
    QCOMPARE(results->item(0, ResultsTable::Protocol)->text(), QStringLiteral("tcp-send"));
    QVERIFY2(results->item(0, ResultsTable::MBps)->text().contains(QStringLiteral("101")),
             qPrintable(results->item(0, ResultsTable::MBps)->text()));

    // Live graph replayed: the first test (linux-fs tcp-send @ 1500) with its three repetitions.
    ThroughputChart *live = panel.throughputChart();
    QCOMPARE(panel.testCombo()->count(), 8); // 2 hosts x 2 protocols x 2 frames
    QCOMPARE(live->lineCount(), 3);
    for (int rep = 1; rep <= 3; ++rep) {
        QCPGraph *g = live->graphForRepetition(rep);
        QVERIFY(g);
        QCOMPARE(g->data()->size(), 10);
        QVERIFY(qAbs(g->data()->at(0)->value - (100 + rep)) < 1e-6); // MB/s
    }
    // Another test: win-fs tcp-recv @ 9000 = 60 * 1.5 * 0.9 + rep MB/s.
    const int idx = panel.testCombo()->findText(QStringLiteral("win-fs - tcp-recv @ 9000 B frame"));
    QVERIFY(idx >= 0);
    panel.testCombo()->setCurrentIndex(idx);
    QCOMPARE(live->lineCount(), 3);
    QVERIFY(qAbs(live->graphForRepetition(2)->data()->at(5)->value - (81 + 2)) < 1e-6);
    QVERIFY(live->title().contains(QStringLiteral("win-fs")));

    // Comparison chart: medians per host and test.
    ComparisonChart *chart = panel.comparisonChart();
    QCPBars *linuxBars = chart->barsForHost(QStringLiteral("linux-fs"));
    QVERIFY(linuxBars);
    QCOMPARE(linuxBars->data()->size(), 4);
    const int sendAt1500 = int(chart->testKeys().indexOf(QStringLiteral("tcp-send @ 1500")));
    QVERIFY(sendAt1500 >= 0);
    bool found = false;
    for (auto it = linuxBars->data()->constBegin(); it != linuxBars->data()->constEnd(); ++it) {
        if (qAbs(it->key - (sendAt1500 + 1)) < 0.5) {
            QVERIFY(qAbs(it->value - 102) < 1e-6); // median of 101, 102, 103 MB/s
            found = true;
        }
    }
    QVERIFY(found);
    QVERIFY(chart->valueLabels().contains(QStringLiteral("102.0 MB/s")));

    // WIREBENCH_SCREENSHOT_DIR=folder: keep pictures of the panel for a look by eye (and the docs).
    const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("historyDetailTabs"));
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QTest::qWait(50); // let the queued replot draw
            panel.grab().save(QDir(shots).filePath(QStringLiteral("history-panel-%1.png").arg(i)));
        }
    }
}

void TestHistoryPanel::deleteRemovesSession()
{
    HistoryPanel panel(m_store.get());
    QVERIFY(panel.openSession(m_small));
    QCOMPARE(panel.resultsTable()->rowCount(), 4);
    QSignalSpy deleted(&panel, &HistoryPanel::sessionDeleted);
    QVERIFY(panel.deleteSession(m_small, false));
    QCOMPARE(deleted.count(), 1);
    QCOMPARE(panel.sessionTable()->rowCount(), 1);
    QCOMPARE(panel.resultsTable()->rowCount(), 0);
    QCOMPARE(panel.openSessionId(), 0);
    QCOMPARE(m_store->sessions().size(), 1);
    QVERIFY(m_store->runs(m_small).isEmpty());
    QVERIFY(!panel.openSession(m_small));
}

void TestHistoryPanel::closedStoreShowsReason()
{
    ResultStore closed;
    QString error;
    // A folder where the database file should be: the store refuses it and the panel says why.
    QDir(m_dir->path()).mkdir(QStringLiteral("folder.sqlite"));
    QVERIFY(!closed.open(m_dir->filePath(QStringLiteral("folder.sqlite")), &error));
    HistoryPanel panel(&closed);
    QCOMPARE(panel.sessionTable()->rowCount(), 0);
    auto *status = panel.findChild<QLabel *>(QStringLiteral("historyStatusLabel"));
    QVERIFY(status);
    QVERIFY2(status->text().startsWith(QStringLiteral("No result store")), qPrintable(status->text()));
    QVERIFY(!panel.openSession(1));
}

// A store of a team's months: the list reads the newest page, says how many there are, and lists older pages on
// request; a search counts its own matches.
void TestHistoryPanel::listsAPageOfALargeStore()
{
    const QDateTime t0(QDate(2026, 1, 5), QTime(8, 0), Qt::UTC);
    qint64 newest = 0;
    for (int i = 0; i < 230; ++i) {
        const Host h = histtest::host(i % 2 ? QStringLiteral("odd-fs") : QStringLiteral("even-fs"),
                                      QStringLiteral("127.0.0.3"), QStringLiteral("Linux"));
        QVERIFY((newest = histtest::addSession(*m_store, histtest::plan({h}, {1500}, 1), t0)) > 0);
    }
    HistoryPanel panel(m_store.get());
    auto *status = panel.findChild<QLabel *>(QStringLiteral("historyStatusLabel"));
    QVERIFY(status);
    QCOMPARE(panel.sessionTable()->rowCount(), 200);
    QCOMPARE(status->text(), QStringLiteral("The newest 200 of 232 sessions"));
    QVERIFY(panel.moreButton()->isVisibleTo(&panel));
    QCOMPARE(panel.sessions().first().id, newest); // newest first (started when beginSession ran), as before
    QTest::mouseClick(panel.moreButton(), Qt::LeftButton);
    QCOMPARE(panel.sessionTable()->rowCount(), 232);
    QCOMPARE(status->text(), QStringLiteral("232 session(s)"));
    QVERIFY(!panel.moreButton()->isVisibleTo(&panel));

    // A search starts again from its newest page: the 115 sessions with host odd-fs fit in one.
    panel.searchEdit()->setText(QStringLiteral("odd"));
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionTable()->rowCount(), 115, 5000);
    QCOMPARE(status->text(), QStringLiteral("115 session(s)"));
    QVERIFY(!panel.moreButton()->isVisibleTo(&panel));
    panel.searchEdit()->setText(QStringLiteral("linux"));
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionTable()->rowCount(), 200, 5000);
    QCOMPARE(status->text(), QStringLiteral("The newest 200 of 232 sessions that match"));
    QTest::mouseClick(panel.moreButton(), Qt::LeftButton);
    QCOMPARE(panel.sessionTable()->rowCount(), 232);
    QCOMPARE(status->text(), QStringLiteral("232 session(s)"));
}

QTEST_MAIN(TestHistoryPanel)
#include "TestHistoryPanel.moc"
