#include "analysis/Bottleneck.h"
#include "analysis/DropCounts.h"
#include "analysis/RunAnalyzer.h"
#include "EvidenceRows.h"

#include <QTest>

#include <functional>

using namespace wb;

// Where the packets were lost (issue 14, part 1): the sentence names this computer, the far host or the path
// between them from both ends' drop counters, each with its counters; a cable or duplex only when an interface
// shows one; and none of it on a healthy run. Evidence as input, as TestBottleneck.
namespace {

/// One end's counts as DropCounts reads them from the JSON both ends write.
DropCounts drops(const QString &iface, const QString &qdisc, const QVariantMap &counters, double maxBacklog = -1)
{
    QJsonObject o{{QStringLiteral("version"), DropCounts::kJsonVersion},
                  {QStringLiteral("interface"), iface},
                  {QStringLiteral("qdisc"), qdisc},
                  {QStringLiteral("duplex"), QStringLiteral("full")}};
    // Every counter read, at 0 unless the row says otherwise.
    for (const char *name :
         {"qdisc_drops", "qdisc_overlimits", "backlog_drops", "time_squeeze", "rx_dropped", "rx_missed_errors",
          "rx_fifo_errors", "tx_dropped", "rx_crc_errors", "rx_frame_errors", "TCPBacklogDrop", "PruneCalled",
          "RcvPruned", "OfoPruned", "TCPRcvQDrop", "ListenDrops", "ListenOverflows", "TCPReqQFullDrop"})
        o.insert(QLatin1String(name), counters.value(QLatin1String(name), 0).toDouble());
    if (maxBacklog > 0)
        o.insert(QStringLiteral("netdev_max_backlog"), maxBacklog);
    return DropCounts::fromJson(o);
}

/// tcp-send to fs1 over the lab's veth at 1 Gbit/s set for the host, measuring MBps, with 5000 of 100000 segments
/// resent; both ends' counters read (at 0) unless tweak says otherwise.
Evidence lossy(double MBps, const std::function<void(Evidence &)> &tweak = {})
{
    return test::linkEvidence(3, 1000, MBps, [&](Evidence &e) {
        e.linkSpeedSource = QStringLiteral("override");
        e.localSpeedMbps = -1;
        e.duplex = QStringLiteral("unknown");
        e.interfaceName = QStringLiteral("wbc-1");
        e.interfaceKind = QStringLiteral("virtual");
        e.crcErrors = e.frameErrors = 0;
        e.hostName = QStringLiteral("fs1");
        e.retransmits = 5000;
        e.segments = 100000;
        e.localDrops = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"), {});
        e.remoteDrops = drops(QStringLiteral("wbs-1"), QStringLiteral("noqueue"), {});
        if (tweak)
            tweak(e);
    });
}

const QString kResent = QStringLiteral("limited by retransmissions (5000 segments resent, 5% of those sent)");

} // namespace

class TestLossPlace : public QObject
{
    Q_OBJECT
private slots:
    void sentence_data()
    {
        QTest::addColumn<Evidence>("evidence");
        QTest::addColumn<QString>("expected");
        QTest::newRow("this computer's qdisc")
            << lossy(38,
                     [](Evidence &e) {
                         e.localDrops = drops(
                             QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                             {{QStringLiteral("qdisc_drops"), 312}, {QStringLiteral("qdisc_overlimits"), 9000}});
                     })
            << kResent
                + QStringLiteral(": dropped on this computer: the qdisc tbf of wbc-1 dropped 312 packets, its "
                                 "queue full (qdisc_drops 312, qdisc_overlimits 9000)");
        QTest::newRow("lost packets before a busy machine")
            << lossy(38,
                     [](Evidence &e) {
                         e.localSystemCpuPercent = 100;
                         e.localCpuPercent = 4;
                         e.localDrops = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                                              {{QStringLiteral("qdisc_drops"), 312}});
                     })
            << kResent
                + QStringLiteral(": dropped on this computer: the qdisc tbf of wbc-1 dropped 312 packets, its "
                                 "queue full (qdisc_drops 312)");
        QTest::newRow("the far host's qdisc during an upload: its ACKs")
            << lossy(38,
                     [](Evidence &e) {
                         e.remoteDrops = drops(QStringLiteral("wbs-1"), QStringLiteral("tbf"),
                                               {{QStringLiteral("qdisc_drops"), 77}});
                     })
            << kResent
                + QStringLiteral(": dropped on fs1: the qdisc tbf of wbs-1 dropped 77 packets, its queue full "
                                 "(qdisc_drops 77): ACKs and requests, as the data came the other way");
        QTest::newRow("the far host's qdisc")
            << lossy(38,
                     [](Evidence &e) {
                         e.dataFromServer = true; // tcp-recv: the far host sends the data
                         e.remoteDrops = drops(QStringLiteral("wbs-1"), QStringLiteral("tbf"),
                                               {{QStringLiteral("qdisc_drops"), 77}});
                     })
            << kResent
                + QStringLiteral(": dropped on fs1: the qdisc tbf of wbs-1 dropped 77 packets, its queue full "
                                 "(qdisc_drops 77)");
        QTest::newRow("both ends, the biggest place first")
            << lossy(38,
                     [](Evidence &e) {
                         e.dataFromServer = true; // what this computer's interface received was the data
                         e.localDrops = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                                              {{QStringLiteral("TCPBacklogDrop"), 40},
                                               {QStringLiteral("rx_dropped"), 90},
                                               {QStringLiteral("rx_fifo_errors"), 2}});
                         e.remoteDrops = drops(QStringLiteral("wbs-1"), QStringLiteral("noqueue"),
                                               {{QStringLiteral("backlog_drops"), 6}}, 1000);
                     })
            << kResent
                + QStringLiteral(": dropped on this computer: wbc-1 dropped 92 received packets (rx_dropped 90, "
                                 "rx_fifo_errors 2); its TCP stack dropped 40 segments (TCPBacklogDrop 40); and "
                                 "on fs1: its input backlog dropped 6 packets (backlog_drops 6; "
                                 "net.core.netdev_max_backlog 1000)");
        QTest::newRow("between them") << lossy(4.75)
                                      << kResent
                + QStringLiteral(": neither end dropped them (the qdisc, input backlog, interface and TCP "
                                 "counters of this computer and fs1 stayed at 0): the path between this computer "
                                 "and fs1 delivers about 38 Mbit/s, below the 1 Gbit/s set for it: a slower "
                                 "link, a shaper or a policer on the way");
        QTest::newRow("between them, the speed the interface negotiated")
            << lossy(4.75, [](Evidence &e) { e.linkSpeedSource = QStringLiteral("local"); })
            << kResent
                + QStringLiteral(": neither end dropped them (the qdisc, input backlog, interface and TCP "
                                 "counters of this computer and fs1 stayed at 0): the path between this computer "
                                 "and fs1 delivers about 38 Mbit/s, below the 1 Gbit/s of its link: a slower "
                                 "link, a shaper or a policer on the way");
        QTest::newRow("between them, no speed known")
            << lossy(4.75,
                     [](Evidence &e) {
                         e.linkSpeedMbps = -1;
                         e.linkSpeedSource = QStringLiteral("unknown");
                         e.linkNote = QStringLiteral("virtual interface wbc-1 (veth) reports no meaningful speed");
                     })
            << kResent
                + QStringLiteral(": neither end dropped them (the qdisc, input backlog, interface and TCP "
                                 "counters of this computer and fs1 stayed at 0): the path between this computer "
                                 "and fs1 dropped them (a switch or router queue, a shaper or a policer on the "
                                 "way); it delivered about 38 Mbit/s; link speed unknown (virtual interface "
                                 "wbc-1 (veth) reports no meaningful speed), so no line-rate comparison");
        QTest::newRow("the far end's counters unknown (an older wirebenchd, another server)")
            << lossy(38, [](Evidence &e) { e.remoteDrops = DropCounts{}; })
            << kResent
                + QStringLiteral(" over the virtual interface wbc-1; this computer dropped none of them (its "
                                 "qdisc, input backlog, interface and TCP counters stayed at 0), and what fs1 "
                                 "dropped is unknown (its server did not report it)");
        QTest::newRow("this computer's counters unread: as before")
            << lossy(38, [](Evidence &e) { e.localDrops = DropCounts{}; })
            << kResent + QStringLiteral(" over the virtual interface wbc-1");
        QTest::newRow("a CRC error on the far host names a cable")
            << lossy(38,
                     [](Evidence &e) {
                         e.remoteDrops = drops(QStringLiteral("eth1"), QStringLiteral("fq_codel"),
                                               {{QStringLiteral("rx_crc_errors"), 7}});
                     })
            << kResent
                + QStringLiteral(": on fs1, eth1 counted 7 CRC and 0 frame errors during the run: look for a bad "
                                 "cable or a duplex mismatch");
        QTest::newRow("the far host at half duplex") << lossy(38, [](Evidence &e) {
            QJsonObject o = DropCounts::toJson(platform::DropReading{});
            o.insert(QStringLiteral("interface"), QStringLiteral("eth1"));
            o.insert(QStringLiteral("duplex"), QStringLiteral("half"));
            e.remoteDrops = DropCounts::fromJson(o);
        }) << kResent + QStringLiteral(": on fs1, eth1 runs at half duplex: look for a bad cable or a duplex mismatch");
        QTest::newRow("this computer's CRC errors as before") << lossy(38, [](Evidence &e) { e.crcErrors = 3; })
                                                              << kResent
                + QStringLiteral(": wbc-1 counted 3 CRC and 0 frame errors during the run: look for a bad cable "
                                 "or a duplex mismatch");
        QTest::newRow("loopback: the input backlog") << test::linkEvidence(
            3, -1, 2400,
            [](Evidence &e) {
                e.linkNote = QStringLiteral("loopback interface lo reports no speed");
                e.interfaceName = QStringLiteral("lo");
                e.interfaceKind = QStringLiteral("loopback");
                e.retransmits = 5000;
                e.segments = 100000;
                e.localDrops
                    = drops(QStringLiteral("lo"), QStringLiteral("noqueue"),
                            {{QStringLiteral("backlog_drops"), 5123}, {QStringLiteral("time_squeeze"), 40}}, 1000);
            })
                                                     << kResent
                + QStringLiteral(": dropped in this computer's input backlog (net.core.netdev_max_backlog 1000): "
                                 "the receiving CPU keeps up with 2.4 GB/s, no network is involved (backlog_drops "
                                 "5123, time_squeeze 40); link speed unknown (loopback interface lo reports no "
                                 "speed), so no line-rate comparison");
        QTest::newRow("loopback: TCP's own queue")
            << test::linkEvidence(3, -1, 900,
                                  [](Evidence &e) {
                                      e.linkNote = QStringLiteral("loopback interface lo reports no speed");
                                      e.interfaceName = QStringLiteral("lo");
                                      e.interfaceKind = QStringLiteral("loopback");
                                      e.retransmits = 5000;
                                      e.segments = 100000;
                                      e.localDrops = drops(QStringLiteral("lo"), QStringLiteral("noqueue"),
                                                           {{QStringLiteral("TCPRcvQDrop"), 12}});
                                  })
            << kResent
                + QStringLiteral(": dropped inside this computer, no network is involved: its TCP stack dropped "
                                 "12 segments (TCPRcvQDrop 12); link speed unknown (loopback interface lo reports "
                                 "no speed), so no line-rate comparison");
        QTest::newRow("a transfer without a retransmission figure, its qdisc dropping")
            << lossy(38,
                     [](Evidence &e) {
                         e.retransmits = -1;
                         e.localDrops = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                                              {{QStringLiteral("qdisc_drops"), 312}});
                     })
            << QStringLiteral("limited by lost packets on the way from this computer to fs1: dropped on this "
                              "computer: the qdisc tbf of wbc-1 dropped 312 "
                              "packets, its queue full (qdisc_drops 312)");
    }
    void sentence()
    {
        QFETCH(Evidence, evidence);
        QFETCH(QString, expected);
        QCOMPARE(Bottleneck::sentence(evidence), expected);
    }

    void noneOnAHealthyRun_data()
    {
        QTest::addColumn<Evidence>("evidence");
        QTest::addColumn<QString>("expected");
        QTest::newRow("at line rate, nothing dropped") << lossy(117, [](Evidence &e) { e.retransmits = 0; })
                                                       << QStringLiteral("at line rate (99% of the 1 Gbit/s ceiling)");
        QTest::newRow("a few retransmissions, a qdisc drop") // under 0.1% of the segments: no cause
            << lossy(60,
                     [](Evidence &e) {
                         e.retransmits = 3;
                         e.localDrops = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                                              {{QStringLiteral("qdisc_drops"), 3}});
                     })
            << QStringLiteral("below expectation with no evident cause: check what carries the virtual interface wbc-1 "
                              "and the far host (51% of the 1 Gbit/s ceiling)");
        QTest::newRow("a transfer, the namespace's TCP counting someone else's drops")
            << lossy(60,
                     [](Evidence &e) {
                         e.retransmits = -1;
                         e.localDrops
                             = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                                     {{QStringLiteral("TCPBacklogDrop"), 9}, {QStringLiteral("backlog_drops"), 4}});
                     })
            << QStringLiteral("below expectation with no evident cause: check what carries the virtual interface wbc-1 "
                              "and the far host (51% of the 1 Gbit/s ceiling)");
    }
    void noneOnAHealthyRun()
    {
        QFETCH(Evidence, evidence);
        QFETCH(QString, expected);
        QCOMPARE(Bottleneck::sentence(evidence), expected);
        QVERIFY(!Bottleneck::sentence(evidence).contains(QLatin1String("dropped")));
    }

    void warningNamesTheLostPackets()
    {
        const Evidence e = lossy(38, [](Evidence &x) {
            x.retransmits = -1;
            x.localDrops
                = drops(QStringLiteral("wbc-1"), QStringLiteral("tbf"), {{QStringLiteral("qdisc_drops"), 312}});
        });
        const QStringList w = Bottleneck::warnings(e);
        QCOMPARE(w.size(), 1);
        QVERIFY2(
            w.first().endsWith(QLatin1String("Likely causes: lost packets on the way from this computer to fs1 "
                                             "(dropped on this computer: the qdisc tbf of wbc-1 dropped 312 packets, "
                                             "its queue full (qdisc_drops 312))")),
            qPrintable(w.first()));
    }

    void jsonBothWays()
    {
        platform::DropReading d;
        d.interfaceName = "wbs-1";
        d.qdiscKinds = "tbf";
        d.duplex = "full";
        d.qdiscDrops = 12;
        d.backlogDrops = 0;
        d.netdevMaxBacklog = 1000;
        const QJsonObject o = DropCounts::toJson(d);
        QCOMPARE(o.value(QStringLiteral("version")).toInt(), 1);
        QVERIFY(!o.contains(QStringLiteral("rx_dropped"))); // unknown: left out, not 0
        const DropCounts c = DropCounts::fromJson(o);
        QVERIFY(c.known);
        QCOMPARE(c.interfaceName, QStringLiteral("wbs-1"));
        QCOMPARE(c.qdisc(), 12.0);
        QCOMPARE(c.netdevMaxBacklog, 1000.0);
        QVERIFY(!c.counters.contains(QStringLiteral("rx_dropped")));

        // Another version, nothing, or a far end's nonsense: unknown, or the nonsense left out.
        QJsonObject later = o;
        later.insert(QStringLiteral("version"), 2);
        QVERIFY(!DropCounts::fromJson(later).known);
        QVERIFY(!DropCounts::fromJson({}).known);
        QJsonObject odd = o;
        odd.insert(QStringLiteral("qdisc_drops"), -5);
        odd.insert(QStringLiteral("tx_dropped"), 2.5);
        odd.insert(QStringLiteral("rx_dropped"), QStringLiteral("many"));
        odd.insert(QStringLiteral("interface"), QStringLiteral("eth0\x1b[31m") + QString(200, QLatin1Char('x')));
        const DropCounts n = DropCounts::fromJson(odd);
        QVERIFY(n.known);
        QVERIFY(n.counters.isEmpty() || !n.counters.contains(QStringLiteral("qdisc_drops")));
        QVERIFY(!n.counters.contains(QStringLiteral("tx_dropped")));
        QVERIFY(!n.counters.contains(QStringLiteral("rx_dropped")));
        QVERIFY(!n.interfaceName.contains(QLatin1Char('\x1b')));
        QVERIFY(n.interfaceName.size() < 120);
    }

    void evidenceSumsTheRuns()
    {
        // Two repetitions as RunAnalyzer and the TCP driver leave them: drops add up, the far end's too.
        RunResultList results;
        for (int i = 0; i < 2; ++i) {
            RunResult r;
            r.status = RunStatus::Ok;
            r.spec.host.name = QStringLiteral("fs1");
            r.spec.frameSize = 1500;
            r.bytes = 47500000;
            r.seconds = 10;
            r.mss = 1448;
            platform::DropReading local, remote;
            local.interfaceName = "wbc-1";
            local.qdiscKinds = "tbf";
            local.qdiscDrops = 100 + i;
            remote.qdiscDrops = 0;
            r.extra = {{QStringLiteral("link_speed_Mbps"), 1000},
                       {QStringLiteral("link_speed_source"), QStringLiteral("override")},
                       {QStringLiteral("interface"), QStringLiteral("wbc-1")},
                       {QStringLiteral("interface_kind"), QStringLiteral("virtual")},
                       {QStringLiteral("retransmits"), 5000},
                       {QStringLiteral("drops"), DropCounts::toJson(local).toVariantMap()},
                       {QStringLiteral("remote_drops"), DropCounts::toJson(remote).toVariantMap()}};
            results.append(r);
        }
        const Evidence e = Bottleneck::evidenceFrom(results);
        QCOMPARE(e.hostName, QStringLiteral("fs1"));
        QVERIFY(e.localDrops.known && e.remoteDrops.known);
        QCOMPARE(e.localDrops.qdisc(), 201.0);
        QCOMPARE(e.remoteDrops.qdisc(), 0.0);
        QVERIFY2(RunAnalyzer::bottleneckFor(results).contains(
                     QLatin1String("dropped on this computer: the qdisc tbf of wbc-1 dropped 201 packets")),
                 qPrintable(RunAnalyzer::bottleneckFor(results)));
    }
};

QTEST_GUILESS_MAIN(TestLossPlace)
#include "TestLossPlace.moc"
