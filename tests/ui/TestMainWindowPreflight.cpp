// Start in the window runs the check before the first run: the file-server shoot-out preset on the default
// "This computer (loopback)" host (no FTP or SMB server there) shows every problem at once before any run, with
// Cancel and "Run the rest"; the runs that cannot work are kept as not run with the reason; a healthy plan shows
// nothing and runs. The real embedded responder on 127.0.0.1.
#include "HostListPanel.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "PreflightDialog.h"
#include "ResultsTable.h"
#include "RunControlPanel.h"
#include "settings/Config.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QClipboard>
#include <QGuiApplication>
#include <QTest>
#include <QToolButton>

using namespace wb;

namespace {

/// Counts the times a widget is shown.
class ShowCounter : public QObject
{
public:
    int shows = 0;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Show)
            ++shows;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestMainWindowPreflight : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void shootoutOnLoopbackShowsEveryProblemAtOnce();
    void runTheRestKeepsTheOthersAsNotRun();
    void healthyPlanShowsNoProblem();

private:
    static constexpr double kReferenceSeconds = 0.3;
    /// The shoot-out preset, with 1 MiB files and reps repetitions; tcp-send ticked too when withTcp.
    static void applyShootout(MainWindow &window, int reps, bool withTcp);
    static QPushButton *button(MainWindow &window, const char *name);
    /// Runs of the editor's plan for one host (the editor's plan has no hosts: the host list has them): the
    /// plan's own, and the reference streams the shoot-out adds per frame size (TestPlan::referenceProtocols).
    static int runsOf(const TestPlan &p)
    {
        return int(p.protocols.size() * p.frameSizes.size()) * p.repetitions
            + int(p.referenceProtocols().size() * p.frameSizes.size());
    }

    QTemporaryDir m_dir;
};

void TestMainWindowPreflight::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("WIREBENCH_NO_KEYCHAIN", "1");
    // The setting: nothing serves FTP (21) or SMB (445) on 127.0.0.1.
    for (quint16 port : {quint16(21), quint16(445)}) {
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY2(
            !probe.waitForConnected(3000),
            qPrintable(QStringLiteral("127.0.0.1:%1 answers: this test needs it closed (no FTP or SMB on loopback)")
                           .arg(port)));
    }
}

void TestMainWindowPreflight::applyShootout(MainWindow &window, int reps, bool withTcp)
{
    auto *presets = window.findChild<QToolButton *>(QStringLiteral("presetButton"));
    QVERIFY(presets && presets->menu());
    presets->menu()->findChild<QAction *>(QStringLiteral("shootoutPresetAction"))->trigger();
    window.findChild<QSpinBox *>(QStringLiteral("repetitionsSpin"))->setValue(reps);
    window.findChild<QSpinBox *>(QStringLiteral("fileSizeSpin"))->setValue(1);
    // Short reference streams: what is tested is which run, not how fast loopback is (3 s each by default).
    window.findChild<QDoubleSpinBox *>(QStringLiteral("referenceSecondsSpin"))->setValue(kReferenceSeconds);
    if (withTcp) {
        window.findChild<QCheckBox *>(QStringLiteral("protocolCheck_tcp-send"))->setChecked(true);
        window.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"))->setValue(0.3);
    }
}

QPushButton *TestMainWindowPreflight::button(MainWindow &window, const char *name)
{
    return window.findChild<QPushButton *>(QLatin1String(name));
}

void TestMainWindowPreflight::shootoutOnLoopbackShowsEveryProblemAtOnce()
{
    Config config(m_dir.filePath(QStringLiteral("shootout.ini")));
    MainWindow window(&config);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.embeddedPort() > 0, "the embedded responder did not start on 127.0.0.1");
    QCOMPARE(window.hostList()->selectedHosts().size(), 1); // This computer (loopback), as after installing
    applyShootout(window, 5, false);
    // 4 transfers x 2 frames x 5, and the reference streams: tcp-send and tcp-recv at 1500 and 9000 B, which the
    // built-in responder answers.
    QCOMPARE(window.planEditor()->plan().referenceProtocols(),
             (QStringList{QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    QCOMPARE(runsOf(window.planEditor()->plan()), 40 + 4);

    QSignalSpy done(&window, &MainWindow::planDone);
    QSignalSpy started(window.engine(), &Engine::runStarted);
    QPushButton *start = button(window, "startButton");
    QVERIFY(start->isEnabled());
    QTest::mouseClick(start, Qt::LeftButton);
    auto *dialog = window.findChild<PreflightDialog *>(QStringLiteral("preflightDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 30000);

    // Every problem at once: SMB read and write have no share and nothing on 445; FTP GET and PUT meet a
    // refused port 21. Nothing has run.
    QTableWidget *table = dialog->table();
    QCOMPARE(table->rowCount(), 6);
    QStringList rows;
    for (int row = 0; row < table->rowCount(); ++row) {
        QCOMPARE(table->item(row, PreflightDialog::HostColumn)->text(), QStringLiteral("This computer (loopback)"));
        rows << table->item(row, PreflightDialog::ProtocolColumn)->data(Qt::UserRole).toString() + QStringLiteral(": ")
                + table->item(row, PreflightDialog::ProblemColumn)->text();
    }
    rows.sort(); // the plan runs the protocols in the registry's order: do not depend on it
    QVERIFY2(rows.at(0).startsWith(QStringLiteral("ftp-get: FTP GET: connection refused"))
                 && rows.at(0).endsWith(QStringLiteral("check that the server is running and listening on port 21")),
             qPrintable(rows.at(0)));
    QVERIFY2(rows.at(1).startsWith(QStringLiteral("ftp-put: FTP PUT: connection refused")), qPrintable(rows.at(1)));
    QVERIFY2(rows.at(2).startsWith(
                 QStringLiteral("smb-read: SMB connection refused: is the server running and listening on port 445?")),
             qPrintable(rows.at(2)));
    QVERIFY2(rows.at(3).startsWith(
                 QStringLiteral("smb-read: SMB read: no share is set for this host: check the share name")),
             qPrintable(rows.at(3)));
    QVERIFY2(rows.at(4).startsWith(QStringLiteral("smb-write: SMB connection refused")), qPrintable(rows.at(4)));
    QVERIFY2(rows.at(5).startsWith(QStringLiteral("smb-write: SMB write: no share is set")), qPrintable(rows.at(5)));
    QVERIFY2(dialog->summaryText().startsWith(
                 QStringLiteral("The check before the first run found 6 problem(s); 40 of 44 runs cannot work"))
                 && dialog->summaryText().contains(QStringLiteral("run the 4 other run(s)")),
             qPrintable(dialog->summaryText()));
    QCOMPARE(dialog->runRestButton()->text(), QStringLiteral("Run the other 4 run(s)"));
    // All six at once, each as tall as its wrapped text (at most three lines: rows 120 px tall showed two of six).
    const int lines3 = table->fontMetrics().lineSpacing() * 3 + 12;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QRect cell = table->visualItemRect(table->item(row, PreflightDialog::ProblemColumn));
        QVERIFY2(table->viewport()->rect().contains(cell),
                 qPrintable(QStringLiteral("row %1 at %2,%3 %4x%5 is outside the list's %6 px")
                                .arg(row)
                                .arg(cell.x())
                                .arg(cell.y())
                                .arg(cell.width())
                                .arg(cell.height())
                                .arg(table->viewport()->height())));
        QVERIFY2(table->rowHeight(row) <= lines3, qPrintable(QString::number(table->rowHeight(row))));
    }
    // Copy: the summary and a line per problem, as text.
    QTest::mouseClick(dialog->copyButton(), Qt::LeftButton);
    const QStringList copied = QGuiApplication::clipboard()->text().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(copied.size(), 7);
    QCOMPARE(copied.first(), dialog->summaryText());
    for (int k = 1; k < copied.size(); ++k)
        QVERIFY2(copied.at(k).startsWith(QStringLiteral("This computer (loopback): ")), qPrintable(copied.at(k)));
    QVERIFY(!window.engine()->isRunning());
    QCOMPARE(started.size(), 0);
    QCOMPARE(window.resultsTable()->rowCount(), 0);

    // Cancel: nothing ran, the window is ready for the fix.
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("cancelButton")), Qt::LeftButton);
    QTRY_VERIFY(!dialog->isVisible());
    QVERIFY2(window.runControl()->statusText().startsWith(QStringLiteral("Not started: fix the problems")),
             qPrintable(window.runControl()->statusText()));
    QVERIFY(!window.runControl()->isRunning());
    QVERIFY(start->isEnabled());
    QCOMPARE(started.size(), 0);
    QCOMPARE(done.size(), 0);
    QCOMPARE(window.resultsTable()->rowCount(), 0);

    // Start again and run the rest: the 4 reference streams run; the 40 transfers are in the results as not run,
    // each with its problem.
    QTest::mouseClick(start, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 30000);
    QTest::mouseClick(dialog->runRestButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    QCOMPARE(started.size(), 4);
    QCOMPARE(window.resultsTable()->rowCount(), 44);
    for (const RunResult &r : window.resultsTable()->results()) {
        if (TestPlan::isReference(r.spec)) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            QCOMPARE(r.spec.params.durationMs, int(kReferenceSeconds * 1000));
            continue;
        }
        QCOMPARE(r.status, RunStatus::NotRun);
        QVERIFY2(r.error.startsWith(
                     QStringLiteral("not run: the check before the first run found: This computer (loopback)")),
                 qPrintable(r.error));
    }
    QVERIFY2(window.runControl()->statusText().startsWith(QStringLiteral("Done. 4 run(s) ok, 0 failed, 40 not run.")),
             qPrintable(window.runControl()->statusText()));
}

void TestMainWindowPreflight::runTheRestKeepsTheOthersAsNotRun()
{
    Config config(m_dir.filePath(QStringLiteral("rest.ini")));
    MainWindow window(&config);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.embeddedPort() > 0, "the embedded responder did not start on 127.0.0.1");
    applyShootout(window, 2, true);
    // 5 protocols x 2 frames x 2, and the reference tcp-recv at both frames (the plan has its own tcp-send).
    QCOMPARE(window.planEditor()->plan().referenceProtocols(), QStringList{QStringLiteral("tcp-recv")});
    QCOMPARE(runsOf(window.planEditor()->plan()), 20 + 2);

    QSignalSpy done(&window, &MainWindow::planDone);
    QSignalSpy started(window.engine(), &Engine::runStarted);
    QTest::mouseClick(button(window, "startButton"), Qt::LeftButton);
    auto *dialog = window.findChild<PreflightDialog *>(QStringLiteral("preflightDialog"));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 30000);
    QCOMPARE(dialog->table()->rowCount(), 6); // the embedded responder's tcp-send has none
    QVERIFY2(dialog->summaryText().contains(QStringLiteral("16 of 22 runs cannot work"))
                 && dialog->summaryText().contains(QStringLiteral("run the 6 other run(s)")),
             qPrintable(dialog->summaryText()));
    QCOMPARE(dialog->runRestButton()->text(), QStringLiteral("Run the other 6 run(s)"));
    QVERIFY(dialog->runRestButton()->isEnabled());
    QCOMPARE(started.size(), 0);

    QTest::mouseClick(dialog->runRestButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    QCOMPARE(started.size(), 6); // only tcp-send and the reference tcp-recv reached a driver
    const RunResultList results = window.resultsTable()->results();
    QCOMPARE(results.size(), 22);
    for (int row = 0; row < results.size(); ++row) {
        const RunResult &r = results.at(row);
        if (r.spec.protocol == QLatin1String("tcp-send") || TestPlan::isReference(r.spec)) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            QCOMPARE(TestPlan::isReference(r.spec), r.spec.protocol == QLatin1String("tcp-recv"));
            continue;
        }
        QCOMPARE(r.status, RunStatus::NotRun);
        QCOMPARE(window.resultsTable()->item(row, ResultsTable::Status)->text(), QStringLiteral("not run"));
        QVERIFY2(window.resultsTable()
                     ->item(row, ResultsTable::Error)
                     ->text()
                     .startsWith(QStringLiteral(
                         "not run: the check before the first run found: This computer (loopback) (127.0.0.1:")),
                 qPrintable(window.resultsTable()->item(row, ResultsTable::Error)->text()));
    }
    QVERIFY2(window.runControl()->statusText().startsWith(QStringLiteral("Done. 6 run(s) ok, 0 failed, 16 not run.")),
             qPrintable(window.runControl()->statusText()));
}

void TestMainWindowPreflight::healthyPlanShowsNoProblem()
{
    Config config(m_dir.filePath(QStringLiteral("healthy.ini")));
    MainWindow window(&config);
    TestPlan plan;
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 300;
    window.planEditor()->setPlan(plan);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.embeddedPort() > 0, "the embedded responder did not start on 127.0.0.1");
    auto *dialog = window.findChild<PreflightDialog *>(QStringLiteral("preflightDialog"));
    ShowCounter counter;
    dialog->installEventFilter(&counter);
    QStringList statuses;
    connect(window.engine(), &Engine::statusChanged, this, [&statuses](const QString &s) { statuses << s; });

    QSignalSpy done(&window, &MainWindow::planDone);
    QTest::mouseClick(button(window, "startButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    QCOMPARE(counter.shows, 0);
    const RunResultList results = window.resultsTable()->results();
    QCOMPARE(results.size(), 2);
    for (const RunResult &r : results)
        QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY2(window.runControl()->statusText() == QStringLiteral("Done. 2 run(s) ok, 0 failed."),
             qPrintable(window.runControl()->statusText()));
    QVERIFY(statuses.filter(QStringLiteral("check before the first run found")).isEmpty());
}

QTEST_MAIN(TestMainWindowPreflight)
#include "TestMainWindowPreflight.moc"
