#include "net/Responder.h"
#include "protocols/DriverRegistry.h"
#include "protocols/tcp/TcpDriver.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <atomic>

using namespace wb;

namespace {

class Observer : public RunObserver
{
public:
    void sample(const Sample &s) override { samples.append(s); }
    bool stopRequested() const override { return stop.load(); }
    SampleList samples;
    std::atomic_bool stop{false};
};

qint64 sum(const SampleList &samples)
{
    qint64 total = 0;
    for (const Sample &s : samples)
        total += s.bytes;
    return total;
}

} // namespace

class TestTcpDriver : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void bothDirections_data();
    void bothDirections();
    void refusedPortGivesClearError();
    void unresolvableName();
    void busyServer();

private:
    RunSpec spec(const QString &protocol, int frameSize, int durationMs = 1000) const;
    std::unique_ptr<Responder> m_responder;
    QStringList m_log;
};

void TestTcpDriver::initTestCase()
{
    ResponderConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    m_responder = std::make_unique<Responder>(config);
    connect(m_responder.get(), &Responder::logLine, this, [this](const QString &line) { m_log << line; });
    QString error;
    QVERIFY2(m_responder->start(&error), qPrintable(error));
    QVERIFY(m_responder->port() != 0);
}

RunSpec TestTcpDriver::spec(const QString &protocol, int frameSize, int durationMs) const
{
    RunSpec s;
    s.index = 3;
    s.host.name = QStringLiteral("loopback");
    s.host.address = QStringLiteral("127.0.0.1");
    s.host.port = m_responder->port();
    s.protocol = protocol;
    s.frameSize = frameSize;
    s.params.durationMs = durationMs;
    s.params.messageSize = 128 * 1024;
    return s;
}

void TestTcpDriver::bothDirections_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<int>("frameSize");
    QTest::newRow("send 1500") << QStringLiteral("tcp-send") << 1500;
    QTest::newRow("recv 1500") << QStringLiteral("tcp-recv") << 1500;
    QTest::newRow("send 9000") << QStringLiteral("tcp-send") << 9000;
    QTest::newRow("recv 9000") << QStringLiteral("tcp-recv") << 9000;
}

void TestTcpDriver::bothDirections()
{
    QFETCH(QString, protocol);
    QFETCH(int, frameSize);
    auto driver = DriverRegistry::create(protocol);
    QVERIFY(driver);
    Observer observer;
    m_log.clear();
    const RunResult r = driver->run(spec(protocol, frameSize), observer);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.bytes > 0);
    QVERIFY(r.seconds > 0);
    // The receiver's count: on loopback nothing is lost, so sender and receiver agree exactly.
    QCOMPARE(r.bytes, r.senderBytes);
    QVERIFY(!observer.samples.isEmpty());
    QCOMPARE(sum(observer.samples), r.bytes);
    QCOMPARE(sum(r.samples), r.bytes);
    for (const Sample &s : std::as_const(observer.samples))
        QCOMPARE(s.runIndex, 3);
    // TCP_MAXSEG = frame - 40; the kernel takes TCP options (timestamps: 12 bytes) off that.
    QVERIFY2(r.mss <= frameSize - 40 && r.mss >= frameSize - 40 - 40, qPrintable(QString::number(r.mss)));
    QVERIFY(r.extra.contains(QStringLiteral("rtt_us")));
    QVERIFY(r.extra.contains(QStringLiteral("retransmits")));
    QVERIFY(!r.extra.value(QStringLiteral("server_hostname")).toString().isEmpty());
    QVERIFY2(r.serverOs.contains(QSysInfo::kernelVersion()), qPrintable(r.serverOs));
    // The responder logs one line for the test, with the bytes the receiver counted.
    QTRY_COMPARE_WITH_TIMEOUT(m_log.size(), 1, 5000);
    QVERIFY2(m_log.first().contains(QString::number(r.bytes)), qPrintable(m_log.first()));
    qInfo("%s @ %d: %lld B in %.3f s = %.1f MB/s, mss %d", qPrintable(protocol), frameSize, r.bytes, r.seconds,
          r.megabytesPerSecond(), r.mss);
}

void TestTcpDriver::refusedPortGivesClearError()
{
    // A port that was free a moment ago: nothing listens there.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    RunSpec s = spec(QStringLiteral("tcp-send"), 1500);
    s.host.port = port;
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(s, observer);
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.error.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("refused")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("wirebenchd --listen")), qPrintable(r.error));
    QVERIFY(!r.error.contains(QLatin1Char('\n')));
}

void TestTcpDriver::unresolvableName()
{
    RunSpec s = spec(QStringLiteral("tcp-send"), 1500);
    s.host.address = QStringLiteral("no-such-host.invalid"); // .invalid never resolves (RFC 6761)
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(s, observer);
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.error.contains(QStringLiteral("resolve")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("no-such-host.invalid")), qPrintable(r.error));
}

void TestTcpDriver::busyServer()
{
    // Hold the responder with a silent control connection, then run: the driver reports "busy".
    QTcpSocket holder;
    holder.connectToHost(QHostAddress::LocalHost, m_responder->port());
    QVERIFY(holder.waitForConnected(5000));
    QTRY_VERIFY_WITH_TIMEOUT(holder.bytesAvailable() > 0, 5000); // its hello: the session is live
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(spec(QStringLiteral("tcp-send"), 1500), observer);
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.error.contains(QStringLiteral("busy")), qPrintable(r.error));
    holder.abort();
}

QTEST_GUILESS_MAIN(TestTcpDriver)
#include "TestTcpDriver.moc"
