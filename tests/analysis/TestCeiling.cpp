#include "analysis/Ceiling.h"
#include "model/Frame.h"

#include <QTest>

using namespace wb;

class TestCeiling : public QObject
{
    Q_OBJECT
private slots:
    void goodput_data()
    {
        QTest::addColumn<double>("linkMbps");
        QTest::addColumn<int>("mtu");
        QTest::addColumn<bool>("timestamps");
        QTest::addColumn<double>("expected"); // bytes/s, computed by hand: rate/8 x payload/(MTU + 38)

        QTest::newRow("1 Gbit, 1500, timestamps") << 1000.0 << 1500 << true << 117685305.5916775;
        QTest::newRow("1 Gbit, 1500, no timestamps") << 1000.0 << 1500 << false << 118660598.17945383;
        QTest::newRow("1 Gbit, 9000, timestamps") << 1000.0 << 9000 << true << 123755255.58751936;
        QTest::newRow("100 Mbit, 1500, timestamps") << 100.0 << 1500 << true << 11768530.55916775;
        QTest::newRow("10 Gbit, 9000, timestamps") << 10000.0 << 9000 << true << 1237552555.8751936;
        QTest::newRow("unknown speed") << -1.0 << 1500 << true << 0.0;
        QTest::newRow("zero speed") << 0.0 << 1500 << true << 0.0;
        QTest::newRow("MTU too small for headers") << 1000.0 << 52 << true << 0.0;
        QTest::newRow("NaN speed") << qQNaN() << 1500 << true << 0.0;
    }
    void goodput()
    {
        QFETCH(double, linkMbps);
        QFETCH(int, mtu);
        QFETCH(bool, timestamps);
        QFETCH(double, expected);
        const double got = Ceiling::tcpGoodputBytesPerSecond(linkMbps, mtu, timestamps);
        QVERIFY2(qAbs(got - expected) < 1e-3, qPrintable(QString::number(got, 'f', 4)));
    }

    // Issue 12, item 2: the ceiling of the segments a run really sent, from its MSS and address family.
    void goodputForMss_data()
    {
        QTest::addColumn<double>("linkMbps");
        QTest::addColumn<int>("mss");
        QTest::addColumn<bool>("ipv6");
        QTest::addColumn<bool>("timestamps");
        QTest::addColumn<double>("expected"); // rate/8 x MSS/(MSS + IP + TCP + options + 38), by hand

        QTest::newRow("100 Mbit, IPv4, MSS 1448") << 100.0 << 1448 << false << true << 12.5e6 * 1448 / 1538;
        QTest::newRow("100 Mbit, IPv6, MSS 1428") << 100.0 << 1428 << true << true << 12.5e6 * 1428 / 1538;
        QTest::newRow("100 Mbit, IPv4, MSS 1460, no timestamps")
            << 100.0 << 1460 << false << false << 12.5e6 * 1460 / 1538;
        QTest::newRow("100 Mbit, IPv6, MSS 1440, no timestamps")
            << 100.0 << 1440 << true << false << 12.5e6 * 1440 / 1538;
        QTest::newRow("1 Gbit, IPv4, MSS 3948 (MTU 4000)") << 1000.0 << 3948 << false << true << 125e6 * 3948 / 4038;
        QTest::newRow("1 Gbit, IPv6, MSS 8928 (MTU 9000)") << 1000.0 << 8928 << true << true << 125e6 * 8928 / 9038;
        QTest::newRow("unknown MSS") << 1000.0 << 0 << false << true << 0.0;
        QTest::newRow("unknown speed") << -1.0 << 1448 << false << true << 0.0;
    }
    void goodputForMss()
    {
        QFETCH(double, linkMbps);
        QFETCH(int, mss);
        QFETCH(bool, ipv6);
        QFETCH(bool, timestamps);
        QFETCH(double, expected);
        const double got = Ceiling::tcpGoodputForMss(linkMbps, mss, ipv6, timestamps);
        QVERIFY2(qAbs(got - expected) < 1e-3, qPrintable(QString::number(got, 'f', 4)));
        // By frame size it is the same function: the frame the MSS makes gives the same ceiling back.
        if (mss > 0 && linkMbps > 0) {
            const int frame = Frame::frameOf(mss, ipv6, timestamps);
            QCOMPARE(Frame::mssFor(frame, ipv6, timestamps), mss);
            QVERIFY(qAbs(Ceiling::tcpGoodputBytesPerSecond(linkMbps, frame, timestamps, ipv6) - expected) < 1e-3);
        }
    }

    // The figures: a 100 Mbit/s IPv6 tcp-send at line rate (MSS 1428, 11.615 MB/s) read 98.7% of
    // the IPv4 ceiling of 11.769 MB/s; its own ceiling is 11.606 MB/s.
    void ipv6AtLineRate()
    {
        const double v4 = Ceiling::tcpGoodputBytesPerSecond(100, 1500);
        const double v6 = Ceiling::tcpGoodputBytesPerSecond(100, 1500, true, true);
        QCOMPARE(qRound(v4 / 1e3), 11769);
        QCOMPARE(qRound(v6 / 1e3), 11606);
        QCOMPARE(Ceiling::tcpGoodputForMss(100, 1428, true, true), v6);
        QCOMPARE(qRound(Ceiling::percentOf(11.615e6, v4) * 10), 987);
        const double own = Ceiling::percentOf(11.615e6, v6);
        QVERIFY2(own > 99.9 && own < 100.2, qPrintable(QString::number(own))); // within the 1% tolerance: no warning
    }

    // Both directions at once: each direction's wire also carries the other's ACKs, one per two segments.
    void bothWays_data()
    {
        QTest::addColumn<double>("linkMbps");
        QTest::addColumn<int>("mss");
        QTest::addColumn<bool>("ipv6");
        QTest::addColumn<bool>("timestamps");
        QTest::addColumn<double>("expected"); // rate/8 x MSS / (data frame + 38 + ACK on the wire / 2), by hand
        // ACK: IPv4 20 + TCP 20 + timestamps 12 = 52, + 18 of frame = 70 >= 64, + 20 of preamble and gap = 90.
        QTest::newRow("100 Mbit, IPv4, MSS 1448") << 100.0 << 1448 << false << true << 12.5e6 * 1448 / (1538 + 45);
        // IPv6: 40 + 20 + 12 = 72, + 18 = 90, + 20 = 110.
        QTest::newRow("100 Mbit, IPv6, MSS 1428") << 100.0 << 1428 << true << true << 12.5e6 * 1428 / (1538 + 55);
        // No timestamps: 40 + 18 = 58, padded to Ethernet's 64, + 20 = 84.
        QTest::newRow("1 Gbit, IPv4, MSS 1460, no timestamps")
            << 1000.0 << 1460 << false << false << 125e6 * 1460 / (1538 + 42);
        QTest::newRow("1 Gbit, IPv4, MSS 8948 (MTU 9000)")
            << 1000.0 << 8948 << false << true << 125e6 * 8948 / (9038 + 45);
        QTest::newRow("unknown speed") << -1.0 << 1448 << false << true << 0.0;
        QTest::newRow("unknown MSS") << 100.0 << 0 << false << true << 0.0;
    }
    void bothWays()
    {
        QFETCH(double, linkMbps);
        QFETCH(int, mss);
        QFETCH(bool, ipv6);
        QFETCH(bool, timestamps);
        QFETCH(double, expected);
        const double got = Ceiling::tcpGoodputBothWays(linkMbps, mss, ipv6, timestamps);
        QVERIFY2(qAbs(got - expected) < 1e-3, qPrintable(QString::number(got, 'f', 4)));
    }
    // The figure: about 97% of the one-way ceiling at MTU 1500 with delayed ACKs.
    void bothWaysIsAbout97Percent()
    {
        const double oneWay = Ceiling::tcpGoodputForMss(100, 1448, false, true);
        const double both = Ceiling::tcpGoodputBothWays(100, 1448, false, true);
        QCOMPARE(qRound(both / 1e3), 11434);
        QCOMPARE(qRound(Ceiling::percentOf(both, oneWay) * 10), 972);
        // An ACK for every segment (quick ACKs) costs twice as much.
        QCOMPARE(qRound(Ceiling::percentOf(Ceiling::tcpGoodputBothWays(100, 1448, false, true, 1), oneWay) * 10), 945);
    }

    void udpGoodput()
    {
        // 1 Gbit at 1500: 125e6 x 1472/1538; 9000: 125e6 x 8972/9038; unknown link: 0.
        QVERIFY(qAbs(Ceiling::udpGoodputBytesPerSecond(1000, 1500) - 125e6 * 1472 / 1538) < 1e-3);
        QVERIFY(qAbs(Ceiling::udpGoodputBytesPerSecond(1000, 9000) - 125e6 * 8972 / 9038) < 1e-3);
        QCOMPARE(Ceiling::udpGoodputBytesPerSecond(-1, 1500), 0.0);
        QCOMPARE(Ceiling::udpGoodputBytesPerSecond(1000, 28), 0.0);
    }

    void percent_data()
    {
        QTest::addColumn<double>("measured");
        QTest::addColumn<double>("ceiling");
        QTest::addColumn<double>("expected");
        QTest::newRow("half") << 50.0 << 100.0 << 50.0;
        QTest::newRow("above") << 150.0 << 100.0 << 150.0;
        QTest::newRow("netperf 4.86 MiB/s over 1 Gbit") << 4.86 * 1048576 << 117685305.5916775 << 4.3302596992707185;
        QTest::newRow("unknown ceiling") << 50.0 << 0.0 << -1.0;
    }
    void percent()
    {
        QFETCH(double, measured);
        QFETCH(double, ceiling);
        QFETCH(double, expected);
        QVERIFY(qAbs(Ceiling::percentOf(measured, ceiling) - expected) < 1e-9);
    }

    void formatting_data()
    {
        QTest::addColumn<QString>("got");
        QTest::addColumn<QString>("expected");
        QTest::newRow("1 Gbit/s") << Ceiling::formatLinkSpeed(1000) << QStringLiteral("1 Gbit/s");
        QTest::newRow("2.5 Gbit/s") << Ceiling::formatLinkSpeed(2500) << QStringLiteral("2.5 Gbit/s");
        QTest::newRow("1 Tbit/s") << Ceiling::formatLinkSpeed(1e6) << QStringLiteral("1 Tbit/s");
        QTest::newRow("100 Mbit/s") << Ceiling::formatLinkSpeed(100) << QStringLiteral("100 Mbit/s");
        QTest::newRow("unknown speed") << Ceiling::formatLinkSpeed(-1) << QStringLiteral("unknown");
        QTest::newRow("117.7 MB/s") << Ceiling::formatMBps(117685305.59) << QStringLiteral("117.7 MB/s");
        QTest::newRow("4.1 MB/s") << Ceiling::formatMBps(4096000) << QStringLiteral("4.1 MB/s");
        QTest::newRow("62 MB/s") << Ceiling::formatMBps(62e6) << QStringLiteral("62 MB/s");
        QTest::newRow("0.052 MB/s") << Ceiling::formatMBps(52000) << QStringLiteral("0.052 MB/s");
        QTest::newRow("32 KiB") << Ceiling::formatBuffer(32768) << QStringLiteral("32 KiB");
        QTest::newRow("4 MiB") << Ceiling::formatBuffer(4194304) << QStringLiteral("4 MiB");
        QTest::newRow("900 B") << Ceiling::formatBuffer(900) << QStringLiteral("900 B");
        QTest::newRow("8 ms") << Ceiling::formatRtt(8000) << QStringLiteral("8 ms");
        QTest::newRow("250 us") << Ceiling::formatRtt(250) << QStringLiteral("250 us");
        QTest::newRow("1.25 ms") << Ceiling::formatRtt(1250) << QStringLiteral("1.25 ms");
        QTest::newRow("99%") << Ceiling::formatPercent(99.2) << QStringLiteral("99%");
        QTest::newRow("4.3%") << Ceiling::formatPercent(4.33) << QStringLiteral("4.3%");
        QTest::newRow("0.52%") << Ceiling::formatPercent(0.52) << QStringLiteral("0.52%");
    }
    void formatting()
    {
        QFETCH(QString, got);
        QFETCH(QString, expected);
        QCOMPARE(got, expected);
    }
};

QTEST_GUILESS_MAIN(TestCeiling)
#include "TestCeiling.moc"
