#include "protocols/tcp/TcpDriver.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTest>

#include <atomic>
#include <csignal>
#include <thread>

using namespace wb;

namespace {

class Observer : public RunObserver
{
public:
    void sample(const Sample &s) override
    {
        samples.append(s);
        seen.fetch_add(1);
    }
    bool stopRequested() const override { return false; }
    SampleList samples;
    std::atomic_int seen{0};
};

quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
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

private:
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
    QTest::newRow("unclosed bracket") << QStringList{QStringLiteral("--listen"), QStringLiteral("[::1:5301")};
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
    const quint16 port = freePort();
    QVERIFY(port != 0);
    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::SeparateChannels);
    QString first;
    QVERIFY2(startDaemon(daemon, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
                                  QStringLiteral("--max-duration"), QStringLiteral("20")},
                         &first),
             qPrintable(first + QString::fromUtf8(daemon.readAllStandardError())));
    QVERIFY2(first.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(first));

    RunSpec spec;
    spec.host.name = QStringLiteral("daemon");
    spec.host.address = QStringLiteral("127.0.0.1");
    spec.host.port = port;
    spec.protocol = QStringLiteral("tcp-send");
    spec.params.durationMs = 1000;
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
    const quint16 port = freePort();
    QProcess daemon;
    QString first;
    if (!startDaemon(daemon, {QStringLiteral("--listen"), QStringLiteral("[::1]:%1").arg(port)}, &first)) {
        const QString why = first + QString::fromUtf8(daemon.readAllStandardError());
        daemon.kill();
        daemon.waitForFinished();
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QFAIL(qPrintable(QStringLiteral("wirebenchd did not start on [::1]: ") + why));
        QSKIP(qPrintable(QStringLiteral("no IPv6 loopback here: ") + why));
    }
    RunSpec spec;
    spec.host.address = QStringLiteral("::1");
    spec.host.port = port;
    spec.protocol = QStringLiteral("tcp-recv");
    spec.params.durationMs = 500;
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
        const quint16 port = freePort();
        QProcess daemon;
        QString first;
        QVERIFY2(startDaemon(daemon, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)}, &first), qPrintable(first));
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
