#include "analysis/BothWays.h"
#include "analysis/Ceiling.h"
#include "EvidenceRows.h"

#include <QTest>

using namespace wb;

namespace {
// Both directions at once over a full-duplex 100 Mbit/s link at MTU 1500: each direction carries 11.43 MB/s while
// the other's ACKs share its wire (one direction alone 11.77 MB/s).
Evidence bothWays(double sendMBps, double receiveMBps, const std::function<void(Evidence &)> &tweak = {})
{
    return test::linkEvidence(3, 100, sendMBps, [&](Evidence &e) {
        e.bothWays = true;
        e.reverseBytesPerSecond = receiveMBps * 1e6;
        e.linkSpeedSource = QStringLiteral("override");
        if (tweak)
            tweak(e);
    });
}
} // namespace

class TestBothWays : public QObject
{
    Q_OBJECT
private slots:
    void ceilingIsPerDirection()
    {
        const Evidence e = bothWays(11.4, 11.4);
        QCOMPARE(qRound(e.ceilingBytesPerSecond()), qRound(Ceiling::tcpGoodputBothWays(100, 1448, false, true)));
        QCOMPARE(qRound(e.oneWayCeilingBytesPerSecond()), qRound(Ceiling::tcpGoodputForMss(100, 1448, false, true)));
        // The run's own MSS when it is known.
        const Evidence jumbo = bothWays(110, 110, [](Evidence &x) {
            x.linkSpeedMbps = 1000;
            x.mss = 8948;
        });
        QCOMPARE(qRound(jumbo.ceilingBytesPerSecond()), qRound(Ceiling::tcpGoodputBothWays(1000, 8948, false, true)));
    }

    void sentence_data()
    {
        QTest::addColumn<Evidence>("evidence");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("warnings");
        const QString perDirection
            = QStringLiteral("of what each direction of the 100 Mbit/s link at MTU 1500 carries while "
                             "the other direction's ACKs share it (11.4 MB/s, full duplex)");
        QTest::newRow("full duplex, both at line rate")
            << bothWays(11.42, 11.40)
            << QStringLiteral("at line rate both ways at once: send 11.4 MB/s (100%), receive "
                              "11.4 MB/s (100%) ")
                + perDirection
            << QStringList();
        const QString tail
            = QStringLiteral("of what one direction alone carries on the 100 Mbit/s link at MTU 1500 (11.8 "
                             "MB/s), where a full-duplex link carries 11.4 MB/s each way at once: a half-duplex "
                             "link or a shared medium (Wi-Fi, a hub, one shaper or queue for both directions)");
        const QString bounded = QStringLiteral("the two directions share one bound: send 5.9 MB/s and receive 5.9 MB/s "
                                               "add up to 11.8 MB/s, 100% ")
            + tail;
        QTest::newRow("half duplex: the sum is one direction's")
            << bothWays(5.90, 5.86) << bounded << QStringList{bounded};
        const QString unequal = QStringLiteral("the two directions share one bound: send 9 MB/s and receive 2.5 MB/s "
                                               "add up to 11.5 MB/s, 98% ")
            + tail;
        QTest::newRow("shared, unevenly") << bothWays(9.0, 2.5) << unequal << QStringList{unequal};
        QTest::newRow("one direction slow, the other at line rate")
            << bothWays(11.40, 3.0)
            << QStringLiteral("the receive direction is below line rate: send 11.4 MB/s (100%), receive 3 MB/s (26%) ")
                + perDirection
            << QStringList{QStringLiteral("the receive direction's 3 MB/s is far below what each direction of the 100 "
                                          "Mbit/s link at MTU 1500 carries at once: 26% of 11.4 MB/s")};
        QTest::newRow("above what one direction alone carries")
            << bothWays(12.3, 11.4)
            << QStringLiteral("above the line-rate ceiling: send 12.3 MB/s (108%), receive 11.4 MB/s (100%) ")
                + perDirection
                + QStringLiteral(", and 12.3 MB/s above what one direction alone carries on the 100 Mbit/s link at "
                                 "MTU 1500 (11.8 MB/s), which no direction can exceed, so a cache, compression or a "
                                 "counting error")
            << QStringList{QStringLiteral(
                   "the send direction's 12.3 MB/s is above what one direction alone carries on the 100 Mbit/s link "
                   "at MTU 1500 (11.8 MB/s, 105% of it), which no direction can exceed: a cache, compression or a "
                   "counting error")};
        // Above the shared figure (one ACK per two segments expected) but within one direction's own ceiling: Linux
        // acks less often, and a healthy run gets no alarm. The real tcp-bidir and iperf3 --bidir on a 250 Mbit/s
        // veth at MTU 1500 in one minute: 28.69 / 29.06 and 29.03 / 29.01 MB/s.
        QTest::newRow("250 Mbit/s both ways, fewer ACKs than one per two segments")
            << bothWays(28.69, 29.06, [](Evidence &e) { e.linkSpeedMbps = 250; })
            << QStringLiteral("at line rate both ways at once: send 28.7 MB/s (100%), receive 29.1 MB/s (102%) of what "
                              "each direction of the 250 Mbit/s link at MTU 1500 carries while the other direction's "
                              "ACKs share it (28.6 MB/s, full duplex)")
            << QStringList();
        QTest::newRow("link speed unknown")
            << bothWays(900, 850,
                        [](Evidence &e) {
                            e.linkSpeedMbps = -1;
                            e.linkNote = QStringLiteral("loopback interface lo reports no speed");
                        })
            << QStringLiteral(
                   "link speed unknown (loopback interface lo reports no speed): send 900 MB/s, receive 850 MB/s "
                   "at once; set it per host to judge each direction against line rate")
            << QStringList();
    }

    void sentence()
    {
        QFETCH(Evidence, evidence);
        QFETCH(QString, expected);
        QFETCH(QStringList, warnings);
        QCOMPARE(Bottleneck::sentence(evidence), expected);
        QCOMPARE(Bottleneck::warnings(evidence), warnings);
    }

    void evidenceFromRuns()
    {
        // A run with a second figure makes evidence of both directions; the median of each over the runs.
        RunResultList runs;
        for (double receive : {11.0, 11.2, 11.3}) {
            RunResult r;
            r.status = RunStatus::Ok;
            r.spec.protocol = QStringLiteral("tcp-bidir");
            r.spec.frameSize = 1500;
            r.bytes = 11400000;
            r.seconds = 1;
            r.reverse = RunResult::Reverse{qint64(receive * 1e6), 1.0, 0, {}};
            r.extra.insert(QStringLiteral("link_speed_Mbps"), 100);
            runs << r;
        }
        const Evidence e = Bottleneck::evidenceFrom(runs);
        QVERIFY(e.bothWays);
        QCOMPARE(e.reverseBytesPerSecond, 11.2e6);
        QCOMPARE(e.measuredBytesPerSecond, 11.4e6);
        runs.first().reverse.reset();
        runs.removeLast();
        runs.removeLast();
        QVERIFY(!Bottleneck::evidenceFrom(runs).bothWays);
    }
};

QTEST_GUILESS_MAIN(TestBothWays)
#include "TestBothWays.moc"
