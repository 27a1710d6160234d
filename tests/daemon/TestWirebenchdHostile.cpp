// wirebenchd as a process against hostile input on every port it opens: generated JSON values (huge, tiny,
// negative and non-finite numbers, deep nesting, long strings, wrong types) in every field of every message a
// client sends, before and after the key proof, on the control port and the iperf3 port, and hostile HTTP on the
// probe endpoint. Each hostile message gets an answer or a close within a bound; after each burst wirebenchd is
// still running and serves a real client (wirebench's TCP driver with the key, the real iperf3, a real probe).
#include "protocols/tcp/TcpDriver.h"
#include "responder/RawClient.h"
#include "support/CiRule.h"
#include "support/FreePort.h"
#include "support/SampleObserver.h"
#include "wire/iperf3/Iperf3Protocol.h"
#include "wire/wirebenchd/Auth.h"

#include "probe/HttpFetch.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

/// A JSON value a well-behaved peer never sends, as text (1e999 cannot be built as a json value).
struct Hostile
{
    const char *name;
    QByteArray text;
};

/// The generated values; `room` bounds the long ones (the pre-proof cap is 4 KiB, after it 64 KiB).
QList<Hostile> hostileValues(int room)
{
    const int depth = room / 2 - 64;
    return {
        {"1e999", "1e999"},
        {"-1e999", "-1e999"},
        {"1e308", "1e308"},
        {"-1e308", "-1e308"},
        {"1e300", "1e300"},
        {"2^63", "9223372036854775808"},
        {"2^64", "18446744073709551616"},
        {"-2^63-1", "-9223372036854775809"},
        {"int max + 1", "2147483648"},
        {"int min - 1", "-2147483649"},
        {"tiny", "4.9e-324"},
        {"-1", "-1"},
        {"0.5", "0.5"},
        {"null", "null"},
        {"true", "true"},
        {"text", "\"1000\""},
        {"list", "[1000]"},
        {"object", "{\"a\":1000}"},
        {"deep list", QByteArray(depth, '[') + QByteArray(depth, ']')},
        {"deep object", QByteArray("{\"a\":").repeated(depth / 5) + "1" + QByteArray(depth / 5, '}')},
        {"long text", '"' + QByteArray(room - 600, 'A') + '"'},
        {"escapes", "\"\\u0000\\u001b[2J\\r\\nFORGED\""},
    };
}

/// `fields` of a message as JSON text with `field` set to value (added when the message has no such field).
QByteArray withField(const control::Json &message, const std::string &field, const QByteArray &value)
{
    control::Json rest = message;
    rest.erase(field);
    QByteArray text = wire::qb(rest.dump());
    text.chop(1); // the closing brace
    return text + (rest.empty() ? "" : ",") + '"' + QByteArray::fromStdString(field) + "\":" + value + '}';
}

QByteArray framed(const QByteArray &json)
{
    const auto n = quint32(json.size());
    QByteArray f(4, '\0');
    f[0] = char(n >> 24);
    f[1] = char(n >> 16);
    f[2] = char(n >> 8);
    f[3] = char(n);
    return f + json;
}

const std::string kKey = "a key for the hostile test";

} // namespace

class TestWirebenchdHostile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void controlPortBeforeTheProof();
    void controlPortAfterTheProof();
    void iperf3Port();
    void probeEndpoint();

private:
    /// True while wirebenchd runs; its log so far in *log.
    bool alive();
    /// A real client: the TCP driver with the key, 300 ms of tcp-send. Empty when it measured, else why not.
    QString realClientServed();
    /// Connects, proves the key when asked, sends `frame` and returns the answer's type ("closed" when the
    /// server closed without one, "silent" when nothing came within 10 s).
    QString answerTo(const QByteArray &frame, bool proveFirst, QString *code = nullptr);

    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_log;
    quint16 m_port = 0, m_iperf3Port = 0, m_probePort = 0;
};

void TestWirebenchdHostile::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString keyFile = m_dir.filePath(QStringLiteral("wirebenchd.key"));
    QFile f(keyFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    f.write(QByteArray::fromStdString(kKey) + '\n');
    f.close();
    QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("plans")));
    m_iperf3Port = test::freeLoopbackPort();
    QVERIFY(m_iperf3Port != 0);
    // The log to a file: a pipe nobody drains in the bursts would fill and stall wirebenchd's log writes.
    m_daemon.setProcessChannelMode(QProcess::MergedChannels);
    m_daemon.setStandardOutputFile(m_dir.filePath(QStringLiteral("wirebenchd.log")));
    m_daemon.start(QStringLiteral(WIREBENCHD_PATH),
                   {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--key-file"), keyFile,
                    QStringLiteral("--iperf3-port"), QString::number(m_iperf3Port), QStringLiteral("--probe-listen"),
                    QStringLiteral("127.0.0.1:0"), QStringLiteral("--probe-plans"),
                    m_dir.filePath(QStringLiteral("plans")), QStringLiteral("--probe-cli"),
                    QStringLiteral(WIREBENCH_CLI_PATH), QStringLiteral("--probe-key-file"), keyFile});
    QVERIFY(m_daemon.waitForStarted(30000));
    static const QRegularExpression control(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
    static const QRegularExpression probes(QStringLiteral("answers probes .* on 127\\.0\\.0\\.1:(\\d+)"));
    const QDeadlineTimer deadline(60000);
    while (!deadline.hasExpired() && alive()
           && !(control.match(m_log).hasMatch() && probes.match(m_log).hasMatch()
                && m_log.contains(QStringLiteral("answers iperf3 clients"))))
        QTest::qWait(100);
    m_port = quint16(control.match(m_log).captured(1).toUInt());
    m_probePort = quint16(probes.match(m_log).captured(1).toUInt());
    QVERIFY2(m_port != 0 && m_probePort != 0, qPrintable(m_log));
    // The probe's plan: tcp-send for 300 ms to this wirebenchd.
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

void TestWirebenchdHostile::cleanupTestCase()
{
    if (m_daemon.state() == QProcess::NotRunning)
        return;
    m_daemon.terminate();
    QVERIFY(m_daemon.waitForFinished(30000));
    alive();
    QVERIFY2(!m_log.contains(QStringLiteral("terminate called")), qPrintable(m_log.right(4000)));
}

bool TestWirebenchdHostile::alive()
{
    QFile log(m_dir.filePath(QStringLiteral("wirebenchd.log")));
    if (log.open(QIODevice::ReadOnly))
        m_log = QString::fromUtf8(log.readAll());
    return m_daemon.state() == QProcess::Running;
}

QString TestWirebenchdHostile::realClientServed()
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
        return QStringLiteral("the real client was not served: %1").arg(r.error);
    return {};
}

namespace {

/// The server's next message past any "queued": the previous client's slot is held until wirebenchd sees that
/// client's close, so a proven hello may wait its turn before its welcome.
QJsonObject nextPastQueue(test::RawClient &c)
{
    for (;;) {
        const QJsonObject m = c.next();
        if (test::typeOf(m) != QLatin1String(control::kQueued))
            return m;
    }
}

} // namespace

QString TestWirebenchdHostile::answerTo(const QByteArray &frame, bool proveFirst, QString *code)
{
    test::RawClient c;
    if (!c.connectTo(m_port))
        return QStringLiteral("no connection");
    control::Hello theirs;
    if (!control::Hello::fromJson(wire::fromQt(c.next()), &theirs, nullptr))
        return QStringLiteral("no server hello");
    if (proveFirst) {
        control::Hello mine = control::Hello::local("hostile test");
        mine.nonce = auth::randomBytes(auth::kNonceBytes);
        mine.mac = auth::clientProof(kKey, theirs.nonce, mine.nonce);
        c.send(mine.toJson());
        if (test::typeOf(nextPastQueue(c)) != QLatin1String(control::kWelcome))
            return QStringLiteral("no welcome");
    }
    c.sendRaw(frame);
    const QJsonObject reply = c.next(10000);
    if (code)
        *code = reply.value(QLatin1String("code")).toString();
    if (!reply.isEmpty())
        return test::typeOf(reply);
    return c.m_socket.state() == QAbstractSocket::ConnectedState ? QStringLiteral("silent") : QStringLiteral("closed");
}

void TestWirebenchdHostile::controlPortBeforeTheProof()
{
    // Every field of a hello (and "type" itself), each generated value, from a client that has proved nothing:
    // refused with an error, never a welcome, never silence.
    control::Hello base = control::Hello::local("hostile test");
    base.nonce = std::string(auth::kNonceBytes, 'n');
    base.mac = std::string(32, 'm');
    base.linkSpeedMbps = 1000;
    base.maxStreams = 2;
    const control::Json hello = base.toJson();
    int sent = 0;
    for (const auto &[field, unused] : hello.items()) {
        for (const Hostile &v : hostileValues(auth::kMaxPreAuthBytes)) {
            const QByteArray json = withField(hello, field, v.text);
            QString code;
            const QString answer = answerTo(framed(json), false, &code);
            QVERIFY2(answer == QLatin1String(control::kError),
                     qPrintable(
                         QStringLiteral("hello with %1 = %2: %3").arg(QString::fromStdString(field), v.name, answer)));
            ++sent;
        }
        QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    }
    QVERIFY(sent > 200);
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
}

void TestWirebenchdHostile::controlPortAfterTheProof()
{
    // A proven client: every field of a test request, each value, refused as a bad message (no value here is in a
    // field's range); then a proven hello whose other fields are hostile (they are informative: a welcome or an
    // error, never a crash).
    control::TestRequest request;
    request.durationMs = 300;
    request.messageSize = 131072;
    request.sampleIntervalMs = 100;
    request.warmupMs = 0;
    request.streams = 1;
    const control::Json test = request.toJson();
    for (const auto &[field, unused] : test.items()) {
        if (field == "type")
            continue;
        for (const Hostile &v : hostileValues(64 * 1024)) {
            if (field == "warmup_ms" && v.text == "-1")
                continue;
            QString code;
            const QString answer = answerTo(framed(withField(test, field, v.text)), true, &code);
            QVERIFY2(answer == QLatin1String(control::kError) && code == QLatin1String("bad-message"),
                     qPrintable(QStringLiteral("test with %1 = %2: %3 %4")
                                    .arg(QString::fromStdString(field), v.name, answer, code)));
        }
        QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    }
    // Whole messages that are not objects, or nested too deep, after the proof.
    for (const Hostile &v : hostileValues(64 * 1024)) {
        const QString answer = answerTo(framed(v.text), true);
        QVERIFY2(answer == QLatin1String(control::kError) || answer == QLatin1String("closed"),
                 qPrintable(QStringLiteral("a message that is %1: %2").arg(v.name, answer)));
    }
    QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));

    // The proven hello's informative fields.
    for (const char *field : {"cpus", "link_speed_mbps", "link", "max_streams", "bidir", "software", "want"}) {
        for (const Hostile &v : hostileValues(3000)) {
            test::RawClient c;
            QVERIFY(c.connectTo(m_port));
            control::Hello theirs;
            QVERIFY(control::Hello::fromJson(wire::fromQt(c.next()), &theirs, nullptr));
            control::Hello mine = control::Hello::local("hostile test");
            mine.nonce = auth::randomBytes(auth::kNonceBytes);
            mine.mac = auth::clientProof(kKey, theirs.nonce, mine.nonce);
            c.sendRaw(framed(withField(mine.toJson(), field, v.text)));
            const QString answer = test::typeOf(nextPastQueue(c));
            QVERIFY2(
                answer == QLatin1String(control::kWelcome) || answer == QLatin1String(control::kError),
                qPrintable(QStringLiteral("proven hello with %1 = %2: %3").arg(QLatin1String(field), v.name, answer)));
        }
        QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    }
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
}

void TestWirebenchdHostile::iperf3Port()
{
    // iperf3's parameters (no key on this port, by iperf3's design), each field with each value: the server answers
    // with a state byte or closes; then the real iperf3 is served.
    const QString iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
    WB_REQUIRE(!iperf3.isEmpty(), QStringLiteral("iperf3 is not installed (apt-get install iperf3)"));
    const control::Json params = {{"tcp", true},     {"omit", 0},     {"time", 1},        {"num", 0},
                                  {"blockcount", 0}, {"parallel", 1}, {"len", 131072},    {"window", 0},
                                  {"bandwidth", 0},  {"MSS", 0},      {"reverse", false}, {"client_version", "3.12"}};
    auto exchange = [&](const QByteArray &json) {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_iperf3Port);
        if (!s.waitForConnected(5000))
            return QStringLiteral("no connection");
        s.write(wire::qb(iperf3::makeCookie()));
        if (!s.waitForReadyRead(10000))
            return QStringLiteral("no state after the cookie");
        if (s.read(1) != QByteArray(1, char(iperf3::ParamExchange)))
            return QStringLiteral("not PARAM_EXCHANGE");
        s.write(wire::qb(iperf3::frameJson(json.toStdString())));
        s.flush();
        const QDeadlineTimer deadline(10000);
        while (!deadline.hasExpired() && s.state() == QAbstractSocket::ConnectedState && s.bytesAvailable() == 0)
            s.waitForReadyRead(100);
        return s.bytesAvailable() > 0 || s.state() != QAbstractSocket::ConnectedState ? QString()
                                                                                      : QStringLiteral("silent");
    };
    for (const auto &[field, unused] : params.items()) {
        for (const Hostile &v : hostileValues(60 * 1024)) {
            const QString why = exchange(withField(params, field, v.text));
            if (!why.isEmpty())
                alive();
            QVERIFY2(why.isEmpty(),
                     qPrintable(QStringLiteral("parameters with %1 = %2: %3\n%4")
                                    .arg(QString::fromStdString(field), v.name, why, m_log.right(3000))));
        }
        QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    }
    for (const Hostile &v : hostileValues(60 * 1024))
        QVERIFY2(exchange(v.text).isEmpty(), v.name);
    QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    QProcess client;
    client.setProcessChannelMode(QProcess::MergedChannels);
    client.start(iperf3,
                 {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                  QString::number(m_iperf3Port), QStringLiteral("-t"), QStringLiteral("1")});
    QVERIFY(client.waitForFinished(60000));
    QVERIFY2(client.exitCode() == 0, client.readAll().constData());
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
}

void TestWirebenchdHostile::probeEndpoint()
{
    // Requests no HTTP client sends: each is answered with a 4xx/5xx or closed; then a real probe is served.
    const QByteArray longText(6000, 'A');
    const QList<QByteArray> requests = {
        "GET /probe?target=%00&plan=%00 HTTP/1.1\r\n\r\n",
        "GET /probe?target=loop&plan=../../etc/passwd HTTP/1.1\r\n\r\n",
        "GET /probe?target=loop&plan=" + longText + " HTTP/1.1\r\n\r\n",
        "GET /probe?target=%zz&plan=% HTTP/1.1\r\n\r\n",
        "GET /probe?target=1e999&plan=1e999 HTTP/1.1\r\n\r\n",
        "GET /probe?" + QByteArray("a=b&").repeated(2000) + " HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\n" + QByteArray("X: y\r\n").repeated(3000) + "\r\n",
        "GET / HTTP/1.1\r\nX-Long: " + longText.repeated(20) + "\r\n\r\n",
        "POST /probe?target=loop&plan=loop HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "GET /probe?target=loop&plan=loop HTTP/9.9\r\n\r\n",
        "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + QByteArray(200, '\xff') + "\r\n\r\n",
        "GET\r\n\r\n",
        ": \r\n\r\n",
    };
    for (const QByteArray &request : requests) {
        const test::HttpAnswer a = test::httpExchange(m_probePort, request, 15000);
        QVERIFY2((a.status >= 400 && a.status < 600) || a.status == 0,
                 qPrintable(QStringLiteral("%1: %2 %3")
                                .arg(QString::fromLatin1(request.left(60).toPercentEncoding(" /?=&")))
                                .arg(a.status)
                                .arg(a.error)));
        QVERIFY2(
            a.status != 0 || !a.error.startsWith(QStringLiteral("no whole answer")),
            qPrintable(
                QStringLiteral("%1: silent").arg(QString::fromLatin1(request.left(60).toPercentEncoding(" /?=&")))));
        QVERIFY2(alive(), qPrintable(m_log.right(2000)));
    }
    const test::HttpAnswer probe
        = test::httpExchange(m_probePort, "GET /probe?target=loop&plan=loop HTTP/1.1\r\nHost: x\r\n\r\n", 60000);
    QVERIFY2(probe.status == 200, qPrintable(QStringLiteral("%1 %2").arg(probe.status).arg(probe.error)));
    QVERIFY2(probe.body.contains("\nwirebench_probe_success 1\n")
                 || probe.body.startsWith("wirebench_probe_success 1\n"),
             probe.body.constData());
    QVERIFY2(realClientServed().isEmpty(), qPrintable(realClientServed()));
}

QTEST_GUILESS_MAIN(TestWirebenchdHostile)
#include "TestWirebenchdHostile.moc"
