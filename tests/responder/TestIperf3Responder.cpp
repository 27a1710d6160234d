// wirebenchd's iperf3 port (Iperf3Responder) against the real `iperf3 -c` (Debian package) and against
// Wirebench's own iperf3 driver, all on 127.0.0.1.
#include "responder/Iperf3Responder.h"
#include "protocols/DriverRegistry.h"
#include "support/CiRule.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTest>
#include <QtEndian>

#include <memory>

using namespace wb;

namespace {

class NullObserver : public RunObserver
{
public:
    void sample(const Sample &) override { }
    bool stopRequested() const override { return false; }
};

/// What one run of the real client gave: its exit code and its -J report. iperf 3.12 with -J exits 0 even
/// after an error, so the report's "error" is what tells.
struct ClientRun
{
    int exitCode = -1;
    QJsonObject report;
    QString error; ///< the report's "error", empty when none
    QString stderrText;

    /// A figure of one end's sum: which is "sum_sent" or "sum_received", key "bytes", "packets", ...
    double sum(const char *which, const char *key) const
    {
        return report.value(QLatin1String("end"))
            .toObject()
            .value(QLatin1String(which))
            .toObject()
            .value(QLatin1String(key))
            .toDouble();
    }
    qint64 sumBytes(const char *which) const { return qint64(sum(which, "bytes")); }
};

bool within(qint64 a, qint64 b, double fraction)
{
    return b > 0 && std::abs(double(a - b)) <= fraction * double(b);
}

} // namespace

class TestIperf3Responder : public QObject
{
    Q_OBJECT

private:
    QString m_iperf3;
    QString m_missing;
    std::unique_ptr<Iperf3Responder> m_responder;
    QStringList m_log;

    ResponderConfig testConfig() const
    {
        ResponderConfig config;
        config.address = QHostAddress(QHostAddress::LocalHost);
        config.port = 0;
        config.maxDurationMs = 10000;
        config.handshakeTimeoutMs = 1500; // the garbage cases wait this long
        config.idleTimeoutMs = 5000;
        return config;
    }

    ClientRun runClient(quint16 port, const QStringList &args)
    {
        QProcess process;
        process.setProgram(m_iperf3);
        process.setArguments(QStringList{QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                         QString::number(port), QStringLiteral("-J")}
                             + args);
        process.start();
        ClientRun run;
        if (!process.waitForStarted(5000) || !process.waitForFinished(30000)) {
            process.kill();
            process.waitForFinished(2000);
            run.error = QStringLiteral("iperf3 -c did not finish within 30 s");
            return run;
        }
        run.exitCode = process.exitCode();
        run.stderrText = QString::fromLocal8Bit(process.readAllStandardError());
        run.report = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        run.error = run.report.value(QLatin1String("error")).toString();
        return run;
    }

    /// The responder's record of the test that just ended (records are added before the log line is).
    /// An empty record (completed false) when none came within 10 s.
    Iperf3TestRecord waitForRecord(int countBefore)
    {
        if (!QTest::qWaitFor([&] { return m_responder->tests().size() > countBefore; }, 10000))
            return {};
        const QList<Iperf3TestRecord> records = m_responder->tests();
        return records.size() > countBefore ? records.last() : Iperf3TestRecord{};
    }

    /// A 2 s run of one of Wirebench's iperf3 drivers against the responder.
    RunSpec driverSpec(const QString &protocol, int streams) const
    {
        RunSpec spec;
        spec.host.name = QStringLiteral("wirebenchd-iperf3");
        spec.host.address = QStringLiteral("127.0.0.1");
        spec.host.port = m_responder->port();
        spec.host.serverType = QStringLiteral("iperf3");
        spec.protocol = protocol;
        spec.params.durationMs = 2000;
        spec.params.streams = streams;
        return spec;
    }

    bool requireIperf3() { return !m_iperf3.isEmpty(); }

private slots:
    void initTestCase()
    {
        m_iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
        if (m_iperf3.isEmpty()) {
            m_missing = QStringLiteral("iperf3 is not installed (apt-get install iperf3)");
            if (wb::test::underCi())
                QFAIL(qPrintable(QStringLiteral("the real iperf3 client is needed under CI=true: %1").arg(m_missing)));
        }
        m_responder = std::make_unique<Iperf3Responder>(testConfig());
        connect(m_responder.get(), &Iperf3Responder::logLine, this, [this](const QString &line) {
            m_log << line;
            qInfo("responder: %s", qPrintable(line));
        });
        QString error;
        QVERIFY2(m_responder->start(&error), qPrintable(error));
        QVERIFY(m_responder->port() > 0);
    }

    void cleanupTestCase()
    {
        if (m_responder)
            m_responder->stop();
    }

    void realClient_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("reverse");
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("mss");
        QTest::newRow("plain") << QStringList{} << false << 1 << 0;
        QTest::newRow("-R") << QStringList{QStringLiteral("-R")} << true << 1 << 0;
        QTest::newRow("-P 2") << QStringList{QStringLiteral("-P"), QStringLiteral("2")} << false << 2 << 0;
        QTest::newRow("-R -P 2") << QStringList{QStringLiteral("-R"), QStringLiteral("-P"), QStringLiteral("2")} << true
                                 << 2 << 0;
        QTest::newRow("-M 1400") << QStringList{QStringLiteral("-M"), QStringLiteral("1400")} << false << 1 << 1400;
        QTest::newRow("-R -M 1400") << QStringList{QStringLiteral("-R"), QStringLiteral("-M"), QStringLiteral("1400")}
                                    << true << 1 << 1400;
    }

    void realClient()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        QFETCH(QStringList, args);
        QFETCH(bool, reverse);
        QFETCH(int, streams);
        QFETCH(int, mss);
        const int before = m_responder->tests().size();
        const ClientRun run
            = runClient(m_responder->port(), QStringList{QStringLiteral("-t"), QStringLiteral("2")} + args);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error + run.stderrText));
        QCOMPARE(run.exitCode, 0);
        const qint64 sent = run.sumBytes("sum_sent");
        const qint64 received = run.sumBytes("sum_received");
        QVERIFY(sent > 0);
        QVERIFY(received > 0);

        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY2(rec.completed, rec.problem.c_str());
        QVERIFY(rec.problem.empty());
        QCOMPARE(rec.reverse, reverse);
        QCOMPARE(rec.streams, streams);
        QCOMPARE(rec.timeSeconds, 2);
        // The client's own count: what it sent, or with -R what it received. Ours the other end of it.
        const qint64 clientOwn = reverse ? received : sent;
        const qint64 fromUs = reverse ? sent : received;
        QCOMPARE(rec.clientBytes, clientOwn); // the results exchange carried it to us intact
        QCOMPARE(fromUs, rec.bytes);          // and ours to the client
        qInfo("iperf3 -c %s: client %s %lld B, responder %s %lld B (%.3f %% apart), %.1f MB/s by the client's receiver "
              "line",
              qPrintable(args.join(QLatin1Char(' '))), reverse ? "received" : "sent", clientOwn,
              reverse ? "sent" : "received", rec.bytes,
              100.0 * std::abs(double(rec.bytes - clientOwn)) / double(clientOwn),
              run.report.value(QLatin1String("end"))
                      .toObject()
                      .value(QLatin1String("sum_received"))
                      .toObject()
                      .value(QLatin1String("bits_per_second"))
                      .toDouble()
                  / 8e6);
        QVERIFY2(within(rec.bytes, clientOwn, 0.01),
                 qPrintable(QStringLiteral("responder %1 B vs client %2 B").arg(rec.bytes).arg(clientOwn)));
        if (mss > 0) {
            // 1400 B minus 12 B of TCP timestamps: the clamp reached the responder's data socket.
            QVERIFY2(rec.mss > 0 && rec.mss <= mss, qPrintable(QStringLiteral("mss %1 B").arg(rec.mss)));
        }
    }

    void busyServerAnswersAccessDenied()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        const int before = m_responder->tests().size();
        QProcess first;
        first.setProgram(m_iperf3);
        first.setArguments({QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                            QString::number(m_responder->port()), QStringLiteral("-t"), QStringLiteral("3"),
                            QStringLiteral("-J")});
        first.start();
        QVERIFY(first.waitForStarted(5000));
        QTRY_VERIFY_WITH_TIMEOUT(m_responder->isBusy(), 5000);

        const ClientRun second = runClient(m_responder->port(), {QStringLiteral("-t"), QStringLiteral("1")});
        qInfo("second client: exit %d, error \"%s\"", second.exitCode, qPrintable(second.error));
        QVERIFY2(second.error.contains(QLatin1String("the server is busy running a test")), qPrintable(second.error));

        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(first.exitCode(), 0);
        const QJsonObject report = QJsonDocument::fromJson(first.readAllStandardOutput()).object();
        QVERIFY2(!report.contains(QLatin1String("error")), qPrintable(report.value(QLatin1String("error")).toString()));
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY(rec.completed);
        QTRY_VERIFY(m_log.filter(QStringLiteral("refused: busy with a test")).size() > 0);
    }

    void realClientBidir_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("--bidir") << QStringList{QStringLiteral("--bidir")};
        QTest::newRow("--bidir -P 2") << QStringList{QStringLiteral("--bidir"), QStringLiteral("-P"),
                                                     QStringLiteral("2")};
    }

    void realClientBidir()
    {
        // The real iperf3 -c --bidir: both directions at once, the client's sending streams opened first. The
        // client's report of our end is our record exactly: what we received of its streams (sum_received) and
        // what we sent on ours (sum_sent_bidir_reverse); its own counts reach our record intact.
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        QFETCH(QStringList, args);
        const int before = m_responder->tests().size();
        m_log.clear();
        const ClientRun run
            = runClient(m_responder->port(), QStringList{QStringLiteral("-t"), QStringLiteral("2")} + args);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error + run.stderrText));
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY(rec.completed);
        QVERIFY(rec.bidir);
        QCOMPARE(rec.streams, args.size() > 1 ? 2 : 1);
        const qint64 received = run.sumBytes("sum_received");
        const qint64 sent = run.sumBytes("sum_sent_bidir_reverse");
        qInfo(
            "iperf3 -c %s: client sent %lld B, we received %lld B (the client's report of us: %lld B); we sent %lld B "
            "(its report: %lld B), it received %lld B",
            qPrintable(args.join(QLatin1Char(' '))), run.sumBytes("sum_sent"), rec.bytes, received, rec.sentBytes, sent,
            run.sumBytes("sum_received_bidir_reverse"));
        QVERIFY(rec.bytes > 0 && rec.sentBytes > 0);
        QCOMPARE(received, qint64(rec.bytes));
        QCOMPARE(sent, qint64(rec.sentBytes));
        QCOMPARE(qint64(rec.clientSentBytes), run.sumBytes("sum_sent"));
        QCOMPARE(qint64(rec.clientReceivedBytes), run.sumBytes("sum_received_bidir_reverse"));
        QTRY_VERIFY(!m_log.filter(QStringLiteral("iperf3 tcp-bidir (both ways at once, --bidir)")).isEmpty());
        const QString line = m_log.filter(QStringLiteral("tcp-bidir")).first();
        QVERIFY2(line.contains(QStringLiteral("received %1 B").arg(rec.bytes))
                     && line.contains(QStringLiteral("; sent %1 B").arg(rec.sentBytes)),
                 qPrintable(line));
    }

    void udpBidirIsRefusedCleanly()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        const ClientRun bidir
            = runClient(m_responder->port(),
                        {QStringLiteral("-u"), QStringLiteral("--bidir"), QStringLiteral("-t"), QStringLiteral("1")});
        qInfo("iperf3 -c -u --bidir: exit %d, error \"%s\"", bidir.exitCode, qPrintable(bidir.error));
        QVERIFY(bidir.error.contains(QLatin1String("not implemented")));
        QTRY_VERIFY(m_log.filter(QStringLiteral("a bidirectional UDP test (-u --bidir) was asked")).size() == 1);

        // The server goes on serving.
        const int before = m_responder->tests().size();
        const ClientRun tcp = runClient(m_responder->port(), {QStringLiteral("-t"), QStringLiteral("1")});
        QVERIFY2(tcp.error.isEmpty(), qPrintable(tcp.error));
        QVERIFY(tcp.sumBytes("sum_received") > 0);
        QVERIFY(waitForRecord(before).completed);
    }

    void ownDriverBidir()
    {
        // Our iperf3-bidir against our iperf3 port: the first figure is the server's count of what we sent, the
        // second ours of what it sent, each equal to the other end's record.
        const int before = m_responder->tests().size();
        NullObserver observer;
        const RunResult r = DriverRegistry::create(QStringLiteral("iperf3-bidir"))
                                ->run(driverSpec(QStringLiteral("iperf3-bidir"), 2), observer);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.bothWays());
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY(rec.completed && rec.bidir);
        QCOMPARE(r.bytes, qint64(rec.bytes));
        QCOMPARE(r.reverse->senderBytes, qint64(rec.sentBytes));
        QCOMPARE(r.senderBytes, qint64(rec.clientSentBytes));
        QCOMPARE(r.reverse->bytes, qint64(rec.clientReceivedBytes));
        QCOMPARE(r.extra.value(QStringLiteral("streams")).toInt(), 2);
        qInfo("iperf3-bidir against our port: send %.1f MB/s, receive %.1f MB/s", r.megabytesPerSecond(),
              r.reverse->megabytesPerSecond());
    }

    void realClientUdp_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("reverse");
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("length"); // the datagram payload, 0 = the client's choice
        // With -R the client receives: -w 4M gives its socket room for a few hundred ms of datagrams, so
        // that a busy machine scheduling it late does not show as loss (and sets our buffers too).
        const QString u = QStringLiteral("-u"), b = QStringLiteral("-b"), rate = QStringLiteral("50M");
        const QStringList r{QStringLiteral("-R"), QStringLiteral("-w"), QStringLiteral("4M")};
        const QStringList wide{QStringLiteral("-P"), QStringLiteral("2"), QStringLiteral("-l"), QStringLiteral("1400"),
                               QStringLiteral("--udp-counters-64bit")};
        QTest::newRow("-u -b 50M") << QStringList{u, b, rate} << false << 1 << 0;
        QTest::newRow("-u -R -w 4M -b 50M") << QStringList{u, b, rate} + r << true << 1 << 0;
        QTest::newRow("-u -P 2 -l 1400 --udp-counters-64bit") << QStringList{u, b, rate} + wide << false << 2 << 1400;
        QTest::newRow("-u -R -w 4M -P 2 -l 1400 --udp-counters-64bit")
            << QStringList{u, b, rate} + r + wide << true << 2 << 1400;
    }

    /// The real iperf3 -c -u against the responder: the figures the client prints for our end are the ones
    /// the responder recorded, and the ones it counted itself reached the responder.
    void realClientUdp()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        QFETCH(QStringList, args);
        QFETCH(bool, reverse);
        QFETCH(int, streams);
        QFETCH(int, length);
        const int before = m_responder->tests().size();
        const ClientRun run
            = runClient(m_responder->port(), QStringList{QStringLiteral("-t"), QStringLiteral("2")} + args);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error + run.stderrText));
        QCOMPARE(run.exitCode, 0);
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY2(rec.completed, rec.problem.c_str());
        QVERIFY(rec.problem.empty());
        QVERIFY(rec.udp);
        QCOMPARE(rec.reverse, reverse);
        QCOMPARE(rec.streams, streams);
        QCOMPARE(rec.udpTargetBitsPerSec, qint64(50000000));
        if (length > 0)
            QCOMPARE(rec.blockSize, length);

        const qint64 sentBytes = run.sumBytes("sum_sent");
        const qint64 sentPackets = qint64(run.sum("sum_sent", "packets"));
        const qint64 receivedBytes = run.sumBytes("sum_received");
        const qint64 receivedPackets = qint64(run.sum("sum_received", "packets"));
        const qint64 lost = qint64(run.sum("sum_received", "lost_packets"));
        const double receivedMbps = run.sum("sum_received", "bits_per_second") / 1e6;
        qInfo("iperf3 -c %s: sent %lld B in %lld datagrams, received %lld B at %.2f Mbit/s, lost %lld of %lld (%.3f "
              "%%), jitter %.4f ms; "
              "responder %s %lld B, %lld datagrams, lost %lld, jitter %.4f ms",
              qPrintable(args.join(QLatin1Char(' '))), sentBytes, sentPackets, receivedBytes, receivedMbps, lost,
              receivedPackets, run.sum("sum_received", "lost_percent"), run.sum("sum_received", "jitter_ms"),
              reverse ? "sent" : "received", rec.bytes, rec.udpPackets, rec.udpLost, rec.udpJitterMs);
        QVERIFY(sentBytes > 0);
        QVERIFY(receivedBytes > 0);
        QVERIFY(sentPackets > 0);
        if (reverse) {
            // We sent: our counts are the client's sender line, its receiver line reached us.
            QCOMPARE(sentBytes, rec.bytes);
            QCOMPARE(sentPackets, rec.udpPackets);
            QCOMPARE(rec.clientBytes, receivedBytes);
            QCOMPARE(rec.udpLost, lost);
            // Paced to -b per stream: the client's receiver rate near the target (a check of the pacer,
            // far below what loopback carries; generous for a busy machine).
            QVERIFY2(std::abs(receivedMbps - 50.0 * streams) <= 0.1 * 50.0 * streams,
                     qPrintable(QString::number(receivedMbps)));
        } else {
            // We received: the client's receiver line is our count.
            QCOMPARE(receivedBytes, rec.bytes);
            QCOMPARE(receivedPackets, rec.udpPackets);
            QCOMPARE(lost, rec.udpLost);
            QCOMPARE(rec.clientBytes, sentBytes);
            QVERIFY(std::abs(run.sum("sum_received", "jitter_ms") - rec.udpJitterMs) < 1e-6);
            // Datagrams that arrive after TEST_END are neither received nor lost for iperf3.
            QVERIFY(receivedPackets <= sentPackets);
            QVERIFY(rec.udpOutOfOrder >= 0);
        }
        if (length > 0) {
            QCOMPARE(sentBytes, sentPackets * length);
            QCOMPARE(rec.bytes % length, qint64(0));
        }
        // No loss expected on loopback at 50 Mbit/s; a noisy machine may drop a few.
        QVERIFY2(lost >= 0 && double(lost) <= 0.01 * double(receivedPackets),
                 qPrintable(QStringLiteral("%1 of %2 lost").arg(lost).arg(receivedPackets)));
        // The log line names the direction and carries the loss (log lines arrive through the event loop).
        const QString kind
            = reverse ? QStringLiteral("udp-recv (server → client, -R)") : QStringLiteral("udp-send (client → server)");
        QTRY_COMPARE(m_log.filter(QString::fromStdString(rec.client) + QStringLiteral(": iperf3 ") + kind)
                         .filter(QStringLiteral("datagrams ("))
                         .size(),
                     1);
    }

    void udpReverseIsPacedByMaxRate()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        // --max-rate 1 MB/s caps what we send whatever -b asks: 8 Mbit/s rather than 50.
        ResponderConfig config = testConfig();
        config.maxRateBytesPerSec = 1000000;
        Iperf3Responder capped(config);
        QVERIFY(capped.start());
        const ClientRun run
            = runClient(capped.port(),
                        {QStringLiteral("-u"), QStringLiteral("-R"), QStringLiteral("-b"), QStringLiteral("50M"),
                         QStringLiteral("-l"), QStringLiteral("1400"), QStringLiteral("-t"), QStringLiteral("2")});
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QTRY_COMPARE(capped.tests().size(), 1);
        const Iperf3TestRecord rec = capped.tests().constFirst();
        qInfo("iperf3 -c -u -R -b 50M against --max-rate 1 MB/s: responder sent %lld B in %.3f s, client received %.2f "
              "Mbit/s",
              rec.bytes, rec.seconds, run.sum("sum_received", "bits_per_second") / 1e6);
        QVERIFY(rec.completed);
        QVERIFY(rec.bytes > 0);
        // The pacer never runs ahead of the cap by more than a datagram.
        QVERIFY2(double(rec.bytes) <= 1000000.0 * rec.seconds + 1400, qPrintable(QString::number(rec.bytes)));
        QCOMPARE(run.sumBytes("sum_sent"), rec.bytes);
    }

    void limitsApply()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        // --max-duration (10 s here): refused before any data flows.
        const ClientRun tooLong = runClient(m_responder->port(), {QStringLiteral("-t"), QStringLiteral("20")});
        qInfo("iperf3 -c -t 20 against --max-duration 10: error \"%s\"", qPrintable(tooLong.error));
        QVERIFY(tooLong.error.contains(QLatin1String("test duration")));
        QTRY_VERIFY(m_log.filter(QStringLiteral("allows at most 10 s (--max-duration)")).size() == 1);

        // --allow: 127.0.0.1 is not in 192.0.2.0/24.
        ResponderConfig config = testConfig();
        config.allow << QHostAddress::parseSubnet(QStringLiteral("192.0.2.0/24"));
        Iperf3Responder fenced(config);
        QStringList fencedLog;
        connect(&fenced, &Iperf3Responder::logLine, this, [&fencedLog](const QString &line) { fencedLog << line; });
        QVERIFY(fenced.start());
        const ClientRun outsider = runClient(fenced.port(), {QStringLiteral("-t"), QStringLiteral("1")});
        qInfo("iperf3 -c from outside --allow: error \"%s\"", qPrintable(outsider.error));
        QVERIFY(outsider.error.contains(QLatin1String("authorization failed")));
        QTRY_VERIFY(
            fencedLog.filter(QStringLiteral("is not in the networks this wirebenchd serves (--allow 192.0.2.0/24)"))
                .size()
            == 1);
    }

    void stopMidTestTerminatesTheClient()
    {
        if (!requireIperf3())
            QSKIP(qPrintable(m_missing));
        Iperf3Responder own(testConfig());
        QVERIFY(own.start());
        QProcess client;
        client.setProgram(m_iperf3);
        client.setArguments({QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                             QString::number(own.port()), QStringLiteral("-t"), QStringLiteral("10"),
                             QStringLiteral("-i"), QStringLiteral("0.2"), QStringLiteral("--forceflush")});
        client.setProcessChannelMode(QProcess::MergedChannels);
        client.start();
        QVERIFY(client.waitForStarted(5000));
        // The first interval report: data is flowing.
        QByteArray output;
        QTRY_VERIFY_WITH_TIMEOUT((output += client.readAll()).contains("bits/sec"), 10000);
        own.stop();
        QVERIFY(client.waitForFinished(10000));
        output += client.readAll();
        QVERIFY2(output.contains("the server has terminated"), output.right(400).constData());
        QCOMPARE(own.tests().size(), 1);
        QCOMPARE(own.tests().constFirst().problem, std::string("wirebenchd is shutting down"));
        QVERIFY(own.tests().constFirst().bytes > 0);
    }

    void garbageOnControlPort()
    {
        const quint16 port = m_responder->port();
        auto exchange = [port](const QByteArray &send, int waitMs) {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, port);
            if (!s.waitForConnected(5000))
                return QByteArray("no connection");
            s.write(send);
            s.waitForBytesWritten(1000);
            QByteArray reply;
            QElapsedTimer clock;
            clock.start();
            while (clock.elapsed() < waitMs && s.state() == QAbstractSocket::ConnectedState) {
                if (s.waitForReadyRead(100))
                    reply += s.readAll();
            }
            return reply + s.readAll();
        };
        auto errorCode = [](const QByteArray &reply) {
            // PARAM_EXCHANGE, then SERVER_ERROR with iperf3's error number.
            return reply.size() == 10 && reply.at(0) == 9 && qint8(reply.at(1)) == -2
                ? qFromBigEndian<qint32>(reply.constData() + 2)
                : -1;
        };
        const QByteArray cookie(37, 'x');
        // A length prefix of -1: refused as "unable to receive parameters".
        QCOMPARE(errorCode(exchange(cookie + QByteArray("\xff\xff\xff\xff", 4) + "junk", 3000)), 114);
        // A plausible length, but not JSON.
        QCOMPARE(errorCode(exchange(cookie + QByteArray("\0\0\0\x05", 4) + "{bad}", 3000)), 114);
        // JSON with strings where iperf3 puts numbers.
        const QByteArray odd = R"({"tcp":true,"time":"forever","parallel":1})";
        QByteArray length(4, '\0');
        qToBigEndian<quint32>(quint32(odd.size()), length.data());
        QCOMPARE(errorCode(exchange(cookie + length + odd, 3000)), 114);
        // An HTTP request: shorter than a cookie, then silence: dropped after the handshake timeout.
        QCOMPARE(exchange("GET / HTTP/1.0\r\n\r\n", 4000), QByteArray());
        // Random bytes, and a connection that closes at once.
        QByteArray noise(300, '\0');
        for (int i = 0; i < noise.size(); ++i)
            noise[i] = char((i * 131 + 7) % 256);
        exchange(noise, 3000);
        exchange(QByteArray(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(m_log.filter(QStringLiteral("no cookie within 1500 ms")).size() == 1, 5000);

        if (!requireIperf3())
            QSKIP(qPrintable(m_missing + QStringLiteral(" (the garbage cases passed)")));
        const int before = m_responder->tests().size();
        const ClientRun after = runClient(port, {QStringLiteral("-t"), QStringLiteral("1")});
        QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
        QVERIFY(waitForRecord(before).completed);
    }

    void ownDriverBothDirections_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::newRow("iperf3-send") << QStringLiteral("iperf3-send");
        QTest::newRow("iperf3-recv") << QStringLiteral("iperf3-recv");
    }

    void ownDriverBothDirections()
    {
        QFETCH(QString, protocol);
        const RunSpec spec = driverSpec(protocol, 2);
        const int before = m_responder->tests().size();
        NullObserver observer;
        const RunResult result = DriverRegistry::create(protocol)->run(spec, observer);
        QVERIFY2(result.status == RunStatus::Ok, qPrintable(result.error));
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY(rec.completed);
        QCOMPARE(rec.streams, 2);
        QCOMPARE(rec.reverse, protocol == QLatin1String("iperf3-recv"));
        QVERIFY(result.bytes > 0);
        if (rec.reverse) {
            QCOMPARE(result.senderBytes, rec.bytes); // our count reached the driver
            QCOMPARE(rec.clientBytes, result.bytes); // the driver's count reached us
        } else {
            QCOMPARE(result.bytes, rec.bytes); // the driver reports the receiver's (our) count
            QCOMPARE(rec.clientBytes, result.senderBytes);
        }
        qInfo("%s: driver %lld B in %.3f s, responder %lld B", qPrintable(protocol), result.bytes, result.seconds,
              rec.bytes);
        // Sender and receiver counts differ by what sat in the socket buffers when the receiver stopped
        // counting (a few MB per stream on loopback); a sanity bound, the exact checks are above.
        QVERIFY(within(result.senderBytes, result.bytes, 0.05));
    }

    void ownUdpDriver_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::newRow("iperf3-udp-send") << QStringLiteral("iperf3-udp-send");
        QTest::newRow("iperf3-udp-recv") << QStringLiteral("iperf3-udp-recv");
    }

    /// Wirebench's own UDP drivers against the responder: the loss figures of the receiving end reach the
    /// other, and the driver's result carries them.
    void ownUdpDriver()
    {
        QFETCH(QString, protocol);
        constexpr int kLength = 1400;
        RunSpec spec = driverSpec(protocol, 1);
        spec.host.options.insert(QStringLiteral("iperf3.udp_rate_Mbps"), 50);
        spec.host.options.insert(QStringLiteral("iperf3.udp_length"), kLength);
        // Room for a few hundred ms of datagrams at both ends (-w for the responder), so that a busy
        // machine scheduling a receiver late does not show as loss.
        spec.params.sendBufferBytes = 4 * 1024 * 1024;
        spec.params.recvBufferBytes = 4 * 1024 * 1024;
        const int before = m_responder->tests().size();
        NullObserver observer;
        const RunResult result = DriverRegistry::create(protocol)->run(spec, observer);
        QVERIFY2(result.status == RunStatus::Ok, qPrintable(result.error));
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY2(rec.completed, rec.problem.c_str());
        QVERIFY(rec.udp);
        QCOMPARE(rec.blockSize, kLength);
        QCOMPARE(rec.udpTargetBitsPerSec, qint64(50000000));
        const bool reverse = protocol == QLatin1String("iperf3-udp-recv");
        QCOMPARE(rec.reverse, reverse);
        QVERIFY(result.bytes > 0);
        for (const char *key : {"udp_packets", "udp_lost_packets", "udp_loss_percent", "udp_jitter_ms"})
            QVERIFY2(result.extra.contains(QLatin1String(key)), key);
        const qint64 packets = qint64(result.extra.value(QLatin1String("udp_packets")).toDouble());
        const qint64 lost = qint64(result.extra.value(QLatin1String("udp_lost_packets")).toDouble());
        qInfo("%s: driver %lld B in %.3f s, %lld of %lld datagrams lost, jitter %.4f ms; responder %lld B, %lld "
              "datagrams, lost %lld",
              qPrintable(protocol), result.bytes, result.seconds, lost, packets,
              result.extra.value(QLatin1String("udp_jitter_ms")).toDouble(), rec.bytes, rec.udpPackets, rec.udpLost);
        QVERIFY(packets > 0);
        QCOMPARE(lost, rec.udpLost); // the receiving end's count, on both sides
        if (reverse) {
            QCOMPARE(packets, rec.udpPackets); // the datagrams we sent
            QCOMPARE(result.senderBytes, rec.bytes);
            QCOMPARE(rec.clientBytes, result.bytes);
        } else {
            QCOMPARE(result.bytes, rec.bytes);
            QCOMPARE(rec.clientBytes, result.senderBytes);
            QVERIFY(rec.udpPackets <= packets);
        }
        QVERIFY(double(lost) <= 0.01 * double(packets));
    }
};

QTEST_GUILESS_MAIN(TestIperf3Responder)
#include "TestIperf3Responder.moc"
