// The check before a plan's first run (wb::Preflight, each driver's check) and the engine's use of it: every
// problem of every host and protocol at once, the runs they stand in the way of kept as "not run" with the reason,
// nothing found on a healthy plan, and a test whose run fails for a cause that repeating cannot cure is not
// repeated ("same cause as run k"). Real wirebenchd, vsftpd and smbd on 127.0.0.1, started here.
#include "support/CliTestSupport.h"
#include "FileServerFixture.h"

#include "engine/Engine.h"
#include "engine/Preflight.h"
#include "protocols/transfer/TransferError.h"
#include "protocols/transfer/TransferSettings.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace wb;
using namespace wb::test;

class TestPreflight : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void repeatCannotCure_data();
    void repeatCannotCure();
    void refusedPortIsNotRepeated();
    void refusedFtpIsNotRepeated();
    void doomedPlanShowsEveryProblemAtOnce();
    void healthyPlanHasNoProblem();
    void wrongSettingsAreNamed();

private:
    struct Outcome
    {
        RunResultList results;
        int started = 0; ///< runStarted signals: runs a driver was given
    };
    static Outcome runPlan(const TestPlan &plan, const PreflightReport &checked = {});
    static Host loopback(const QString &name, quint16 port);
    Host fileServer(const QString &name) const;

    clitest::Daemon m_daemon;
    std::unique_ptr<FileServerFixture> m_servers;
    bool m_serversReady = false;
    QString m_why;
};

void TestPreflight::initTestCase()
{
    m_servers = std::make_unique<FileServerFixture>();
    m_serversReady = m_servers->prepare(&m_why) && m_servers->startFtp(&m_why) && m_servers->startSmb(&m_why);
}

void TestPreflight::cleanupTestCase()
{
    m_servers.reset();
    m_daemon.stop();
}

TestPreflight::Outcome TestPreflight::runPlan(const TestPlan &plan, const PreflightReport &checked)
{
    Engine engine;
    QSignalSpy finished(&engine, &Engine::runFinished);
    QSignalSpy started(&engine, &Engine::runStarted);
    QSignalSpy done(&engine, &Engine::planFinished);
    Outcome o;
    if (!engine.start(plan, checked) || !done.wait(240000))
        return o;
    for (const QList<QVariant> &args : finished)
        o.results << args.at(0).value<RunResult>();
    o.started = int(started.size());
    return o;
}

Host TestPreflight::loopback(const QString &name, quint16 port)
{
    Host h;
    h.name = name;
    h.address = QStringLiteral("127.0.0.1");
    h.port = port;
    return h;
}

Host TestPreflight::fileServer(const QString &name) const
{
    // One host whose wirebenchd, vsftpd and smbd are the test's own.
    Host h = m_servers->ftpHost();
    const Host smb = m_servers->smbHost();
    for (auto it = smb.options.cbegin(); it != smb.options.cend(); ++it)
        h.options.insert(it.key(), it.value());
    h.name = name;
    h.port = m_daemon.port();
    return h;
}

void TestPreflight::repeatCannotCure_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<bool>("lasting");
    QTest::newRow("refused") << "not_listening" << true;
    QTest::newRow("unknown host") << "unreachable" << true;
    QTest::newRow("login refused") << "login_refused" << true;
    QTest::newRow("no such share") << "no_such_share" << true;
    QTest::newRow("no such path") << "no_such_path" << true;
    QTest::newRow("TLS required") << "tls_required" << true;
    QTest::newRow("timed out") << "timed_out" << false;
    QTest::newRow("connection broke") << "closed_mid_transfer" << false;
    QTest::newRow("server disk full") << "remote_disk_full" << false;
    QTest::newRow("mismatch") << "mismatch" << false;
    QTest::newRow("unclassified") << "" << false;
}

void TestPreflight::repeatCannotCure()
{
    QFETCH(QString, fault);
    QFETCH(bool, lasting);
    const TransferFault f = transferFaultFromName(fault);
    QCOMPARE(transferFaultName(f), fault.isEmpty() ? QStringLiteral("none") : fault);
    QCOMPARE(wb::repeatCannotCure(f), lasting);
}

void TestPreflight::refusedPortIsNotRepeated()
{
    // tcp-send to a port where nothing listens, 2 frame sizes x 3 repetitions, without the check: the first
    // repetition of each test fails, classified; the others are not run and say why.
    TestPlan plan;
    plan.hosts = {loopback(QStringLiteral("nothing-there"), FileServerFixture::closedPort())};
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 3;
    plan.params.durationMs = 500;
    const Outcome o = runPlan(plan);
    QCOMPARE(o.results.size(), 6);
    QCOMPARE(o.started, 2); // a driver was started for run 1 and run 4 only
    for (const RunResult &r : o.results) {
        const int first = r.spec.frameSize == 1500 ? 1 : 4;
        if (r.spec.index + 1 == first) {
            QCOMPARE(r.status, RunStatus::Failed);
            QVERIFY2(r.error.contains(QStringLiteral("nothing listens on port")), qPrintable(r.error));
            QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("not_listening"));
            QCOMPARE(r.extra.value(QStringLiteral("repeat_cannot_cure")).toBool(), true);
        } else {
            QCOMPARE(r.status, RunStatus::NotRun);
            const QString expected
                = QStringLiteral("not run: same cause as run %1, which repeating cannot cure: ").arg(first);
            QVERIFY2(r.error.startsWith(expected), qPrintable(r.error));
            QVERIFY2(r.error.contains(QStringLiteral("nothing-there"))
                         && r.error.contains(QStringLiteral("nothing listens on port")),
                     qPrintable(r.error));
        }
    }
}

void TestPreflight::refusedFtpIsNotRepeated()
{
    // The same for a file transfer: FTP GET where nothing listens on the FTP port; and a run that fails for
    // a cause that may pass (here: a healthy plan has none) is not in the way of the next.
    Host host = loopback(QStringLiteral("no-ftp"), 0);
    host.options.insert(QStringLiteral("ftp.port"), FileServerFixture::closedPort());
    TestPlan plan;
    plan.hosts = {host};
    plan.protocols = {QStringLiteral("ftp-get")};
    plan.frameSizes = {1500};
    plan.repetitions = 4;
    plan.params.fileSizeBytes = 1024 * 1024;
    const Outcome o = runPlan(plan);
    QCOMPARE(o.results.size(), 4);
    QCOMPARE(o.started, 1);
    QCOMPARE(o.results.at(0).status, RunStatus::Failed);
    QCOMPARE(o.results.at(0).extra.value(QStringLiteral("fault")).toString(), QStringLiteral("not_listening"));
    for (int i = 1; i < 4; ++i) {
        QCOMPARE(o.results.at(i).status, RunStatus::NotRun);
        QVERIFY2(o.results.at(i).error.startsWith(
                     QStringLiteral("not run: same cause as run 1, which repeating cannot cure: no-ftp (127.0.0.1:")),
                 qPrintable(o.results.at(i).error));
        QVERIFY(o.results.at(i).error.contains(QStringLiteral("FTP GET: connection refused")));
    }
}

void TestPreflight::doomedPlanShowsEveryProblemAtOnce()
{
    CLITEST_START_DAEMON(m_daemon);
    // A wirebenchd host whose FTP and SMB are missing (the file-server shoot-out on loopback), and an iperf3
    // host where nothing listens at all.
    Host local = loopback(QStringLiteral("loopback"), m_daemon.port());
    local.options.insert(QStringLiteral("ftp.port"), FileServerFixture::closedPort());
    local.options.insert(QStringLiteral("smb.port"), FileServerFixture::closedPort());
    Host perf = loopback(QStringLiteral("no-iperf3"), FileServerFixture::closedPort());
    perf.serverType = QStringLiteral("iperf3");
    perf.options = local.options;
    TestPlan plan;
    plan.hosts = {local, perf};
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("ftp-get"), QStringLiteral("ftp-put"),
                      QStringLiteral("smb-read"), QStringLiteral("smb-write")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 3;
    plan.params.durationMs = 300;
    plan.params.fileSizeBytes = 1024 * 1024;

    const PreflightReport report = Preflight::check(plan);
    QCOMPARE(report.pairsChecked, 10);
    QStringList seen;
    for (const PreflightProblem &p : report.problems) {
        seen << p.host.name + QLatin1Char(' ') + p.protocol;
        QVERIFY2(p.message.startsWith(p.host.name + QStringLiteral(" (127.0.0.1:")), qPrintable(p.message));
        QVERIFY2(!p.message.contains(QLatin1Char('\n')), qPrintable(p.message));
    }
    // loopback's wirebenchd answers: no problem for its tcp-send. Each SMB test: no share, and nothing listens.
    const QStringList expected{
        "loopback ftp-get",   "loopback ftp-put",      "loopback smb-read",  "loopback smb-read", "loopback smb-write",
        "loopback smb-write", "no-iperf3 iperf3-send", "no-iperf3 ftp-get",  "no-iperf3 ftp-put", "no-iperf3 smb-read",
        "no-iperf3 smb-read", "no-iperf3 smb-write",   "no-iperf3 smb-write"};
    QCOMPARE(seen, expected);
    const PreflightProblemList ftp = report.problemsOf(local, QStringLiteral("ftp-get"));
    QCOMPARE(ftp.size(), 1);
    QCOMPARE(ftp.first().fault, QStringLiteral("not_listening"));
    QVERIFY2(
        ftp.first().message.contains(QStringLiteral("FTP GET: connection refused"))
            && ftp.first().message.contains(QStringLiteral("check that the server is running and listening on port")),
        qPrintable(ftp.first().message));
    const PreflightProblemList smb = report.problemsOf(local, QStringLiteral("smb-write"));
    QCOMPARE(smb.first().fault, QStringLiteral("no_such_share"));
    QVERIFY2(smb.first().message.contains(QStringLiteral("no share is set for this host: check the share name")),
             qPrintable(smb.first().message));
    QVERIFY2(smb.last().message.contains(QStringLiteral("SMB connection refused")), qPrintable(smb.last().message));
    const PreflightProblemList perfTcp = report.problemsOf(perf, QStringLiteral("iperf3-send"));
    QVERIFY2(perfTcp.first().message.contains(QStringLiteral("iperf3 connection refused")),
             qPrintable(perfTcp.first().message));
    QCOMPARE(report.blockedRuns(plan), 54); // 60 runs, of which loopback's 6 tcp-send can work

    // Run the rest: the 6 tcp-send runs against wirebenchd, the 54 others kept as not run with their problem.
    const Outcome o = runPlan(plan, report);
    QCOMPARE(o.results.size(), 60);
    QCOMPARE(o.started, 6);
    for (const RunResult &r : o.results) {
        if (r.spec.host.name == local.name && r.spec.protocol == QLatin1String("tcp-send")) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            continue;
        }
        QCOMPARE(r.status, RunStatus::NotRun);
        QVERIFY2(
            r.error.startsWith(QStringLiteral("not run: the check before the first run found: ") + r.spec.host.name),
            qPrintable(r.error));
    }
}

void TestPreflight::healthyPlanHasNoProblem()
{
    CLITEST_START_DAEMON(m_daemon);
    WB_REQUIRE(m_serversReady, m_why);
    QTemporaryDir mount;
    QVERIFY(mount.isValid());
    Host host = fileServer(QStringLiteral("healthy"));
    host.options.insert(QStringLiteral("copy.path"), mount.path() + QLatin1Char('/'));
    TestPlan plan;
    plan.hosts = {host};
    plan.protocols = {QStringLiteral("tcp-send"),  QStringLiteral("tcp-recv"),  QStringLiteral("ftp-get"),
                      QStringLiteral("ftp-put"),   QStringLiteral("smb-read"),  QStringLiteral("smb-write"),
                      QStringLiteral("copy-read"), QStringLiteral("copy-write")};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 300;
    plan.params.fileSizeBytes = 1024 * 1024;
    const PreflightReport report = Preflight::check(plan);
    QCOMPARE(report.pairsChecked, 8);
    for (const PreflightProblem &p : report.problems)
        qWarning("unexpected problem: %s: %s", qPrintable(p.protocol), qPrintable(p.message));
    QVERIFY(report.isClean());
    QCOMPARE(report.blockedRuns(plan), 0);

    // And the plan then runs every run: the check wrote nothing that gets in its way.
    const Outcome o = runPlan(plan, report);
    QCOMPARE(o.results.size(), 8);
    for (const RunResult &r : o.results)
        QVERIFY2(r.ok(), qPrintable(r.spec.protocol + QStringLiteral(": ") + r.error));
}

void TestPreflight::wrongSettingsAreNamed()
{
    CLITEST_START_DAEMON(m_daemon);
    WB_REQUIRE(m_serversReady, m_why);
    struct Case
    {
        const char *name;
        const char *protocol;
        const char *key;
        QVariant value;
        const char *fault;
        const char *says;
    };
    const QList<Case> cases = {
        {"ftp-password", "ftp-put", "ftp.password", QStringLiteral("wrong"), "login_refused", "login refused for user"},
        {"ftp-folder", "ftp-put", "ftp.path", QStringLiteral("no-such-folder/x.bin"), "no_such_path",
         "cannot enter the folder"},
        {"ftp-no-file", "ftp-get", "ftp.path", QStringLiteral("never-written.bin"), "no_such_path",
         "no file \"never-written.bin\""},
        {"smb-share", "smb-read", "smb.share", QStringLiteral("nosuchshare"), "no_such_share",
         "no share \"nosuchshare\""},
        {"smb-password", "smb-write", "smb.password", QStringLiteral("wrong"), "login_refused",
         "logon refused for user"},
        {"smb-folder", "smb-write", "smb.path", QStringLiteral("no-such-folder/x.bin"), "no_such_path",
         "no file or folder"},
        {"smb-on-ftp-port", "smb-read", "smb.port", int(m_servers->ftpPort()), "wrong_service",
         "answered with an FTP banner"},
        {"copy-folder", "copy-write", "copy.path", QStringLiteral("/nonexistent-wirebench/x.bin"), "no_such_path",
         "no file or folder"},
    };
    TestPlan plan;
    for (const Case &c : cases) {
        Host h = fileServer(QString::fromLatin1(c.name));
        h.options.insert(QString::fromLatin1(c.key), c.value);
        plan.hosts << h;
        if (!plan.protocols.contains(QString::fromLatin1(c.protocol)))
            plan.protocols << QString::fromLatin1(c.protocol);
    }
    plan.repetitions = 1;
    plan.params.fileSizeBytes = 1024 * 1024;
    plan.params.options.insert(QLatin1String(TransferSettings::CreateSeedKey), false); // a GET needs its file
    const PreflightReport report = Preflight::check(plan);
    for (int i = 0; i < cases.size(); ++i) {
        const Case &c = cases.at(i);
        const PreflightProblemList found = report.problemsOf(plan.hosts.at(i), QString::fromLatin1(c.protocol));
        QVERIFY2(found.size() == 1, c.name);
        QVERIFY2(found.first().fault == QString::fromLatin1(c.fault),
                 qPrintable(QStringLiteral("%1: expected %2, found %3: %4")
                                .arg(QString::fromLatin1(c.name), QString::fromLatin1(c.fault), found.first().fault,
                                     found.first().message)));
        QVERIFY2(found.first().message.contains(QString::fromLatin1(c.says)), qPrintable(found.first().message));
        QVERIFY2(found.first().message.startsWith(QString::fromLatin1(c.name) + QLatin1Char(' ')),
                 qPrintable(found.first().message));
    }
    // The settings that are right for a host find nothing: ftp-password's SMB settings are fine, and so are
    // smb-share's FTP settings.
    QVERIFY(report.problemsOf(plan.hosts.at(0), QStringLiteral("smb-write")).isEmpty());
    QVERIFY(report.problemsOf(plan.hosts.at(3), QStringLiteral("ftp-put")).isEmpty());
}

QTEST_GUILESS_MAIN(TestPreflight)
#include "TestPreflight.moc"
