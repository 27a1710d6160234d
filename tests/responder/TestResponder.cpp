#include "wire/QtWire.h"
#include "RawClient.h"
#include "wire/wirebenchd/ControlMessage.h"
#include "responder/Responder.h"
#include "protocols/tcp/TcpDriver.h"

#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <sys/socket.h>

using namespace wb;
using namespace wb::control;
using namespace wb::test;

namespace {

class Observer : public RunObserver
{
public:
    void sample(const Sample &) override { }
    bool stopRequested() const override { return false; }
};

TestRequest goodRequest()
{
    TestRequest t;
    t.durationMs = 500;
    t.messageSize = 65536;
    t.mss = 1460;
    return t;
}

} // namespace

class TestResponder : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badFirstMessage_data();
    void badFirstMessage();
    void truncatedThenClosed();
    void truncatedThenSilent();
    void wrongVersion();
    void limits_data();
    void limits();
    void helloOffersStreams();
    void missingDataConnectionIsDropped();
    void silentClientIsDropped();
    void secondClientGetsBusy();
    void stillServesAGoodClient();
    void dropCountersComeWithTheResult();
    void stopAndRestart();

private:
    void expectError(RawClient &c, const QString &code, const QString &textContains);
    bool helloed(RawClient &c);
    bool welcomed(RawClient &c);
    /// A real TCP driver's run against the responder, tried again while it says busy.
    RunResult runTest(TcpDriver::Direction direction, int durationMs);
    std::unique_ptr<Responder> m_responder;
    QStringList m_log;
};

void TestResponder::initTestCase()
{
    ResponderConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    config.maxDurationMs = 5000;
    config.maxMessageSize = 1024 * 1024;
    config.maxControlMessageBytes = 4096;
    config.handshakeTimeoutMs = 1500;
    config.idleTimeoutMs = 1500;
    m_responder = std::make_unique<Responder>(config);
    connect(m_responder.get(), &Responder::logLine, this, [this](const QString &line) { m_log << line; });
    QString error;
    QVERIFY2(m_responder->start(&error), qPrintable(error));
    QVERIFY(m_responder->isRunning());
}

bool TestResponder::helloed(RawClient &c)
{
    if (!c.connectTo(m_responder->port()))
        return false;
    const RawMessage hello = c.next();
    if (typeOf(hello) != QLatin1String("hello"))
        qWarning() << "first message" << hello << m_log;
    Hello h;
    return Hello::fromJson(hello, &h, nullptr) && h.version == kProtocolVersion
        && h.software.rfind("wirebenchd ", 0) == 0;
}

bool TestResponder::welcomed(RawClient &c)
{
    if (!helloed(c))
        return false;
    c.send(Hello::local("t").toJson());
    const QJsonObject reply = c.next();
    if (typeOf(reply) != QLatin1String("welcome"))
        qWarning() << "answer to hello" << reply << m_log;
    return typeOf(reply) == QLatin1String("welcome");
}

void TestResponder::expectError(RawClient &c, const QString &code, const QString &textContains)
{
    const QJsonObject reply = c.next();
    QCOMPARE(typeOf(reply), QStringLiteral("error"));
    QCOMPARE(reply.value(QLatin1String("code")).toString(), code);
    const QString message = reply.value(QLatin1String("message")).toString();
    QVERIFY2(message.contains(textContains), qPrintable(message));
    QVERIFY(c.closedByServer());
}

void TestResponder::badFirstMessage_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("textContains");
    auto frame = [](const QByteArray &payload) {
        const quint32 n = quint32(payload.size());
        return QByteArray(1, char(n >> 24)) + char(n >> 16) + char(n >> 8) + char(n) + payload;
    };
    QTest::newRow("garbage json") << frame("\x7f\x01 not json at all") << QStringLiteral("not valid JSON");
    QTest::newRow("http request") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                                  << QStringLiteral("exceeds the limit");
    QTest::newRow("oversized") << frame(QByteArray(5000, 'x')) << QStringLiteral("exceeds the limit");
    QTest::newRow("array") << frame("[]") << QStringLiteral("not a JSON object");
    QTest::newRow("no type") << frame(R"({"version":1})") << QStringLiteral("no \"type\"");
    QTest::newRow("test before hello") << wire::qb(encode(goodRequest().toJson()))
                                       << QStringLiteral("expected a \"hello\"");
    QTest::newRow("hello without version") << frame(R"({"type":"hello"})") << QStringLiteral("version");
    QTest::newRow("binary zeros") << QByteArray(16, '\0') << QStringLiteral("empty");
}

void TestResponder::badFirstMessage()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, textContains);
    RawClient c;
    QVERIFY(helloed(c));
    c.sendRaw(bytes);
    expectError(c, QStringLiteral("bad-message"), textContains);
}

void TestResponder::truncatedThenClosed()
{
    RawClient c;
    QVERIFY(helloed(c));
    c.sendRaw(wire::qb(encode(Hello::local("t").toJson())).left(10));
    c.halfClose();
    expectError(c, QStringLiteral("bad-message"), QStringLiteral("truncated"));
}

void TestResponder::truncatedThenSilent()
{
    RawClient c;
    QVERIFY(welcomed(c));
    c.sendRaw(wire::qb(encode(goodRequest().toJson())).left(20));
    expectError(c, QStringLiteral("timeout"), QStringLiteral("truncated"));
}

void TestResponder::wrongVersion()
{
    RawClient c;
    QVERIFY(helloed(c));
    Hello h = Hello::local("future");
    h.version = kProtocolVersion + 1;
    c.send(h.toJson());
    expectError(c, QStringLiteral("version"), QStringLiteral("version %1").arg(kProtocolVersion + 1));
}

void TestResponder::limits_data()
{
    QTest::addColumn<int>("durationMs");
    QTest::addColumn<int>("messageSize");
    QTest::addColumn<QString>("textContains");
    QTest::addColumn<int>("streams");
    QTest::addColumn<QString>("code");
    QTest::newRow("too long") << 6000 << 1024 << QStringLiteral("at most 5 s") << 1 << QStringLiteral("limit");
    QTest::newRow("too big") << 1000 << 2 * 1024 * 1024 << QStringLiteral("at most 1048576 bytes") << 1
                             << QStringLiteral("limit");
    // --max-connections (32) counts the data connections with the control connection that asks for them.
    QTest::newRow("more streams than connections")
        << 1000 << 1024
        << QStringLiteral("refused 32 data connections: this wirebenchd handles at most 32 connections at once "
                          "(--max-connections), with ") // 1 in use, or 2 while the previous test's is reaped
        << 32 << QStringLiteral("limit");
    QTest::newRow("more streams than any test")
        << 1000 << 1024 << QStringLiteral("\"streams\" in a \"test\" message must be a whole number from 1 to 128")
        << 129 << QStringLiteral("bad-message");
}

void TestResponder::limits()
{
    QFETCH(int, durationMs);
    QFETCH(int, messageSize);
    QFETCH(QString, textContains);
    QFETCH(int, streams);
    QFETCH(QString, code);
    RawClient c;
    QVERIFY(welcomed(c));
    TestRequest t = goodRequest();
    t.durationMs = durationMs;
    t.messageSize = messageSize;
    t.streams = streams;
    c.send(t.toJson());
    expectError(c, code, textContains);
}

void TestResponder::helloOffersStreams()
{
    RawClient c;
    QVERIFY(c.connectTo(m_responder->port()));
    Hello h;
    QVERIFY(Hello::fromJson(c.next(), &h, nullptr));
    QCOMPARE(h.maxStreams, kMaxStreams);
}

void TestResponder::missingDataConnectionIsDropped()
{
    // Two streams asked for, one opened: after --idle-timeout the test is dropped, with how many came.
    m_log.clear();
    RawClient c;
    QVERIFY(welcomed(c));
    TestRequest t = goodRequest();
    t.streams = 2;
    c.send(t.toJson());
    const RawMessage ready = c.next();
    QCOMPARE(typeOf(ready), QStringLiteral("ready"));
    QTcpSocket data;
    data.connectToHost(QHostAddress::LocalHost, quint16(ready.value(QLatin1String("data_port")).toInt()));
    QVERIFY(data.waitForConnected(5000));
    expectError(c, QStringLiteral("timeout"), QStringLiteral("dropped: 1 of 2 data connections within 1500 ms"));
    QTRY_VERIFY_WITH_TIMEOUT(!m_log.isEmpty(), 5000);
    QVERIFY2(m_log.last().contains(QStringLiteral("1 of 2 data connections")), qPrintable(m_log.last()));
}

void TestResponder::silentClientIsDropped()
{
    m_log.clear();
    RawClient c;
    QVERIFY(helloed(c));
    expectError(c, QStringLiteral("timeout"), QStringLiteral("no \"hello\""));
    QTRY_VERIFY_WITH_TIMEOUT(!m_log.isEmpty(), 5000);
    QVERIFY2(m_log.last().contains(QStringLiteral("dropped")), qPrintable(m_log.last()));
}

void TestResponder::secondClientGetsBusy()
{
    // No queue in this configuration (ResponderConfig::maxQueued = 0): the second client is told "busy" after
    // its hello, while the first holds the only test slot.
    RawClient first;
    QVERIFY(welcomed(first));
    RawClient second;
    QVERIFY(helloed(second));
    second.send(Hello::local("t").toJson());
    const QJsonObject reply = second.next();
    QCOMPARE(typeOf(reply), QStringLiteral("busy"));
    QVERIFY(reply.value(QLatin1String("message")).toString().contains(QStringLiteral("busy")));
    QVERIFY(second.closedByServer());
    QTRY_VERIFY_WITH_TIMEOUT(!m_log.isEmpty() && m_log.last().contains(QStringLiteral("busy")), 5000);
    first.m_socket.abort();
}

RunResult TestResponder::runTest(TcpDriver::Direction direction, int durationMs)
{
    RunSpec spec;
    spec.host.address = QStringLiteral("127.0.0.1");
    spec.host.port = m_responder->port();
    spec.protocol = direction == TcpDriver::Direction::Send ? QStringLiteral("tcp-send") : QStringLiteral("tcp-recv");
    spec.params.durationMs = durationMs;
    Observer observer;
    RunResult r;
    QDeadlineTimer deadline(15000);
    do { // the previous session may still hold the slot
        r = TcpDriver(direction).run(spec, observer);
    } while (!r.ok() && r.error.contains(QStringLiteral("busy")) && !deadline.hasExpired()
             && (QTest::qWait(200), true));
    return r;
}

void TestResponder::stillServesAGoodClient()
{
    // After all the abuse above, a real test runs; the previous session may still be closing.
    const RunResult r = runTest(TcpDriver::Direction::Receive, 1000);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.bytes > 0);
    QCOMPARE(r.bytes, r.senderBytes);
}

void TestResponder::dropCountersComeWithTheResult()
{
    // wirebenchd reads its drop counters (of the interface towards the client: lo here) before and after the test
    // and sends the difference with its result, as a versioned object; the driver keeps it for the analysis.
    const RunResult r = runTest(TcpDriver::Direction::Send, 500);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QVariantMap drops = r.extra.value(QStringLiteral("remote_drops")).toMap();
    QCOMPARE(drops.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(drops.value(QStringLiteral("interface")).toString(), QStringLiteral("lo"));
    for (const char *counter :
         {"qdisc_drops", "backlog_drops", "rx_dropped", "tx_dropped", "TCPBacklogDrop", "TCPRcvQDrop"})
        QVERIFY2(drops.value(QLatin1String(counter), -1).toLongLong() >= 0, counter);
}

void TestResponder::stopAndRestart()
{
    // Stop while a client is connected mid-handshake: returns promptly, and the port can be served again.
    RawClient c;
    QVERIFY(helloed(c));
    m_responder->stop();
    QVERIFY(!m_responder->isRunning());
    QVERIFY(c.closedByServer());
    QString error;
    QVERIFY2(m_responder->start(&error), qPrintable(error));
    RawClient again;
    QVERIFY(helloed(again));
}

QTEST_GUILESS_MAIN(TestResponder)
#include "TestResponder.moc"
