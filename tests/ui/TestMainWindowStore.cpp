// The window keeps what it measures: a plan run from the window lands in the result store and in History.
#include "HostListPanel.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "RunControlPanel.h"
#include "history/HistoryPanel.h"
#include "settings/Config.h"
#include "storage/ResultStore.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

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
        TestPlan plan = window.planEditor()->plan();
        plan.protocols = {QStringLiteral("tcp-send")};
        plan.frameSizes = {1500};
        plan.repetitions = 2;
        plan.params.durationMs = 500;
        window.planEditor()->setPlan(plan);
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
        TestPlan plan = window.planEditor()->plan();
        plan.protocols = {QStringLiteral("tcp-recv")};
        plan.frameSizes = {1500};
        plan.repetitions = 1;
        plan.params.durationMs = 300;
        window.planEditor()->setPlan(plan);
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
