// The check before the first run through the real wirebench-cli, as a user meets it: the file-server shoot-out on
// a loopback host without FTP or SMB prints every problem before any run; the other runs run (or, with
// --strict-check, nothing does); a healthy plan prints no problem; --skip-check leaves it to the runs, where a
// refused port is not repeated ("same cause as run 1"). Real wirebenchd, vsftpd and smbd on 127.0.0.1.
#include "support/CliTestSupport.h"
#include "FileServerFixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace wb;
using namespace wb::test;

class TestCliPreflight : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void shootoutOnLoopbackShowsEveryProblemFirst();
    void theRestRuns();
    void strictCheckRunsNothing();
    void skipCheckLeavesItToTheRuns();
    void referenceStreamsOnlyWhereTheServerAnswers();
    void healthyPlanShowsNoProblem();
    void oneServerAsManyHostsPassesItsCheck();
    void checkOptionsExcludeEachOther();
    void referenceDurationIsChecked();

private:
    /// Lines of out that come before the first run's line.
    static QStringList beforeFirstRun(const QString &out);
    static QStringList problemLines(const QString &out);
    QStringList shootout() const;

    clitest::Daemon m_daemon;
    QTemporaryDir m_dir;
};

void TestCliPreflight::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The default loopback host of the issue: nothing serves FTP (21) or SMB (445) on 127.0.0.1 here.
    for (quint16 port : {quint16(21), quint16(445)}) {
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY2(
            !probe.waitForConnected(3000),
            qPrintable(QStringLiteral("127.0.0.1:%1 answers: this test needs it closed (no FTP or SMB on loopback)")
                           .arg(port)));
    }
}

void TestCliPreflight::cleanupTestCase()
{
    m_daemon.stop();
}

QStringList TestCliPreflight::beforeFirstRun(const QString &out)
{
    QStringList lines;
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("run ")))
            break;
        lines << line;
    }
    return lines;
}

QStringList TestCliPreflight::problemLines(const QString &out)
{
    return out.split(QLatin1Char('\n')).filter(QRegularExpression(QStringLiteral("^  problem: ")));
}

QStringList TestCliPreflight::shootout() const
{
    // The GUI's "File-server shoot-out" preset, its reference streams too, on a loopback host with wirebenchd and
    // nothing else.
    return {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("loopback=") + m_daemon.hostArgument(),
            QStringLiteral("--protocol"), QStringLiteral("smb-read,smb-write,ftp-get,ftp-put"),
            QStringLiteral("--frame"), QStringLiteral("1500,9000"), QStringLiteral("--reps"), QStringLiteral("5"),
            QStringLiteral("--file-size"), QStringLiteral("1M"), QStringLiteral("--reference-streams"),
            QStringLiteral("--no-store"),
            // Short reference streams: what is tested is which runs run, not how fast loopback is.
            QStringLiteral("--reference-duration"), QStringLiteral("0.3")};
}

void TestCliPreflight::shootoutOnLoopbackShowsEveryProblemFirst()
{
    CLITEST_START_DAEMON(m_daemon);
    const QString json = m_dir.filePath(QStringLiteral("shootout.json"));
    const clitest::Outcome o = clitest::runCli(shootout() + QStringList{QStringLiteral("--json"), json});
    QCOMPARE(o.exitCode, 1);
    // Every problem, before the first run: SMB read and write have no share and nothing on 445; FTP GET and PUT
    // meet a refused port 21.
    const QStringList head = beforeFirstRun(o.out);
    // 40 transfers and 4 reference streams (tcp-send and tcp-recv at 1500 and 9000 B), which wirebenchd serves.
    QVERIFY2(head.first()
                 == QStringLiteral("The check before the first run found 6 problem(s); 40 of 44 runs cannot work:"),
             qPrintable(o.out));
    const QStringList problems = problemLines(head.join(QLatin1Char('\n')));
    QCOMPARE(problems.size(), 6);
    QVERIFY2(problems.at(0).startsWith(QStringLiteral("  problem: smb-read: loopback (127.0.0.1:445): SMB read: no "
                                                      "share is set for this host: check the share name")),
             qPrintable(problems.at(0)));
    QVERIFY2(problems.at(1).startsWith(
                 QStringLiteral("  problem: smb-read: loopback (127.0.0.1:445): SMB connection refused")),
             qPrintable(problems.at(1)));
    QVERIFY2(
        problems.at(4).startsWith(
            QStringLiteral("  problem: ftp-get: loopback (127.0.0.1:21): FTP GET: connection refused"))
            && problems.at(4).contains(QStringLiteral("check that the server is running and listening on port 21")),
        qPrintable(problems.at(4)));
    QVERIFY2(problems.at(5).startsWith(
                 QStringLiteral("  problem: ftp-put: loopback (127.0.0.1:21): FTP PUT: connection refused")),
             qPrintable(problems.at(5)));
    QVERIFY2(head.filter(QStringLiteral("Running the other 4 run(s); those 40 are recorded as not run")).size() == 1,
             qPrintable(o.out));
    QVERIFY2(!o.out.contains(QStringLiteral("No reference TCP stream")), qPrintable(o.out));
    // The reference streams ran first; no transfer was tried: none failed, all 40 are recorded as not run.
    QVERIFY2(!o.out.contains(QStringLiteral("FAILED")), qPrintable(o.out));
    QCOMPARE(o.out.count(QStringLiteral("NOT RUN")), 40);
    QCOMPARE(o.out.count(QRegularExpression(
                 QStringLiteral("tcp-(send|recv)  frame \\d+ \\(MSS \\d+\\)  reference  [0-9.]+ MB/s"))),
             4);
    QVERIFY2(o.err.contains(QStringLiteral("wirebench-cli: 40 of 44 runs did not succeed"))
                 && o.err.contains(QStringLiteral(
                     "first: run 5: not run: the check before the first run found: loopback (127.0.0.1:")),
             qPrintable(o.err));
    QCOMPARE(o.out.count(QStringLiteral("NOT RUN: the check before the first run found: loopback (127.0.0.1:")), 40);
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray results = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("results")).toArray();
    QCOMPARE(results.size(), 44);
    for (const QJsonValue &v : results) {
        const QJsonObject r = v.toObject();
        if (r.value(QLatin1String("run_index")).toInt() < 4) {
            QCOMPARE(r.value(QLatin1String("status")).toString(), QStringLiteral("ok"));
            QCOMPARE(r.value(QLatin1String("duration_s")).toDouble(), 0.3);
            QVERIFY(r.value(QLatin1String("protocol")).toString().startsWith(QLatin1String("tcp-")));
            continue;
        }
        QCOMPARE(r.value(QLatin1String("status")).toString(), QStringLiteral("not-run"));
        QVERIFY2(r.value(QLatin1String("error"))
                     .toString()
                     .startsWith(QStringLiteral("not run: the check before the first run found: loopback")),
                 qPrintable(r.value(QLatin1String("error")).toString()));
    }
}

void TestCliPreflight::theRestRuns()
{
    CLITEST_START_DAEMON(m_daemon);
    // The same plan with tcp-send, which wirebenchd serves: its 10 runs and the reference tcp-recv at both frames
    // run (the plan's own tcp-send is its reference that way), the 40 others are kept as not run.
    QStringList args = shootout();
    args[args.indexOf(QStringLiteral("smb-read,smb-write,ftp-get,ftp-put"))]
        = QStringLiteral("tcp-send,smb-read,smb-write,ftp-get,ftp-put");
    args << QStringLiteral("--duration") << QStringLiteral("0.3");
    const clitest::Outcome o = clitest::runCli(args);
    QCOMPARE(o.exitCode, 1);
    const QStringList head = beforeFirstRun(o.out);
    QVERIFY2(head.first()
                 == QStringLiteral("The check before the first run found 6 problem(s); 40 of 52 runs cannot work:"),
             qPrintable(o.out));
    QCOMPARE(problemLines(head.join(QLatin1Char('\n'))).size(), 6);
    QVERIFY2(head.filter(QStringLiteral("Running the other 12 run(s); those 40 are recorded as not run")).size() == 1,
             qPrintable(o.out));
    QCOMPARE(o.out.count(QStringLiteral("NOT RUN")), 40);
    QCOMPARE(
        o.out.count(QRegularExpression(QStringLiteral("tcp-send  frame \\d+ \\(MSS \\d+\\)  rep \\d/5  [0-9.]+ MB/s"))),
        10);
    QCOMPARE(
        o.out.count(QRegularExpression(QStringLiteral("tcp-recv  frame \\d+ \\(MSS \\d+\\)  reference  [0-9.]+ MB/s"))),
        2);
    QVERIFY2(!o.out.contains(QStringLiteral("FAILED")), qPrintable(o.out));
}

void TestCliPreflight::strictCheckRunsNothing()
{
    CLITEST_START_DAEMON(m_daemon);
    const clitest::Outcome o = clitest::runCli(shootout() << QStringLiteral("--strict-check"));
    QCOMPARE(o.exitCode, 1);
    QCOMPARE(problemLines(o.out).size(), 6);
    QVERIFY2(!o.out.contains(QRegularExpression(QStringLiteral("^run "), QRegularExpression::MultilineOption)),
             qPrintable(o.out));
    QVERIFY2(o.err.trimmed()
                 == QStringLiteral("wirebench-cli: the check before the first run found 6 problem(s) (above); "
                                   "nothing was run (--strict-check): fix them and run again"),
             qPrintable(o.err));
}

void TestCliPreflight::skipCheckLeavesItToTheRuns()
{
    // Without the check, FTP GET to a refused port fails once per test; its other repetitions are not run.
    const QString json = m_dir.filePath(QStringLiteral("skip.json"));
    const clitest::Outcome o = clitest::runCli(
        {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lab=127.0.0.1"), QStringLiteral("--protocol"),
         QStringLiteral("ftp-get"), QStringLiteral("--reps"), QStringLiteral("3"), QStringLiteral("--file-size"),
         QStringLiteral("1M"), QStringLiteral("--set"),
         QStringLiteral("ftp.port=%1").arg(FileServerFixture::closedPort()), QStringLiteral("--no-store"),
         QStringLiteral("--skip-check"), QStringLiteral("--json"), json});
    QCOMPARE(o.exitCode, 1);
    QVERIFY2(!o.out.contains(QStringLiteral("check before the first run")), qPrintable(o.out));
    QCOMPARE(o.out.count(QStringLiteral("FAILED: lab (127.0.0.1:")), 1);
    QCOMPARE(o.out.count(QStringLiteral("NOT RUN: same cause as run 1, which repeating cannot cure: lab (127.0.0.1:")),
             2);
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray results = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("results")).toArray();
    QCOMPARE(results.size(), 3);
    QCOMPARE(results.at(0).toObject().value(QLatin1String("repeat_cannot_cure")).toBool(), true);
    for (int i = 1; i < 3; ++i) {
        const QString error = results.at(i).toObject().value(QLatin1String("error")).toString();
        QVERIFY2(error.startsWith(
                     QStringLiteral("not run: same cause as run 1, which repeating cannot cure: lab (127.0.0.1:")),
                 qPrintable(error));
    }
}

void TestCliPreflight::referenceStreamsOnlyWhereTheServerAnswers()
{
    // Nothing serves wirebenchd or FTP on the host's ports: the FTP GET is a problem, the reference streams are not;
    // the host gets none, and a line says why.
    const quint16 closed = FileServerFixture::closedPort();
    const clitest::Outcome o = clitest::runCli(
        {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lab=127.0.0.1:%1").arg(closed),
         QStringLiteral("--protocol"), QStringLiteral("ftp-get"), QStringLiteral("--reps"), QStringLiteral("1"),
         QStringLiteral("--file-size"), QStringLiteral("1M"), QStringLiteral("--set"),
         QStringLiteral("ftp.port=%1").arg(closed), QStringLiteral("--reference-streams"),
         QStringLiteral("--no-store")});
    QCOMPARE(o.exitCode, 1);
    const QStringList head = beforeFirstRun(o.out);
    QVERIFY2(
        head.first()
            == QStringLiteral("No reference TCP stream for lab (127.0.0.1): lab (127.0.0.1:%1): wirebenchd connection "
                              "refused: is the server running and listening on port %1?")
                   .arg(closed),
        qPrintable(o.out));
    QVERIFY2(
        head.contains(QStringLiteral("The check before the first run found 1 problem(s); 1 of 1 runs cannot work:")),
        qPrintable(o.out));
    QCOMPARE(problemLines(o.out).size(), 1);
    QVERIFY2(!o.out.contains(QStringLiteral("tcp-send")) && !o.out.contains(QStringLiteral("tcp-recv")),
             qPrintable(o.out));
}

void TestCliPreflight::oneServerAsManyHostsPassesItsCheck()
{
    // One wirebenchd named as six hosts (the link speeds a user compares, say), two protocols each: twelve pairs to one
    // address. wirebenchd takes 4 connections from one address before they prove the key (--max-unproven-per-address):
    // the check must not be turned away by it ("wirebenchd holds 4 connections from 10.231.0.1 that have not proved the
    // key yet", seen in the truth sweep's plans of four hosts).
    CLITEST_START_DAEMON(m_daemon);
    QStringList args{QStringLiteral("run")};
    for (const char *name : {"a", "b", "c", "d", "e", "f"})
        args << QStringLiteral("--host") << QString::fromLatin1(name) + QLatin1Char('=') + m_daemon.hostArgument();
    args << QStringLiteral("--protocol") << QStringLiteral("tcp-send,tcp-recv") << QStringLiteral("--reps")
         << QStringLiteral("1") << QStringLiteral("--duration") << QStringLiteral("0.2")
         << QStringLiteral("--no-store");
    const clitest::Outcome o = clitest::runCli(args);
    QVERIFY2(!o.out.contains(QStringLiteral("check before the first run found")), qPrintable(o.out));
    QVERIFY2(!o.out.contains(QStringLiteral("have not proved the key")), qPrintable(o.out));
    QCOMPARE(o.out.count(QRegularExpression(QStringLiteral("^run \\d+/12 "), QRegularExpression::MultilineOption)), 12);
    QCOMPARE(o.exitCode, 0);
}

void TestCliPreflight::healthyPlanShowsNoProblem()
{
    CLITEST_START_DAEMON(m_daemon);
    FileServerFixture servers;
    QString why;
    const bool ok = servers.prepare(&why) && servers.startFtp(&why) && servers.startSmb(&why);
    WB_REQUIRE(ok, why);
    const Host smb = servers.smbHost();
    QFile ftpPassword(m_dir.filePath(QStringLiteral("ftp.pw")));
    QVERIFY(ftpPassword.open(QIODevice::WriteOnly));
    ftpPassword.write(servers.password().toUtf8() + '\n');
    ftpPassword.close();
    QStringList args{QStringLiteral("run"),
                     QStringLiteral("--host"),
                     QStringLiteral("lab=") + m_daemon.hostArgument(),
                     QStringLiteral("--protocol"),
                     QStringLiteral("tcp-send,smb-read,smb-write,ftp-get,ftp-put"),
                     QStringLiteral("--reps"),
                     QStringLiteral("1"),
                     QStringLiteral("--duration"),
                     QStringLiteral("0.3"),
                     QStringLiteral("--file-size"),
                     QStringLiteral("1M"),
                     QStringLiteral("--no-store"),
                     QStringLiteral("--set"),
                     QStringLiteral("ftp.user=") + servers.user(),
                     QStringLiteral("--set"),
                     QStringLiteral("ftp.password=@") + ftpPassword.fileName(),
                     QStringLiteral("--set"),
                     QStringLiteral("ftp.port=%1").arg(servers.ftpPort())};
    for (auto it = smb.options.cbegin(); it != smb.options.cend(); ++it)
        args << QStringLiteral("--set") << it.key() + QLatin1Char('=') + it.value().toString();
    const clitest::Outcome o = clitest::runCli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QVERIFY2(!o.out.contains(QStringLiteral("check before the first run")) && problemLines(o.out).isEmpty(),
             qPrintable(o.out));
    QVERIFY2(!o.err.contains(QStringLiteral("check before the first run")), qPrintable(o.err));
    QCOMPARE(o.out.count(QRegularExpression(QStringLiteral("^run \\d/5 .* MB/s"), QRegularExpression::MultilineOption)),
             5);
}

void TestCliPreflight::checkOptionsExcludeEachOther()
{
    const clitest::Outcome o
        = clitest::runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                           QStringLiteral("--skip-check"), QStringLiteral("--strict-check")});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(QStringLiteral("--skip-check and --strict-check exclude each other")), qPrintable(o.err));
    QVERIFY(o.out.isEmpty());
}

void TestCliPreflight::referenceDurationIsChecked()
{
    for (const QString &bad :
         {QStringLiteral("0"), QStringLiteral("61"), QStringLiteral("three"), QStringLiteral("nan")}) {
        const clitest::Outcome o
            = clitest::runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                               QStringLiteral("--reference-duration"), bad});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("--reference-duration must be a number of seconds from 0.1 to 60")),
                 qPrintable(o.err));
    }
    // Alone it asks for the streams too, and a saved plan keeps both.
    const QString planFile = m_dir.filePath(QStringLiteral("reference.wbplan.json"));
    // (Port 1 answers nothing, so the strict check runs nothing after the plan is written.)
    const clitest::Outcome o
        = clitest::runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:1"),
                           QStringLiteral("--reference-duration"), QStringLiteral("4.5"), QStringLiteral("--save-plan"),
                           planFile, QStringLiteral("--strict-check"), QStringLiteral("--no-store")});
    QVERIFY2(o.out.contains(QStringLiteral("The check before the first run found")), qPrintable(o.out + o.err));
    QFile f(planFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject plan = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("plan")).toObject();
    QVERIFY2(plan.value(QLatin1String("reference_streams")).toBool(), qPrintable(QJsonDocument(plan).toJson()));
    QCOMPARE(plan.value(QLatin1String("reference_ms")).toInt(), 4500);
}

QTEST_GUILESS_MAIN(TestCliPreflight)
#include "TestCliPreflight.moc"
