#include "GuiCommandLine.h"

#include <QTest>

using namespace wb;

// The GUI's command line as main() reads it: the window's options, and the plan options read by PlanOptions, with the
// rules and messages of wirebench-cli's run.
class TestGuiCommandLine : public QObject
{
    Q_OBJECT
private slots:
    void windowOptions();
    void noPlanOptionLeavesThePlan();
    void planOptionsOverrideThePlan();
    void planOptionErrors_data();
    void planOptionErrors();
    void cliOnlyOptionsAreUnknown();

private:
    /// The editor's plan before the command line: what the options override.
    static TestPlan editorPlan();
    /// Parses `arguments` (after the program name) into `commandLine`; false with Qt's error text in `error`.
    static bool parse(GuiCommandLine *commandLine, const QStringList &arguments, QString *error = nullptr);
};

TestPlan TestGuiCommandLine::editorPlan()
{
    TestPlan plan;
    plan.protocols = {QStringLiteral("tcp-recv")};
    plan.frameSizes = {9000};
    plan.repetitions = 7;
    plan.params.durationMs = 4000;
    return plan;
}

bool TestGuiCommandLine::parse(GuiCommandLine *commandLine, const QStringList &arguments, QString *error)
{
    const bool ok = commandLine->parser.parse(QStringList{QStringLiteral("wirebench")} + arguments);
    if (error)
        *error = commandLine->parser.errorText();
    return ok;
}

void TestGuiCommandLine::windowOptions()
{
    GuiCommandLine commandLine;
    QVERIFY(parse(&commandLine,
                  {QStringLiteral("--start"), QStringLiteral("--quit-when-done"), QStringLiteral("--screenshot"),
                   QStringLiteral("shot.png"), QStringLiteral("--done-file"), QStringLiteral("done"),
                   QStringLiteral("--settings"), QStringLiteral("s.ini"), QStringLiteral("--store"),
                   QStringLiteral("r.sqlite")}));
    const QCommandLineParser &p = commandLine.parser;
    QVERIFY(p.isSet(commandLine.start));
    QVERIFY(p.isSet(commandLine.quitWhenDone));
    QCOMPARE(p.value(commandLine.screenshot), QStringLiteral("shot.png"));
    QCOMPARE(p.value(commandLine.doneFile), QStringLiteral("done"));
    QCOMPARE(p.value(commandLine.settings), QStringLiteral("s.ini"));
    QCOMPARE(p.value(commandLine.store), QStringLiteral("r.sqlite"));
    QVERIFY(!p.isSet(commandLine.linger));
    QCOMPARE(p.value(commandLine.linger), QStringLiteral("0")); // the default: quit at once
}

void TestGuiCommandLine::noPlanOptionLeavesThePlan()
{
    GuiCommandLine commandLine;
    QVERIFY(parse(&commandLine, {QStringLiteral("--start")}));
    TestPlan plan = editorPlan();
    QString why;
    QVERIFY(commandLine.applyPlanOptions(&plan, &why));
    QCOMPARE(plan.protocols, editorPlan().protocols);
    QCOMPARE(plan.frameSizes, editorPlan().frameSizes);
    QCOMPARE(plan.repetitions, editorPlan().repetitions);
    QCOMPARE(plan.params.durationMs, editorPlan().params.durationMs);
}

void TestGuiCommandLine::planOptionsOverrideThePlan()
{
    GuiCommandLine commandLine;
    QVERIFY(parse(&commandLine,
                  {QStringLiteral("--reps"), QStringLiteral("2"), QStringLiteral("--duration"), QStringLiteral("1.5"),
                   QStringLiteral("--protocol"), QStringLiteral("tcp-send, tcp-recv"), QStringLiteral("--frame"),
                   QStringLiteral("1500,9000,1500"), QStringLiteral("--streams"), QStringLiteral("8")}));
    TestPlan plan = editorPlan();
    QString why;
    QVERIFY2(commandLine.applyPlanOptions(&plan, &why), qPrintable(why));
    QCOMPARE(plan.params.streams, 8);
    QCOMPARE(plan.repetitions, 2);
    QCOMPARE(plan.params.durationMs, 1500);
    QCOMPARE(plan.protocols, (QStringList{QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    QCOMPARE(plan.frameSizes, (QList<int>{1500, 9000}));
}

void TestGuiCommandLine::planOptionErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("reps not a number") << QStringList{QStringLiteral("--reps"), QStringLiteral("x")}
                                       << QStringLiteral("--reps must be a whole number from 1 to 10000");
    QTest::newRow("reps 0") << QStringList{QStringLiteral("--reps"), QStringLiteral("0")}
                            << QStringLiteral("--reps must be a whole number from 1 to 10000");
    QTest::newRow("duration") << QStringList{QStringLiteral("--duration"), QStringLiteral("soon")}
                              << QStringLiteral("--duration must be a number of seconds from 0.1 to 86400");
    QTest::newRow("streams") << QStringList{QStringLiteral("--streams"), QStringLiteral("200")}
                             << QStringLiteral("--streams must be a whole number from 1 to 128");
    QTest::newRow("frame") << QStringList{QStringLiteral("--frame"), QStringLiteral("1500,big")}
                           << QStringLiteral("--frame \"big\": a frame size is a number of bytes from 576 to 65535");
    QTest::newRow("no frame") << QStringList{QStringLiteral("--frame"), QStringLiteral(",")}
                              << QStringLiteral("--frame needs at least one frame size");
    QTest::newRow("no protocol") << QStringList{QStringLiteral("--protocol"), QStringLiteral(",")}
                                 << QStringLiteral("--protocol needs at least one protocol id");
}

void TestGuiCommandLine::planOptionErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    GuiCommandLine commandLine;
    QVERIFY(parse(&commandLine, args));
    TestPlan plan = editorPlan();
    QString why;
    QVERIFY(!commandLine.applyPlanOptions(&plan, &why));
    QCOMPARE(why, error);
}

void TestGuiCommandLine::cliOnlyOptionsAreUnknown()
{
    // The GUI reads the plan options wirebench-cli reads, not its hosts or outputs.
    GuiCommandLine commandLine;
    QString error;
    QVERIFY(!parse(&commandLine, {QStringLiteral("--host"), QStringLiteral("127.0.0.1")}, &error));
    QCOMPARE(error, QStringLiteral("Unknown option 'host'."));
    GuiCommandLine unknownProtocol;
    QVERIFY(parse(&unknownProtocol, {QStringLiteral("--protocol"), QStringLiteral("tcp-sideways")}));
    TestPlan plan = editorPlan();
    QString why;
    QVERIFY(!unknownProtocol.applyPlanOptions(&plan, &why));
    QVERIFY2(why.startsWith(QStringLiteral("unknown protocol \"tcp-sideways\"; this build offers: ")), qPrintable(why));
}

QTEST_GUILESS_MAIN(TestGuiCommandLine)
#include "TestGuiCommandLine.moc"
