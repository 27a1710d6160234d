#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "analysis/FramePlanCheck.h"
#include "analysis/InterfaceMtu.h"
#include "analysis/SocketDiag.h"
#include "engine/Engine.h"
#include "support/EngineRun.h"
#include "plan/TestPlan.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace wb;

// Frame sizes for real, through the two-namespace lab (tests/lab/lab.sh): the built wirebenchd serves in
// the server namespace; this process's main thread joins the client namespace with setns(2), so the
// engine thread it starts afterwards (threads inherit the namespace of their creator) sends there.
// Compared with the theory of an Ethernet line of rate R at MTU M: R*(M-52)/(M+38)/8 bytes/s (TCP with
// timestamps), which the lab's tbf shaper models exactly (docs/FRAMES.md).
//
// Tolerance: the target is 1%. Above the theory the limit is strict (1%). Below it the assertion allows 2%
// for the best of up to 5 attempts, because the machine is shared by many builds and tests (load averages
// of 20 on 2 cores were seen) and a starved receiver can only lose throughput. After an attempt more than
// 2% low, iperf3 runs through the same lab at once as the reference: when the best Wirebench attempt is
// still more than 2% low, one attempt must come within 1 point of an iperf3 run next to it (the lab
// cannot reach its theory on this machine right now).
// Every ratio is printed.
class TestFrameAccuracy : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void goodputMatchesTheory_data();
    void goodputMatchesTheory();
    void jumboOnA1500PathIsNotRun();
    void smallerServerMtuIsNamed();
    void engineBytesMatchInterfaceCounters();
    void socketDiagSeesLabMss();
    void interfaceMtuSetterInLab();

private:
    QString lab(const QStringList &args, bool *ok = nullptr) { return m_lab->run(args, ok); }
    void setLab(int mtu, const QString &rate);
    RunResultList runPlan(const QString &protocol, int frame, int durationMs, const QVariantMap &options = {});
    qint64 srvCounter(const QString &name);
    Host labHost() const;

    std::unique_ptr<test::LabSession> m_lab;
    QString m_id;
};

void TestFrameAccuracy::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString daemon = test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"));
    const QString missing = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd")},
                                                    {QStringLiteral("ethtool"), QStringLiteral("iperf3")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));

    m_lab = std::make_unique<test::LabSession>(test::LabBench::labScript(), QStringLiteral("fa"));
    m_id = m_lab->id();
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("1gbit"), &why), qPrintable(why));
    bool ok = false;
    // The lab is private to this test: no key (--open, where this wirebenchd asks for keys at all).
    QProcess help;
    help.start(daemon, {QStringLiteral("--help")});
    help.waitForFinished(10000);
    QStringList serve{QStringLiteral("serve"), QStringLiteral("wirebenchd"), daemon};
    if (help.readAll().contains("--open"))
        serve << QStringLiteral("--open");
    const QString served = lab(serve, &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("wirebenchd did not start in the lab: ") + served));
    const QString iperf = lab({QStringLiteral("serve"), QStringLiteral("iperf3")}, &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("iperf3 -s (the reference) did not start in the lab: ") + iperf));

    QVERIFY2(m_lab->enterClient(&why), qPrintable(why));
}

void TestFrameAccuracy::cleanupTestCase()
{
    m_lab.reset(); // back to our own namespace first: "lab.sh down" kills every process inside the lab
}

Host TestFrameAccuracy::labHost() const
{
    Host h;
    h.name = QStringLiteral("lab-srv");
    h.address = QStringLiteral("10.231.0.2");
    h.port = 5301;
    h.linkSpeedMbps = m_lab->speedMbps();
    return h;
}

void TestFrameAccuracy::setLab(int mtu, const QString &rate)
{
    QString why;
    QVERIFY2(m_lab->setLine(mtu, rate, &why), qPrintable(why));
}

RunResultList TestFrameAccuracy::runPlan(const QString &protocol, int frame, int durationMs, const QVariantMap &options)
{
    TestPlan plan;
    plan.hosts = {labHost()};
    plan.protocols = {protocol};
    plan.frameSizes = {frame};
    plan.repetitions = 1;
    plan.params.durationMs = durationMs;
    plan.params.options = options;
    return test::runPlanToEnd(plan, durationMs + 60000); // the engine's thread: the client's namespace
}

qint64 TestFrameAccuracy::srvCounter(const QString &name)
{
    bool ok = false;
    const QString out = lab({QStringLiteral("exec"), QStringLiteral("srv"), QStringLiteral("cat"),
                             QStringLiteral("/sys/class/net/wbs-%1/statistics/%2").arg(m_id, name)},
                            &ok);
    return ok ? out.toLongLong() : -1;
}

void TestFrameAccuracy::goodputMatchesTheory_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<int>("mtu");
    QTest::addColumn<QString>("rate");
    QTest::addColumn<double>("rateBps");
    for (const char *proto : {"tcp-send", "tcp-recv"}) {
        const QString p = QLatin1String(proto);
        QTest::addRow("%s 1 Gbit/s MTU 1500", proto) << p << 1500 << QStringLiteral("1gbit") << 1e9;
        QTest::addRow("%s 1 Gbit/s MTU 9000", proto) << p << 9000 << QStringLiteral("1gbit") << 1e9;
        QTest::addRow("%s 100 Mbit/s MTU 1500", proto) << p << 1500 << QStringLiteral("100mbit") << 1e8;
    }
}

void TestFrameAccuracy::goodputMatchesTheory()
{
    QFETCH(QString, protocol);
    QFETCH(int, mtu);
    QFETCH(QString, rate);
    QFETCH(double, rateBps);
    setLab(mtu, rate);
    const double theory = rateBps * (mtu - 52) / (mtu + 38) / 8;
    // Noise on a shared machine (other builds starving this process or the veth's softirq) can only lower
    // a figure, never raise it above the line: up to 5 attempts, the best one counts; above is strict.
    // After an attempt more than 2% low, iperf3 runs through the same lab at once, as the reference. On a machine
    // whose steal moves iperf3's own runs by 2-5 points from one to the next (bench/lab_accuracy.sh REPS=4 on
    // 2026-12-03: iperf3 0.929-0.992 of the theory at load 0), three attempts each 1 point beside its reference
    // were not enough: the clean-clone CI of stop 27 had gaps of 2.5, 1.6 and 1.6 points.
    RunResult r;
    double ratio = 0;
    double reference = 0;
    bool besideIperf3 = false; // an attempt within 1 point of an iperf3 run next to it (right before or after)
    double previousRef = 0;    // the iperf3 run right before this attempt (after the one before)
    for (int attempt = 1; attempt <= 5; ++attempt) {
        const RunResultList results = runPlan(protocol, mtu, 3000);
        QCOMPARE(results.size(), 1);
        const RunResult &got = results.first();
        QVERIFY2(got.ok(), qPrintable(got.error));
        const double gotRatio = got.bytesPerSecond() / theory;
        qInfo("%s at %s, MTU %d, attempt %d: %.3f MB/s measured, theory %.3f MB/s, ratio %.4f, MSS %d bytes (%s), "
              "path MTU %s bytes, %s retransmissions",
              qPrintable(protocol), qPrintable(rate), mtu, attempt, got.megabytesPerSecond(), theory / 1e6, gotRatio,
              got.mss, qPrintable(got.extra.value(QStringLiteral("mss_source")).toString()),
              qPrintable(got.extra.value(QStringLiteral("path_mtu")).toString()),
              qPrintable(got.extra.value(QStringLiteral("retransmits"), QStringLiteral("?")).toString()));
        QVERIFY2(gotRatio <= 1.01,
                 qPrintable(QStringLiteral("%1 MB/s is above the theoretical %2 MB/s of the line")
                                .arg(got.megabytesPerSecond(), 0, 'f', 3)
                                .arg(theory / 1e6, 0, 'f', 3)));
        if (gotRatio > ratio) {
            ratio = gotRatio;
            r = got;
        }
        if (ratio >= 0.98)
            break;
        const double ref = test::LabSession::iperf3Ratio(protocol == QLatin1String("tcp-recv"), theory, 3);
        qInfo("reference: iperf3 through the same lab right after: ratio %.4f of the theory", ref);
        reference = qMax(reference, ref);
        besideIperf3 = besideIperf3 || gotRatio >= qMin(0.98, qMin(ref, previousRef > 0 ? previousRef : ref) - 0.01);
        previousRef = ref;
        if (besideIperf3)
            break;
    }
    QCOMPARE(r.mss, mtu - 52); // with TCP timestamps
    QCOMPARE(r.extra.value(QStringLiteral("path_mtu")).toInt(), mtu);
    QCOMPARE(r.extra.value(QStringLiteral("interface_mtu")).toInt(), mtu);
    QCOMPARE(r.extra.value(QStringLiteral("interface")).toString(), QStringLiteral("wbc-") + m_id);
    QCOMPARE(r.extra.value(QStringLiteral("link_speed_Mbps")).toDouble(), rateBps / 1e6);
    if (ratio >= 0.98)
        return;
    // More than 2% low: if iperf3 cannot reach the theory either, the lab cannot right now on this
    // machine; Wirebench must then come within 1 point of iperf3's best.
    QVERIFY2(reference > 0, "iperf3 (the reference when the machine is too busy for the lab's theory) did not run");
    // Each attempt beside the iperf3 run right after it, in the same conditions (not the best of 3 against
    // iperf3's best of 3: two maxima of the busy machine's noise).
    QVERIFY2(besideIperf3,
             qPrintable(QStringLiteral(
                            "no attempt within 1 point of the iperf3 runs next to it; best of 5: %1 MB/s is "
                            "%2% from the theoretical %3 MB/s (tolerance 2%), while iperf3 reached %4% of it at best")
                            .arg(r.megabytesPerSecond(), 0, 'f', 3)
                            .arg((ratio - 1) * 100, 0, 'f', 2)
                            .arg(theory / 1e6, 0, 'f', 3)
                            .arg(reference * 100, 0, 'f', 2)));
    qInfo("the lab missed its theory on this busy machine: Wirebench %.2f%%, iperf3 %.2f%% of it", ratio * 100,
          reference * 100);
}

void TestFrameAccuracy::jumboOnA1500PathIsNotRun()
{
    setLab(1500, QStringLiteral("1gbit"));
    // The plan view's check, before anything runs.
    const HostFrameCheck check = FramePlanCheck::check(labHost(), {1500, 9000});
    QCOMPARE(check.link.pathMtu, 1500);
    QCOMPARE(check.link.interfaceMtu, 1500);
    QVERIFY(check.frames.at(0).ok);
    QVERIFY(!check.frames.at(1).ok);
    qInfo("plan check: %s; 9000: %s", qPrintable(check.linkSummary()), qPrintable(check.frames.at(1).reason));

    const qint64 before = srvCounter(QStringLiteral("rx_packets"));
    const RunResultList results = runPlan(QStringLiteral("tcp-send"), 9000, 2000);
    QCOMPARE(results.size(), 1);
    const RunResult &r = results.first();
    QCOMPARE(r.status, RunStatus::NotRun);
    QVERIFY2(
        r.error.contains(QStringLiteral("jumbo frames are not enabled end to end: path MTU to lab-srv (10.231.0.2) "
                                        "is 1500 bytes")),
        qPrintable(r.error));
    QCOMPARE(r.bytes, 0);
    QVERIFY(r.samples.isEmpty());
    QCOMPARE(r.extra.value(QStringLiteral("path_mtu")).toInt(), 1500);
    // No driver ran: nothing (beyond stray neighbour discovery) reached the server.
    const qint64 after = srvCounter(QStringLiteral("rx_packets"));
    QVERIFY2(after - before < 5, qPrintable(QStringLiteral("%1 packets reached the server").arg(after - before)));
}

void TestFrameAccuracy::smallerServerMtuIsNamed()
{
    // Our end at 9000, the server's at 1500: our path MTU is 9000, so the run goes ahead, and the server's MSS
    // (1460) makes the frames 1500 B. wirebenchd's hello says its interface's MTU, so the sentence names it.
    setLab(9000, QStringLiteral("1gbit"));
    bool ok = false;
    lab({QStringLiteral("exec"), QStringLiteral("srv"), QStringLiteral("ip"), QStringLiteral("link"),
         QStringLiteral("set"), QStringLiteral("dev"), QStringLiteral("wbs-") + m_id, QStringLiteral("mtu"),
         QStringLiteral("1500")},
        &ok);
    QVERIFY(ok);
    m_lab->forgetMtu(); // the lab is no longer symmetric: the next setLab() sets both ends again
    const RunResultList results = runPlan(QStringLiteral("tcp-send"), 9000, 1000);
    QCOMPARE(results.size(), 1);
    const RunResult &r = results.first();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.mss, 1448);
    QCOMPARE(r.extra.value(QStringLiteral("remote_interface_mtu")).toInt(), 1500);
    const QString expected
        = QStringLiteral("tcp-send @ 9000 B frame ran with 1500 B frames (MSS 1448 B), so it is labelled "
                         "and judged by 1500 B: the server's interface has MTU 1500 B, so it announced "
                         "a smaller MSS: enable 9000 B frames on lab-srv (its interface and every "
                         "switch between), or plan 1500 B");
    QVERIFY2(r.warnings.contains(expected), qPrintable(r.warnings.join(QLatin1Char('\n'))));
}

void TestFrameAccuracy::engineBytesMatchInterfaceCounters()
{
    setLab(1500, QStringLiteral("1gbit"));
    // One packet per segment, so that each carries one header: TSO/GSO off on the sending end.
    bool ok = false;
    const QString ifc = QStringLiteral("wbc-") + m_id;
    lab({QStringLiteral("exec"), QStringLiteral("cli"), QStringLiteral("ethtool"), QStringLiteral("-K"), ifc,
         QStringLiteral("tso"), QStringLiteral("off"), QStringLiteral("gso"), QStringLiteral("off")},
        &ok);
    QVERIFY2(ok, "ethtool -K tso off gso off failed on the lab's client end");
    const qint64 bytes0 = srvCounter(QStringLiteral("rx_bytes"));
    const qint64 pkts0 = srvCounter(QStringLiteral("rx_packets"));
    const RunResultList results = runPlan(QStringLiteral("tcp-send"), 1500, 3000);
    const qint64 bytes1 = srvCounter(QStringLiteral("rx_bytes"));
    const qint64 pkts1 = srvCounter(QStringLiteral("rx_packets"));
    lab({QStringLiteral("exec"), QStringLiteral("cli"), QStringLiteral("ethtool"), QStringLiteral("-K"), ifc,
         QStringLiteral("tso"), QStringLiteral("on"), QStringLiteral("gso"), QStringLiteral("on")});
    QCOMPARE(results.size(), 1);
    const RunResult &r = results.first();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(bytes0 >= 0 && bytes1 > bytes0);
    // Each frame the server's veth received: Ethernet header 14 + IPv4 20 + TCP 20 + timestamps 12 = 66 bytes.
    const qint64 packets = pkts1 - pkts0;
    const qint64 payload = (bytes1 - bytes0) - packets * 66;
    const qint64 engineBytes = r.senderBytes > 0 ? r.senderBytes : r.bytes;
    const double agreement = double(engineBytes) / double(payload);
    qInfo("interface counters: %lld bytes in %lld frames on wbs-%s = %lld payload bytes; engine: receiver %lld bytes, "
          "sender %lld bytes; sender/payload %.5f, receiver/payload %.5f",
          bytes1 - bytes0, packets, qPrintable(m_id), payload, r.bytes, r.senderBytes, agreement,
          double(r.bytes) / double(payload));
    // What the interface carried beyond the data: the control connection's few messages and handshakes.
    QVERIFY2(qAbs(agreement - 1.0) < 0.001,
             qPrintable(QStringLiteral("engine/interface = %1").arg(agreement, 0, 'f', 5)));
    QVERIFY(r.bytes <= payload);
}

void TestFrameAccuracy::socketDiagSeesLabMss()
{
    setLab(9000, QStringLiteral("1gbit"));
    // A plain connection to wirebenchd's control port: the MSS sock_diag reports is the negotiated one.
    QTcpSocket s;
    s.connectToHost(QStringLiteral("10.231.0.2"), 5301);
    QVERIFY2(s.waitForConnected(10000), qPrintable(s.errorString()));
    QString error;
    TcpSocketDiag found;
    const int mss = SocketDiag::observedMss(QStringLiteral("10.231.0.2"), 5301, true, &error, &found);
    s.abort();
    QVERIFY2(mss > 0, qPrintable(error));
    qInfo("sock_diag: MSS %d bytes on %s:%d -> 10.231.0.2:5301, timestamps %s", mss, qPrintable(found.local.toString()),
          found.localPort, found.timestamps ? "on" : "off");
    QCOMPARE(mss, found.timestamps ? 8948 : 8960);
}

void TestFrameAccuracy::interfaceMtuSetterInLab()
{
    setLab(1500, QStringLiteral("1gbit"));
    const QString cliIf = QStringLiteral("wbc-") + m_id;
    // The far end already carries 9000; only our end is at 1500.
    bool ok = false;
    lab({QStringLiteral("exec"), QStringLiteral("srv"), QStringLiteral("ip"), QStringLiteral("link"),
         QStringLiteral("set"), QStringLiteral("dev"), QStringLiteral("wbs-") + m_id, QStringLiteral("mtu"),
         QStringLiteral("9000")},
        &ok);
    QVERIFY(ok);
    m_lab->forgetMtu(); // the lab is no longer symmetric: the next setLab() sets both ends again
    QTemporaryDir dir;
    qputenv("WIREBENCH_MTU_STATE", dir.filePath(QStringLiteral("mtu.json")).toLocal8Bit());

    // Without the option the local interface limits the frame size.
    RunResultList results = runPlan(QStringLiteral("tcp-send"), 9000, 1000);
    QCOMPARE(results.size(), 1);
    QCOMPARE(results.first().status, RunStatus::NotRun);
    QVERIFY2(results.first().error.contains(QStringLiteral("MTU")), qPrintable(results.first().error));

    // With it (root, inside the lab only): set to 9000 for the run, restored after the plan.
    results = runPlan(QStringLiteral("tcp-send"), 9000, 1000, {{FramePlanCheck::setInterfaceMtuOption(), true}});
    QCOMPARE(results.size(), 1);
    const RunResult &r = results.first();
    QVERIFY2(r.ok(), qPrintable(r.error + QLatin1Char(' ') + r.warnings.join(QLatin1Char(' '))));
    QCOMPARE(r.mss, 8948);
    QCOMPARE(r.extra.value(QStringLiteral("interface_mtu")).toInt(), 9000);
    QCOMPARE(InterfaceMtu::current(cliIf), 1500);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("mtu.json"))));

    // The app died with the MTU changed: the next start puts it back from the state file.
    {
        InterfaceMtu m(dir.filePath(QStringLiteral("mtu.json")));
        QString e;
        QVERIFY2(m.apply(cliIf, 9000, &e), qPrintable(e));
        QCOMPARE(InterfaceMtu::current(cliIf), 9000);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("mtu.json"))));
        QFile::copy(dir.filePath(QStringLiteral("mtu.json")), dir.filePath(QStringLiteral("died.json")));
    } // (the destructor restores; the copy stands for the file a killed process leaves)
    QString e;
    QVERIFY2(InterfaceMtu::set(cliIf, 9000, &e), qPrintable(e));
    const QStringList lines = InterfaceMtu::restoreLeftovers(dir.filePath(QStringLiteral("died.json")));
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines.first().contains(QStringLiteral("restored the MTU of %1 to 1500").arg(cliIf)),
             qPrintable(lines.first()));
    QCOMPARE(InterfaceMtu::current(cliIf), 1500);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("died.json"))));
    qunsetenv("WIREBENCH_MTU_STATE");
}

QTEST_GUILESS_MAIN(TestFrameAccuracy)
#include "TestFrameAccuracy.moc"
