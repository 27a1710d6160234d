// The window keeps what it measures: a plan run from the window lands in the result store and in History.
#include "FileDialogAnswer.h"
#include "HostListPanel.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "RunControlPanel.h"
#include "history/HistoryPanel.h"
#include "settings/Config.h"
#include "storage/ResultStore.h"
#include "support/CliTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QFileDialog>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace wb;

namespace {

// The window's plan as a quick loopback test: protocol at 1500 B, repetitions runs of durationMs each.
void setQuickPlan(MainWindow &window, const QString &protocol, int repetitions, int durationMs)
{
    TestPlan plan = window.planEditor()->plan();
    plan.protocols = {protocol};
    plan.frameSizes = {1500};
    plan.repetitions = repetitions;
    plan.params.durationMs = durationMs;
    window.planEditor()->setPlan(plan);
}

} // namespace

class TestMainWindowStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("WIREBENCH_NO_KEYCHAIN", "1"); }

    void runIsStoredAndListed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Config config(dir.filePath(QStringLiteral("settings.ini")));
        ResultStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));

        MainWindow window(&config, &store);
        setQuickPlan(window, QStringLiteral("tcp-send"), 2, 500);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QSignalSpy done(&window, &MainWindow::planDone);
        auto *start = window.findChild<QPushButton *>(QStringLiteral("startButton"));
        QVERIFY(start);
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 10000);
        QTest::mouseClick(start, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);

        const SessionInfoList sessions = store.sessions();
        QCOMPARE(sessions.size(), 1);
        QCOMPARE(sessions.first().state, SessionState::Finished);
        const RunResultList runs = store.runs(sessions.first().id);
        QCOMPARE(runs.size(), 2);
        for (const RunResult &r : runs) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            QVERIFY(r.bytes > 0);
            QVERIFY(!r.samples.isEmpty());
        }
        // History shows the session without a manual refresh.
        QTRY_COMPARE(window.historyPanel()->sessionTable()->rowCount(), 1);

        // File > Export this session's data, then File > Report: the session just measured, through the save
        // dialog a user sees, lands in History and in the files.
        const QString csv = dir.filePath(QStringLiteral("session.csv"));
        answerFileDialog(csv);
        auto *exportData = window.findChild<QAction *>(QStringLiteral("exportDataAction"));
        QVERIFY(exportData);
        QVERIFY(exportData->isEnabled());
        exportData->trigger();
        QCOMPARE(window.historyPanel()->openSessionId(), sessions.first().id);
        QVERIFY(window.historyPanel()->isVisible());
        QFile csvFile(csv);
        QVERIFY2(csvFile.open(QIODevice::ReadOnly), qPrintable(csv));
        const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3); // the header and the two runs
        QVERIFY(lines.at(0).startsWith("run_index,host,"));
        QVERIFY(lines.at(1).contains("tcp-send"));

        const QString html = dir.filePath(QStringLiteral("report.html"));
        answerFileDialog(html);
        auto *report = window.findChild<QAction *>(QStringLiteral("reportAction"));
        QVERIFY(report);
        report->trigger();
        QVERIFY(QFileInfo(html).size() > 0);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("report.pdf"))).size() > 0);

        // History > Use this plan: the stored plan comes back into the Measure tab, ready to run again.
        TestPlan changed = window.planEditor()->plan();
        changed.repetitions = 9;
        changed.protocols = {QStringLiteral("tcp-recv")};
        window.planEditor()->setPlan(changed);
        auto *usePlan = window.historyPanel()->findChild<QPushButton *>(QStringLiteral("historyUsePlanButton"));
        QVERIFY(usePlan);
        QVERIFY(usePlan->isEnabled());
        QTest::mouseClick(usePlan, Qt::LeftButton);
        QCOMPARE(window.planEditor()->plan().repetitions, 2);
        QCOMPARE(window.planEditor()->plan().protocols, QStringList{QStringLiteral("tcp-send")});
        QCOMPARE(window.planEditor()->plan().params.durationMs, 500);
        QVERIFY(window.planEditor()->isVisible());
        auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("press Start to run it again")), qPrintable(status->text()));
        QCOMPARE(window.hostList()->selectedHosts().size(), 1);
        QVERIFY(window.hostList()->selectedHosts().first().embedded);
    }

    void scheduledRunsWriteWhileTheWindowIsOpen()
    {
        // The everyday case of two writers (issue 32, item 7): the window open on History while wirebench-cli runs
        // (a schedule's, say) write to the same store, two of them at once. Each keeps its session, and History
        // lists them without Refresh.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("results.sqlite"));
        Config config(dir.filePath(QStringLiteral("settings.ini")));
        ResultStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        MainWindow window(&config, &store);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        HistoryPanel *history = window.historyPanel();
        for (QTabWidget *tabs : window.findChildren<QTabWidget *>()) {
            for (int i = 0; i < tabs->count(); ++i) {
                if (tabs->widget(i) == history || tabs->widget(i)->isAncestorOf(history))
                    tabs->setCurrentIndex(i);
            }
        }
        QTRY_VERIFY(history->isVisible());
        QCOMPARE(history->sessionTable()->rowCount(), 0);

        clitest::Daemon daemon;
        QVERIFY2(daemon.start(&error), qPrintable(error));
        const QStringList run{QStringLiteral("run"),
                              QStringLiteral("--host"),
                              QStringLiteral("lo=") + daemon.hostArgument(),
                              QStringLiteral("--protocol"),
                              QStringLiteral("tcp-send"),
                              QStringLiteral("--reps"),
                              QStringLiteral("1"),
                              QStringLiteral("--duration"),
                              QStringLiteral("0.3"),
                              QStringLiteral("--store"),
                              path};
        const QList<clitest::Outcome> both = clitest::runCliTogether(run, 2);
        const clitest::Outcome &oa = both.at(0);
        const clitest::Outcome &ob = both.at(1);
        QVERIFY2(oa.exitCode == 0, qPrintable(oa.out + oa.err));
        QVERIFY2(ob.exitCode == 0, qPrintable(ob.out + ob.err));
        QTRY_COMPARE_WITH_TIMEOUT(history->sessionTable()->rowCount(), 2, 10000);
        QCOMPARE(store.sessions().size(), 2);
    }

    void reportActionsWaitForARun()
    {
        QTemporaryDir dir;
        Config config(dir.filePath(QStringLiteral("settings.ini")));
        ResultStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("results.sqlite"))));
        MainWindow window(&config, &store);
        QVERIFY(!window.findChild<QAction *>(QStringLiteral("exportDataAction"))->isEnabled());
        QVERIFY(!window.findChild<QAction *>(QStringLiteral("reportAction"))->isEnabled());
    }

    void unreadableStoreStillMeasures()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("garbage.sqlite"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        Config config(dir.filePath(QStringLiteral("settings.ini")));
        ResultStore store;
        QVERIFY(!store.open(path));

        MainWindow window(&config, &store);
        setQuickPlan(window, QStringLiteral("tcp-recv"), 1, 300);
        QSignalSpy done(&window, &MainWindow::planDone);
        QVERIFY(window.startPlan());
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);
        QCOMPARE(window.historyPanel()->sessionTable()->rowCount(), 0);
        // The file it could not read is left as it was.
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray(4096, 'x'));
    }
};

QTEST_MAIN(TestMainWindowStore)
#include "TestMainWindowStore.moc"
