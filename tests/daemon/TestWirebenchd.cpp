#include "responder/RawClient.h"
#include "wire/wirebenchd/Auth.h"
#include "protocols/tcp/TcpDriver.h"
#include "support/CliTestSupport.h"
#include "support/CiRule.h"
#include "support/FreePort.h"
#include "support/SampleObserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <memory>
#include <thread>
#include <vector>

using namespace wb;

namespace {

using Observer = test::SampleObserver;
using test::freeLoopbackPort;

// wirebenchd's arguments to listen on 127.0.0.1:port, then more.
QStringList listenOn(quint16 port, const QStringList &more = {})
{
    return QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)} + more;
}

// A test of protocol against the wirebenchd at address:port, of durationMs.
RunSpec specTo(const QString &address, quint16 port, const QString &protocol, int durationMs)
{
    RunSpec spec;
    spec.host.address = address;
    spec.host.port = port;
    spec.protocol = protocol;
    spec.params.durationMs = durationMs;
    return spec;
}

} // namespace

/// The built wirebenchd binary, as a user starts it.
class TestWirebenchd : public QObject
{
    Q_OBJECT
private slots:
    void versionAndHelp();
    void badArguments_data();
    void badArguments();
    void servesADriverAndLogs();
    void ipv6Loopback();
    void killedMidTest();
    void keyFileShownOnceAndChecked();
    void allowListRefusesWithReason();
    void connectionLimitGivesTheServersReason();
    void hostileHelloIsLoggedEscaped();
    void iperf3PortSendsServerOutput();
    void configFileGivesOptions();

private:
    /// Starts wirebenchd and reads its stdout up to the "listening on" line (*output holds all of it).
    bool startUntilListening(QProcess &p, const QStringList &args, QString *output);
    bool startDaemon(QProcess &p, const QStringList &args, QString *firstLine);
};

bool TestWirebenchd::startDaemon(QProcess &p, const QStringList &args, QString *firstLine)
{
    p.setProgram(QStringLiteral(WIREBENCHD_PATH));
    p.setArguments(args);
    p.start();
    if (!p.waitForStarted(10000))
        return false;
    // It prints "listening on ..." once the port is bound.
    for (int i = 0; i < 100 && !p.canReadLine(); ++i)
        p.waitForReadyRead(100);
    *firstLine = QString::fromUtf8(p.readLine()).trimmed();
    return firstLine->contains(QStringLiteral("listening on"));
}

bool TestWirebenchd::startUntilListening(QProcess &p, const QStringList &args, QString *output)
{
    p.setProgram(QStringLiteral(WIREBENCHD_PATH));
    p.setArguments(args);
    p.start();
    if (!p.waitForStarted(10000))
        return false;
    output->clear();
    for (int i = 0; i < 100 && !output->contains(QStringLiteral("listening on")); ++i) {
        p.waitForReadyRead(100);
        *output += QString::fromUtf8(p.readAllStandardOutput());
    }
    if (!output->contains(QStringLiteral("listening on")))
        qWarning() << *output << p.readAllStandardError();
    return output->contains(QStringLiteral("listening on"));
}

void TestWirebenchd::keyFileShownOnceAndChecked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString keyFile = dir.filePath(QStringLiteral("state/wirebenchd.key"));
    const quint16 port = freeLoopbackPort();
    QVERIFY(port != 0);
    const QStringList args = listenOn(port, {QStringLiteral("--key-file"), keyFile});
    QString out;
    QString key;
    {
        QProcess daemon;
        QVERIFY(startUntilListening(daemon, args, &out));
        // The new key is shown once, and kept readable by its owner only.
        QVERIFY2(out.contains(QStringLiteral("new key")), qPrintable(out));
        QFile f(keyFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        key = QString::fromUtf8(f.readAll()).trimmed();
        QCOMPARE(QByteArray::fromBase64(key.toLatin1()).size(), 32);
        QVERIFY2(out.contains(key), qPrintable(out));
        QCOMPARE(
            f.permissions()
                & ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ReadOwner | QFileDevice::WriteOwner),
            QFileDevice::Permissions());

        RunSpec spec = specTo(QStringLiteral("127.0.0.1"), port, QStringLiteral("tcp-send"), 500);
        Observer observer;
        RunResult r = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
        QCOMPARE(r.status, RunStatus::Failed);
        QVERIFY2(r.error.contains(QStringLiteral("requires a key")), qPrintable(r.error));
        spec.host.options.insert(QLatin1String(TcpDriver::kKeyOption), QStringLiteral("guess"));
        r = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
        QVERIFY2(r.error.contains(QStringLiteral("authentication failed: wrong key")), qPrintable(r.error));
        spec.host.options.insert(QLatin1String(TcpDriver::kKeyOption), key);
        r = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QTRY_VERIFY_WITH_TIMEOUT(
            (out += QString::fromUtf8(daemon.readAllStandardOutput())).contains(QStringLiteral("received")), 10000);
        QVERIFY2(out.contains(QStringLiteral("authentication failed: wrong key")), qPrintable(out));
        daemon.terminate();
        QVERIFY(daemon.waitForFinished(10000));
    }
    // Second start: the same key, not shown again.
    QProcess again;
    QVERIFY(startUntilListening(again, args, &out));
    QVERIFY2(!out.contains(key) && !out.contains(QStringLiteral("new key")), qPrintable(out));
    again.terminate();
    QVERIFY(again.waitForFinished(10000));
    // A key file others can read is refused.
    QFile::setPermissions(keyFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
    QProcess loose;
    loose.start(QStringLiteral(WIREBENCHD_PATH), args);
    QVERIFY(loose.waitForFinished(10000));
    QVERIFY(loose.exitCode() != 0);
    QVERIFY(QString::fromUtf8(loose.readAllStandardError()).contains(QStringLiteral("chmod 600")));
}

void TestWirebenchd::allowListRefusesWithReason()
{
    // --allow 10.0.0.0/8 while the client is 127.0.0.1: refused with the reason, logged; nothing leaves loopback.
    const quint16 port = freeLoopbackPort();
    QVERIFY(port != 0);
    QProcess daemon;
    QString out;
    QVERIFY(startUntilListening(
        daemon, listenOn(port, {QStringLiteral("--open"), QStringLiteral("--allow"), QStringLiteral("10.0.0.0/8")}),
        &out));
    RunSpec spec = specTo(QStringLiteral("127.0.0.1"), port, QStringLiteral("tcp-recv"), 500);
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Receive).run(spec, observer);
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.error.contains(
                 QStringLiteral("client 127.0.0.1 is not in the networks this wirebenchd serves (--allow 10.0.0.0/8)")),
             qPrintable(r.error));
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += QString::fromUtf8(daemon.readAllStandardOutput())).contains(QStringLiteral("not in the networks")),
        10000);
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
}

void TestWirebenchd::connectionLimitGivesTheServersReason()
{
    // A flood of 40 silent connections on loopback, 4 from each of 127.0.0.2 to 127.0.0.11 (the most one address may
    // hold unproven), fills wirebenchd's 32 (its default --max-connections) while no test runs: the driver and the
    // CLI must give the server's reason, not "busy with another test".
    const quint16 port = freeLoopbackPort();
    QVERIFY(port != 0);
    QProcess daemon;
    QString out;
    QVERIFY(startUntilListening(
        daemon,
        listenOn(port, {QStringLiteral("--open"), QStringLiteral("--handshake-timeout"), QStringLiteral("120")}),
        &out));
    std::vector<std::unique_ptr<QTcpSocket>> flood;
    for (int i = 0; i < 40; ++i) {
        flood.push_back(std::make_unique<QTcpSocket>());
        QVERIFY(flood.back()->bind(QHostAddress(QStringLiteral("127.0.0.%1").arg(2 + i / 4)), 0));
        flood.back()->connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(flood.back()->waitForConnected(5000));
    }
    // Every connection has had its answer (a hello or busy), so the 32 are held.
    for (auto &s : flood)
        QTRY_VERIFY_WITH_TIMEOUT(s->bytesAvailable() > 0 || s->state() != QAbstractSocket::ConnectedState, 10000);

    RunSpec spec = specTo(QStringLiteral("127.0.0.1"), port, QStringLiteral("tcp-send"), 500);
    spec.host.name = QStringLiteral("flooded");
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
    QCOMPARE(r.status, RunStatus::Failed);
    const QString reason
        = QStringLiteral("wirebenchd is busy handling 32 connections, its limit (--max-connections): try again later");
    QVERIFY2(r.error == QStringLiteral("flooded (127.0.0.1:%1): ").arg(port) + reason, qPrintable(r.error));
    QVERIFY2(!r.error.contains(QStringLiteral("another test")), qPrintable(r.error));

    const clitest::Outcome cli = clitest::runCli(
        {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:%1").arg(port),
         QStringLiteral("--protocol"), QStringLiteral("tcp-send"), QStringLiteral("--reps"), QStringLiteral("1"),
         QStringLiteral("--duration"), QStringLiteral("1"), QStringLiteral("--no-store")});
    QVERIFY2(cli.exitCode != 0 && cli.exitCode != 2, qPrintable(QString::number(cli.exitCode) + cli.out + cli.err));
    QVERIFY2((cli.out + cli.err).contains(reason), qPrintable(cli.out + cli.err));
    QVERIFY2(!(cli.out + cli.err).contains(QStringLiteral("another test")), qPrintable(cli.out + cli.err));
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(daemon.readAllStandardOutput()))
                                 .contains(QStringLiteral("32 connections already (the limit)")),
                             10000);

    // The flood gone, the same client is served and hears of no limit. wirebenchd learns of the 40 closes as its
    // threads wake up to them: until then the limit may still refuse the control connection ("busy") or, once that
    // got in, its data connection ("--max-connections, with 32 in use"), so both are tried again for a while.
    flood.clear();
    RunResult healthy;
    QDeadlineTimer deadline(20000);
    do {
        healthy = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
    } while (!healthy.ok() && healthy.error.contains(QStringLiteral("--max-connections")) && !deadline.hasExpired()
             && (QTest::qWait(200), true));
    QVERIFY2(healthy.ok(), qPrintable(healthy.error));
    QVERIFY(healthy.error.isEmpty()
            && healthy.warnings.join(QLatin1Char(' ')).indexOf(QStringLiteral("connections")) < 0);
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
}

void TestWirebenchd::hostileHelloIsLoggedEscaped()
{
    // Newlines, carriage returns, ESC sequences and 4 KiB strings from a client, before and after it proved
    // the key: wirebenchd's log gets one line per refusal, escaped and capped, and no forged line.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString keyFile = dir.filePath(QStringLiteral("wirebenchd.key"));
    const QString key = QStringLiteral("a key for this test");
    {
        QFile f(keyFile); // an existing key: no "new key" banner in the log
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        f.write(key.toUtf8() + '\n');
    }
    const quint16 port = freeLoopbackPort();
    QVERIFY(port != 0);
    QProcess daemon;
    QString out;
    QVERIFY(startUntilListening(daemon, listenOn(port, {QStringLiteral("--key-file"), keyFile}), &out));

    // Sends `first` as the client's first message (or a proven hello, then `first`) and waits for the refusal.
    auto refusedAfter = [&](const QJsonObject &first, bool proveKeyFirst) {
        test::RawClient c;
        if (!c.connectTo(port))
            return QStringLiteral("no connection");
        const QJsonObject serverHello = c.next();
        control::Hello theirs;
        if (!control::Hello::fromJson(wire::fromQt(serverHello), &theirs, nullptr))
            return QStringLiteral("no hello");
        if (proveKeyFirst) {
            control::Hello mine = control::Hello::local("test client");
            mine.nonce = auth::randomBytes(auth::kNonceBytes);
            mine.mac = auth::clientProof(key.toStdString(), theirs.nonce, mine.nonce);
            c.send(mine.toJson());
            if (test::typeOf(c.next()) != QLatin1String(control::kWelcome))
                return QStringLiteral("no welcome");
        }
        c.send(first);
        const QJsonObject reply = c.next();
        c.closedByServer();
        return reply.value(QLatin1String("code")).toString();
    };
    const QString forged
        = QStringLiteral("hello\n2099-01-01T00:00:00 127.0.0.1:1: tcp-send forged\r\x1b[2J\x1b]0;x\x07");
    QCOMPARE(refusedAfter({{QStringLiteral("type"), forged}, {QStringLiteral("version"), 2}}, false),
             QStringLiteral("bad-message"));
    QString big; // about 4 KiB, as much as fits before authentication
    while (big.size() < 3500)
        big += QStringLiteral("\x1b[1A\r\nFORGED ") + QString(80, QLatin1Char('A'));
    QCOMPARE(refusedAfter({{QStringLiteral("type"), big}, {QStringLiteral("version"), 2}}, false),
             QStringLiteral("bad-message"));
    const QString afterAuth = QStringLiteral("test\nFORGED AFTER AUTH\x1b[31m") + QString(60000, QLatin1Char('B'));
    QCOMPARE(refusedAfter({{QStringLiteral("type"), afterAuth}}, true), QStringLiteral("bad-message"));
    ::kill(pid_t(daemon.processId()), SIGTERM);
    QVERIFY(daemon.waitForFinished(10000));
    out += QString::fromUtf8(daemon.readAllStandardOutput());

    // Exactly: listening, three refusals, stopped. Every line is wirebenchd's own, with its time stamp.
    const QStringList lines = out.trimmed().split(QLatin1Char('\n'));
    QVERIFY2(lines.size() == 5, qPrintable(out));
    static const QRegularExpression stamp(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\S* "));
    for (const QString &line : lines) {
        QVERIFY2(stamp.match(line).hasMatch(), qPrintable(line));
        QVERIFY2(!line.contains(QLatin1Char('\r')) && !line.contains(QChar(0x1b)) && !line.contains(QChar(0x07)),
                 qPrintable(line));
        QVERIFY2(line.size() <= 40 + 1000, qPrintable(line));
    }
    const QString who = QStringLiteral("127.0.0.1:");
    QVERIFY2(lines[1].contains(who)
                 && lines[1].endsWith(QStringLiteral("expected a \"hello\" message, got \"hello\\n2099-01-01T00:00:00 "
                                                     "127.0.0.1:1: tcp-send forged\\r\\x1b[2J\\x1b]0;x\\x07\"")),
             qPrintable(lines[1]));
    QVERIFY2(lines[2].contains(QStringLiteral("got \"\\x1b[1A\\r\\nFORGED AAAA"))
                 && lines[2].endsWith(QStringLiteral("[... cut: %1 characters in all]\"").arg(big.size()))
                 && lines[2].size() < 250,
             qPrintable(lines[2]));
    QVERIFY2(
        lines[3].contains(QStringLiteral("expected a \"test\" message, got \"test\\nFORGED AFTER AUTH\\x1b[31mBBBB"))
            && lines[3].endsWith(QStringLiteral("[... cut: %1 characters in all]\"").arg(afterAuth.size()))
            && lines[3].size() < 250,
        qPrintable(lines[3]));
    QVERIFY2(lines[4].endsWith(QStringLiteral("wirebenchd stopped")), qPrintable(lines[4]));
}

void TestWirebenchd::iperf3PortSendsServerOutput()
{
    // wirebenchd --iperf3-port answers `iperf3 -c --get-server-output` with what it measured, as iperf3 -s does:
    // the client prints it under "Server output:", and its own receiver line (the server's figures, formatted
    // by iperf3) reads as the server's.
    const QString iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
    WB_REQUIRE(!iperf3.isEmpty(), QStringLiteral("iperf3 is not installed"));
    const quint16 port = freeLoopbackPort(), iperf3Port = freeLoopbackPort();
    QVERIFY(port != 0 && iperf3Port != 0 && port != iperf3Port);
    QProcess daemon;
    QString out;
    QVERIFY(startUntilListening(daemon, listenOn(port, {QStringLiteral("--iperf3-port"), QString::number(iperf3Port)}),
                                &out));
    // The iperf3 port opens after the control port: its line follows "listening on".
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += QString::fromUtf8(daemon.readAllStandardOutput())).contains(QStringLiteral("answers iperf3 clients")),
        10000);
    QProcess client;
    client.start(iperf3,
                 {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(iperf3Port),
                  QStringLiteral("-t"), QStringLiteral("1"), QStringLiteral("--get-server-output")});
    QVERIFY(client.waitForFinished(30000));
    const QString text = QString::fromLocal8Bit(client.readAllStandardOutput());
    QVERIFY2(client.exitCode() == 0, qPrintable(text + QString::fromLocal8Bit(client.readAllStandardError())));
    const qsizetype at = text.indexOf(QStringLiteral("\nServer output:\n"));
    QVERIFY2(at > 0, qPrintable(text));
    static const QRegularExpression receiver(QStringLiteral("^\\[\\s*\\d+\\]\\s+(0\\.00-.*receiver)\\s*$"),
                                             QRegularExpression::MultilineOption);
    const QRegularExpressionMatch clientLine = receiver.match(text.left(at)), serverLine = receiver.match(text.mid(at));
    QVERIFY2(clientLine.hasMatch() && serverLine.hasMatch(), qPrintable(text));
    QCOMPARE(serverLine.captured(1), clientLine.captured(1));
    QVERIFY2(text.mid(at).contains(QStringLiteral("Accepted connection from 127.0.0.1")), qPrintable(text));
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
}

void TestWirebenchd::configFileGivesOptions()
{
    // --config: one option a line (with or without "--", the value the rest of the line), comments skipped; what
    // comes after --config on the command line wins; a file that names another is refused.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const quint16 port = freeLoopbackPort(), other = freeLoopbackPort();
    QVERIFY(port != 0 && other != 0 && port != other);
    const QString conf = dir.filePath(QStringLiteral("wirebenchd.conf"));
    QFile f(conf);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral("# wirebenchd\n--listen 127.0.0.1:%1\n\n  max-duration 7\n--open\n--queue 2\n")
                .arg(port)
                .toUtf8());
    f.close();
    QProcess daemon;
    QString out;
    QVERIFY(startUntilListening(
        daemon, {QStringLiteral("--config"), conf, QStringLiteral("--queue"), QStringLiteral("3")}, &out));
    QVERIFY2(out.contains(
                 QStringLiteral(
                     "listening on 127.0.0.1:%1 (max test 7 s, 1 at a time, queue 3; open mode: no key asked (--open))")
                     .arg(port)),
             qPrintable(out));
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
    QProcess again;
    QVERIFY(startUntilListening(
        again,
        {QStringLiteral("--config"), conf, QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(other)},
        &out));
    QVERIFY2(out.contains(QStringLiteral("listening on 127.0.0.1:%1 ").arg(other)), qPrintable(out));
    again.terminate();
    QVERIFY(again.waitForFinished(10000));

    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("--config /etc/other.conf\n");
    f.close();
    QProcess nested;
    nested.start(QStringLiteral(WIREBENCHD_PATH), {QStringLiteral("--config"), conf});
    QVERIFY(nested.waitForFinished(10000));
    QCOMPARE(nested.exitCode(), 1);
    QCOMPARE(QString::fromUtf8(nested.readAllStandardError()).trimmed(),
             QStringLiteral("wirebenchd: %1: a configuration cannot name another (--config)").arg(conf));
}

void TestWirebenchd::versionAndHelp()
{
    QProcess p;
    p.start(QStringLiteral(WIREBENCHD_PATH), {QStringLiteral("--version")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral(WIREBENCH_VERSION)));
    p.start(QStringLiteral(WIREBENCHD_PATH), {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(10000));
    const QString help = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY(help.contains(QStringLiteral("--listen")));
    QVERIFY(help.contains(QStringLiteral("5301")));
    QVERIFY(help.contains(QStringLiteral("--max-duration")));
}

void TestWirebenchd::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("bad address") << QStringList{QStringLiteral("--listen"), QStringLiteral("300.1.2.3:5301")};
    QTest::newRow("bad port") << QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:99999")};
    QTest::newRow("bad duration") << QStringList{QStringLiteral("--max-duration"), QStringLiteral("soon")};
    QTest::newRow("bad network") << QStringList{QStringLiteral("--allow"), QStringLiteral("10.0.0.0/33")};
    QTest::newRow("bad rate") << QStringList{QStringLiteral("--max-rate"), QStringLiteral("fast")};
    QTest::newRow("unclosed bracket") << QStringList{QStringLiteral("--listen"), QStringLiteral("[::1:5301")};
    QTest::newRow("missing config") << QStringList{QStringLiteral("--config"),
                                                   QStringLiteral("/nonexistent/wirebenchd.conf")};
    QTest::newRow("service on Linux") << QStringList{QStringLiteral("--service")};
}

void TestWirebenchd::badArguments()
{
    QFETCH(QStringList, args);
    QProcess p;
    p.start(QStringLiteral(WIREBENCHD_PATH), args);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY(p.exitCode() != 0);
    const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
    QVERIFY2(err.startsWith(QStringLiteral("wirebenchd")), qPrintable(err));
    QCOMPARE(err.count(QLatin1Char('\n')), 0);
}

void TestWirebenchd::servesADriverAndLogs()
{
    const quint16 port = freeLoopbackPort();
    QVERIFY(port != 0);
    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::SeparateChannels);
    QString first;
    QVERIFY2(startDaemon(daemon, listenOn(port, {QStringLiteral("--max-duration"), QStringLiteral("20")}), &first),
             qPrintable(first + QString::fromUtf8(daemon.readAllStandardError())));
    QVERIFY2(first.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(first));

    RunSpec spec = specTo(QStringLiteral("127.0.0.1"), port, QStringLiteral("tcp-send"), 1000);
    spec.host.name = QStringLiteral("daemon");
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.bytes > 0);
    QCOMPARE(r.bytes, r.senderBytes);

    // One log line for the test, holding the count the daemon received.
    QString log;
    for (int i = 0; i < 100 && !log.contains(QString::number(r.bytes)); ++i) {
        daemon.waitForReadyRead(100);
        log += QString::fromUtf8(daemon.readAllStandardOutput());
    }
    QVERIFY2(log.contains(QStringLiteral("tcp-send")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("received %1 B").arg(r.bytes)), qPrintable(log));
    QCOMPARE(log.trimmed().count(QLatin1Char('\n')), 0);

    // A test longer than --max-duration is refused with a clear reason.
    spec.params.durationMs = 25000;
    const RunResult refused = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
    QCOMPARE(refused.status, RunStatus::Failed);
    QVERIFY2(refused.error.contains(QStringLiteral("at most 20 s")), qPrintable(refused.error));

    // SIGTERM: a clean exit.
    ::kill(pid_t(daemon.processId()), SIGTERM);
    QVERIFY(daemon.waitForFinished(10000));
    QCOMPARE(daemon.exitStatus(), QProcess::NormalExit);
    QCOMPARE(daemon.exitCode(), 0);
    QVERIFY(QString::fromUtf8(daemon.readAllStandardOutput()).contains(QStringLiteral("stopped")));
}

void TestWirebenchd::ipv6Loopback()
{
    const quint16 port = freeLoopbackPort();
    QProcess daemon;
    QString first;
    if (!startDaemon(daemon, {QStringLiteral("--listen"), QStringLiteral("[::1]:%1").arg(port)}, &first)) {
        const QString why = first + QString::fromUtf8(daemon.readAllStandardError());
        daemon.kill();
        daemon.waitForFinished();
        if (wb::test::underCi())
            QFAIL(qPrintable(QStringLiteral("wirebenchd did not start on [::1]: ") + why));
        QSKIP(qPrintable(QStringLiteral("no IPv6 loopback here: ") + why));
    }
    RunSpec spec = specTo(QStringLiteral("::1"), port, QStringLiteral("tcp-recv"), 500);
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Receive).run(spec, observer);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, r.senderBytes);
    ::kill(pid_t(daemon.processId()), SIGINT);
    QVERIFY(daemon.waitForFinished(10000));
    QCOMPARE(daemon.exitCode(), 0);
}

void TestWirebenchd::killedMidTest()
{
    // kill -9 during a test, both directions: the run fails with one line that says so, nothing hangs.
    for (const auto direction : {TcpDriver::Direction::Send, TcpDriver::Direction::Receive}) {
        const quint16 port = freeLoopbackPort();
        QProcess daemon;
        QString first;
        QVERIFY2(startDaemon(daemon, listenOn(port), &first), qPrintable(first));
        RunSpec spec;
        spec.host.address = QStringLiteral("127.0.0.1");
        spec.host.port = port;
        spec.params.durationMs = 20000;
        Observer observer;
        RunResult r;
        std::thread runner([&] { r = TcpDriver(direction).run(spec, observer); });
        QTRY_VERIFY_WITH_TIMEOUT(observer.seen.load() > 2, 10000);
        daemon.kill();
        QVERIFY(daemon.waitForFinished(10000));
        runner.join();
        QCOMPARE(r.status, RunStatus::Failed);
        QVERIFY2(r.error.contains(QStringLiteral("mid-test")), qPrintable(r.error));
        qInfo("%s", qPrintable(r.error));
    }
}

QTEST_GUILESS_MAIN(TestWirebenchd)
#include "TestWirebenchd.moc"
