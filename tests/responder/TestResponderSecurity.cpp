// wirebenchd that cannot be abused: key, replay, silent clients, floods, oversized and malformed messages,
// the allow-list, the queue and the rate cap. Each is refused with its reason, and a good client is served after.
#include "wire/QtWire.h"
#include "RawClient.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlMessage.h"
#include "responder/Responder.h"
#include "protocols/tcp/TcpDriver.h"

#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;
using namespace wb::control;
using namespace wb::test;

namespace {

const QString kKey = QStringLiteral("u8Zr0m3cXh1x3JmQ4bQ2l0xk3yYk5mS9e0Lwq3Jf2dA=");

/// A responder's config with the test's key; each test sets the rest.
ResponderConfig keyedConfig()
{
    ResponderConfig config;
    config.key = kKey;
    return config;
}

class Observer : public RunObserver
{
public:
    void sample(const Sample &) override { }
    bool stopRequested() const override { return stop.load(); }
    void status(const QString &text) override
    {
        std::lock_guard lk(mutex);
        statuses << text;
    }
    QStringList seen()
    {
        std::lock_guard lk(mutex);
        return statuses;
    }
    std::atomic_bool stop{false};
    std::mutex mutex;
    QStringList statuses;
};

} // namespace

class TestResponderSecurity : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void goodKey();
    void wrongKey();
    void noKey();
    void replayedHandshake();
    void fakeServerIsDetected();
    void oversizedBeforeAuth();
    void malformedHello_data();
    void malformedHello();
    void silentClientDoesNotBlockOthers();
    void floodOfConnections();
    void clientOutsideAllowList();
    void queueThenBusy();
    void rateCap();

private:
    bool startResponder(ResponderConfig config);
    RunSpec spec(const QString &protocol, const QString &key, int durationMs = 500) const;
    RunResult run(const QString &protocol, const QString &key, int durationMs = 500);
    void expectGoodClientServed();
    std::unique_ptr<Responder> m_responder;
    QStringList m_log;
};

bool TestResponderSecurity::startResponder(ResponderConfig config)
{
    m_responder.reset();
    m_log.clear();
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    m_responder = std::make_unique<Responder>(config);
    connect(m_responder.get(), &Responder::logLine, this, [this](const QString &line) { m_log << line; });
    QString error;
    if (!m_responder->start(&error)) {
        qWarning() << error;
        return false;
    }
    return true;
}

void TestResponderSecurity::init()
{
    ResponderConfig config = keyedConfig();
    config.handshakeTimeoutMs = 2000;
    config.idleTimeoutMs = 2000;
    QVERIFY(startResponder(config));
}

void TestResponderSecurity::cleanup()
{
    m_responder.reset();
}

RunSpec TestResponderSecurity::spec(const QString &protocol, const QString &key, int durationMs) const
{
    RunSpec s;
    s.host.name = QStringLiteral("secured");
    s.host.address = QStringLiteral("127.0.0.1");
    s.host.port = m_responder->port();
    if (!key.isNull())
        s.host.options.insert(QLatin1String(TcpDriver::kKeyOption), key);
    s.protocol = protocol;
    s.frameSize = 1500;
    s.params.durationMs = durationMs;
    s.params.messageSize = 65536;
    return s;
}

RunResult TestResponderSecurity::run(const QString &protocol, const QString &key, int durationMs)
{
    Observer observer;
    const auto dir = protocol == QLatin1String("tcp-send") ? TcpDriver::Direction::Send : TcpDriver::Direction::Receive;
    return TcpDriver(dir).run(spec(protocol, key, durationMs), observer);
}

void TestResponderSecurity::expectGoodClientServed()
{
    RunResult r;
    QDeadlineTimer deadline(20000);
    do {
        r = run(QStringLiteral("tcp-send"), kKey);
    } while (!r.ok() && r.error.contains(QStringLiteral("busy")) && !deadline.hasExpired()
             && (QTest::qWait(200), true));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.bytes > 0);
}

void TestResponderSecurity::goodKey()
{
    for (const char *protocol : {"tcp-send", "tcp-recv"}) {
        const RunResult r = run(QLatin1String(protocol), QStringLiteral("  %1\n").arg(kKey)); // pasted with blanks
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.bytes > 0);
    }
    // The TCP protocols declare the key as a secret host option, so the UI keeps it in the keychain.
    const QList<ProtocolInfo> infos = TcpDriver::protocolInfos();
    for (const ProtocolInfo &info : infos) {
        QCOMPARE(info.hostOptions.size(), 1);
        QCOMPARE(info.hostOptions.first().key, QString::fromLatin1(TcpDriver::kKeyOption));
        QCOMPARE(info.hostOptions.first().type, OptionSpec::Type::Secret);
    }
}

void TestResponderSecurity::wrongKey()
{
    const RunResult r = run(QStringLiteral("tcp-send"), QStringLiteral("not-the-key"));
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.error.contains(QStringLiteral("authentication failed: wrong key")), qPrintable(r.error));
    QTRY_VERIFY_WITH_TIMEOUT(m_log.join(QLatin1Char('\n')).contains(QStringLiteral("authentication failed: wrong key")),
                             5000);
    expectGoodClientServed();
}

void TestResponderSecurity::noKey()
{
    const RunResult r = run(QStringLiteral("tcp-recv"), QString());
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(
        r.error.contains(QStringLiteral("this wirebenchd requires a key: set it in the host's settings or use --key")),
        qPrintable(r.error));
    expectGoodClientServed();
}

void TestResponderSecurity::replayedHandshake()
{
    // A client proves the key; an eavesdropper replays its hello on a new connection: the server's nonce is new,
    // so the proof no longer fits.
    RawClient first;
    QVERIFY(first.connectTo(m_responder->port()));
    Hello serverHello;
    QVERIFY(Hello::fromJson(first.next(), &serverHello, nullptr));
    QCOMPARE(serverHello.auth, std::string("hmac-sha256"));
    QCOMPARE(int(serverHello.nonce.size()), auth::kNonceBytes);
    Hello mine = Hello::local("victim");
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.mac = auth::clientProof(kKey.toStdString(), serverHello.nonce, mine.nonce);
    const QByteArray captured = wire::qb(encode(mine.toJson()));
    first.sendRaw(captured);
    const QJsonObject welcome = first.next();
    QCOMPARE(typeOf(welcome), QStringLiteral("welcome"));
    const auto proof = QByteArray::fromBase64Encoding(welcome.value(QLatin1String("mac")).toString().toLatin1());
    QVERIFY(proof
            && auth::sameBytes(wire::sb(*proof), auth::serverProof(kKey.toStdString(), serverHello.nonce, mine.nonce)));
    first.m_socket.abort();

    RawClient replay;
    QVERIFY(replay.connectTo(m_responder->port()));
    Hello second;
    QVERIFY(Hello::fromJson(replay.next(), &second, nullptr));
    QVERIFY(second.nonce != serverHello.nonce);
    replay.sendRaw(captured);
    const QJsonObject reply = replay.next();
    QCOMPARE(typeOf(reply), QStringLiteral("error"));
    QCOMPARE(reply.value(QLatin1String("code")).toString(), QStringLiteral("auth"));
    QCOMPARE(reply.value(QLatin1String("message")).toString(), QStringLiteral("authentication failed: wrong key"));
    QVERIFY(replay.closedByServer());
    expectGoodClientServed();
}

void TestResponderSecurity::fakeServerIsDetected()
{
    // A server that asks for a key but does not know it cannot answer with the right proof: the client stops
    // before it sends a test request.
    int fds[2];
    int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    QVERIFY(listener >= 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)), 0);
    QCOMPARE(::listen(listener, 1), 0);
    socklen_t len = sizeof(sa);
    getsockname(listener, reinterpret_cast<sockaddr *>(&sa), &len);
    Q_UNUSED(fds)
    std::atomic_bool sawTest{false};
    std::thread fake([listener, &sawTest] {
        const int c = ::accept(listener, nullptr, nullptr);
        if (c < 0)
            return;
        Hello h = Hello::local("wirebenchd fake");
        h.nonce = auth::randomBytes(auth::kNonceBytes);
        h.auth = auth::kAuthHmac;
        const QByteArray hello = wire::qb(encode(h.toJson()));
        [[maybe_unused]] ssize_t w = ::send(c, hello.constData(), size_t(hello.size()), MSG_NOSIGNAL);
        QByteArray in;
        char buf[4096];
        for (int i = 0; i < 50; ++i) {
            pollfd p{c, POLLIN, 0};
            if (::poll(&p, 1, 100) > 0) {
                const ssize_t n = ::recv(c, buf, sizeof(buf), 0);
                if (n <= 0)
                    break;
                in.append(buf, n);
                const Decoded d = decode(wire::sb(in), 1 << 16);
                if (d.ok()) {
                    in.remove(0, qsizetype(d.consumed));
                    if (control::typeOf(d.message) == "hello") {
                        const QByteArray welcome = wire::qb(encode(welcomeMessage(auth::randomBytes(32))));
                        w = ::send(c, welcome.constData(), size_t(welcome.size()), MSG_NOSIGNAL);
                    } else if (control::typeOf(d.message) == "test") {
                        sawTest.store(true);
                    }
                }
            }
        }
        ::close(c);
    });
    RunSpec s = spec(QStringLiteral("tcp-send"), kKey);
    s.host.port = ntohs(sa.sin_port);
    Observer observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(s, observer);
    fake.join();
    ::close(listener);
    QCOMPARE(r.status, RunStatus::Failed);
    QVERIFY2(r.error.contains(QStringLiteral("did not prove that it knows the key")), qPrintable(r.error));
    QVERIFY(!sawTest.load());
}

void TestResponderSecurity::oversizedBeforeAuth()
{
    // The configured limit is 64 KiB, but before authentication no message may exceed 4096 bytes.
    RawClient c;
    QVERIFY(c.connectTo(m_responder->port()));
    QCOMPARE(typeOf(c.next()), QStringLiteral("hello"));
    QByteArray frame(4, '\0');
    frame[2] = char(0x20); // 8192 bytes announced
    c.sendRaw(frame + QByteArray(100, 'x'));
    const QJsonObject reply = c.next();
    QCOMPARE(reply.value(QLatin1String("code")).toString(), QStringLiteral("bad-message"));
    QVERIFY2(
        reply.value(QLatin1String("message")).toString().contains(QStringLiteral("exceeds the limit of 4096 bytes")),
        qPrintable(reply.value(QLatin1String("message")).toString()));
    QVERIFY(c.closedByServer());
    expectGoodClientServed();
}

void TestResponderSecurity::malformedHello_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("textContains");
    QTest::newRow("nonce not base64") << QByteArray(R"({"type":"hello","version":2,"nonce":"%%%","mac":"AAAA"})")
                                      << QStringLiteral("bad-message") << QStringLiteral("\"nonce\"");
    QTest::newRow("mac a number") << QByteArray(R"({"type":"hello","version":2,"mac":5})")
                                  << QStringLiteral("bad-message") << QStringLiteral("\"mac\"");
    QTest::newRow("huge nonce") << QByteArray(R"({"type":"hello","version":2,"nonce":")" + QByteArray(400, 'A') + "\"}")
                                << QStringLiteral("bad-message") << QStringLiteral("at most 64 bytes");
    QTest::newRow("short nonce") << QByteArray(R"({"type":"hello","version":2,"nonce":"AAAA","mac":"AAAA"})")
                                 << QStringLiteral("auth") << QStringLiteral("wrong key");
    QTest::newRow("test before hello") << QByteArray(R"({"type":"test","direction":"send"})")
                                       << QStringLiteral("bad-message") << QStringLiteral("expected a \"hello\"");
    QTest::newRow("old version") << QByteArray(R"({"type":"hello","version":1})") << QStringLiteral("version")
                                 << QStringLiteral("version 1");
}

void TestResponderSecurity::malformedHello()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, code);
    QFETCH(QString, textContains);
    RawClient c;
    QVERIFY(c.connectTo(m_responder->port()));
    QCOMPARE(typeOf(c.next()), QStringLiteral("hello"));
    const quint32 n = quint32(json.size());
    c.sendRaw(QByteArray(1, char(n >> 24)) + char(n >> 16) + char(n >> 8) + char(n) + json);
    const QJsonObject reply = c.next();
    QCOMPARE(typeOf(reply), QStringLiteral("error"));
    QCOMPARE(reply.value(QLatin1String("code")).toString(), code);
    QVERIFY2(reply.value(QLatin1String("message")).toString().contains(textContains),
             qPrintable(reply.value(QLatin1String("message")).toString()));
    QVERIFY(c.closedByServer());
}

void TestResponderSecurity::silentClientDoesNotBlockOthers()
{
    // A client connects and says nothing. While it is connected, a good client runs its test; then the silent
    // one is dropped within the handshake timeout.
    RawClient silent;
    QVERIFY(silent.connectTo(m_responder->port()));
    QCOMPARE(typeOf(silent.next()), QStringLiteral("hello"));
    const RunResult r = run(QStringLiteral("tcp-send"), kKey, 300);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(silent.m_socket.state() == QAbstractSocket::ConnectedState || silent.m_socket.bytesAvailable() > 0);
    const QJsonObject reply = silent.next();
    QCOMPARE(reply.value(QLatin1String("code")).toString(), QStringLiteral("timeout"));
    QVERIFY(silent.closedByServer());
    QTRY_VERIFY_WITH_TIMEOUT(m_log.join(QLatin1Char('\n')).contains(QStringLiteral("dropped: no \"hello\"")), 5000);
}

void TestResponderSecurity::floodOfConnections()
{
    // 200 connections at once on loopback: at most maxConnections (32) get a hello, the rest "busy" at once,
    // nobody crashes, and a good client is served once they are closed.
    constexpr int kFlood = 200;
    std::vector<int> fds;
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons(m_responder->port());
    for (int i = 0; i < kFlood; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)), 0);
        fds.push_back(fd);
    }
    int hellos = 0, busy = 0;
    for (int fd : fds) {
        QByteArray in;
        char buf[4096];
        for (int tries = 0; tries < 100; ++tries) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0)
                continue;
            const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
            if (n <= 0)
                break;
            in.append(buf, n);
            if (decode(wire::sb(in), 1 << 16).ok())
                break;
        }
        const Decoded d = decode(wire::sb(in), 1 << 16);
        if (d.ok() && control::typeOf(d.message) == "hello")
            ++hellos;
        else if (d.ok() && control::typeOf(d.message) == "busy")
            ++busy;
    }
    for (int fd : fds)
        ::close(fd);
    QVERIFY2(hellos >= 1 && hellos <= 32, qPrintable(QString::number(hellos)));
    QVERIFY2(hellos + busy >= kFlood - 5, qPrintable(QStringLiteral("%1 hellos, %2 busy").arg(hellos).arg(busy)));
    QVERIFY(busy > 0);
    expectGoodClientServed();
}

void TestResponderSecurity::clientOutsideAllowList()
{
    // Only 127.0.0.1/32 is served: a client from 127.0.0.2 (still loopback) is refused with the reason, before
    // any hello; the same responder then serves 127.0.0.1.
    ResponderConfig config = keyedConfig();
    config.allow << QHostAddress::parseSubnet(QStringLiteral("10.0.0.0/8"))
                 << QHostAddress::parseSubnet(QStringLiteral("127.0.0.1/32"));
    QVERIFY(startResponder(config));
    RawClient outsider;
    QVERIFY(outsider.m_socket.bind(QHostAddress(QStringLiteral("127.0.0.2")), 0));
    QVERIFY(outsider.connectTo(m_responder->port()));
    const QJsonObject reply = outsider.next();
    QCOMPARE(typeOf(reply), QStringLiteral("error"));
    QCOMPARE(reply.value(QLatin1String("code")).toString(), QStringLiteral("not-allowed"));
    const QString text = reply.value(QLatin1String("message")).toString();
    QVERIFY2(text.contains(QStringLiteral(
                 "client 127.0.0.2 is not in the networks this wirebenchd serves (--allow 10.0.0.0/8, 127.0.0.1/32)")),
             qPrintable(text));
    QVERIFY(outsider.closedByServer());
    QTRY_VERIFY_WITH_TIMEOUT(m_log.join(QLatin1Char('\n')).contains(QStringLiteral("127.0.0.2")), 5000);
    expectGoodClientServed();
}

void TestResponderSecurity::queueThenBusy()
{
    ResponderConfig config = keyedConfig();
    config.maxConcurrent = 1;
    config.maxQueued = 1;
    QVERIFY(startResponder(config));
    // The first client holds the only slot.
    RawClient holder;
    QVERIFY(holder.connectTo(m_responder->port()));
    Hello sh;
    QVERIFY(Hello::fromJson(holder.next(), &sh, nullptr));
    Hello mine = Hello::local("holder");
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.mac = auth::clientProof(kKey.toStdString(), sh.nonce, mine.nonce);
    holder.send(mine.toJson());
    QCOMPARE(typeOf(holder.next()), QStringLiteral("welcome"));
    // The second waits in the queue, on the driver's thread.
    Observer queuedObserver;
    RunResult queuedResult;
    std::thread second([&] {
        queuedResult
            = TcpDriver(TcpDriver::Direction::Send).run(spec(QStringLiteral("tcp-send"), kKey), queuedObserver);
    });
    QTRY_VERIFY_WITH_TIMEOUT(
        queuedObserver.seen().join(QLatin1Char('\n')).contains(QStringLiteral("queued at position 1")), 10000);
    // The third finds the queue full: busy, with the reason.
    const RunResult third = run(QStringLiteral("tcp-send"), kKey);
    QCOMPARE(third.status, RunStatus::Failed);
    QVERIFY2(third.error.contains(QStringLiteral("busy")), qPrintable(third.error));
    // The holder leaves: the queued client runs its test.
    holder.m_socket.abort();
    second.join();
    QVERIFY2(queuedResult.ok(), qPrintable(queuedResult.error));
    QVERIFY(queuedResult.bytes > 0);
}

void TestResponderSecurity::rateCap()
{
    ResponderConfig config = keyedConfig();
    config.maxRateBytesPerSec = 20'000'000; // 20 MB/s
    QVERIFY(startResponder(config));
    const RunResult r = run(QStringLiteral("tcp-recv"), kKey, 1000);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.seconds > 0);
    const double mbps = r.bytes / r.seconds / 1e6;
    // An upper bound only: pacing never runs ahead of the cap (plus one 10 ms chunk).
    QVERIFY2(mbps <= 20 * 1.15, qPrintable(QStringLiteral("%1 MB/s").arg(mbps)));
    QVERIFY(r.bytes > 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_log.join(QLatin1Char('\n')).contains(QStringLiteral("--max-rate")), 5000);
    // Over 4 streams the cap holds for their sum, not for each.
    Observer observer;
    RunSpec four = spec(QStringLiteral("tcp-recv"), kKey, 1000);
    four.params.streams = 4;
    const RunResult sum = TcpDriver(TcpDriver::Direction::Receive).run(four, observer);
    QVERIFY2(sum.ok(), qPrintable(sum.error));
    QCOMPARE(sum.extra.value(QStringLiteral("streams")).toInt(), 4);
    QVERIFY(sum.seconds > 0 && sum.bytes > 0);
    const double sumMbps = sum.bytes / sum.seconds / 1e6;
    QVERIFY2(sumMbps <= 20 * 1.15, qPrintable(QStringLiteral("%1 MB/s over 4 streams").arg(sumMbps)));
}

QTEST_GUILESS_MAIN(TestResponderSecurity)
#include "TestResponderSecurity.moc"
