// The iperf3 driver's UDP mode (-u -b) against the real `iperf3 -s` (Debian package) on 127.0.0.1.
#include "DirectionRows.h"
#include "Iperf3Server.h"
#include "support/CiRule.h"

#include "protocols/DriverRegistry.h"
#include "wire/iperf3/Iperf3Protocol.h"

#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <atomic>
#include <thread>

using namespace wb;

namespace {

constexpr int kRateMbps = 50;
constexpr int kDurationMs = 2000;
constexpr int kLength = 1460;

class UdpObserver : public RunObserver
{
public:
    void sample(const Sample &) override { count.fetch_add(1); }
    bool stopRequested() const override { return stop.load(); }

    std::atomic_int count{0};
    std::atomic_bool stop{false};
};

RunSpec makeSpec(quint16 port, const QString &protocol, int durationMs = kDurationMs)
{
    RunSpec spec;
    spec.host.name = QStringLiteral("loopback-iperf3");
    spec.host.address = QStringLiteral("127.0.0.1");
    spec.host.port = port;
    spec.host.serverType = QStringLiteral("iperf3");
    spec.host.options.insert(QStringLiteral("iperf3.udp_rate_Mbps"), kRateMbps);
    spec.host.options.insert(QStringLiteral("iperf3.udp_length"), kLength);
    spec.protocol = protocol;
    spec.params.durationMs = durationMs;
    spec.params.streams = 1;
    return spec;
}

/// iperf3's figure for one end of its -J report: "sum_sent" or "sum_received".
QJsonObject endSum(const QJsonObject &report, const char *which)
{
    return report.value(QLatin1String("end")).toObject().value(QLatin1String(which)).toObject();
}

} // namespace

class TestIperf3Udp : public QObject
{
    Q_OBJECT

private:
    Iperf3Server m_server;
    QList<QJsonObject> m_reports;

    bool startServer(Iperf3Server &server)
    {
        const QString error = server.start();
        if (error.isEmpty())
            return true;
        if (wb::test::underCi())
            qFatal("iperf3 server needed under CI=true: %s", qPrintable(error));
        return false;
    }

    bool collectReports()
    {
        for (const QJsonObject &o : m_server.takeReports()) {
            if (o.value(QLatin1String("end")).toObject().contains(QLatin1String("sum_received")))
                m_reports << o;
        }
        return !m_reports.isEmpty();
    }

    /// The server's -J report of the test that just ended.
    void lastServerReport(QJsonObject *last)
    {
        QTRY_VERIFY_WITH_TIMEOUT(collectReports(), 10000);
        *last = m_reports.last();
        m_reports.clear();
    }

    static RunResult runNow(const RunSpec &spec)
    {
        UdpObserver observer;
        auto driver = DriverRegistry::create(spec.protocol);
        RunResult r = driver->run(spec, observer);
        return r;
    }

    static double extra(const RunResult &r, const char *key) { return r.extra.value(QLatin1String(key)).toDouble(); }

    /// Our figures in one line, and what every run at kRateMbps must show: the paced sender at the
    /// target rate (a check of the pacer, not of the machine's speed: loss on a busy machine shows up
    /// in the receiver's count, not here), every datagram counted once, as received or as lost.
    static void checkRun(const RunResult &r)
    {
        QVERIFY2(r.ok(), qPrintable(r.error));
        const double senderMbps = r.senderBytes * 8 / r.seconds / 1e6;
        const qint64 packets = qint64(extra(r, "udp_packets"));
        const qint64 lost = qint64(extra(r, "udp_lost_packets"));
        qInfo("wirebench %s: the receiver counted %lld B in %.3f s = %.2f Mbit/s; the sender %.2f Mbit/s; "
              "%lld of %lld datagrams lost (%.3f %%), jitter %.4f ms, worker thread %.1f %% of a core",
              qPrintable(r.spec.protocol), r.bytes, r.seconds, r.bytes * 8 / r.seconds / 1e6, senderMbps, lost, packets,
              extra(r, "udp_loss_percent"), extra(r, "udp_jitter_ms"), extra(r, "cpu_local_percent"));
        QCOMPARE(packets * kLength, r.senderBytes);
        QVERIFY2(senderMbps > kRateMbps * 0.95 && senderMbps < kRateMbps * 1.05,
                 qPrintable(QString::number(senderMbps)));
        QCOMPARE(extra(r, "udp_target_Mbps"), double(kRateMbps));
        QCOMPARE(extra(r, "udp_loss_percent"), 100.0 * double(lost) / double(packets));
        QVERIFY(extra(r, "udp_jitter_ms") >= 0);
        // Datagrams that arrive after TEST_END are neither received nor lost for iperf3: hence <=.
        QCOMPARE(r.bytes % kLength, qint64(0));
        QVERIFY(r.bytes / kLength + lost <= packets);
        QVERIFY(!r.samples.isEmpty());
    }

private slots:
    void initTestCase()
    {
        for (const char *id : {"iperf3-udp-send", "iperf3-udp-recv"}) {
            const ProtocolInfo *info = DriverRegistry::find(QLatin1String(id));
            QVERIFY(info);
            QCOMPARE(info->family, QStringLiteral("iperf3"));
            QVERIFY(info->timed);
            QCOMPARE(info->hostOptions.size(), 2);
            QCOMPARE(info->hostOptions.at(0).key, QStringLiteral("iperf3.udp_rate_Mbps"));
            QCOMPARE(info->hostOptions.at(0).defaultValue.toInt(), 100);
            QVERIFY(info->hostOptions.at(0).toolTip.contains(QLatin1String("10^6 bit/s")));
            QCOMPARE(info->hostOptions.at(1).key, QStringLiteral("iperf3.udp_length"));
        }
        if (!startServer(m_server))
            QSKIP("iperf3 -s could not be started (install the iperf3 package)");
    }

    void receiverBookkeeping()
    {
        // iperf3's rules: a gap counts as lost, a late datagram is out of order and takes one back.
        iperf3::UdpReceiveStats s;
        s.add(1, 0.0, 0.010);
        s.add(2, 0.1, 0.110);
        s.add(5, 0.2, 0.212); // 3 and 4 missing
        QCOMPARE(s.packets, std::int64_t(5));
        QCOMPARE(s.lost, std::int64_t(2));
        s.add(3, 0.15, 0.3); // late
        QCOMPARE(s.outOfOrder, std::int64_t(1));
        QCOMPARE(s.lost, std::int64_t(1));
        QVERIFY(s.jitter > 0);
        // Constant transit time: no jitter, whatever the offset between the two clocks.
        iperf3::UdpReceiveStats flat;
        for (int i = 1; i <= 100; ++i)
            flat.add(quint64(i), 1000.0 + i * 0.001, 5.0 + i * 0.001);
        QVERIFY(flat.jitter < 1e-9);
        QCOMPARE(flat.lost, std::int64_t(0));

        char datagram[16];
        const iperf3::UdpHeader h{1700000000u, 999999u, 4000000000ull};
        h.write(datagram);
        iperf3::UdpHeader back;
        QVERIFY(iperf3::UdpHeader::read(datagram, 12, false, &back));
        QCOMPARE(back.sec, h.sec);
        QCOMPARE(back.usec, h.usec);
        QCOMPARE(back.counter, h.counter);
        QVERIFY(!iperf3::UdpHeader::read(datagram, 11, false, &back));
        QCOMPARE(iperf3::udpConnectMessage(), std::string("9876"));
        QVERIFY(iperf3::isUdpConnectReply("6789"));
        QVERIFY(!iperf3::isUdpConnectReply("6788"));
    }

    void send()
    {
        const RunResult r = runNow(makeSpec(m_server.port(), QStringLiteral("iperf3-udp-send")));
        checkRun(r);
        if (QTest::currentTestFailed())
            return;
        QJsonObject report;
        lastServerReport(&report);
        const QJsonObject received = endSum(report, "sum_received");
        // The receiver's count is the server's own.
        QCOMPARE(r.bytes, qint64(received.value(QLatin1String("bytes")).toDouble()));
        QCOMPARE(qint64(extra(r, "udp_lost_packets")),
                 qint64(received.value(QLatin1String("lost_packets")).toDouble()));
        QCOMPARE(qint64(extra(r, "udp_packets")), qint64(received.value(QLatin1String("packets")).toDouble()));
    }

    void receive()
    {
        const RunResult r = runNow(makeSpec(m_server.port(), QStringLiteral("iperf3-udp-recv")));
        checkRun(r);
        if (QTest::currentTestFailed())
            return;
        QJsonObject report;
        lastServerReport(&report);
        const QJsonObject sent = endSum(report, "sum_sent");
        // iperf3 3.12's server leaves "sum_received" empty with -R over UDP: its sender figures are the
        // ones to check against, the receiver's count is ours.
        QCOMPARE(endSum(report, "sum_received").value(QLatin1String("bytes")).toDouble(), 0.0);
        QCOMPARE(r.senderBytes, qint64(sent.value(QLatin1String("bytes")).toDouble()));
        QCOMPARE(qint64(extra(r, "udp_packets")), qint64(sent.value(QLatin1String("packets")).toDouble()));
    }

    void realClientForComparison()
    {
        // iperf3 -c -u against the same server: its figures printed next to ours, checked for sense.
        QJsonObject report;
        QVERIFY(m_server.clientReport({QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("%1M").arg(kRateMbps),
                                       QStringLiteral("-l"), QString::number(kLength), QStringLiteral("-t"),
                                       QString::number(kDurationMs / 1000), QStringLiteral("-J")},
                                      &report));
        const QJsonObject theirs = endSum(report, "sum_received");
        const QJsonObject theirSent = endSum(report, "sum_sent");
        QVERIFY2(theirs.value(QLatin1String("bytes")).toDouble() > 0,
                 qPrintable(report.value(QLatin1String("error")).toString()));
        qInfo(
            "iperf3 -c -u -b %dM: server received %.0f B = %.2f Mbit/s; sent %.2f Mbit/s; %.0f of %.0f datagrams lost "
            "(%.3f %%), jitter %.4f ms",
            kRateMbps, theirs.value(QLatin1String("bytes")).toDouble(),
            theirs.value(QLatin1String("bits_per_second")).toDouble() / 1e6,
            theirSent.value(QLatin1String("bits_per_second")).toDouble() / 1e6,
            theirs.value(QLatin1String("lost_packets")).toDouble(), theirs.value(QLatin1String("packets")).toDouble(),
            theirs.value(QLatin1String("lost_percent")).toDouble(),
            theirs.value(QLatin1String("jitter_ms")).toDouble());
        checkRun(runNow(makeSpec(m_server.port(), QStringLiteral("iperf3-udp-send"))));
        // Both tests' reports, so that the next test reads its own.
        QTRY_VERIFY_WITH_TIMEOUT((collectReports(), m_reports.size() >= 2), 10000);
        m_reports.clear();
    }

    void badRate()
    {
        RunSpec spec = makeSpec(m_server.port(), QStringLiteral("iperf3-udp-send"));
        spec.host.options.insert(QStringLiteral("iperf3.udp_rate_Mbps"), 0);
        const RunResult r = runNow(spec);
        QCOMPARE(r.status, RunStatus::Failed);
        QVERIFY(!r.error.contains(QLatin1Char('\n')));
        QVERIFY(r.error.contains(QLatin1String("iperf3.udp_rate_Mbps")));
    }

    void datagramFromFrameSize()
    {
        // Frame 1500 B carries 1472 B of payload behind IPv4 and UDP headers.
        RunSpec spec = makeSpec(m_server.port(), QStringLiteral("iperf3-udp-send"), 1000);
        spec.host.options.remove(QStringLiteral("iperf3.udp_length"));
        spec.frameSize = 1500;
        const RunResult r = runNow(spec);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(int(extra(r, "udp_length")), 1472);
        QCOMPARE(qint64(extra(r, "udp_packets")) * 1472, r.senderBytes);
        QJsonObject report;
        lastServerReport(&report);
        QCOMPARE(report.value(QLatin1String("start"))
                     .toObject()
                     .value(QLatin1String("test_start"))
                     .toObject()
                     .value(QLatin1String("blksize"))
                     .toInt(),
                 1472);
    }

    void stopMidTest()
    {
        // Stop returns within a second as "cancelled", and CLIENT_TERMINATE frees the server at once.
        UdpObserver observer;
        RunResult result;
        std::atomic_bool done{false};
        std::thread worker([&] {
            const RunSpec spec = makeSpec(m_server.port(), QStringLiteral("iperf3-udp-recv"), 30000);
            result = DriverRegistry::create(spec.protocol)->run(spec, observer);
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(observer.count.load() >= 3 || done.load(), 20000);
        const bool early = done.load();
        observer.stop = true;
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 5000);
        worker.join();
        QVERIFY2(!early, qPrintable(result.error));
        QCOMPARE(result.status, RunStatus::Cancelled);
        const RunResult next = runNow(makeSpec(m_server.port(), QStringLiteral("iperf3-udp-send"), 1000));
        QVERIFY2(next.ok(), qPrintable(next.error));
        QVERIFY(next.bytes > 0);
        QTRY_VERIFY_WITH_TIMEOUT((collectReports(), !m_reports.isEmpty()), 10000);
        m_reports.clear();
    }

    void serverKilledMidTest_data()
    {
        test::directionRows(QStringLiteral("iperf3-udp-send"), QStringLiteral("iperf3-udp-recv"));
    }

    void serverKilledMidTest()
    {
        QFETCH(QString, protocol);
        Iperf3Server doomed;
        QVERIFY(startServer(doomed));
        UdpObserver observer;
        RunResult result;
        std::atomic_bool done{false};
        std::thread worker([&] {
            result = DriverRegistry::create(protocol)->run(makeSpec(doomed.port(), protocol, 30000), observer);
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(observer.count.load() >= 3 || done.load(), 20000);
        const bool early = done.load();
        doomed.process().kill();
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 15000);
        worker.join();
        QVERIFY2(!early, qPrintable(result.error));
        qInfo("%s", qPrintable(result.error));
        QCOMPARE(result.status, RunStatus::Failed);
        QVERIFY(!result.error.contains(QLatin1Char('\n')));
        QVERIFY(result.error.startsWith(QLatin1String("loopback-iperf3 (127.0.0.1:")));
        QVERIFY(result.error.contains(QLatin1String("middle of the test")));
    }
};

QTEST_GUILESS_MAIN(TestIperf3Udp)
#include "TestIperf3Udp.moc"
