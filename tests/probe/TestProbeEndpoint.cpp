// wirebenchd's probe endpoint (--probe-listen) as a process: a probe of a loopback wirebenchd answered as metrics
// that promtool reads, the refusals with their reasons, one probe at a time, a child that is always reaped, and a
// real Prometheus that scrapes a probe and answers the throughput series from its query API.
#include "HttpFetch.h"
#include "PrometheusServer.h"
#include "PromtoolCheck.h"
#include "support/CiRule.h"
#include "support/FreePort.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace wb::test;

namespace {

/// wirebenchd with its control port and its probe endpoint on free ports of 127.0.0.1 (port 0: the ports it
/// bound are read from its log, so no other program can take them between a pick and the bind). Stopped with
/// SIGTERM and reaped when the object goes.
class ProbeDaemon
{
public:
    ~ProbeDaemon() { stop(); }

    bool start(const QString &planDir, const QStringList &more, QString *why)
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(QStringLiteral(WIREBENCHD_PATH),
                        QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                    QStringLiteral("--probe-listen"), QStringLiteral("127.0.0.1:0"),
                                    QStringLiteral("--probe-plans"), planDir, QStringLiteral("--probe-cli"),
                                    QStringLiteral(WIREBENCH_CLI_PATH)}
                            + more);
        if (!m_process.waitForStarted(30000))
            return *why = QStringLiteral("wirebenchd did not start: %1").arg(m_process.errorString()), false;
        static const QRegularExpression control(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
        static const QRegularExpression probes(QStringLiteral("answers probes .* on 127\\.0\\.0\\.1:(\\d+)"));
        const QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired() && m_process.state() == QProcess::Running
               && !(control.match(log()).hasMatch() && probes.match(log()).hasMatch()))
            m_process.waitForReadyRead(1000);
        m_port = quint16(control.match(log()).captured(1).toUInt());
        m_probePort = quint16(probes.match(log()).captured(1).toUInt());
        if (m_port == 0 || m_probePort == 0)
            return *why = QStringLiteral("wirebenchd did not say both ports: %1").arg(log()), false;
        return true;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(30000)) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
        log();
    }

    QString log()
    {
        m_log += QString::fromUtf8(m_process.readAll());
        return m_log;
    }

    QProcess &process() { return m_process; }
    quint16 port() const { return m_port; }
    quint16 probePort() const { return m_probePort; }

private:
    QProcess m_process;
    QString m_log;
    quint16 m_port = 0;
    quint16 m_probePort = 0;
};

/// A plan file NAME.wbplan.json in dir: tcp-send at 1500 B, one run of `seconds` against 127.0.0.1:port.
bool writePlan(const QString &dir, const QString &name, quint16 port, double seconds)
{
    QFile f(QDir(dir).filePath(name + QStringLiteral(".wbplan.json")));
    const QByteArray plan = QStringLiteral(R"({"format": "wirebench-plan", "version": 1, "plan": {
        "hosts": [{"name": "loop", "address": "127.0.0.1", "port": %1, "server_type": "wirebenchd"}],
        "protocols": ["tcp-send"], "frame_sizes": [1500], "repetitions": 1,
        "params": {"duration_ms": %2}}})")
                                .arg(port)
                                .arg(int(seconds * 1000))
                                .toUtf8();
    return f.open(QIODevice::WriteOnly) && f.write(plan) == plan.size();
}

/// The value of the sample line that starts with `start` (name and labels), NaN when there is none.
double sampleValue(const QByteArray &body, const QString &start)
{
    for (const QString &line : QString::fromUtf8(body).split(QLatin1Char('\n')))
        if (line.startsWith(start + QLatin1Char(' ')))
            return line.mid(start.size() + 1).toDouble();
    return qQNaN();
}

const QByteArray kOpenMetricsAccept
    = "Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n";

/// The processes whose command line holds text (pgrep -f), one pid a line.
QString processesWith(const QString &text)
{
    QProcess p;
    p.start(QStringLiteral("pgrep"), {QStringLiteral("-af"), text});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

} // namespace

class TestProbeEndpoint : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badOptions_data();
    void badOptions();
    void probeAnswersMetrics();
    void refusals_data();
    void refusals();
    void scrapeTimeoutTooShort();
    void unreachableTargetIsAFailedProbe();
    void oneProbeAtATime();
    void stopEndsTheProbesChild();
    void allowRefusesOtherScrapers();
    void prometheusScrapesAProbe();
    void secretsFileGoesToTheCli();
    void cleanupTestCase();

private:
    QString probePath(const QString &plan, const QString &target = QString()) const
    {
        return QStringLiteral("/probe?target=%1&plan=%2")
            .arg(target.isEmpty() ? QStringLiteral("127.0.0.1:%1").arg(m_daemon->port()) : target, plan);
    }

    QTemporaryDir m_plans;
    std::unique_ptr<ProbeDaemon> m_daemon;
};

void TestProbeEndpoint::initTestCase()
{
    QVERIFY(m_plans.isValid());
    m_daemon = std::make_unique<ProbeDaemon>();
    QString why;
    QVERIFY2(m_daemon->start(m_plans.path(), {QStringLiteral("--probe-max-duration"), QStringLiteral("20")}, &why),
             qPrintable(why));
    // The plans name the daemon's own control port: it probes itself over loopback.
    QVERIFY(writePlan(m_plans.path(), QStringLiteral("loop"), m_daemon->port(), 1));
    QVERIFY(writePlan(m_plans.path(), QStringLiteral("slow"), m_daemon->port(), 4));
    QVERIFY(writePlan(m_plans.path(), QStringLiteral("long"), m_daemon->port(), 60));
}

void TestProbeEndpoint::secretsFileGoesToTheCli()
{
    // --probe-secrets is the probes' wirebench-cli --secrets: a file others may read is refused by the CLI, which
    // the answer says; one of the owner's alone serves the plan (its line of another host is left).
    QTemporaryDir dir;
    const QString secrets = dir.filePath(QStringLiteral("targets.secrets"));
    QFile f(secrets);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("file-server smb.password=Pw-probe\n");
    f.close();
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    ProbeDaemon daemon;
    QString why;
    QVERIFY2(daemon.start(m_plans.path(), {QStringLiteral("--probe-secrets"), secrets}, &why), qPrintable(why));
    QVERIFY(writePlan(m_plans.path(), QStringLiteral("keyed"), daemon.port(), 1));
    const QString path = QStringLiteral("/probe?target=127.0.0.1:%1&plan=keyed").arg(daemon.port());
    HttpAnswer a = httpGet(daemon.probePort(), path);
    QCOMPARE(a.status, 500);
    QVERIFY2(a.body.contains(
                 ("other users can read it (mode 0604): make it yours alone with chmod 600 " + secrets).toUtf8()),
             a.body.constData());
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    a = httpGet(daemon.probePort(), path);
    QFile::remove(QDir(m_plans.path()).filePath(QStringLiteral("keyed.wbplan.json")));
    QVERIFY2(a.status == 200, qPrintable(a.error + QString::fromUtf8(a.body)));
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_success")), 1.0);
    QVERIFY(!daemon.log().contains(QStringLiteral("Pw-probe")) && !a.body.contains("Pw-probe"));
}

void TestProbeEndpoint::cleanupTestCase()
{
    if (m_daemon)
        m_daemon->stop();
    if (QTest::currentTestFailed() && m_daemon)
        qWarning().noquote() << "wirebenchd's log:\n" << m_daemon->log();
}

void TestProbeEndpoint::badOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("no plan folder")
        << QStringList{"--listen",    "127.0.0.1:0",   "--probe-listen",
                       "127.0.0.1:0", "--probe-plans", "/nonexistent/plans"}
        << "--probe-plans: /nonexistent/plans is not a folder (No such file or directory): make it";
    QTest::newRow("probe option alone") << QStringList{"--listen", "127.0.0.1:0", "--probe-plans", "/tmp"}
                                        << "--probe-plans goes with --probe-listen ADDR:PORT";
    QTest::newRow("bad address") << QStringList{"--probe-listen", "probe-host:9531"}
                                 << "--probe-listen: \"probe-host\" is not an IPv4 or IPv6 address";
    QTest::newRow("bad duration") << QStringList{"--probe-listen", "127.0.0.1:0", "--probe-max-duration", "0"}
                                  << "--probe-max-duration: \"0\" is not a number of seconds from 1 to 3600";
}

void TestProbeEndpoint::badOptions()
{
    // Said on stderr before anything listens (no key file is made), exit status 2.
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    QProcess p;
    p.start(QStringLiteral(WIREBENCHD_PATH), args);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(says), qPrintable(err));
    QVERIFY2(!QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("listening")), "it listened");
}

void TestProbeEndpoint::probeAnswersMetrics()
{
    // OpenMetrics when asked for it, as Prometheus does.
    HttpAnswer a = httpGet(m_daemon->probePort(), probePath(QStringLiteral("loop")), kOpenMetricsAccept);
    QVERIFY2(a.status == 200, qPrintable(a.error + QString::fromUtf8(a.body) + m_daemon->log()));
    QVERIFY2(a.headers.value("content-type").startsWith("application/openmetrics-text; version=1.0.0"),
             a.headers.value("content-type"));
    QVERIFY2(a.body.endsWith("\n# EOF\n"), a.body.constData());
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_success")), 1.0);
    const double bytesPerSecond = sampleValue(
        a.body, QStringLiteral("wirebench_throughput_bytes_per_second{protocol=\"tcp-send\",frame_size=\"1500\"}"));
    QVERIFY2(bytesPerSecond > 1e6, a.body.constData()); // loopback moves far more than 1 MB/s
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_runs{status=\"ok\"}")), 1.0);
    QVERIFY2(
        a.body.contains(
            "# TYPE wirebench_test info\nwirebench_test_info{protocol=\"tcp-send\",frame_size=\"1500\",bottleneck=\""),
        a.body.constData());
    QVERIFY2(!qIsNaN(sampleValue(a.body,
                                 QStringLiteral("wirebench_rtt_seconds{protocol=\"tcp-send\",frame_size=\"1500\"}"))),
             a.body.constData());

    // The classic text without an Accept (curl), which promtool reads.
    a = httpGet(m_daemon->probePort(), probePath(QStringLiteral("loop")));
    QCOMPARE(a.status, 200);
    QCOMPARE(a.headers.value("content-type"), QByteArray("text/plain; version=0.0.4; charset=utf-8"));
    QVERIFY(!a.body.contains("# EOF"));
    QVERIFY2(a.body.contains("# TYPE wirebench_test_info gauge\n"), a.body.constData());
    QVERIFY(
        sampleValue(a.body,
                    QStringLiteral("wirebench_throughput_bytes_per_second{protocol=\"tcp-send\",frame_size=\"1500\"}"))
        > 1e6);
    WB_REQUIRE(
        !promtoolPath().isEmpty(),
        QStringLiteral("promtool is not installed: apt-get install prometheus (scripts/install-deps.sh --test)"));
    QString said;
    QVERIFY2(promtoolAccepts(a.body, &said), qPrintable(said + QLatin1Char('\n') + QString::fromUtf8(a.body)));
    // The log says which probe ran, for whom, and how it ended; no child is left behind.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_daemon->log().contains(QRegularExpression(
            QStringLiteral("probe endpoint: plan loop to 127\\.0\\.0\\.1:\\d+ for 127\\.0\\.0\\.1:\\d+: done in"))),
        10000);
    QCOMPARE(processesWith(QStringLiteral("wirebenchd-probe-.*/loop.wbplan.json")), QString());
}

void TestProbeEndpoint::refusals_data()
{
    QTest::addColumn<QByteArray>("request"); // %PORT% the control port, %HOST% the probe endpoint
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("says");
    auto get = [](const QByteArray &path) { return "GET " + path + " HTTP/1.1\r\nHost: %HOST%\r\n\r\n"; };
    QTest::newRow("no target") << get("/probe?plan=loop") << 400 << "a probe names its target and plan";
    QTest::newRow("no plan") << get("/probe?target=127.0.0.1") << 400 << "a probe names its target and plan";
    QTest::newRow("plan with ..") << get("/probe?target=127.0.0.1&plan=..loop") << 400 << "may not hold \"..\"";
    QTest::newRow("plan as a path") << get("/probe?target=127.0.0.1&plan=%2Fetc%2Floop") << 400 << "not a path";
    QTest::newRow("broken escape") << get("/probe?target=%zz&plan=loop") << 400 << "broken %-escape";
    QTest::newRow("not http") << QByteArray("HELLO THERE\r\n\r\n") << 400 << "not an HTTP/1.x request line";
    QTest::newRow("unknown plan")
        << get("/probe?target=127.0.0.1&plan=nope") << 404
        << "no plan \"nope\" in %PLANS% (no file %PLANS%/nope.wbplan.json); the plans here: long, loop, slow";
    QTest::newRow("unknown path") << get("/metrics") << 404 << "no page /metrics here";
    QTest::newRow("target not in the plan")
        << get("/probe?target=127.0.0.2&plan=loop") << 403
        << "target 127.0.0.2 is not a host of plan loop (its hosts: 127.0.0.1 (loop))";
    QTest::newRow("plan too long")
        << get("/probe?target=127.0.0.1&plan=long") << 403
        << "plan long takes about 60 s, longer than a probe may run (--probe-max-duration 20 s)";
    QTest::newRow("post") << QByteArray(
        "POST /probe?target=127.0.0.1&plan=loop HTTP/1.1\r\nHost: %HOST%\r\nContent-Length: 0\r\n\r\n")
                          << 405 << "answers GET only, not POST";
    QTest::newRow("head too long") << QByteArray(
        "GET /probe?target=127.0.0.1&plan=loop HTTP/1.1\r\nX-Filler: " + QByteArray(9000, 'x') + "\r\n\r\n")
                                   << 413 << "longer than 8192 bytes";
}

void TestProbeEndpoint::refusals()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, says);
    request.replace("%HOST%", "127.0.0.1:" + QByteArray::number(m_daemon->probePort()));
    says.replace(QStringLiteral("%PLANS%"), m_plans.path());
    const HttpAnswer a = httpExchange(m_daemon->probePort(), request);
    QVERIFY2(a.status == status,
             qPrintable(QStringLiteral("HTTP %1 %2 %3").arg(a.status).arg(a.error, QString::fromUtf8(a.body))));
    QVERIFY2(QString::fromUtf8(a.body).contains(says), a.body.constData());
    QVERIFY(a.body.startsWith("wirebenchd: "));
    if (status == 405)
        QCOMPARE(a.headers.value("allow"), QByteArray("GET"));
    // The log says it too, with who asked; no probe was run for it.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_daemon->log().contains(QStringLiteral(" from 127.0.0.1:")) && m_daemon->log().contains(says.left(30)), 10000);
}

void TestProbeEndpoint::scrapeTimeoutTooShort()
{
    // A 1 s plan and a scraper that waits 1.5 s: not run, said in the metrics so that the failure shows in Prometheus.
    const HttpAnswer a = httpGet(m_daemon->probePort(), probePath(QStringLiteral("loop")),
                                 "X-Prometheus-Scrape-Timeout-Seconds: 1.5\r\n");
    QCOMPARE(a.status, 200);
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_success")), 0.0);
    QVERIFY2(a.body.contains("more than the scrape timeout 1.5 s leaves it: raise this job's scrape_timeout"),
             a.body.constData());
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_runs{status=\"ok\"}")), 0.0);
}

void TestProbeEndpoint::unreachableTargetIsAFailedProbe()
{
    // A target whose wirebenchd does not listen: the probe answers, with success 0 and the CLI's reason.
    const quint16 nobody = freeLoopbackPort();
    QVERIFY(nobody != 0);
    QVERIFY(writePlan(m_plans.path(), QStringLiteral("down"), nobody, 1));
    const HttpAnswer a
        = httpGet(m_daemon->probePort(), probePath(QStringLiteral("down"), QStringLiteral("127.0.0.1:%1").arg(nobody)));
    QFile::remove(QDir(m_plans.path()).filePath(QStringLiteral("down.wbplan.json")));
    QVERIFY2(a.status == 200, qPrintable(a.error + QString::fromUtf8(a.body)));
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_success")), 0.0);
    QCOMPARE(sampleValue(a.body, QStringLiteral("wirebench_probe_runs{status=\"ok\"}")), 0.0);
    QVERIFY2(a.body.contains(QStringLiteral("127.0.0.1:%1").arg(nobody).toUtf8()), a.body.constData());
    QVERIFY(!a.body.contains("wirebench_throughput_bytes_per_second{"));
}

void TestProbeEndpoint::oneProbeAtATime()
{
    // The first probe runs a 4 s plan; a second that comes while it runs (its log line says so) is answered 503.
    QTcpSocket first;
    first.connectToHost(QStringLiteral("127.0.0.1"), m_daemon->probePort());
    QVERIFY(first.waitForConnected(10000));
    first.write("GET " + probePath(QStringLiteral("slow")).toUtf8() + " HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(m_daemon->log().contains(QStringLiteral("probe endpoint: running plan slow")), 30000);
    const HttpAnswer second = httpGet(m_daemon->probePort(), probePath(QStringLiteral("loop")));
    QCOMPARE(second.status, 503);
    QVERIFY2(second.body.contains("busy: one probe at a time, and plan slow to 127.0.0.1:"), second.body.constData());
    // The first ends as it would have alone.
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT((answer += first.readAll()).contains("# TYPE wirebench_test_info gauge")
                                 || first.state() != QAbstractSocket::ConnectedState,
                             60000);
    QTRY_VERIFY_WITH_TIMEOUT((answer += first.readAll(), first.state() != QAbstractSocket::ConnectedState), 30000);
    answer += first.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
    QCOMPARE(sampleValue(answer.mid(answer.indexOf("\r\n\r\n") + 4), QStringLiteral("wirebench_probe_success")), 1.0);
}

void TestProbeEndpoint::stopEndsTheProbesChild()
{
    // wirebenchd stopped (SIGTERM) while a probe runs: its wirebench-cli ends with it, and is reaped.
    QTemporaryDir plans;
    QVERIFY(plans.isValid());
    ProbeDaemon daemon;
    QString why;
    QVERIFY2(daemon.start(plans.path(), {}, &why), qPrintable(why));
    const QString name = QStringLiteral("stop-%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(12));
    QVERIFY(writePlan(plans.path(), name, daemon.port(), 20));
    QTcpSocket probe;
    probe.connectToHost(QStringLiteral("127.0.0.1"), daemon.probePort());
    QVERIFY(probe.waitForConnected(10000));
    probe.write(QStringLiteral("GET /probe?target=127.0.0.1&plan=%1 HTTP/1.1\r\n\r\n").arg(name).toUtf8());
    QTRY_VERIFY_WITH_TIMEOUT(!processesWith(QStringLiteral("wirebenchd-probe-.*/%1.wbplan.json").arg(name)).isEmpty(),
                             30000);
    daemon.stop();
    QCOMPARE(daemon.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(daemon.process().exitCode(), 0);
    QCOMPARE(processesWith(QStringLiteral("wirebenchd-probe-.*/%1.wbplan.json").arg(name)), QString());
    QVERIFY2(daemon.log().contains(QStringLiteral("failed in"))
                 && daemon.log().contains(QStringLiteral("wirebenchd stopped during the probe")),
             qPrintable(daemon.log()));
}

void TestProbeEndpoint::allowRefusesOtherScrapers()
{
    QTemporaryDir plans;
    QVERIFY(plans.isValid());
    ProbeDaemon daemon;
    QString why;
    QVERIFY2(daemon.start(plans.path(), {QStringLiteral("--allow"), QStringLiteral("192.0.2.0/24")}, &why),
             qPrintable(why));
    const HttpAnswer a = httpGet(daemon.probePort(), QStringLiteral("/probe?target=127.0.0.1&plan=loop"));
    QCOMPARE(a.status, 403);
    QVERIFY2(a.body.contains(
                 "wirebenchd: 127.0.0.1 is not in the networks allowed to ask for probes (--allow 192.0.2.0/24)"),
             a.body.constData());
    QTRY_VERIFY_WITH_TIMEOUT(daemon.log().contains(QStringLiteral("403 Forbidden from 127.0.0.1:")), 10000);
}

void TestProbeEndpoint::prometheusScrapesAProbe()
{
    WB_REQUIRE(
        !PrometheusServer::program().isEmpty(),
        QStringLiteral("prometheus is not installed: apt-get install prometheus (scripts/install-deps.sh --test)"));
    // Blackbox-exporter style: the target is the plan's host, the address scraped is the probe endpoint. A scrape
    // every 5 s with 5 s to answer: the 1 s plan and wirebench-cli's start fit in it on a busy machine too.
    const QString target = QStringLiteral("127.0.0.1:%1").arg(m_daemon->port());
    const QByteArray config = QStringLiteral(R"(global:
  scrape_interval: 5s
  scrape_timeout: 5s
scrape_configs:
  - job_name: wirebench
    metrics_path: /probe
    params:
      plan: [loop]
    static_configs:
      - targets: ['%1']
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: 127.0.0.1:%2
)")
                                  .arg(target)
                                  .arg(m_daemon->probePort())
                                  .toUtf8();
    PrometheusServer prometheus;
    QString why;
    const bool started = prometheus.start(config, &why);
    auto printLogs = qScopeGuard([&] {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "prometheus's log:\n"
                                 << prometheus.log() << "\nwirebenchd's log:\n"
                                 << m_daemon->log();
    });
    QVERIFY2(started, qPrintable(why));
    // Its first scrape comes within one interval of the start, at an offset of its own: poll the query API until
    // the series is there (a generous bound: a busy machine may miss a scrape or two), never a fixed wait.
    QJsonArray series;
    QString error;
    QTRY_VERIFY2_WITH_TIMEOUT(
        !(series = prometheus.query(QStringLiteral("wirebench_throughput_bytes_per_second"), &error)).isEmpty(),
        qPrintable(QStringLiteral("no series within 120 s: %1").arg(error)), 120000);
    const QJsonObject first = series.first().toObject();
    const QJsonObject labels = first.value(QStringLiteral("metric")).toObject();
    QCOMPARE(labels.value(QStringLiteral("job")).toString(), QStringLiteral("wirebench"));
    QCOMPARE(labels.value(QStringLiteral("instance")).toString(), target);
    QCOMPARE(labels.value(QStringLiteral("protocol")).toString(), QStringLiteral("tcp-send"));
    QCOMPARE(labels.value(QStringLiteral("frame_size")).toString(), QStringLiteral("1500"));
    const double value = first.value(QStringLiteral("value")).toArray().at(1).toString().toDouble();
    QVERIFY2(value > 1e6, qPrintable(QString::number(value)));
    // The info metric came through OpenMetrics' info type with its labels.
    const QJsonArray info = prometheus.query(QStringLiteral("wirebench_test_info"), &error);
    QVERIFY2(!info.isEmpty(), qPrintable(error));
    QVERIFY(info.first().toObject().value(QStringLiteral("metric")).toObject().contains(QStringLiteral("bottleneck")));
    QTRY_VERIFY_WITH_TIMEOUT(
        m_daemon->log().contains(QStringLiteral("probe endpoint: plan loop to %1 for 127.0.0.1:").arg(target)), 10000);
}

QTEST_GUILESS_MAIN(TestProbeEndpoint)
#include "TestProbeEndpoint.moc"
