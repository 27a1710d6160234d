#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "analysis/Ceiling.h"
#include "latency/LatencyRecorder.h"
#include "plan/TestPlan.h"
#include "support/EngineRun.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <utility>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace wb;

// Both directions at once (issue 16, part 2) through the lab, against the real iperf3 at both ends.
//
// The line: 100 Mbit/s at MTU 1500, full duplex, each end's egress its own shaper. Unlike the other lab tests the
// shaper counts what each frame takes on a real wire, because here the ACKs matter: a bidirectional run carries one
// direction's data and the other direction's ACKs on the same wire. So segmentation and GRO are off on both veth
// ends (each packet the qdisc sees is one frame, each ACK its own) and tbf runs at the line rate with an overhead of
// 24 bytes a packet (FCS 4, preamble 8, gap 12 on top of the 14-byte header the qdisc sees): a 1514-byte data
// frame takes 1538 bytes of the line, an ACK (66 bytes) 90. What each direction can then carry while the other
// direction's ACKs (one per two segments) share it is Ceiling::tcpGoodputBothWays: 12.5e6 x 1448 / 1583 =
// 11.434 MB/s, 97.2% of one direction alone. The kernel acknowledges more often than every second segment at
// times (a window update after a read, quick ACKs), so the test counts the segments each end really sent (its
// namespace's OutSegs, less its data segments: its ACKs) and holds each direction to the ceiling at that ratio, by
// the same rule. Every figure is printed.
//
// The second lab bounds the sum instead: the client's one interface, both its egress and its ingress, goes
// through one shaper (an ifb with the same tbf), as a half-duplex link or a shared medium would. The two
// directions then share one direction's worth, and the app says so.
//
// Both directions load the line from the start, so each direction's ACKs wait in the other direction's queue: the
// first two seconds (the streams' start at a round trip of a quarter of a second) are left out, ours and iperf3's.
//
// Tolerance: up to 3 attempts, as the other lab tests. Each direction within 1% of its ceiling, and at least what
// the real iperf3 --bidir pair moves in the same lab right after (within 0.2%, the difference of two consecutive
// iperf3 runs here); when that pair cannot reach 99% either (a starved machine), within 1 point of it.
class TestBidirLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void fullDuplexEachWay();
    void ourIperf3BidirAgainstRealServer();
    void realClientAgainstWirebenchdsIperf3Port();
    void sharedShaperBoundsTheSum();
    void healthyAtHigherRates_data();
    void healthyAtHigherRates();

private:
    QString lab(const QStringList &args, bool *ok = nullptr) { return m_lab->run(args, ok); }
    void inNamespace(const QString &ns, const QString &command);
    void shapeForTheWire(const QString &ns, const QString &device);
    /// idleMs >= 0: the latency probe's idle lead (latency.idle_ms; 0 turns the probe off).
    RunResult runOnce(const QString &protocol, quint16 port, int warmupMs = 0, int idleMs = -1,
                      double linkMbps = kLineMbps);
    static QString verdictOf(const RunResult &r)
    {
        const QString verdict = r.extra.value(QStringLiteral("bottleneck")).toString();
        qInfo("verdict: %s", qPrintable(verdict));
        return verdict;
    }
    /// TCP segments one end has sent so far (its namespace's OutSegs, retransmissions not among them).
    qint64 outSegments(const QString &ns)
    {
        const QStringList lines
            = lab({QStringLiteral("exec"), ns, QStringLiteral("cat"), QStringLiteral("/proc/net/snmp")})
                  .split(QLatin1Char('\n'))
                  .filter(QStringLiteral("Tcp: "));
        if (lines.size() < 2)
            return -1;
        const qsizetype column = lines.at(0).split(QLatin1Char(' ')).indexOf(QStringLiteral("OutSegs"));
        return lines.at(1).split(QLatin1Char(' ')).value(column).toLongLong();
    }
    /// What one direction carries while the other's ACKs share its wire, for `acksPerSegment` ACKs (the far
    /// direction's, sent on this wire) per data segment: Ceiling::tcpGoodputBothWays' rule, its frame sizes taken from
    /// its figures at one and at two segments per ACK.
    double ceilingAt(double acksPerSegment) const
    {
        const double perByte = kLineMbps * 1e6 / 8 * 1448;
        const double oneAckEach = perByte / Ceiling::tcpGoodputBothWays(kLineMbps, 1448, false, true, 1);
        const double halfAckEach = perByte / Ceiling::tcpGoodputBothWays(kLineMbps, 1448, false, true, 2);
        const double ack = 2 * (oneAckEach - halfAckEach);
        const double data = halfAckEach - ack / 2;
        return perByte / (data + ack * acksPerSegment);
    }
    /// What a server that "lab.sh serve" started has written so far.
    QByteArray serverLog(const QString &name) const
    {
        QFile f(QStringLiteral("/run/wirebench-lab/%1/%2.log").arg(m_lab->id(), name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    /// iperf3 -c --bidir from the client namespace: each direction's receiver count (MB/s: send, receive).
    static QPair<double, double> realIperf3Pair(int seconds, int omitSeconds);

    std::unique_ptr<test::LabSession> m_lab;
    static constexpr double kLineMbps = 100;
    // Each direction's ACKs queue behind the other direction's data (the line's 1000-frame queue, 121 ms at 100
    // Mbit/s), so a stream's round trip is a quarter of a second and its start takes a second or two: left out,
    // at both ends (iperf3 -O 2), as a run on such a path would.
    static constexpr int kWarmupMs = 2000;
    const double m_ceiling = Ceiling::tcpGoodputBothWays(kLineMbps, 1448, false, true);
};

void TestBidirLab::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString daemon = test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"));
    const QString missing = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd")},
                                                    {QStringLiteral("iperf3"), QStringLiteral("ethtool")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    m_lab = std::make_unique<test::LabSession>(test::LabBench::labScript(), QStringLiteral("bd"));
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("100mbit"), &why), qPrintable(why));
    shapeForTheWire(QStringLiteral("cli"), m_lab->clientInterface());
    shapeForTheWire(QStringLiteral("srv"), m_lab->serverInterface());
    const QString served = test::LabBench::serveAll(
        *m_lab,
        {{QStringLiteral("wirebenchd"), daemon, QStringLiteral("--iperf3-port"), QStringLiteral("5203")},
         {QStringLiteral("iperf3")}});
    QVERIFY2(served.isEmpty(), qPrintable(served));
    QVERIFY2(m_lab->enterClient(&why), qPrintable(why));
    qInfo("each direction's ceiling while the other's ACKs share the wire: %.4f MB/s (one direction alone %.4f MB/s: "
          "%.2f%%)",
          m_ceiling / 1e6, Ceiling::tcpGoodputForMss(kLineMbps, 1448, false, true) / 1e6,
          Ceiling::percentOf(m_ceiling, Ceiling::tcpGoodputForMss(kLineMbps, 1448, false, true)));
}

void TestBidirLab::cleanupTestCase()
{
    m_lab.reset(); // back to our own namespace first: "lab.sh down" kills every process inside the lab
}

void TestBidirLab::inNamespace(const QString &ns, const QString &command)
{
    bool ok = false;
    const QString out = lab(QStringList{QStringLiteral("exec"), ns} + command.split(QLatin1Char(' ')), &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("%1 in %2: %3").arg(command, ns, out)));
}

// One packet a frame, and tbf counting each frame as the wire does (see the head of this file).
void TestBidirLab::shapeForTheWire(const QString &ns, const QString &device)
{
    inNamespace(ns, QStringLiteral("ethtool -K %1 tso off gso off gro off").arg(device));
    // The lab's own burst (2 ms of line rate) and queue (1000 full frames).
    inNamespace(ns,
                QStringLiteral("tc qdisc replace dev %1 root tbf rate 100mbit burst 25000 limit 1514000 overhead 24")
                    .arg(device));
}

RunResult TestBidirLab::runOnce(const QString &protocol, quint16 port, int warmupMs, int idleMs, double linkMbps)
{
    TestPlan plan;
    Host h;
    h.name = QStringLiteral("lab-srv");
    h.address = test::LabSession::serverAddress();
    h.port = port;
    h.linkSpeedMbps = linkMbps;
    plan.hosts = {h};
    plan.protocols = {protocol};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 3000;
    plan.params.warmupMs = warmupMs;
    if (idleMs >= 0)
        plan.params.options.insert(LatencyRecorder::idleOption(), idleMs);
    const RunResultList results = test::runPlanToEnd(plan, 60000); // the engine's thread: the client's namespace
    return results.isEmpty() ? RunResult() : results.first();
}

QPair<double, double> TestBidirLab::realIperf3Pair(int seconds, int omitSeconds)
{
    QProcess p;
    p.start(QStringLiteral("iperf3"),
            {QStringLiteral("-c"), test::LabSession::serverAddress(), QStringLiteral("--bidir"), QStringLiteral("-t"),
             QString::number(seconds), QStringLiteral("-O"), QString::number(omitSeconds), QStringLiteral("-J")});
    if (!p.waitForFinished(30000 + seconds * 1000) || p.exitCode() != 0)
        return {0, 0};
    const QJsonObject end
        = QJsonDocument::fromJson(p.readAllStandardOutput()).object().value(QStringLiteral("end")).toObject();
    const auto rate = [&](const char *key) {
        const QJsonObject sum = end.value(QLatin1String(key)).toObject();
        const double secs = sum.value(QStringLiteral("seconds")).toDouble();
        return secs > 0 ? sum.value(QStringLiteral("bytes")).toDouble() / secs / 1e6 : 0.0;
    };
    return {rate("sum_received"), rate("sum_received_bidir_reverse")};
}

void TestBidirLab::fullDuplexEachWay()
{
    RunResult best;
    bool passed = false;
    QString last;
    // Up to 5 attempts, as TestFrameAccuracy: the clean-clone CI of 543bf74 failed all 3 on a machine whose
    // hypervisor took 13% of the CPU minutes later (iperf3 --bidir itself read 0.74 of the ceiling in one run), each
    // attempt 1.1-3.9 points below the iperf3 pair right after it.
    for (int attempt = 1; attempt <= 5 && !passed; ++attempt) {
        const qint64 clientSegments = outSegments(QStringLiteral("cli"));
        const qint64 serverSegments = outSegments(QStringLiteral("srv"));
        const RunResult r = runOnce(QStringLiteral("tcp-bidir"), 5301, kWarmupMs);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.bothWays());
        QCOMPARE(r.mss, 1448);
        // The ACKs each end really sent per data segment it sent (delayed ACKs make about 0.5): the wire of each
        // direction carries that end's data and those ACKs. The run's control connection adds a few dozen segments.
        const double clientData = std::ceil(double(r.senderBytes) / 1448);
        const double serverData = std::ceil(double(r.reverse->senderBytes) / 1448);
        const double clientAcks
            = qMax(0.0, (outSegments(QStringLiteral("cli")) - clientSegments - clientData) / clientData);
        const double serverAcks
            = qMax(0.0, (outSegments(QStringLiteral("srv")) - serverSegments - serverData) / serverData);
        const double sendCeiling = ceilingAt(clientAcks);
        const double receiveCeiling = ceilingAt(serverAcks);
        qInfo(
            "attempt %d: the client sent %.3f ACKs per data segment, the server %.3f: each direction carries %.4f MB/s "
            "(send) and %.4f MB/s (receive) while the other's ACKs share its wire (at one ACK per two segments %.4f "
            "MB/s)",
            attempt, clientAcks, serverAcks, sendCeiling / 1e6, receiveCeiling / 1e6, m_ceiling / 1e6);
        const double send = r.bytesPerSecond() / sendCeiling;
        const double receive = r.reverse->bytes / r.reverse->seconds / receiveCeiling;
        const QPair<double, double> iperf = realIperf3Pair(3, kWarmupMs / 1000);
        const double iperfSend = iperf.first * 1e6 / sendCeiling;
        const double iperfReceive = iperf.second * 1e6 / receiveCeiling;
        qInfo("tcp-bidir, attempt %d: send %.4f MB/s = %.4f, receive %.4f MB/s = %.4f of its ceiling; real iperf3 "
              "--bidir "
              "right after: send %.4f MB/s = %.4f, receive %.4f MB/s = %.4f",
              attempt, r.megabytesPerSecond(), send, r.reverse->megabytesPerSecond(), receive, iperf.first, iperfSend,
              iperf.second, iperfReceive);
        QVERIFY2(send <= 1.01 && receive <= 1.01, "above what a direction can carry while the other's ACKs share it");
        QVERIFY2(iperf.first > 0 && iperf.second > 0, "the real iperf3 --bidir pair did not run");
        // Within 1% of the ceiling and at least the real pair's figure (within half a point: the real pair's own
        // figures moved by 0.3 points from one attempt to the next in the CI of 2026-12-03, 0.9925-0.9956, and an
        // attempt at 0.9925 failed against 0.9956 at 0.2); or, when the real pair in the same lab right after cannot
        // reach 99% either (a starved machine), within 1 point of it (TestParallelStreams' rule).
        const bool full = qMin(send, receive) >= 0.99 && send >= iperfSend - 0.005 && receive >= iperfReceive - 0.005;
        const bool starved = qMin(iperfSend, iperfReceive) < 0.99 && send >= qMin(0.99, iperfSend) - 0.01
            && receive >= qMin(0.99, iperfReceive) - 0.01;
        passed = full || starved;
        best = r;
        last = QStringLiteral("attempt %1: send %2, receive %3 of the ceiling; iperf3 %4 and %5")
                   .arg(attempt)
                   .arg(send, 0, 'f', 4)
                   .arg(receive, 0, 'f', 4)
                   .arg(iperfSend, 0, 'f', 4)
                   .arg(iperfReceive, 0, 'f', 4);
    }
    QVERIFY2(passed, qPrintable(last));
    // A healthy full-duplex run: no warning, and the verdict says both directions are at line rate.
    QVERIFY2(best.warnings.isEmpty(), qPrintable(best.warnings.join(QLatin1Char('\n'))));
    const QString verdict = verdictOf(best);
    QVERIFY2(verdict.startsWith(QStringLiteral("at line rate both ways at once: send ")), qPrintable(verdict));
    QVERIFY2(
        verdict.endsWith(QStringLiteral("of what each direction of the 100 Mbit/s link at MTU 1500 carries while the "
                                        "other direction's ACKs share it (11.4 MB/s, full duplex)")),
        qPrintable(verdict));
}

void TestBidirLab::ourIperf3BidirAgainstRealServer()
{
    // A real iperf3 -s for one test, its report as JSON in its log: our iperf3-bidir's byte counts are its own.
    bool ok = false;
    const QString started
        = lab({QStringLiteral("serve"), QStringLiteral("cmd"), QStringLiteral("iperf3j"), QStringLiteral("5202"),
               QStringLiteral("iperf3"), QStringLiteral("-s"), QStringLiteral("-B"), test::LabSession::serverAddress(),
               QStringLiteral("-p"), QStringLiteral("5202"), QStringLiteral("-1"), QStringLiteral("-J")},
              &ok);
    QVERIFY2(ok, qPrintable(started));
    // A one-off server (-1) takes the latency probe's first connect for its one test and exits: no probe here.
    const RunResult r = runOnce(QStringLiteral("iperf3-bidir"), 5202, 0, 0);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.bothWays());
    QJsonObject end;
    QTRY_VERIFY_WITH_TIMEOUT(!(end = QJsonDocument::fromJson(serverLog(QStringLiteral("iperf3j")))
                                         .object()
                                         .value(QStringLiteral("end"))
                                         .toObject())
                                  .isEmpty(),
                             10000);
    const auto bytes = [&](const char *key) {
        return qint64(end.value(QLatin1String(key)).toObject().value(QStringLiteral("bytes")).toDouble());
    };
    qInfo("iperf3-bidir against the real iperf3 -s: send %.4f MB/s (%lld B; the server received %lld B), receive %.4f "
          "MB/s "
          "(%lld B; the server sent %lld B); theory each way %.4f MB/s",
          r.megabytesPerSecond(), r.bytes, bytes("sum_received"), r.reverse->megabytesPerSecond(), r.reverse->bytes,
          bytes("sum_sent_bidir_reverse"), m_ceiling / 1e6);
    QCOMPARE(r.bytes, bytes("sum_received"));
    QCOMPARE(r.reverse->senderBytes, bytes("sum_sent_bidir_reverse"));
    QVERIFY2(r.bytesPerSecond() <= m_ceiling * 1.01 && r.reverse->bytes / r.reverse->seconds <= m_ceiling * 1.01,
             "above what a direction can carry");
}

void TestBidirLab::realClientAgainstWirebenchdsIperf3Port()
{
    // The real iperf3 -c --bidir against wirebenchd --iperf3-port: the client's report of the server's end is what
    // wirebenchd's log line says it received and sent.
    QProcess p;
    p.start(QStringLiteral("iperf3"),
            {QStringLiteral("-c"), test::LabSession::serverAddress(), QStringLiteral("-p"), QStringLiteral("5203"),
             QStringLiteral("--bidir"), QStringLiteral("-t"), QStringLiteral("3"), QStringLiteral("-J")});
    QVERIFY(p.waitForFinished(40000));
    const QJsonObject report = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QVERIFY2(report.value(QStringLiteral("error")).toString().isEmpty(),
             qPrintable(report.value(QStringLiteral("error")).toString()));
    const QJsonObject end = report.value(QStringLiteral("end")).toObject();
    const auto bytes = [&](const char *key) {
        return qint64(end.value(QLatin1String(key)).toObject().value(QStringLiteral("bytes")).toDouble());
    };
    const QRegularExpression line(
        QStringLiteral("iperf3 tcp-bidir \\(both ways at once, --bidir\\).*: received (\\d+) B.*; sent (\\d+) B"));
    QRegularExpressionMatch m;
    QTRY_VERIFY_WITH_TIMEOUT((m = line.match(QString::fromUtf8(serverLog(QStringLiteral("wirebenchd"))))).hasMatch(),
                             10000);
    qInfo("real iperf3 -c --bidir against wirebenchd's iperf3 port: %s", qPrintable(m.captured(0)));
    qInfo("the client's report of the server: received %lld B, sent %lld B; the client sent %lld B at %.4f MB/s and "
          "received %lld B at %.4f MB/s",
          bytes("sum_received"), bytes("sum_sent_bidir_reverse"), bytes("sum_sent"),
          end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bits_per_second")).toDouble()
              / 8e6,
          bytes("sum_received_bidir_reverse"),
          end.value(QStringLiteral("sum_received_bidir_reverse"))
                  .toObject()
                  .value(QStringLiteral("bits_per_second"))
                  .toDouble()
              / 8e6);
    QCOMPARE(bytes("sum_received"), m.captured(1).toLongLong());
    QCOMPARE(bytes("sum_sent_bidir_reverse"), m.captured(2).toLongLong());
}

void TestBidirLab::sharedShaperBoundsTheSum()
{
    // The client's interface through one ifb both ways: its egress (htb at the root, every packet redirected) and
    // its ingress; the ifb's tbf is the one shaper both directions share.
    const QString device = m_lab->clientInterface();
    const QString ifb = QStringLiteral("wbi-") + m_lab->id();
    inNamespace(QStringLiteral("cli"), QStringLiteral("ip link add %1 type ifb").arg(ifb));
    inNamespace(QStringLiteral("cli"), QStringLiteral("ip link set %1 up").arg(ifb));
    shapeForTheWire(QStringLiteral("cli"), ifb);
    inNamespace(QStringLiteral("cli"),
                QStringLiteral("tc qdisc replace dev %1 root handle 1: htb default 1").arg(device));
    inNamespace(QStringLiteral("cli"),
                QStringLiteral("tc filter add dev %1 parent 1: protocol all u32 match u32 0 0 action "
                               "mirred egress redirect dev %2")
                    .arg(device, ifb));
    inNamespace(QStringLiteral("cli"), QStringLiteral("tc qdisc add dev %1 handle ffff: ingress").arg(device));
    inNamespace(QStringLiteral("cli"),
                QStringLiteral("tc filter add dev %1 parent ffff: protocol all u32 match u32 0 0 action "
                               "mirred egress redirect dev %2")
                    .arg(device, ifb));
    const RunResult r = runOnce(QStringLiteral("tcp-bidir"), 5301);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const double oneWay = Ceiling::tcpGoodputForMss(kLineMbps, 1448, false, true);
    const double sum = r.bytesPerSecond() + r.reverse->bytes / r.reverse->seconds;
    qInfo(
        "one shaper for both directions: send %.4f MB/s, receive %.4f MB/s, together %.4f MB/s = %.4f of one direction "
        "alone (%.4f MB/s)",
        r.megabytesPerSecond(), r.reverse->megabytesPerSecond(), sum / 1e6, sum / oneWay, oneWay / 1e6);
    const QString verdict = verdictOf(r);
    QVERIFY2(verdict.startsWith(QStringLiteral("the two directions share one bound: send ")), qPrintable(verdict));
    QVERIFY2(verdict.endsWith(
                 QStringLiteral("where a full-duplex link carries 11.4 MB/s each way at once: a half-duplex "
                                "link or a shared medium (Wi-Fi, a hub, one shaper or queue for both directions)")),
             qPrintable(verdict));
    QVERIFY2(r.warnings.contains(verdict), qPrintable(r.warnings.join(QLatin1Char('\n'))));
}

void TestBidirLab::healthyAtHigherRates_data()
{
    QTest::addColumn<double>("mbps");
    QTest::newRow("250 Mbit/s") << 250.0;
    QTest::newRow("1 Gbit/s") << 1000.0;
}

void TestBidirLab::healthyAtHigherRates()
{
    // A full-duplex line of 250 Mbit/s or 1 Gbit/s, each end's tbf scaled for Ethernet frames (lab.sh's rule, one
    // packet a frame here): Linux sends fewer ACKs than one per two segments, so each direction may carry a little
    // more than the both-ways ceiling assumes (issue 32, item 4: 28.69 / 29.06 MB/s at 250 Mbit/s was called "above
    // the line-rate ceiling"). What no direction can exceed is one direction alone on the line.
    QFETCH(double, mbps);
    const qint64 tbfRate = qint64(mbps * 1e6 * 1514 / 1538);
    const int burst = qMax(3028, int(mbps * 1e6 / 8 * 0.002));
    for (const auto &[ns, dev] : {std::pair{QStringLiteral("cli"), m_lab->clientInterface()},
                                  std::pair{QStringLiteral("srv"), m_lab->serverInterface()}})
        inNamespace(ns,
                    QStringLiteral("tc qdisc replace dev %1 root tbf rate %2bit burst %3 limit %4")
                        .arg(dev)
                        .arg(tbfRate)
                        .arg(burst)
                        .arg(1514 * 1000));
    const double shared = Ceiling::tcpGoodputBothWays(mbps, 1448, false, true);
    const double oneWay = Ceiling::tcpGoodputForMss(mbps, 1448, false, true);
    QString last;
    bool passed = false;
    for (int attempt = 1; attempt <= 3 && !passed; ++attempt) {
        const RunResult r = runOnce(QStringLiteral("tcp-bidir"), 5301, kWarmupMs, -1, mbps);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.bothWays());
        const QPair<double, double> iperf = realIperf3Pair(3, kWarmupMs / 1000);
        const double send = r.bytesPerSecond(), receive = r.reverse->bytes / r.reverse->seconds;
        const QString verdict = verdictOf(r);
        qInfo("%.0f Mbit/s, attempt %d: tcp-bidir send %.3f MB/s (%.4f of the shared ceiling %.3f MB/s), receive %.3f "
              "MB/s (%.4f); one direction alone %.3f MB/s; real iperf3 --bidir right after: %.3f / %.3f MB/s; "
              "warnings: %s",
              mbps, attempt, send / 1e6, send / shared, shared / 1e6, receive / 1e6, receive / shared, oneWay / 1e6,
              iperf.first, iperf.second, qPrintable(r.warnings.join(QStringLiteral(" | "))));
        // Never the alarm of a figure that cannot be, on any attempt: none is above one direction alone.
        QVERIFY2(send <= oneWay * 1.01 && receive <= oneWay * 1.01, "a direction above the line: a counting error");
        QVERIFY2(!verdict.contains(QLatin1String("above")), qPrintable(verdict));
        for (const QString &w : r.warnings)
            QVERIFY2(!w.contains(QLatin1String("above")), qPrintable(w));
        QVERIFY2(iperf.first > 0 && iperf.second > 0, "the real iperf3 --bidir pair did not run");
        // Healthy as the real pair in the same minute: at line rate, no warning. A machine too busy for iperf3 itself
        // to reach 90% proves nothing about a false alarm: another attempt. On the last, the line was not there to be
        // had (seen on 2 cores at 1 Gbit/s: iperf3 --bidir 99.8 / 11.5 MB/s): then the verdict must say what the
        // real pair found, the same direction short, and not call a healthy direction short.
        const bool lineReachable = qMin(iperf.first, iperf.second) * 1e6 >= shared * 0.9;
        if (lineReachable) {
            passed
                = r.warnings.isEmpty() && verdict.startsWith(QStringLiteral("at line rate both ways at once: send "));
        } else if (attempt == 3) {
            // The direction the real pair found weaker is the one the verdict names, at what the pair measured for it
            // (within a quarter: the same shortfall, not a threshold's side).
            const QString weaker = send < receive ? QStringLiteral("send") : QStringLiteral("receive");
            const QString peerWeaker = iperf.first < iperf.second ? QStringLiteral("send") : QStringLiteral("receive");
            const double ours = qMin(send, receive) / 1e6;
            const double theirs = qMin(iperf.first, iperf.second);
            passed = weaker == peerWeaker && ours >= theirs * 0.8 && ours <= theirs * 1.25
                && verdict.startsWith(QStringLiteral("the %1 direction is below line rate: ").arg(weaker));
            if (passed)
                qInfo("the real iperf3 --bidir could not reach the line either (%.3f / %.3f MB/s): the verdict names "
                      "the direction it found short",
                      iperf.first, iperf.second);
        }
        last = QStringLiteral("attempt %1: %2 / %3 MB/s, iperf3 %4 / %5 MB/s, verdict: %6")
                   .arg(attempt)
                   .arg(send / 1e6, 0, 'f', 3)
                   .arg(receive / 1e6, 0, 'f', 3)
                   .arg(iperf.first, 0, 'f', 3)
                   .arg(iperf.second, 0, 'f', 3)
                   .arg(verdict);
    }
    QVERIFY2(passed, qPrintable(last));
}

QTEST_GUILESS_MAIN(TestBidirLab)
#include "TestBidirLab.moc"
