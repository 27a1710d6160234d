#include "analysis/Bottleneck.h"
#include "analysis/RunAnalyzer.h"
#include "EvidenceRows.h"

#include <QTest>

#include <functional>

using namespace wb;

namespace {
// A test over a gigabit link at MTU 1500 (ceiling 117.7 MB/s) that measured mbps MB/s.
Evidence gigabit(double MBps, const std::function<void(Evidence &)> &tweak = {})
{
    return test::linkEvidence(5, 1000, MBps, [&](Evidence &e) {
        e.linkSpeedSource = QStringLiteral("local");
        if (tweak)
            tweak(e);
    });
}
} // namespace

class TestBottleneck : public QObject
{
    Q_OBJECT
private slots:
    void sentence_data()
    {
        QTest::addColumn<Evidence>("evidence");
        QTest::addColumn<QString>("expected");

        QTest::newRow("no successful run")
            << gigabit(0, [](Evidence &e) { e.runs = 0; }) << QStringLiteral("no successful run to judge");
        QTest::newRow("above the ceiling")
            << gigabit(500)
            << QStringLiteral("above the line-rate ceiling: 425% of the 1 Gbit/s ceiling at MTU 1500 "
                              "(117.7 MB/s), so a cache, compression or a counting error");
        QTest::newRow("at line rate") << gigabit(116.5) << QStringLiteral("at line rate (99% of the 1 Gbit/s ceiling)");
        QTest::newRow("a hair above, within tolerance")
            << gigabit(118.2) << QStringLiteral("at line rate (100% of the 1 Gbit/s ceiling)");
        QTest::newRow("at line rate beats a busy CPU") << gigabit(117, [](Evidence &e) { e.localCpuPercent = 99; })
                                                       << QStringLiteral("at line rate (99% of the 1 Gbit/s ceiling)");
        QTest::newRow("negotiated lower than the override")
            << gigabit(11.7,
                       [](Evidence &e) {
                           e.linkSpeedSource = QStringLiteral("override");
                           e.localSpeedMbps = 100;
                       })
            << QStringLiteral("limited by the link: eth0 negotiated 100 Mbit/s, below the 1 Gbit/s expected for this "
                              "host (its ceiling is 11.8 MB/s)");
        QTest::newRow("half duplex") << gigabit(30, [](Evidence &e) { e.duplex = QStringLiteral("half"); })
                                     << QStringLiteral("limited by a half-duplex link on eth0: set both ends to "
                                                       "auto-negotiate full duplex");
        QTest::newRow("socket buffer at its limit") << gigabit(4.05, [](Evidence &e) {
            e.socketBufferBytes = 32768;
            e.rttUs = 8000;
        }) << QStringLiteral("limited by the socket buffer: 32 KiB at 8 ms RTT allows 4.1 MB/s");
        // Four streams have four windows: four times the rate, said per stream.
        QTest::newRow("socket buffer at its limit, 4 streams")
            << gigabit(16.3,
                       [](Evidence &e) {
                           e.socketBufferBytes = 32768;
                           e.rttUs = 8000;
                           e.streams = 4;
                       })
            << QStringLiteral(
                   "limited by the socket buffer: 32 KiB per stream x 4 streams at 8 ms RTT allows 16.4 MB/s");
        QTest::newRow("system socket buffer at its limit")
            << gigabit(40,
                       [](Evidence &e) {
                           e.socketBufferBytes = 4194304;
                           e.socketBufferFromSystem = true;
                           e.rttUs = 100000;
                       })
            << QStringLiteral("limited by the socket buffer: 4 MiB (the system's maximum) at 100 ms RTT allows "
                              "41.9 MB/s");
        QTest::newRow("socket buffer far above the result is no cause")
            << gigabit(60,
                       [](Evidence &e) {
                           e.socketBufferBytes = 32768;
                           e.rttUs = 100; // allows 327.7 MB/s
                       })
            << QStringLiteral("below expectation with no evident cause: check cabling and switch (51% of "
                              "the 1 Gbit/s ceiling)");
        QTest::newRow("local disk") << gigabit(61, [](Evidence &e) { e.localDiskBytesPerSecond = 62e6; })
                                    << QStringLiteral("limited by the local disk (read 62 MB/s, network ceiling "
                                                      "117.7 MB/s)");
        QTest::newRow("remote disk") << gigabit(39, [](Evidence &e) { e.remoteDiskBytesPerSecond = 40e6; })
                                     << QStringLiteral("limited by the remote disk (write 40 MB/s, network ceiling "
                                                       "117.7 MB/s)");
        QTest::newRow("a fast disk is no cause")
            << gigabit(30, [](Evidence &e) { e.localDiskBytesPerSecond = 500e6; })
            << QStringLiteral("below expectation with no evident cause: check cabling and switch (25% of "
                              "the 1 Gbit/s ceiling)");
        QTest::newRow("CPU-bound server") << gigabit(70, [](Evidence &e) { e.remoteCpuPercent = 98; })
                                          << QStringLiteral("CPU-bound on the server (98%)");
        QTest::newRow("CPU-bound client") << gigabit(70, [](Evidence &e) { e.localCpuPercent = 97; })
                                          << QStringLiteral("CPU-bound on this computer (97%)");
        QTest::newRow("other programs busy")
            << gigabit(70,
                       [](Evidence &e) {
                           e.localSystemCpuPercent = 100;
                           e.localCpuPercent = 30;
                       })
            << QStringLiteral("limited by other programs on this computer (all cores 100% busy, this test's thread "
                              "30% of one core): run it on a quiet machine");
        QTest::newRow("own thread busy beats a busy system") << gigabit(70, [](Evidence &e) {
            e.localSystemCpuPercent = 100;
            e.localCpuPercent = 99;
        }) << QStringLiteral("CPU-bound on this computer (99%)");
        QTest::newRow("server busy, but under the line") << gigabit(70, [](Evidence &e) { e.remoteCpuPercent = 60; })
                                                         << QStringLiteral("below expectation with no evident cause: "
                                                                           "check cabling and switch (59% of "
                                                                           "the 1 Gbit/s ceiling)");
        QTest::newRow("retransmissions")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 5000;
                           e.segments = 100000;
                       })
            << QStringLiteral("limited by retransmissions (5000 segments resent, 5% of those sent) over eth0 (its "
                              "error counters could not be read)");
        // A cable or duplex is named only when the interface shows a fault (issue 12, item 4).
        QTest::newRow("retransmissions on loopback name no cable")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 5000;
                           e.segments = 100000;
                           e.interfaceName = QStringLiteral("lo");
                           e.interfaceKind = QStringLiteral("loopback");
                           e.duplex = QStringLiteral("unknown");
                           e.crcErrors = 0;
                           e.frameErrors = 0;
                       })
            << QStringLiteral("limited by retransmissions (5000 segments resent, 5% of those sent) over the loopback "
                              "interface lo: the packets were lost inside this computer, no cable is involved");
        QTest::newRow("retransmissions with CRC errors counted")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 5000;
                           e.segments = 100000;
                           e.interfaceKind = QStringLiteral("hardware");
                           e.crcErrors = 12;
                           e.frameErrors = 0;
                       })
            << QStringLiteral(
                   "limited by retransmissions (5000 segments resent, 5% of those sent): eth0 counted 12 CRC "
                   "and 0 frame errors during the run: look for a bad cable or a duplex mismatch");
        QTest::newRow("retransmissions with frame errors counted")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 5000;
                           e.segments = 100000;
                           e.interfaceKind = QStringLiteral("hardware");
                           e.crcErrors = 0;
                           e.frameErrors = 3;
                       })
            << QStringLiteral("limited by retransmissions (5000 segments resent, 5% of those sent): eth0 counted 0 CRC "
                              "and 3 frame errors during the run: look for a bad cable or a duplex mismatch");
        QTest::newRow("retransmissions over a clean interface")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 5000;
                           e.segments = 100000;
                           e.interfaceKind = QStringLiteral("hardware");
                           e.crcErrors = 0;
                           e.frameErrors = 0;
                       })
            << QStringLiteral("limited by retransmissions (5000 segments resent, 5% of those sent) over eth0, which "
                              "counted no CRC or frame errors during the run");
        QTest::newRow("retransmissions over a veth")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 5000;
                           e.segments = 100000;
                           e.interfaceName = QStringLiteral("veth0");
                           e.interfaceKind = QStringLiteral("virtual");
                           e.duplex = QStringLiteral("unknown");
                           e.crcErrors = 0;
                           e.frameErrors = 0;
                       })
            << QStringLiteral("limited by retransmissions (5000 segments resent, 5% of those sent) over the virtual "
                              "interface veth0");
        QTest::newRow("no evident cause on loopback names no cable")
            << gigabit(50,
                       [](Evidence &e) {
                           e.interfaceName = QStringLiteral("lo");
                           e.interfaceKind = QStringLiteral("loopback");
                           e.duplex = QStringLiteral("unknown");
                           e.crcErrors = 0;
                           e.frameErrors = 0;
                       })
            << QStringLiteral(
                   "below expectation with no evident cause: the traffic stayed inside this computer "
                   "(loopback interface lo), so no cable or switch is involved (42% of the 1 Gbit/s ceiling)");
        QTest::newRow("no evident cause over a clean full-duplex interface")
            << gigabit(50,
                       [](Evidence &e) {
                           e.interfaceKind = QStringLiteral("hardware");
                           e.crcErrors = 0;
                           e.frameErrors = 0;
                       })
            << QStringLiteral("below expectation with no evident cause: check the switch and the far host (42% of the "
                              "1 Gbit/s ceiling)");
        QTest::newRow("no evident cause, duplex unknown")
            << gigabit(50, [](Evidence &e) { e.duplex = QStringLiteral("unknown"); })
            << QStringLiteral("below expectation with no evident cause: check cabling, duplex and switch (42% of the "
                              "1 Gbit/s ceiling)");
        QTest::newRow("a few retransmissions are no cause")
            << gigabit(50,
                       [](Evidence &e) {
                           e.retransmits = 3;
                           e.segments = 100000;
                       })
            << QStringLiteral("below expectation with no evident cause: check cabling and switch (42% of "
                              "the 1 Gbit/s ceiling)");
        QTest::newRow("the netperf result: 4.86 MiB/s over gigabit")
            << gigabit(4.86 * 1.048576)
            << QStringLiteral("below expectation with no evident cause: "
                              "check cabling and switch (4.3% of "
                              "the 1 Gbit/s ceiling)");
        QTest::newRow("unknown link, loopback note")
            << gigabit(3000,
                       [](Evidence &e) {
                           e.linkSpeedMbps = -1;
                           e.localSpeedMbps = -1;
                           e.linkNote = QStringLiteral("loopback interface lo reports no speed");
                       })
            << QStringLiteral("link speed unknown (loopback interface lo reports no speed): set it per host to "
                              "compare with line rate");
        QTest::newRow("unknown link, no note") << gigabit(3000, [](Evidence &e) { e.linkSpeedMbps = -1; })
                                               << QStringLiteral("link speed unknown (loopback/virtual): set it per "
                                                                 "host to compare with line rate");
        QTest::newRow("unknown link, CPU-bound")
            << gigabit(3000,
                       [](Evidence &e) {
                           e.linkSpeedMbps = -1;
                           e.localCpuPercent = 100;
                       })
            << QStringLiteral("CPU-bound on this computer (100%); link speed unknown (loopback/virtual), so no "
                              "line-rate comparison");
        QTest::newRow("unknown link, local disk")
            << gigabit(61,
                       [](Evidence &e) {
                           e.linkSpeedMbps = -1;
                           e.localDiskBytesPerSecond = 62e6;
                       })
            << QStringLiteral("limited by the local disk (read 62 MB/s); link speed unknown (loopback/virtual), so "
                              "no line-rate comparison");
        QTest::newRow("100 Mbit override at line rate") << gigabit(11.7, [](Evidence &e) {
            e.linkSpeedMbps = 100;
            e.linkSpeedSource = QStringLiteral("override");
            e.localSpeedMbps = -1;
        }) << QStringLiteral("at line rate (99% of the 100 Mbit/s ceiling)");
        // A paced UDP test is judged against its target, not the link: 6.2 of 6.25 MB/s at 50 Mbit/s.
        QTest::newRow("UDP at its target")
            << gigabit(6.2, [](Evidence &e) { e.udpTargetMbps = 50; })
            << QStringLiteral("at the UDP target rate (99% of the UDP target of 50 Mbit/s (6.3 MB/s))");
        QTest::newRow("UDP target above the link: the link bounds it")
            << gigabit(119, [](Evidence &e) { e.udpTargetMbps = 2000; })
            << QStringLiteral("at the UDP target rate (99% of the 1 Gbit/s link's UDP ceiling at MTU 1500 (119.6 MB/s; "
                              "the target was 2 Gbit/s))");
    }
    void udpWarnings()
    {
        // Half the target arrived: far below it, said against the target.
        const QStringList w = Bottleneck::warnings(gigabit(3.1, [](Evidence &e) { e.udpTargetMbps = 50; }));
        QCOMPARE(w.size(), 1);
        QVERIFY2(w.first().startsWith(QStringLiteral("3.1 MB/s is far below its ceiling: 50% of the UDP target "
                                                     "of 50 Mbit/s (6.3 MB/s)")),
                 qPrintable(w.first()));
        // At the target: no warning, although it is 5% of the gigabit link.
        QVERIFY(Bottleneck::warnings(gigabit(6.25, [](Evidence &e) { e.udpTargetMbps = 50; })).isEmpty());
    }
    void sentence()
    {
        QFETCH(Evidence, evidence);
        QFETCH(QString, expected);
        QCOMPARE(Bottleneck::sentence(evidence), expected);
    }

    void thresholdsAreConfigurable()
    {
        AnalysisThresholds t;
        t.atLineRatePercent = 80;
        QCOMPARE(Bottleneck::sentence(gigabit(100), t), QStringLiteral("at line rate (85% of the 1 Gbit/s ceiling)"));
        const AnalysisThresholds fromOptions = RunAnalyzer::thresholdsFrom(
            {{QStringLiteral("analysis.far_below_percent"), 30}, {QStringLiteral("analysis.cpu_busy_percent"), 75}});
        QCOMPARE(fromOptions.farBelowPercent, 30.0);
        QCOMPARE(fromOptions.cpuBusyPercent, 75.0);
        QCOMPARE(Bottleneck::sentence(gigabit(70, [](Evidence &e) { e.localCpuPercent = 80; }), fromOptions),
                 QStringLiteral("CPU-bound on this computer (80%)"));
        const AnalysisThresholds nonsense
            = RunAnalyzer::thresholdsFrom({{QStringLiteral("analysis.far_below_percent"), QStringLiteral("lots")}});
        QCOMPARE(nonsense.farBelowPercent, AnalysisThresholds{}.farBelowPercent);
    }

    void evidenceFromResults()
    {
        // Three repetitions of a test as RunAnalyzer and the TCP driver leave them, one failed.
        RunResultList results;
        const double rates[] = {4.0e6, 4.1e6, 3.9e6};
        for (double rate : rates) {
            RunResult r;
            r.status = RunStatus::Ok;
            r.spec.frameSize = 1500;
            r.bytes = qint64(rate * 10);
            r.seconds = 10;
            r.mss = 1448;
            r.extra = {{QStringLiteral("link_speed_Mbps"), 1000},
                       {QStringLiteral("local_link_speed_Mbps"), 1000},
                       {QStringLiteral("link_duplex"), QStringLiteral("full")},
                       {QStringLiteral("interface"), QStringLiteral("eth0")},
                       {QStringLiteral("ceiling_mtu"), 1500},
                       {QStringLiteral("tcp_timestamps"), true},
                       {QStringLiteral("socket_buffer_bytes"), 32768},
                       {QStringLiteral("rtt_us"), rate == 4.0e6 ? 8000 : 8100},
                       {QStringLiteral("retransmits"), 0}};
            results.append(r);
        }
        RunResult failed;
        failed.status = RunStatus::Failed;
        failed.bytes = 999999999;
        failed.seconds = 1;
        results.append(failed);

        const Evidence e = Bottleneck::evidenceFrom(results);
        QCOMPARE(e.runs, 3);
        QCOMPARE(e.measuredBytesPerSecond, 4.0e6); // the median
        QCOMPARE(e.linkSpeedMbps, 1000.0);
        QCOMPARE(e.mtu, 1500);
        QCOMPARE(e.rttUs, 8100.0);
        QCOMPARE(e.socketBufferBytes, 32768.0);
        QCOMPARE(e.retransmits, 0.0);
        QCOMPARE(e.crcErrors, -1.0);                     // not recorded: unknown
        QVERIFY(qAbs(e.segments - 4.0e7 / 1448) < 1e-6); // median of bytes / MSS
        QCOMPARE(RunAnalyzer::bottleneckFor(results),
                 QStringLiteral("limited by the socket buffer: 32 KiB at 8.1 ms RTT allows 4 MB/s"));

        // Error counters add up over the repetitions: one run with CRC errors is enough to name a cable.
        for (qsizetype i = 0; i < 3; ++i) {
            results[i].extra.insert(QStringLiteral("interface_crc_errors"), i == 1 ? 7 : 0);
            results[i].extra.insert(QStringLiteral("interface_frame_errors"), 0);
            results[i].extra.insert(QStringLiteral("interface_kind"), QStringLiteral("hardware"));
        }
        const Evidence counted = Bottleneck::evidenceFrom(results);
        QCOMPARE(counted.crcErrors, 7.0);
        QCOMPARE(counted.frameErrors, 0.0);
        QCOMPARE(counted.interfaceKind, QStringLiteral("hardware"));
        QVERIFY(counted.physicalFaultSeen());

        // Nothing usable: still a sentence, never a crash.
        QCOMPARE(RunAnalyzer::bottleneckFor({failed}), QStringLiteral("no successful run to judge"));
        QCOMPARE(RunAnalyzer::bottleneckFor({}), QStringLiteral("no successful run to judge"));
    }
};

QTEST_GUILESS_MAIN(TestBottleneck)
#include "TestBottleneck.moc"
