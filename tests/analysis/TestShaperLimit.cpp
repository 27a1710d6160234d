#include "analysis/Bottleneck.h"
#include "analysis/DropCounts.h"
#include "analysis/ShaperLimit.h"
#include "EvidenceRows.h"

#include <QTest>

#include <functional>

using namespace wb;

// The shaper named as the limit with its rate, on the end that sends the data; a download never blamed on what
// this computer's queue dropped of its ACKs; a queue that held the data back named when its rate is unknown
// (issue 32, items 1 to 3). Evidence as input, as TestLossPlace.
namespace {

/// One end's counts as the JSON both ends write them: every counter at 0 unless given; shaper and rate (bytes/s)
/// when it has one.
DropCounts end(const QString &iface, const QString &qdisc, const QVariantMap &counters, const QString &shaper = {},
               double rateBytesPerSecond = -1)
{
    QJsonObject o{{QStringLiteral("version"), DropCounts::kJsonVersion},
                  {QStringLiteral("interface"), iface},
                  {QStringLiteral("qdisc"), qdisc},
                  {QStringLiteral("duplex"), QStringLiteral("full")}};
    for (const char *name :
         {"qdisc_drops", "qdisc_overlimits", "backlog_drops", "time_squeeze", "rx_dropped", "rx_missed_errors",
          "rx_fifo_errors", "tx_dropped", "rx_crc_errors", "rx_frame_errors", "TCPBacklogDrop", "PruneCalled",
          "RcvPruned", "OfoPruned", "TCPRcvQDrop", "ListenDrops", "ListenOverflows", "TCPReqQFullDrop"})
        o.insert(QLatin1String(name), counters.value(QLatin1String(name), 0).toDouble());
    if (!shaper.isEmpty())
        o.insert(QStringLiteral("shaper"), shaper);
    if (rateBytesPerSecond > 0)
        o.insert(QStringLiteral("shaper_rate_bytes_per_second"), rateBytesPerSecond);
    return DropCounts::fromJson(o);
}

/// A run to lab-srv over the veth wbc-1 of a host set to 1 Gbit/s, MSS 1448, measuring MBps; both ends' counters
/// read (at 0, no shaper) unless tweak says otherwise.
Evidence run(double MBps, bool download, const std::function<void(Evidence &)> &tweak = {})
{
    return test::linkEvidence(1, 1000, MBps, [&](Evidence &e) {
        e.linkSpeedSource = QStringLiteral("override");
        e.localSpeedMbps = -1;
        e.interfaceName = QStringLiteral("wbc-1");
        e.interfaceKind = QStringLiteral("virtual");
        e.crcErrors = e.frameErrors = 0;
        e.mss = 1448;
        e.hostName = QStringLiteral("lab-srv");
        e.dataFromServer = download;
        e.localDrops = end(QStringLiteral("wbc-1"), QStringLiteral("noqueue"), {});
        e.remoteDrops = end(QStringLiteral("wbs-1"), QStringLiteral("noqueue"), {});
        if (tweak)
            tweak(e);
    });
}

const QVariantMap kFarShaperCounts = {{QStringLiteral("qdisc_drops"), 22}, {QStringLiteral("qdisc_overlimits"), 3500}};

} // namespace

class TestShaperLimit : public QObject
{
    Q_OBJECT
private slots:
    void sentence_data()
    {
        QTest::addColumn<Evidence>("evidence");
        QTest::addColumn<QString>("expected");
        // 40 Mbit/s = 5,000,000 bytes/s of packets as tbf counts them (1500 + 14 bytes each): 4.78 MB/s of payload.
        // (MB/s with the house's precision: two significant figures under 10.)
        QTest::newRow("tcp-recv behind the far host's tbf, 22 retransmissions of 34,000 segments")
            << run(4.71, true,
                   [](Evidence &e) {
                       e.retransmits = 22;
                       e.segments = 34000;
                       e.remoteDrops = end(QStringLiteral("wbs-1"), QStringLiteral("tbf"), kFarShaperCounts,
                                           QStringLiteral("tbf"), 5e6);
                   })
            << QStringLiteral("limited by a shaper: a tbf shaper on wbs-1 of lab-srv limits this path to 40 Mbit/s "
                              "(4.8 MB/s of TCP payload), and the run reached 4.7 MB/s (98% of that); dropped on "
                              "lab-srv: the qdisc tbf of wbs-1 dropped 22 packets, its queue full (qdisc_drops 22, "
                              "qdisc_overlimits 3500)");
        QTest::newRow("ftp-put behind this computer's htb")
            << run(11.5, false,
                   [](Evidence &e) {
                       e.localDrops = end(QStringLiteral("wbc-1"), QStringLiteral("fq_codel"), {},
                                          QStringLiteral("htb"), 12.5e6);
                   })
            << QStringLiteral("limited by a shaper: a htb shaper on wbc-1 of this computer limits this path to 100 "
                              "Mbit/s (12 MB/s of TCP payload), and the run reached 11.5 MB/s (96% of that)");
        QTest::newRow("a download, only this computer's queue shaped: not its limit")
            << run(4.71, true,
                   [](Evidence &e) {
                       e.localDrops
                           = end(QStringLiteral("wbc-1"), QStringLiteral("tbf"), {}, QStringLiteral("tbf"), 5e6);
                   })
            << QStringLiteral("below expectation with no evident cause: check what carries the virtual interface "
                              "wbc-1 and the far host (4% of the 1 Gbit/s ceiling)");
        QTest::newRow("the far host's queue held the data back, its rate unreported")
            << run(4.71, true,
                   [](Evidence &e) {
                       e.retransmits = 22;
                       e.segments = 34000;
                       e.remoteDrops = end(QStringLiteral("wbs-1"), QStringLiteral("tbf"), kFarShaperCounts);
                   })
            << QStringLiteral("limited by a shaper, most likely: the qdisc tbf of wbs-1 on lab-srv held packets back "
                              "3500 times during the run (qdisc_overlimits 3500, qdisc_drops 22); its rate was not "
                              "reported");
        QTest::newRow("ftp-get: this computer's queue dropped only ACKs and requests")
            << run(4.71, true,
                   [](Evidence &e) {
                       e.retransmits = -1;
                       e.localDrops = end(QStringLiteral("wbc-1"), QStringLiteral("tbf"),
                                          {{QStringLiteral("qdisc_drops"), 1194}});
                   })
            << QStringLiteral("below expectation with no evident cause: check what carries the virtual interface "
                              "wbc-1 and the far host (4% of the 1 Gbit/s ceiling); only packets against the data's "
                              "direction were dropped, which do not hold the data back (on this computer, the qdisc "
                              "tbf of wbc-1 dropped 1194 packets, its queue full (qdisc_drops 1194): ACKs and "
                              "requests, as the data came the other way)");
        QTest::newRow("ftp-get: the far host's queue dropped the data")
            << run(4.71, true,
                   [](Evidence &e) {
                       e.retransmits = -1;
                       e.remoteDrops
                           = end(QStringLiteral("wbs-1"), QStringLiteral("tbf"), {{QStringLiteral("qdisc_drops"), 40}});
                   })
            << QStringLiteral("limited by lost packets on the way from lab-srv to this computer: dropped on lab-srv: "
                              "the qdisc tbf of wbs-1 dropped 40 packets, its queue full (qdisc_drops 40)");
        QTest::newRow("ftp-put: this computer's queue dropped the data")
            << run(4.71, false,
                   [](Evidence &e) {
                       e.retransmits = -1;
                       e.localDrops
                           = end(QStringLiteral("wbc-1"), QStringLiteral("tbf"), {{QStringLiteral("qdisc_drops"), 40}});
                   })
            << QStringLiteral("limited by lost packets on the way from this computer to lab-srv: dropped on this "
                              "computer: the qdisc tbf of wbc-1 dropped 40 packets, its queue full (qdisc_drops 40)");
        // The lab's tbf for a 1 Gbit/s Ethernet line: rate 10^9 x 1514 / 1538 bits/s, what the line carries.
        QTest::newRow("a tbf scaled to the line is the line, not a shaper below it")
            << run(100, false,
                   [](Evidence &e) {
                       e.localDrops = end(QStringLiteral("wbc-1"), QStringLiteral("tbf"), {}, QStringLiteral("tbf"),
                                          1e9 * 1514 / 1538 / 8);
                   })
            << QStringLiteral("below expectation with no evident cause: check what carries the virtual interface "
                              "wbc-1 and the far host (85% of the 1 Gbit/s ceiling)");
        QTest::newRow("at line rate behind a line-rate tbf") << run(117, false, [](Evidence &e) {
            e.localDrops
                = end(QStringLiteral("wbc-1"), QStringLiteral("tbf"), {}, QStringLiteral("tbf"), 1e9 * 1514 / 1538 / 8);
        }) << QStringLiteral("at line rate (99% of the 1 Gbit/s ceiling)");
        QTest::newRow("behind a shaper but far below it: not the shaper")
            << run(2.0, true,
                   [](Evidence &e) {
                       e.remoteDrops
                           = end(QStringLiteral("wbs-1"), QStringLiteral("tbf"), {}, QStringLiteral("tbf"), 5e6);
                   })
            << QStringLiteral("below expectation with no evident cause: check what carries the virtual interface "
                              "wbc-1 and the far host (1.7% of the 1 Gbit/s ceiling)");
    }
    void sentence()
    {
        QFETCH(Evidence, evidence);
        QFETCH(QString, expected);
        QCOMPARE(Bottleneck::sentence(evidence), expected);
    }

    void warningNamesTheShaper()
    {
        const Evidence e = run(4.71, true, [](Evidence &x) {
            x.remoteDrops
                = end(QStringLiteral("wbs-1"), QStringLiteral("tbf"), kFarShaperCounts, QStringLiteral("tbf"), 5e6);
        });
        const QStringList w = Bottleneck::warnings(e);
        QCOMPARE(w.size(), 1);
        QVERIFY2(w.first().contains(QLatin1String(
                     "Likely causes: a tbf shaper on wbs-1 of lab-srv at 40 Mbit/s (4.8 MB/s of TCP payload); ")),
                 qPrintable(w.first()));
    }

    void rateTravelsInTheJson()
    {
        platform::DropReading d;
        d.interfaceName = "wbs-1";
        d.qdiscKinds = "tbf";
        d.shaper = "tbf";
        d.shaperRateBytesPerSecond = 5000000;
        d.qdiscDrops = 22;
        const QJsonObject o = DropCounts::toJson(d);
        QCOMPARE(o.value(QStringLiteral("shaper")).toString(), QStringLiteral("tbf"));
        QCOMPARE(o.value(QStringLiteral("shaper_rate_bytes_per_second")).toDouble(), 5e6);
        const DropCounts c = DropCounts::fromJson(o);
        QVERIFY(c.shaped());
        QCOMPARE(c.shaperRateBytesPerSecond, 5e6);
        QVERIFY(!c.counters.contains(QStringLiteral("shaper_rate_bytes_per_second"))); // a setting, not a count
        // A rate without its qdisc's name is not a shaper to name; nor a negative one.
        QJsonObject nameless = o;
        nameless.remove(QStringLiteral("shaper"));
        QVERIFY(!DropCounts::fromJson(nameless).shaped());
        QJsonObject negative = o;
        negative.insert(QStringLiteral("shaper_rate_bytes_per_second"), -5);
        QVERIFY(!DropCounts::fromJson(negative).shaped());
    }
};

QTEST_GUILESS_MAIN(TestShaperLimit)
#include "TestShaperLimit.moc"
