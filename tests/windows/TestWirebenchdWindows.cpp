// wirebenchd.exe, the mingw-w64 cross build (tests/windows/cross_build.sh, ctest's fixture WindowsBuild), under
// wine on 127.0.0.1, met by the real Linux wirebench-cli and iperf3: both directions with their byte counts, the
// OS label the far end reports, a wrong key, a busy server, garbage on the control port, the iperf3 port, and the
// NSIS installer installing it silently (wirebenchd-setup.exe /S) and the installed one serving.
#include "responder/RawClient.h"
#include "support/CiRule.h"
#include "support/CliTestSupport.h"
#include "support/FreePort.h"
#include "wire/wirebenchd/Auth.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

const QString kWinBuild = QStringLiteral(WIREBENCH_WIN_BUILD_DIR);
const QString kKey = QStringLiteral("the key of this wine test");

/// A Linux path as wine's drive Z: names it (Z: is /).
QString winPath(const QString &path)
{
    return QStringLiteral("Z:") + QString(path).replace(QLatin1Char('/'), QLatin1Char('\\'));
}

/// What a finished program said and its exit code (-1 when it did not end within timeoutMs).
clitest::Outcome run(const QString &program, const QStringList &args, const QProcessEnvironment &env,
                     int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    return clitest::outcomeOf(p, timeoutMs);
}

} // namespace

class TestWirebenchdWindows : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void tcpSendAndRecvCountEveryByte();
    void farEndReportsWhatWindowsSays();
    void wrongKeyIsRefused();
    void busyServerSaysSo();
    void garbageIsRefusedAndTheNextClientServed();
    void iperf3ClientIsServed();
    void installerInstallsAndTheInstalledOneServes();

private:
    /// wirebenchd exe under wine on 127.0.0.1 (a free port) with more arguments.
    std::unique_ptr<clitest::Daemon> daemon(const QString &exe, const QStringList &more);
    /// wirebench-cli run against daemon: one repetition of protocol, results in *results.
    clitest::Outcome runCli(const clitest::Daemon &daemon, const QString &protocol, const QString &keyFile,
                            QJsonObject *result = nullptr, double seconds = 1);
    QString registryValue(const QString &name);

    QString m_wine;
    QString m_exe;
    QTemporaryDir m_dir; // WINEPREFIX, key files, JSON
    QProcessEnvironment m_env;
    QString m_keyFile;
};

void TestWirebenchdWindows::initTestCase()
{
    m_exe = kWinBuild + QStringLiteral("/app/daemon/wirebenchd.exe");
    m_wine = QStandardPaths::findExecutable(QStringLiteral("wine"));
    WB_REQUIRE(!m_wine.isEmpty(),
               QStringLiteral("wine is not installed: scripts/install-deps.sh --test installs wine64"));
    WB_REQUIRE(QFile::exists(m_exe),
               QStringLiteral("%1 was not built: the fixture WindowsBuild (tests/windows/cross_build.sh) "
                              "needs g++-mingw-w64-x86-64-posix and nsis")
                   .arg(m_exe));
    QVERIFY(m_dir.isValid());
    // A prefix of our own, made anew: CI runs as root in a clean clone, with no ~/.wine.
    m_env = clitest::sandboxEnvironment(m_dir.filePath(QStringLiteral("home")));
    QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
    m_env.insert(QStringLiteral("WINEPREFIX"), m_dir.filePath(QStringLiteral("prefix")));
    m_env.insert(QStringLiteral("WINEDEBUG"), QStringLiteral("-all"));
    m_env.insert(QStringLiteral("WINEDLLOVERRIDES"), QStringLiteral("mscoree,mshtml=")); // no Mono or Gecko dialogs
    m_env.remove(QStringLiteral("DISPLAY"));
    const clitest::Outcome boot = run(m_wine, {QStringLiteral("wineboot"), QStringLiteral("--init")}, m_env, 240000);
    QVERIFY2(boot.exitCode == 0,
             qPrintable(QStringLiteral("wineboot failed (%1): %2").arg(boot.exitCode).arg(boot.out + boot.err)));
    m_keyFile = m_dir.filePath(QStringLiteral("wirebenchd.key"));
    QFile key(m_keyFile);
    QVERIFY(key.open(QIODevice::WriteOnly));
    QVERIFY(key.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    key.write(kKey.toUtf8() + '\n');
}

void TestWirebenchdWindows::cleanupTestCase()
{
    // The wineserver of our prefix only (it lingers a few seconds after its last program).
    if (!m_wine.isEmpty() && m_env.contains(QStringLiteral("WINEPREFIX")))
        run(QStringLiteral("wineserver"), {QStringLiteral("-k")}, m_env, 30000);
}

std::unique_ptr<clitest::Daemon> TestWirebenchdWindows::daemon(const QString &exe, const QStringList &more)
{
    return std::make_unique<clitest::Daemon>(
        m_wine, QStringList{exe, QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} + more, m_env);
}

clitest::Outcome TestWirebenchdWindows::runCli(const clitest::Daemon &daemon, const QString &protocol,
                                               const QString &keyFile, QJsonObject *result, double seconds)
{
    const QString json = m_dir.filePath(QStringLiteral("%1.json").arg(protocol));
    QFile::remove(json);
    const clitest::Outcome o = clitest::runCli(
        {QStringLiteral("run"), QStringLiteral("--host"), daemon.hostArgument(), QStringLiteral("--protocol"), protocol,
         QStringLiteral("--reps"), QStringLiteral("1"), QStringLiteral("--duration"), QString::number(seconds),
         QStringLiteral("--key-file"), keyFile, QStringLiteral("--skip-check"), QStringLiteral("--no-store"),
         QStringLiteral("--json"), json});
    QFile f(json);
    if (result && f.open(QIODevice::ReadOnly))
        *result = QJsonDocument::fromJson(f.readAll())
                      .object()
                      .value(QStringLiteral("results"))
                      .toArray()
                      .first()
                      .toObject();
    return o;
}

QString TestWirebenchdWindows::registryValue(const QString &name)
{
    // reg query prints "    NAME    REG_SZ    VALUE".
    const clitest::Outcome o
        = run(m_wine,
              {QStringLiteral("reg"), QStringLiteral("query"),
               QStringLiteral("HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion"), QStringLiteral("/v"), name},
              m_env, 60000);
    static const QRegularExpression row(QStringLiteral("^(\\S+)\\s+REG_\\w+\\s+(.*)$"));
    for (const QString &line : o.out.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = row.match(line.trimmed());
        if (m.hasMatch() && m.captured(1) == name)
            return m.captured(2).trimmed();
    }
    return {};
}

void TestWirebenchdWindows::tcpSendAndRecvCountEveryByte()
{
    auto d = daemon(m_exe, {QStringLiteral("--key-file"), winPath(m_keyFile)});
    CLITEST_START_DAEMON(*d);

    // tcp-send: the figure is the far end's count, which its log line says too.
    QJsonObject r;
    clitest::Outcome cli = runCli(*d, QStringLiteral("tcp-send"), m_keyFile, &r);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.out + cli.err + d->log()));
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    const qint64 sendBytes = qint64(r.value(QStringLiteral("bytes")).toDouble());
    QVERIFY2(sendBytes > 1000000, qPrintable(cli.out));
    QVERIFY2(d->waitForLog(QStringLiteral(": received %1 B in ").arg(sendBytes)), qPrintable(d->log()));

    // tcp-recv: the far end sends, the client counts; all it sent arrived.
    cli = runCli(*d, QStringLiteral("tcp-recv"), m_keyFile, &r);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.out + cli.err + d->log()));
    const qint64 recvBytes = qint64(r.value(QStringLiteral("bytes")).toDouble());
    QVERIFY2(recvBytes > 1000000, qPrintable(cli.out));
    QCOMPARE(qint64(r.value(QStringLiteral("sender_bytes")).toDouble()), recvBytes);
    QVERIFY2(d->waitForLog(QStringLiteral(": sent %1 B, client received %1 B in ").arg(recvBytes)),
             qPrintable(d->log()));
    QVERIFY2(!d->log().contains(QStringLiteral("ended early")), qPrintable(d->log()));
}

void TestWirebenchdWindows::farEndReportsWhatWindowsSays()
{
    // RtlGetVersion's version and the registry's ProductName, as wine answers them: the label is what the calls
    // returned, checked against the registry wine keeps for its Windows version.
    const QString product = registryValue(QStringLiteral("ProductName"));
    const QString build = registryValue(QStringLiteral("CurrentBuildNumber"));
    QString major = registryValue(QStringLiteral("CurrentMajorVersionNumber")), minor;
    if (!major.isEmpty()) { // Windows 10 and later keep 6.3 in CurrentVersion and the real numbers here (0xa)
        major = QString::number(major.toUInt(nullptr, 0));
        minor = QString::number(registryValue(QStringLiteral("CurrentMinorVersionNumber")).toUInt(nullptr, 0));
    } else {
        const QStringList v = registryValue(QStringLiteral("CurrentVersion")).split(QLatin1Char('.'));
        QVERIFY(v.size() == 2);
        major = v[0];
        minor = v[1];
    }
    QVERIFY2(!product.isEmpty() && !build.isEmpty(), "wine's registry has no ProductName or CurrentBuildNumber");
    const QString expected = QStringLiteral("%1 (%2.%3.%4)").arg(product, major, minor, build);

    auto d = daemon(m_exe, {QStringLiteral("--key-file"), winPath(m_keyFile)});
    CLITEST_START_DAEMON(*d);
    QJsonObject r;
    const clitest::Outcome cli = runCli(*d, QStringLiteral("tcp-send"), m_keyFile, &r, 0.5);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.out + cli.err));
    QCOMPARE(r.value(QStringLiteral("server_os")).toString(), expected);
    QVERIFY2(cli.out.contains(QStringLiteral("[%1]").arg(expected)), qPrintable(cli.out));
}

void TestWirebenchdWindows::wrongKeyIsRefused()
{
    auto d = daemon(m_exe, {QStringLiteral("--key-file"), winPath(m_keyFile)});
    CLITEST_START_DAEMON(*d);
    const QString wrong = m_dir.filePath(QStringLiteral("wrong.key"));
    QFile f(wrong);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not the key\n");
    f.close();
    const clitest::Outcome cli = runCli(*d, QStringLiteral("tcp-send"), wrong);
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2((cli.out + cli.err).contains(QStringLiteral("wirebenchd refused: authentication failed: wrong key")),
             qPrintable(cli.out + cli.err));
    QVERIFY2(d->waitForLog(QStringLiteral("authentication failed: wrong key")), qPrintable(d->log()));
}

void TestWirebenchdWindows::busyServerSaysSo()
{
    // One test at a time and no queue: a client that proved the key holds the slot; the CLI is told "busy".
    auto d = daemon(m_exe,
                    {QStringLiteral("--key-file"), winPath(m_keyFile), QStringLiteral("--queue"), QStringLiteral("0")});
    CLITEST_START_DAEMON(*d);
    test::RawClient holder;
    QVERIFY(holder.connectTo(d->port()));
    control::Hello theirs;
    QVERIFY(control::Hello::fromJson(wire::fromQt(holder.next()), &theirs, nullptr));
    control::Hello mine = control::Hello::local("wine test holder");
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.mac = auth::clientProof(kKey.toStdString(), theirs.nonce, mine.nonce);
    holder.send(mine.toJson());
    QCOMPARE(test::typeOf(holder.next()), QLatin1String(control::kWelcome));

    const clitest::Outcome cli = runCli(*d, QStringLiteral("tcp-send"), m_keyFile);
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2((cli.out + cli.err).contains(QStringLiteral("is busy with another test; try again when it ends")),
             qPrintable(cli.out + cli.err));
    QVERIFY2(d->waitForLog(QStringLiteral("refused, busy with another test")), qPrintable(d->log()));
}

void TestWirebenchdWindows::garbageIsRefusedAndTheNextClientServed()
{
    auto d = daemon(m_exe, {QStringLiteral("--key-file"), winPath(m_keyFile)});
    CLITEST_START_DAEMON(*d);
    {
        // Not a control message at all: an HTTP request, then bytes. Answered with an error and closed.
        test::RawClient c;
        QVERIFY(c.connectTo(d->port()));
        QCOMPARE(test::typeOf(c.next()), QLatin1String(control::kHello));
        c.sendRaw(QByteArrayLiteral("GET / HTTP/1.1\r\nHost: x\r\n\r\n\x00\xff\xfe garbage"));
        const QJsonObject reply = c.next();
        QCOMPARE(reply.value(QStringLiteral("code")).toString(), QStringLiteral("bad-message"));
        QVERIFY(c.closedByServer());
    }
    QVERIFY2(d->waitForLog(QStringLiteral("bad control message")), qPrintable(d->log()));
    QJsonObject r;
    const clitest::Outcome cli = runCli(*d, QStringLiteral("tcp-send"), m_keyFile, &r, 0.5);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.out + cli.err + d->log()));
    QVERIFY(r.value(QStringLiteral("bytes")).toDouble() > 0);
}

void TestWirebenchdWindows::iperf3ClientIsServed()
{
    const QString iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
    WB_REQUIRE(!iperf3.isEmpty(), QStringLiteral("iperf3 is not installed"));
    const quint16 iperf3Port = test::freeLoopbackPort();
    QVERIFY(iperf3Port != 0);
    auto d = daemon(m_exe,
                    {QStringLiteral("--key-file"), winPath(m_keyFile), QStringLiteral("--iperf3-port"),
                     QString::number(iperf3Port)});
    CLITEST_START_DAEMON(*d);
    QVERIFY2(d->waitForLog(QStringLiteral("answers iperf3 clients")), qPrintable(d->log()));
    for (const bool reverse : {false, true}) {
        QStringList args{QStringLiteral("-c"),        QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                         QString::number(iperf3Port), QStringLiteral("-t"),        QStringLiteral("1"),
                         QStringLiteral("-J")};
        if (reverse)
            args << QStringLiteral("-R");
        const clitest::Outcome o = run(iperf3, args, QProcessEnvironment::systemEnvironment(), 60000);
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err + d->log()));
        const QJsonObject end
            = QJsonDocument::fromJson(o.out.toUtf8()).object().value(QStringLiteral("end")).toObject();
        const qint64 sent
            = qint64(end.value(QStringLiteral("sum_sent")).toObject().value(QStringLiteral("bytes")).toDouble());
        const qint64 received
            = qint64(end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble());
        QVERIFY2(sent > 1000000 && received > 1000000,
                 qPrintable(QStringLiteral("sent %1, received %2").arg(sent).arg(received)));
        // The far end's log line has its own count (iperf3 prints it as the server's) and the client's.
        const QString line = reverse ? QStringLiteral(": sent %1 B in ").arg(sent)
                                     : QStringLiteral(": received %1 B in ").arg(received);
        const QString theirs = reverse ? QStringLiteral(", client received %1 B in ").arg(received)
                                       : QStringLiteral(", client sent %1 B in ").arg(sent);
        QVERIFY2(d->waitForLog(line) && d->log().contains(theirs),
                 qPrintable(QStringLiteral("%1 / %2 in: %3").arg(line, theirs, d->log())));
    }
}

void TestWirebenchdWindows::installerInstallsAndTheInstalledOneServes()
{
    const QString setup = kWinBuild + QStringLiteral("/installer/windows/wirebenchd-setup.exe");
    WB_REQUIRE(QFile::exists(setup),
               QStringLiteral("%1 was not built (makensis, the fixture WindowsBuild)").arg(setup));
    const clitest::Outcome install = run(m_wine, {setup, QStringLiteral("/S")}, m_env, 180000);
    QVERIFY2(install.exitCode == 0, qPrintable(install.out + install.err));
    const QString programFiles = m_dir.filePath(QStringLiteral("prefix/drive_c/Program Files/Wirebench"));
    QVERIFY2(QFile::exists(programFiles + QStringLiteral("/wirebenchd.exe")),
             qPrintable(QDir(programFiles).entryList().join(QLatin1Char(' '))));
    QVERIFY(QFile::exists(programFiles + QStringLiteral("/wirebenchd.conf")));
    QVERIFY(QFile::exists(programFiles + QStringLiteral("/uninstall.exe")));

    // The installed wirebenchd with the installed configuration; on 127.0.0.1 and a free port instead of the
    // configuration's 0.0.0.0:5301 (the command line comes after the file). Its first start makes the key and
    // shows it once; the CLI uses that key.
    auto d = std::make_unique<clitest::Daemon>(
        m_wine,
        QStringList{QStringLiteral("C:\\Program Files\\Wirebench\\wirebenchd.exe"), QStringLiteral("--config"),
                    QStringLiteral("C:\\Program Files\\Wirebench\\wirebenchd.conf"), QStringLiteral("--listen"),
                    QStringLiteral("127.0.0.1:0")},
        m_env);
    CLITEST_START_DAEMON(*d);
    // Its console output has Windows' line ends (CR LF).
    static const QRegularExpression shown(QStringLiteral("new key \\(shown once[^\\n]*\\n\\s+(\\S+)"));
    const QRegularExpressionMatch key = shown.match(d->log());
    QVERIFY2(key.hasMatch(), qPrintable(d->log()));
    QVERIFY2(d->log().contains(QStringLiteral("C:\\ProgramData\\Wirebench\\wirebenchd.key")), qPrintable(d->log()));
    QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("prefix/drive_c/ProgramData/Wirebench/wirebenchd.key"))));
    const QString keyFile = m_dir.filePath(QStringLiteral("installed.key"));
    QFile f(keyFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(key.captured(1).toUtf8() + '\n');
    f.close();
    QJsonObject r;
    const clitest::Outcome cli = runCli(*d, QStringLiteral("tcp-send"), keyFile, &r, 0.5);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.out + cli.err + d->log()));
    const qint64 bytes = qint64(r.value(QStringLiteral("bytes")).toDouble());
    QVERIFY(bytes > 0);
    QVERIFY2(d->waitForLog(QStringLiteral(": received %1 B in ").arg(bytes)), qPrintable(d->log()));

    // --service started from a console, not by the service control manager: refused, said in the service's log.
    const clitest::Outcome service
        = run(m_wine,
              {QStringLiteral("C:\\Program Files\\Wirebench\\wirebenchd.exe"), QStringLiteral("--service"),
               QStringLiteral("--open"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
              m_env, 60000);
    QCOMPARE(service.exitCode, 1);
    QFile log(m_dir.filePath(QStringLiteral("prefix/drive_c/ProgramData/Wirebench/wirebenchd.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY2(log.readAll().contains("wirebenchd: --service: not started by the service control manager (error 1063)"),
             qPrintable(service.out + service.err));
}

QTEST_GUILESS_MAIN(TestWirebenchdWindows)
#include "TestWirebenchdWindows.moc"
