// wirebenchd as a process against a flood from one address: 40 idle connections from 127.0.0.2 to the control
// port (more than --max-connections, 32) and 10 slow requests from it to the probe endpoint (more than its 8). The
// address is held to what it may hold before proving anything (4 unproven connections, 2 requests in flight); the
// rest is refused at once with the limit's name, logged once; a client from 127.0.0.1 is served meanwhile: the TCP
// driver with the key runs a test, a scrape gets 200 with wirebench_probe_success 1. Both loopback addresses are
// Linux's 127.0.0.0/8: the flooder binds its sockets to 127.0.0.2 before it connects.
#include "protocols/tcp/TcpDriver.h"
#include "responder/RawClient.h"
#include "support/SampleObserver.h"
#include "wire/wirebenchd/Auth.h"

#include "probe/HttpFetch.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

using namespace wb;

namespace {

const std::string kKey = "a key for the flood test";
const QHostAddress kFlooder(QStringLiteral("127.0.0.2"));

/// An HTTP connection from the flooder that sends a request head without its end, so that it stays in flight.
struct SlowRequest
{
    QTcpSocket socket;
    QByteArray in;

    bool open(quint16 port)
    {
        if (!socket.bind(kFlooder, 0))
            return false;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(5000))
            return false;
        socket.write("GET /probe?target=loop&plan=loop HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        return socket.waitForBytesWritten(5000);
    }
    /// Reads what came; true once a whole answer (head and its Content-Length of body) is in.
    bool answered()
    {
        socket.waitForReadyRead(10);
        in += socket.readAll();
        const qsizetype end = in.indexOf("\r\n\r\n");
        static const QRegularExpression length(QStringLiteral("\r\ncontent-length:\\s*(\\d+)"),
                                               QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch m = end < 0 ? QRegularExpressionMatch() : length.match(QString::fromLatin1(in));
        return m.hasMatch() && in.size() >= end + 4 + m.captured(1).toLongLong();
    }
    int status() const { return in.startsWith("HTTP/1.1 ") ? in.mid(9, 3).toInt() : 0; }
};

} // namespace

class TestWirebenchdFlood : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void controlPortFloodFromOneAddress();
    void provenConnectionsAreNotCounted();
    void probeFloodFromOneAddress();

private:
    /// True while wirebenchd runs; its log so far in m_log.
    bool alive();
    /// A real client from 127.0.0.1: the TCP driver with the key, 300 ms of tcp-send. Empty when it measured.
    QString realClientServed();
    /// A control connection from `from` that has read the server's first message (hello, busy or error).
    std::unique_ptr<test::RawClient> connectFrom(const QHostAddress &from, QJsonObject *first);

    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_log;
    quint16 m_port = 0, m_probePort = 0;
};

void TestWirebenchdFlood::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString keyFile = m_dir.filePath(QStringLiteral("wirebenchd.key"));
    QFile f(keyFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    f.write(QByteArray::fromStdString(kKey) + '\n');
    f.close();
    QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("plans")));
    // The log to a file: a pipe nobody drains during the flood would stall wirebenchd's log writes. Timeouts of
    // 120 s: the flood's connections stay held for the whole test, whatever the machine's load.
    m_daemon.setProcessChannelMode(QProcess::MergedChannels);
    m_daemon.setStandardOutputFile(m_dir.filePath(QStringLiteral("wirebenchd.log")));
    m_daemon.start(QStringLiteral(WIREBENCHD_PATH),
                   {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--key-file"), keyFile,
                    QStringLiteral("--handshake-timeout"), QStringLiteral("120"), QStringLiteral("--idle-timeout"),
                    QStringLiteral("120"), QStringLiteral("--probe-listen"), QStringLiteral("127.0.0.1:0"),
                    QStringLiteral("--probe-plans"), m_dir.filePath(QStringLiteral("plans")),
                    QStringLiteral("--probe-cli"), QStringLiteral(WIREBENCH_CLI_PATH),
                    QStringLiteral("--probe-key-file"), keyFile, QStringLiteral("--probe-request-timeout"),
                    QStringLiteral("120")});
    QVERIFY(m_daemon.waitForStarted(30000));
    static const QRegularExpression control(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
    static const QRegularExpression probes(QStringLiteral("answers probes .* on 127\\.0\\.0\\.1:(\\d+)"));
    const QDeadlineTimer deadline(60000);
    while (!deadline.hasExpired() && alive() && !(control.match(m_log).hasMatch() && probes.match(m_log).hasMatch()))
        QTest::qWait(100);
    m_port = quint16(control.match(m_log).captured(1).toUInt());
    m_probePort = quint16(probes.match(m_log).captured(1).toUInt());
    QVERIFY2(m_port != 0 && m_probePort != 0, qPrintable(m_log));
    QFile plan(m_dir.filePath(QStringLiteral("plans/loop.wbplan.json")));
    QVERIFY(plan.open(QIODevice::WriteOnly));
    plan.write(QStringLiteral(R"({"format": "wirebench-plan", "version": 1, "plan": {
        "hosts": [{"name": "loop", "address": "127.0.0.1", "port": %1, "server_type": "wirebenchd"}],
        "protocols": ["tcp-send"], "frame_sizes": [1500], "repetitions": 1, "params": {"duration_ms": 300}}})")
                   .arg(m_port)
                   .toUtf8());
    plan.close();
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
}

void TestWirebenchdFlood::cleanupTestCase()
{
    if (m_daemon.state() == QProcess::NotRunning)
        return;
    m_daemon.terminate();
    QVERIFY(m_daemon.waitForFinished(30000));
    alive();
    QVERIFY2(!m_log.contains(QStringLiteral("terminate called")), qPrintable(m_log.right(4000)));
}

bool TestWirebenchdFlood::alive()
{
    QFile log(m_dir.filePath(QStringLiteral("wirebenchd.log")));
    if (log.open(QIODevice::ReadOnly))
        m_log = QString::fromUtf8(log.readAll());
    return m_daemon.state() == QProcess::Running;
}

QString TestWirebenchdFlood::realClientServed()
{
    if (!alive())
        return QStringLiteral("wirebenchd ended (exit %1): %2").arg(m_daemon.exitCode()).arg(m_log.right(2000));
    RunSpec spec;
    spec.host.address = QStringLiteral("127.0.0.1");
    spec.host.port = m_port;
    spec.host.options.insert(QLatin1String(TcpDriver::kKeyOption), QString::fromStdString(kKey));
    spec.protocol = QStringLiteral("tcp-send");
    spec.params.durationMs = 300;
    test::SampleObserver observer;
    const RunResult r = TcpDriver(TcpDriver::Direction::Send).run(spec, observer);
    if (r.status != RunStatus::Ok || r.bytes <= 0)
        return QStringLiteral("the client from 127.0.0.1 was not served: %1").arg(r.error);
    return {};
}

std::unique_ptr<test::RawClient> TestWirebenchdFlood::connectFrom(const QHostAddress &from, QJsonObject *first)
{
    auto c = std::make_unique<test::RawClient>();
    if (!c->m_socket.bind(from, 0) || !c->connectTo(m_port))
        return nullptr;
    *first = c->next();
    return c;
}

void TestWirebenchdFlood::controlPortFloodFromOneAddress()
{
    // 40 idle connections from 127.0.0.2, more than --max-connections (32): 4 get a hello and hold it, the 36 others
    // are told the limit at once.
    std::vector<std::unique_ptr<test::RawClient>> flood;
    int hellos = 0;
    QStringList refusals;
    for (int i = 0; i < 40; ++i) {
        QJsonObject first;
        flood.push_back(connectFrom(kFlooder, &first));
        QVERIFY(flood.back());
        if (test::typeOf(first) == QLatin1String(control::kHello))
            ++hellos;
        else if (test::typeOf(first) == QLatin1String(control::kBusy))
            refusals << first.value(QLatin1String("message")).toString();
    }
    QCOMPARE(hellos, 4);
    QCOMPARE(refusals.size(), 36);
    const QString reason = QStringLiteral(
        "wirebenchd holds 4 connections from 127.0.0.2 that have not proved the key yet, the most it takes from one "
        "address (--max-unproven-per-address): finish or close those, then try again");
    for (const QString &text : refusals)
        QCOMPARE(text, reason);

    // A client from another address is served while the flood holds its connections, which still refuse a 41st.
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
    QJsonObject first;
    auto more = connectFrom(kFlooder, &first);
    QVERIFY(more);
    QCOMPARE(test::typeOf(first), QLatin1String(control::kBusy));

    // The 37 refusals make one log line, and one more with their count when the flood is over.
    alive();
    QCOMPARE(m_log.count(QStringLiteral("refused, its address holds 4 connections that have not proved the key")), 1);
    flood.clear();
    more.reset();
    const QString summary
        = QStringLiteral("127.0.0.2 holds no connection that has not proved the key any more: 37 of "
                         "its connections were refused at the limit of 4 (--max-unproven-per-address)");
    QTRY_VERIFY2_WITH_TIMEOUT((alive(), m_log.contains(summary)), qPrintable(m_log.right(3000)), 30000);
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
}

void TestWirebenchdFlood::provenConnectionsAreNotCounted()
{
    // A connection from 127.0.0.3 that proved the key (it holds the test slot) leaves its address 4 unproven ones.
    QJsonObject first;
    auto proven = connectFrom(QHostAddress(QStringLiteral("127.0.0.3")), &first);
    QVERIFY(proven);
    control::Hello theirs;
    QVERIFY(control::Hello::fromJson(wire::fromQt(first), &theirs, nullptr));
    control::Hello mine = control::Hello::local("flood test");
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.mac = auth::clientProof(kKey, theirs.nonce, mine.nonce);
    proven->send(mine.toJson());
    QCOMPARE(test::typeOf(proven->next()), QLatin1String(control::kWelcome));
    std::vector<std::unique_ptr<test::RawClient>> unproven;
    for (int i = 0; i < 4; ++i) {
        unproven.push_back(connectFrom(QHostAddress(QStringLiteral("127.0.0.3")), &first));
        QVERIFY(unproven.back());
        QCOMPARE(test::typeOf(first), QLatin1String(control::kHello));
    }
    auto fifth = connectFrom(QHostAddress(QStringLiteral("127.0.0.3")), &first);
    QVERIFY(fifth);
    QCOMPARE(test::typeOf(first), QLatin1String(control::kBusy));
    QVERIFY2(first.value(QLatin1String("message")).toString().contains(QStringLiteral("--max-unproven-per-address")),
             qPrintable(first.value(QLatin1String("message")).toString()));
}

void TestWirebenchdFlood::probeFloodFromOneAddress()
{
    // 10 requests from 127.0.0.2 whose head never ends, more than the probe endpoint's 8 at once: 2 stay in flight,
    // the 8 others get 429 at once.
    std::vector<std::unique_ptr<SlowRequest>> slow;
    for (int i = 0; i < 10; ++i) {
        slow.push_back(std::make_unique<SlowRequest>());
        QVERIFY(slow.back()->open(m_probePort));
    }
    auto answered = [&] {
        int n = 0;
        for (auto &r : slow)
            n += r->answered() ? 1 : 0;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(answered(), 8, 30000);
    for (std::size_t i = 0; i < slow.size(); ++i) {
        if (i < 2) {
            QVERIFY2(slow[i]->in.isEmpty(), slow[i]->in.constData());
            continue;
        }
        QCOMPARE(slow[i]->status(), 429);
        QVERIFY2(slow[i]->in.contains("wirebenchd: 127.0.0.2 has 2 requests to the probe endpoint in flight already, "
                                      "the most one address may have (--probe-max-per-address): wait for their "
                                      "answers"),
                 slow[i]->in.constData());
    }

    // Prometheus, from 127.0.0.1, is served meanwhile.
    const test::HttpAnswer scrape = test::httpGet(m_probePort, QStringLiteral("/probe?target=loop&plan=loop"));
    QVERIFY2(
        scrape.status == 200,
        qPrintable(QStringLiteral("%1 %2 %3").arg(scrape.status).arg(scrape.error, QString::fromUtf8(scrape.body))));
    QVERIFY2(scrape.body.contains("\nwirebench_probe_success 1\n")
                 || scrape.body.startsWith("wirebench_probe_success 1\n"),
             scrape.body.constData());
    // The two slow ones are still waiting (their head has 120 s to come): the scrape came through while they held.
    for (std::size_t i = 0; i < 2; ++i) {
        QVERIFY(!slow[i]->answered());
        QCOMPARE(slow[i]->socket.state(), QAbstractSocket::ConnectedState);
    }
    alive();
    QCOMPARE(m_log.count(QStringLiteral("refused (429): its address has 2 requests in flight")), 1);
    slow.clear();
    const QString summary = QStringLiteral("probe endpoint: 127.0.0.2 has no request in flight any more: 8 of its "
                                           "requests were refused at the limit of 2 (--probe-max-per-address)");
    QTRY_VERIFY2_WITH_TIMEOUT((alive(), m_log.contains(summary)), qPrintable(m_log.right(3000)), 30000);
}

QTEST_GUILESS_MAIN(TestWirebenchdFlood)
#include "TestWirebenchdFlood.moc"
