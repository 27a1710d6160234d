#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "model/Streams.h"
#include "plan/TestPlan.h"
#include "support/EngineRun.h"

#include <QProcess>
#include <QTest>

using namespace wb;

// Parallel streams through the lab (issue 16, part 1): a line that one stream cannot fill, and four streams that
// fill it, against the real iperf3 -P 4 in the same lab.
//
// Why a per-flow limit and not a long path: this kernel has no netem (only tbf, htb and the fifos), so a delay
// cannot be added, and on the lab's veths a window-limited stream never lacks for round trips. What a stream cannot
// pass here is a per-flow limit, as a cloud's per-flow cap or the member of a bonded link a flow hashes to: the
// router between client and server (lab.sh up --router) gives each TCP flow an htb class of 40% of the line, told
// apart by the client's port, and the client's ports are 16 (40000-40015, net.ipv4.ip_local_port_range in the
// client's namespace), so each of the streams of one test, which share the server's address and port, has a class
// of its own. The line itself is lab.sh's shaper at the client's and the server's end (100 Mbit/s at MTU 1500:
// theory R*(M-52)/(M+38)/8 bytes/s). One stream reaches about 40% of it; four reach it. Every figure is printed.
//
// Tolerance, as TestFrameAccuracy: best of up to 3 attempts; above the theory the limit is strict (1%); 4 streams
// must reach 99% of the ceiling, or, when iperf3 -P 4 in the same lab right after cannot either (a starved machine),
// come within 1 point of it.
class TestParallelStreams : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void oneStreamCannotFill();
    void fourStreamsFill_data();
    void fourStreamsFill();

private:
    QString lab(const QStringList &args, bool *ok = nullptr) { return m_lab->run(args, ok); }
    void capEachFlow(const QString &device, const char *portSide);
    RunResult runOnce(const QString &protocol, int streams);

    std::unique_ptr<test::LabSession> m_lab;
    static constexpr double kTheory = 1e8 * (1500 - 52) / (1500 + 38) / 8; // 100 Mbit/s, MTU 1500
    static constexpr int kFirstPort = 40000;
    static constexpr int kPorts = 16;
};

void TestParallelStreams::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString daemon = test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"));
    const QString missing
        = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd")}, {QStringLiteral("iperf3")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    m_lab = std::make_unique<test::LabSession>(test::LabBench::labScript(), QStringLiteral("ps"));
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("100mbit"), &why, {QStringLiteral("--router")}), qPrintable(why));
    bool ok = false;
    const QString ports
        = lab({QStringLiteral("exec"), QStringLiteral("cli"), QStringLiteral("sysctl"), QStringLiteral("-qw"),
               QStringLiteral("net.ipv4.ip_local_port_range=%1 %2").arg(kFirstPort).arg(kFirstPort + kPorts - 1),
               QStringLiteral("net.ipv4.tcp_tw_reuse=1")},
              &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("cannot narrow the client's ports: ") + ports));
    capEachFlow(QStringLiteral("wbt-") + m_lab->id(), "sport"); // towards the server: the client's port is the source
    capEachFlow(QStringLiteral("wbr-") + m_lab->id(), "dport"); // towards the client: it is the destination
    const QString served = test::LabBench::serveAll(
        *m_lab, {{QStringLiteral("wirebenchd"), daemon, QStringLiteral("--open")}, {QStringLiteral("iperf3")}});
    QVERIFY2(served.isEmpty(), qPrintable(served));
    QVERIFY2(m_lab->enterClient(&why), qPrintable(why));
}

void TestParallelStreams::cleanupTestCase()
{
    m_lab.reset(); // back to our own namespace first: "lab.sh down" kills every process inside the lab
}

// An htb on the router's interface: each of the client's ports its own class of 40 Mbit/s, the rest unlimited.
void TestParallelStreams::capEachFlow(const QString &device, const char *portSide)
{
    auto tc = [&](const QString &args) {
        bool ok = false;
        const QString out = lab(QStringList{QStringLiteral("exec"), QStringLiteral("rtr"), QStringLiteral("tc")}
                                    + args.split(QLatin1Char(' ')),
                                &ok);
        QVERIFY2(ok, qPrintable(QStringLiteral("tc %1: %2").arg(args, out)));
    };
    tc(QStringLiteral("qdisc replace dev %1 root handle 1: htb default 99").arg(device));
    tc(QStringLiteral("class add dev %1 parent 1: classid 1:1 htb rate 10gbit").arg(device));
    tc(QStringLiteral("class add dev %1 parent 1:1 classid 1:99 htb rate 10gbit").arg(device));
    for (int k = 0; k < kPorts; ++k) {
        const int port = kFirstPort + k;
        tc(QStringLiteral("class add dev %1 parent 1:1 classid 1:%2 htb rate 40mbit ceil 40mbit burst 64k cburst 64k")
               .arg(device)
               .arg(100 + k));
        tc(QStringLiteral("filter add dev %1 parent 1: protocol ip prio 1 u32 match ip protocol 6 0xff match ip %2 %3 "
                          "0xffff flowid 1:%4")
               .arg(device, QLatin1String(portSide))
               .arg(port)
               .arg(100 + k));
    }
}

RunResult TestParallelStreams::runOnce(const QString &protocol, int streams)
{
    TestPlan plan;
    Host h;
    h.name = QStringLiteral("lab-srv");
    h.address = test::LabSession::serverAddress();
    h.port = 5301;
    h.linkSpeedMbps = 100;
    plan.hosts = {h};
    plan.protocols = {protocol};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 3000;
    plan.params.streams = streams;
    const RunResultList results = test::runPlanToEnd(plan, 60000); // the engine's thread: the client's namespace
    return results.isEmpty() ? RunResult() : results.first();
}

void TestParallelStreams::oneStreamCannotFill()
{
    const RunResult r = runOnce(QStringLiteral("tcp-send"), 1);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const double ratio = r.bytesPerSecond() / kTheory;
    qInfo("tcp-send, 1 stream: %.3f MB/s, %.1f%% of the ceiling (theory %.3f MB/s: %.4f)", r.megabytesPerSecond(),
          r.extra.value(QStringLiteral("percent_of_ceiling")).toDouble(), kTheory / 1e6, ratio);
    QVERIFY2(ratio < 0.5,
             qPrintable(QStringLiteral("one stream reached %1 of the line: the per-flow limit is not there")
                            .arg(ratio, 0, 'f', 4)));
    const double iperf = test::LabSession::iperf3Ratio(false, kTheory, 3);
    qInfo("iperf3, 1 stream, same lab: %.4f of the theory", iperf);
}

void TestParallelStreams::fourStreamsFill_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::newRow("tcp-send, 4 streams") << QStringLiteral("tcp-send");
    QTest::newRow("tcp-recv, 4 streams") << QStringLiteral("tcp-recv");
}

void TestParallelStreams::fourStreamsFill()
{
    QFETCH(QString, protocol);
    const bool reverse = protocol == QLatin1String("tcp-recv");
    RunResult best;
    double ratio = 0;
    double reference = 0;
    bool besideIperf3 = false; // an attempt within 1 point of the iperf3 -P 4 run right after it (same conditions)
    for (int attempt = 1; attempt <= 3; ++attempt) {
        const RunResult r = runOnce(protocol, 4);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(Streams::of(r), 4);
        const double got = r.bytesPerSecond() / kTheory;
        const double iperf = test::LabSession::iperf3Ratio(reverse, kTheory, 3, 4);
        qInfo("%s, 4 streams, attempt %d: %.3f MB/s, %.2f%% of the ceiling (theory %.3f MB/s: %.4f), streams %s; "
              "iperf3 -P 4%s right after: %.4f",
              qPrintable(protocol), attempt, r.megabytesPerSecond(),
              r.extra.value(QStringLiteral("percent_of_ceiling")).toDouble(), kTheory / 1e6, got,
              qPrintable(r.extra.value(QStringLiteral("stream_bytes")).toStringList().join(QLatin1Char('/'))),
              reverse ? " -R" : "", iperf);
        QVERIFY2(got <= 1.01,
                 qPrintable(QStringLiteral("%1 MB/s is above the line").arg(r.megabytesPerSecond(), 0, 'f', 3)));
        reference = qMax(reference, iperf);
        besideIperf3 = besideIperf3 || got >= qMin(0.99, iperf - 0.01);
        if (got > ratio) {
            ratio = got;
            best = r;
        }
        if (ratio >= 0.99)
            break;
    }
    // The app's own judgement says the same: within 1% of its ceiling, nothing to warn about.
    const double percent = best.extra.value(QStringLiteral("percent_of_ceiling")).toDouble();
    if (ratio >= 0.99) {
        QVERIFY2(percent >= 99, qPrintable(QString::number(percent)));
        QVERIFY2(best.warnings.isEmpty(), qPrintable(best.warnings.join(QLatin1Char('\n'))));
        return;
    }
    QVERIFY2(reference > 0,
             "iperf3 -P 4 (the reference when the machine is too busy for the lab's theory) did not run");
    // Each attempt is judged beside the iperf3 run right after it: the lab's 4 streams through tbf vary by a few
    // points from run to run for both tools (94.7-99.8% seen in one CI run), so the best of 3 against iperf3's best
    // of 3 compares two maxima of noise.
    QVERIFY2(
        besideIperf3,
        qPrintable(QStringLiteral("no attempt within 1 point of the iperf3 -P 4 run right after it; best of 3 with 4 "
                                  "streams: %1 of the theory, iperf3 -P 4 best %2")
                       .arg(ratio, 0, 'f', 4)
                       .arg(reference, 0, 'f', 4)));
}

QTEST_GUILESS_MAIN(TestParallelStreams)
#include "TestParallelStreams.moc"
