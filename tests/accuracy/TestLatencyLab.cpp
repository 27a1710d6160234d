#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "analysis/Bufferbloat.h"
#include "latency/LatencyRecorder.h"
#include "plan/TestPlan.h"
#include "support/EngineRun.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace wb;

// Latency under load (issue 16, part 3) through the two-namespace lab: a 100 Mbit/s line whose shaper queue holds
// 20 ms, then 40 ms, at the shaped rate (lab.sh shape --queue-ms MS: tbf's limit is what its rate drains in MS ms),
// reno as the senders' congestion control (it fills a queue until it drops; BBR, this machine's default, keeps it
// short; cubic is not in net.ipv4.tcp_allowed_congestion_control, which a namespace may choose from) over 16 streams
// (one reno stream halves its window at each drop and leaves the queue half empty: median 10 ms of 20; 4 streams
// 16.6 ms; 8 streams 17.8-18.4 ms of 20 and 35.0 ms of 40; 16 streams 18.5-19.1 ms of 20 and 37.5-38.0 ms of 40),
// the built wirebenchd and a real iperf3 -s in the server namespace. Idle, the
// probe's round trip is ping's within 1 ms; loaded, it is the idle one plus the queue within 3 ms, and the
// queue is named in the graded words: 20 ms a note (not a warning), 40 ms a warning. By wirebenchd's echo (tcp-send:
// the client's queue fills; tcp-recv: the server's) and by the TCP connect time to iperf3's port (iperf3-send).
class TestLatencyLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void loadedIsIdlePlusTheQueue_data();
    void loadedIsIdlePlusTheQueue();

private:
    double pingAverageMs(QString *line) const;
    /// Shapes the line for a queue of `ms` (once per queue); *queueMs: what tbf's limit holds at its rate.
    bool shapeQueue(int ms, double *queueMs, QString *why);
    std::unique_ptr<test::LabSession> m_lab;
    int m_shapedMs = 0;
    double m_queueMs = 0;
};

void TestLatencyLab::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString missing = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    const QString tool = test::LabSession::missingTool({QStringLiteral("iperf3"), QStringLiteral("ping")});
    WB_REQUIRE(tool.isEmpty(), QStringLiteral("%1 is missing: apt-get install iperf3 iputils-ping").arg(tool));
    m_lab = std::make_unique<test::LabSession>(test::LabBench::labScript(), QStringLiteral("lq"));
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("100mbit"), &why), qPrintable(why));
    bool ok = false;
    for (const QString &end : {QStringLiteral("cli"), QStringLiteral("srv")}) {
        const QString said = m_lab->run({QStringLiteral("exec"), end, QStringLiteral("sysctl"), QStringLiteral("-qw"),
                                         QStringLiteral("net.ipv4.tcp_congestion_control=reno")},
                                        &ok);
        QVERIFY2(ok, qPrintable(said));
    }
    const QString daemon = test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"));
    QString served
        = m_lab->run({QStringLiteral("serve"), QStringLiteral("wirebenchd"), daemon, QStringLiteral("--open")}, &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("wirebenchd did not start in the lab: ") + served));
    served = m_lab->run({QStringLiteral("serve"), QStringLiteral("iperf3")}, &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("iperf3 did not start in the lab: ") + served));
}

void TestLatencyLab::cleanupTestCase()
{
    m_lab.reset(); // back to our own namespace first: "lab.sh down" kills every process inside the lab
}

bool TestLatencyLab::shapeQueue(int ms, double *queueMs, QString *why)
{
    if (m_shapedMs == ms) {
        *queueMs = m_queueMs;
        return true;
    }
    // lab.sh runs from our own namespace; the test then goes back into the client's.
    m_lab->leaveClient();
    bool ok = false;
    // The queue: tbf's limit in bytes = its rate / 8 x MS ms, printed by lab.sh with the figures.
    const QString shaped = m_lab->run(
        {QStringLiteral("shape"), QStringLiteral("100mbit"), QStringLiteral("--queue-ms"), QString::number(ms)}, &ok);
    qInfo("%s", qPrintable(shaped));
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("tbf rate (\\d+) bit/s, limit (\\d+) bytes")).match(shaped);
    if (!ok || !m.hasMatch()) {
        *why = shaped;
        return false;
    }
    m_queueMs = m.captured(2).toDouble() / (m.captured(1).toDouble() / 8) * 1000;
    m_shapedMs = ms;
    *queueMs = m_queueMs;
    qInfo("queue: %.0f bytes at %.0f bit/s = %.2f ms", m.captured(2).toDouble(), m.captured(1).toDouble(), m_queueMs);
    return m_lab->enterClient(why);
}

double TestLatencyLab::pingAverageMs(QString *line) const
{
    // From this thread, inside the client namespace: ping's child inherits it.
    QProcess ping;
    ping.start(QStringLiteral("ping"),
               {QStringLiteral("-q"), QStringLiteral("-c"), QStringLiteral("40"), QStringLiteral("-i"),
                QStringLiteral("0.05"), test::LabSession::serverAddress()});
    if (!ping.waitForFinished(30000))
        return -1;
    const QString out = QString::fromUtf8(ping.readAllStandardOutput());
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("rtt min/avg/max/mdev = ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ms"))
              .match(out);
    *line = m.captured(0);
    return m.hasMatch() ? m.captured(2).toDouble() : -1;
}

void TestLatencyLab::loadedIsIdlePlusTheQueue_data()
{
    QTest::addColumn<int>("queue");
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("method");
    QTest::newRow("20 ms, tcp-send, wirebenchd's echo")
        << 20 << QStringLiteral("tcp-send") << 5301 << QStringLiteral("udp-echo");
    QTest::newRow("20 ms, tcp-recv, wirebenchd's echo")
        << 20 << QStringLiteral("tcp-recv") << 5301 << QStringLiteral("udp-echo");
    QTest::newRow("20 ms, iperf3-send, connect time")
        << 20 << QStringLiteral("iperf3-send") << 5201 << QStringLiteral("tcp-connect");
    QTest::newRow("40 ms, tcp-send, wirebenchd's echo")
        << 40 << QStringLiteral("tcp-send") << 5301 << QStringLiteral("udp-echo");
    QTest::newRow("40 ms, iperf3-send, connect time")
        << 40 << QStringLiteral("iperf3-send") << 5201 << QStringLiteral("tcp-connect");
}

void TestLatencyLab::loadedIsIdlePlusTheQueue()
{
    QFETCH(int, queue);
    QFETCH(QString, protocol);
    QFETCH(int, port);
    QFETCH(QString, method);
    double queueMs = 0;
    QString why;
    QVERIFY2(shapeQueue(queue, &queueMs, &why), qPrintable(why));
    QVERIFY(qAbs(queueMs - queue) < 0.01);
    QString pingLine;
    const double pingMs = pingAverageMs(&pingLine);
    QVERIFY2(pingMs > 0, "ping gave no figure");

    TestPlan plan;
    Host h;
    h.name = QStringLiteral("lab-srv");
    h.address = test::LabSession::serverAddress();
    h.port = quint16(port);
    plan.hosts = {h};
    plan.protocols = {protocol};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 6000;
    plan.params.streams = 16;
    plan.params.options.insert(LatencyRecorder::idleOption(), 3000);
    // Up to two runs: on a starved machine (the clean-clone CI of 2026-12-03 beside a build: 80 Mbit/s of the
    // 98, ping up to 8 ms) the echo's answer can wait for a core on top of the queue (+3.3 ms at 40 ms). A run
    // within 3 ms of idle + queue ends the loop; the assertions below hold for the last run.
    RunResult r;
    for (int attempt = 1; attempt <= 2; ++attempt) {
        const RunResultList results = test::runPlanToEnd(plan, 90000); // the engine's thread: the client's namespace
        QCOMPARE(results.size(), 1);
        r = results.first();
        QVERIFY2(r.ok(), qPrintable(r.error));
        const RunLatency &l = r.latency;
        qInfo("attempt %d, %s: %.1f Mbit/s; ping %s", attempt, qPrintable(protocol), r.megabitsPerSecond(),
              qPrintable(pingLine));
        qInfo("%s", qPrintable(Bufferbloat::figures(l)));
        qInfo("idle median %.3f ms vs ping avg %.3f ms (%+.3f ms); loaded median %.3f ms vs idle + queue %.3f ms "
              "(%+.3f ms)",
              l.idle.medianMs, pingMs, l.idle.medianMs - pingMs, l.loaded.medianMs, l.idle.medianMs + queueMs,
              l.loaded.medianMs - (l.idle.medianMs + queueMs));
        if (qAbs(l.loaded.medianMs - (l.idle.medianMs + queueMs)) <= 3.0)
            break;
    }
    const RunLatency &l = r.latency;
    QCOMPARE(l.method, method);
    QVERIFY2(l.idle.count >= 20 && l.loaded.count >= 40, qPrintable(Bufferbloat::figures(l)));
    QVERIFY2(qAbs(l.idle.medianMs - pingMs) <= 1.0, qPrintable(Bufferbloat::figures(l)));
    QVERIFY2(qAbs(l.loaded.medianMs - (l.idle.medianMs + queueMs)) <= 3.0, qPrintable(Bufferbloat::figures(l)));
    // The graded words: 20 ms is a note beside the figures, not a warning; 40 ms is a warning.
    QStringList bloat;
    for (const QString &w : r.warnings) {
        if (w.startsWith(QStringLiteral("the queue on the path adds ")))
            bloat << w;
    }
    if (queue < Bufferbloat::kWarnMs) {
        QCOMPARE(int(Bufferbloat::gradeOf(l)), int(Bufferbloat::Grade::Note));
        QVERIFY2(bloat.isEmpty(), qPrintable(bloat.join(QStringLiteral(" | "))));
        QVERIFY2(Bufferbloat::note(l).startsWith(QStringLiteral("the queue on the path adds ")),
                 qPrintable(Bufferbloat::figures(l)));
    } else {
        QCOMPARE(int(Bufferbloat::gradeOf(l)), int(Bufferbloat::Grade::Warning));
        QCOMPARE(bloat.size(), 1);
        QCOMPARE(bloat.first(), Bufferbloat::warning(l));
    }
}

QTEST_GUILESS_MAIN(TestLatencyLab)
#include "TestLatencyLab.moc"
