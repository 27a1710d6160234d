#include "formats/Iperf3Import.h"
#include "storage/ResultStore.h"
#include "support/CiRule.h"
#include "support/FreePort.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

/// iperf3 -J output, from the real iperf3 (run by the test on 127.0.0.1) and from files committed under
/// tests/data (iperf 3.12), becomes runs whose figure is iperf3's receiver figure.
class TestIperf3Import : public QObject
{
    Q_OBJECT

private slots:
    void committedSend();
    void committedRecvWithMss();
    void committedBidir();
    void committedRefused();
    void concatenated();
    void badInput_data();
    void badInput();
    void realIperf3_data();
    void realIperf3();

private:
    static QByteArray readData(const QString &name);
    static QJsonObject end(const QByteArray &json) { return QJsonDocument::fromJson(json).object()["end"].toObject(); }
    static void checkFigure(const RunResult &r, const QJsonObject &received);
};

QByteArray TestIperf3Import::readData(const QString &name)
{
    QFile f(QStringLiteral(WIREBENCH_TEST_DATA "/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestIperf3Import::checkFigure(const RunResult &r, const QJsonObject &received)
{
    QCOMPARE(r.status, RunStatus::Ok);
    QCOMPARE(r.bytes, qint64(received["bytes"].toDouble()));
    QCOMPARE(r.seconds, received["seconds"].toDouble());
    // Our Mbit/s is iperf3's receiver bits_per_second / 10^6 (same bytes, same seconds).
    QVERIFY(qAbs(r.megabitsPerSecond() - received["bits_per_second"].toDouble() / 1e6) < 1e-6 * r.megabitsPerSecond());
}

void TestIperf3Import::committedSend()
{
    const QByteArray json = readData(QStringLiteral("iperf3-3.12-send.json"));
    QVERIFY(!json.isEmpty());
    RunResultList runs;
    QString error;
    QVERIFY2(Iperf3Import::fromJson(json, &runs, &error), qPrintable(error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), 1);
    const RunResult &r = runs.first();
    QCOMPARE(r.spec.protocol, QStringLiteral("iperf3-send"));
    QCOMPARE(r.spec.host.address, QStringLiteral("127.0.0.1"));
    QCOMPARE(r.spec.host.name, QStringLiteral("127.0.0.1"));
    QCOMPARE(r.spec.host.serverType, QStringLiteral("iperf3"));
    QCOMPARE(r.spec.repetition, 1);
    QCOMPARE(r.spec.params.durationMs, 1000);
    QCOMPARE(r.spec.params.messageSize, 131072);
    checkFigure(r, end(json)["sum_received"].toObject());
    QCOMPARE(r.bytes, 296353792); // the receiver's count, not the sender's 300154880 B
    QCOMPARE(r.senderBytes, 300154880);
    QCOMPARE(r.mss, 32768);            // tcp_mss_default on loopback
    QCOMPARE(r.spec.frameSize, 65535); // the path MTU iperf3 saw (loopback)
    QCOMPARE(r.startedAt, QDateTime::fromSecsSinceEpoch(1796010232, Qt::UTC));
    QCOMPARE(r.samples.size(), 1);
    QCOMPARE(r.samples.first().bytes, 300154880);
    QCOMPARE(r.samples.first().endSeconds, 1.002845);
    QCOMPARE(r.extra.value(QStringLiteral("iperf3_samples_side")).toString(), QStringLiteral("sender"));
    QCOMPARE(r.extra.value(QStringLiteral("retransmits")).toInt(), 2);
    QCOMPARE(r.extra.value(QStringLiteral("rtt_us")).toDouble(), 1165.0);
    QVERIFY(qAbs(r.extra.value(QStringLiteral("cpu_local_percent")).toDouble() - 17.911479604146827) < 1e-9);
    QCOMPARE(r.extra.value(QStringLiteral("iperf3_version")).toString(), QStringLiteral("iperf 3.12"));
    QVERIFY(qAbs(r.megabytesPerSecond() - 292.26) < 0.01); // 296353792 B / 1.013998 s
}

void TestIperf3Import::committedRecvWithMss()
{
    const QByteArray json = readData(QStringLiteral("iperf3-3.12-recv-M1400.json"));
    RunResultList runs;
    Iperf3Import::Options options;
    options.hostName = QStringLiteral("nas");
    options.osLabel = QStringLiteral("FreeBSD");
    QVERIFY(Iperf3Import::fromJson(json, &runs, nullptr, options));
    QCOMPARE(runs.size(), 1);
    const RunResult &r = runs.first();
    QCOMPARE(r.spec.protocol, QStringLiteral("iperf3-recv"));
    QCOMPARE(r.spec.host.name, QStringLiteral("nas"));
    QCOMPARE(r.spec.host.osLabel, QStringLiteral("FreeBSD"));
    QCOMPARE(r.mss, 1400);
    QCOMPARE(r.spec.frameSize, 1440); // -M 1400: Wirebench's frame = MSS + 40
    checkFigure(r, end(json)["sum_received"].toObject());
    QCOMPARE(r.extra.value(QStringLiteral("iperf3_samples_side")).toString(), QStringLiteral("receiver"));
    QCOMPARE(r.samples.first().bytes, r.bytes);
}

void TestIperf3Import::committedBidir()
{
    const QByteArray json = readData(QStringLiteral("iperf3-3.12-bidir.json"));
    RunResultList runs;
    QVERIFY(Iperf3Import::fromJson(json, &runs));
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs.at(0).spec.protocol, QStringLiteral("iperf3-send"));
    QCOMPARE(runs.at(1).spec.protocol, QStringLiteral("iperf3-recv"));
    checkFigure(runs.at(0), end(json)["sum_received"].toObject());
    checkFigure(runs.at(1), end(json)["sum_received_bidir_reverse"].toObject());
    QCOMPARE(runs.at(1).bytes, 218168443);
    QCOMPARE(runs.at(1).samples.first().bytes, 218168443);
    QCOMPARE(runs.at(1).spec.index, 1);
}

void TestIperf3Import::committedRefused()
{
    RunResultList runs;
    Iperf3Import::Options options;
    options.source = QStringLiteral("refused.json");
    QVERIFY(Iperf3Import::fromJson(readData(QStringLiteral("iperf3-3.12-refused.json")), &runs, nullptr, options));
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs.first().status, RunStatus::Failed);
    QVERIFY2(runs.first().error.contains(QStringLiteral("unable to connect to server: Connection refused")),
             qPrintable(runs.first().error));
    QVERIFY(runs.first().error.startsWith(QStringLiteral("refused.json")));
    QCOMPARE(runs.first().bytes, 0);
}

void TestIperf3Import::concatenated()
{
    // `for i in 1 2; do iperf3 -J ...; done >> all.json` style: repetitions counted per host and protocol.
    const QByteArray send = readData(QStringLiteral("iperf3-3.12-send.json"));
    const QByteArray all = send + "\n" + readData(QStringLiteral("iperf3-3.12-recv-M1400.json")) + "\n" + send;
    RunResultList runs;
    QVERIFY(Iperf3Import::fromJson(all, &runs));
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs.at(0).spec.repetition, 1);
    QCOMPARE(runs.at(1).spec.repetition, 1);
    QCOMPARE(runs.at(2).spec.protocol, QStringLiteral("iperf3-send"));
    QCOMPARE(runs.at(2).spec.repetition, 2);
    QCOMPARE(runs.at(2).spec.index, 2);
    QCOMPARE(runs.at(2).samples.first().runIndex, 2);

    // One broken document among good ones: the good ones are imported, the problem is named.
    RunResultList some;
    QString error;
    QVERIFY(Iperf3Import::fromJson(send + "\n{\"start\": {\"version\": \"iperf 3.12\", ", &some, &error));
    QCOMPARE(some.size(), 1);
    QVERIFY2(error.contains(QStringLiteral("test 2")), qPrintable(error));
}

void TestIperf3Import::badInput_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("words");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("holds no iperf3 result");
    QTest::newRow("text") << QByteArray("Connecting to host 127.0.0.1, port 5201\n")
                          << QStringLiteral("no iperf3 result");
    QTest::newRow("other JSON") << QByteArray("{\"results\": [], \"summary\": []}")
                                << QStringLiteral("not `iperf3 -J`");
    QTest::newRow("truncated") << QByteArray("{\"start\": {\"version\": \"iperf 3.12\", \"test_start\": {")
                               << QStringLiteral("not valid JSON");
    QTest::newRow("array") << QByteArray("[1, 2, 3]") << QStringLiteral("not valid JSON");
    QTest::newRow("wrong types") << QByteArray(
        "{\"start\": {\"version\": 3, \"test_start\": \"TCP\", \"connecting_to\": []},"
        " \"intervals\": {\"sum\": 1}, \"end\": {\"sum_received\": {\"bytes\": \"many\", \"seconds\": -1}}}")
                                 << QString();
}

void TestIperf3Import::badInput()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, words);
    RunResultList runs;
    QString error;
    const bool ok = Iperf3Import::fromJson(json, &runs, &error);
    if (words.isEmpty()) {
        // Looks like iperf3 but holds nonsense: a failed run saying what is missing, no crash.
        QVERIFY(ok);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().status, RunStatus::Failed);
        QVERIFY2(runs.first().error.contains(QStringLiteral("no receiver byte count")), qPrintable(runs.first().error));
        return;
    }
    QVERIFY(!ok);
    QVERIFY(runs.isEmpty());
    QVERIFY2(error.contains(words), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestIperf3Import::realIperf3_data()
{
    QTest::addColumn<QStringList>("extraArgs");
    QTest::addColumn<QString>("protocol");
    QTest::newRow("send") << QStringList() << QStringLiteral("iperf3-send");
    QTest::newRow("recv -R, -M 1400") << QStringList(
        {QStringLiteral("-R"), QStringLiteral("-M"), QStringLiteral("1400")})
                                      << QStringLiteral("iperf3-recv");
}

void TestIperf3Import::realIperf3()
{
    QFETCH(QStringList, extraArgs);
    QFETCH(QString, protocol);
    const QString iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
    WB_REQUIRE(!iperf3.isEmpty(), QStringLiteral("iperf3 is not installed (apt-get install iperf3)"));
    const quint16 port = test::freeLoopbackPort();
    QVERIFY(port != 0);
    QProcess server;
    server.setProgram(iperf3);
    server.setArguments({QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-p"), QString::number(port),
                         QStringLiteral("-B"), QStringLiteral("127.0.0.1"), QStringLiteral("--forceflush")});
    server.setProcessChannelMode(QProcess::MergedChannels);
    server.start();
    QVERIFY2(server.waitForStarted(30000), qPrintable(server.errorString()));
    QByteArray serverOut;
    QTRY_VERIFY_WITH_TIMEOUT(
        (serverOut += server.readAll()).contains("listening") || server.state() == QProcess::NotRunning, 30000);
    if (server.state() == QProcess::NotRunning)
        QFAIL(qPrintable(QStringLiteral("iperf3 -s did not start: ") + QString::fromLocal8Bit(serverOut)));

    QProcess client;
    client.setProgram(iperf3);
    client.setArguments(QStringList({QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                     QString::number(port), QStringLiteral("-t"), QStringLiteral("1"),
                                     QStringLiteral("-i"), QStringLiteral("0.2"), QStringLiteral("-J")})
                        + extraArgs);
    client.start();
    QVERIFY(client.waitForStarted(30000));
    QVERIFY(client.waitForFinished(120000));
    const QByteArray json = client.readAllStandardOutput();
    QVERIFY2(client.exitCode() == 0, json.constData());
    QVERIFY(server.waitForFinished(60000)); // -1: one test, then it ends

    RunResultList runs;
    QString error;
    QVERIFY2(Iperf3Import::fromJson(json, &runs, &error), qPrintable(error));
    QCOMPARE(runs.size(), 1);
    const RunResult &r = runs.first();
    QCOMPARE(r.spec.protocol, protocol);
    QCOMPARE(r.spec.host.address, QStringLiteral("127.0.0.1"));
    QCOMPARE(r.spec.host.port, port);
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    checkFigure(r, root["end"].toObject()["sum_received"].toObject());
    QVERIFY(r.bytes > 0);
    QVERIFY(r.startedAt.isValid());
    if (extraArgs.contains(QStringLiteral("-M"))) {
        QCOMPARE(r.mss, 1400);
        QCOMPARE(r.spec.frameSize, 1440);
    }
    // One sample per reported interval, in order, with iperf3's byte counts.
    const QJsonArray intervals = root["intervals"].toArray();
    QVERIFY(intervals.size() >= 4);
    QCOMPARE(r.samples.size(), intervals.size());
    for (qsizetype i = 0; i < intervals.size(); ++i) {
        const QJsonObject sum = intervals.at(i).toObject()["sum"].toObject();
        QCOMPARE(r.samples.at(i).bytes, qint64(sum["bytes"].toDouble()));
        QCOMPARE(r.samples.at(i).endSeconds, sum["end"].toDouble());
    }
    qInfo("iperf3 %s on loopback: %.1f MB/s (%.1f Mbit/s), %lld B in %.3f s, %d samples", qPrintable(protocol),
          r.megabytesPerSecond(), r.megabitsPerSecond(), r.bytes, r.seconds, int(r.samples.size()));

    // Stored next to Wirebench's runs and read back whole.
    QTemporaryDir dir;
    ResultStore store;
    QVERIFY2(store.open(dir.filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));
    const qint64 id = store.importRuns(QStringLiteral("iperf3 import: live.json"), runs, &error);
    QVERIFY2(id > 0, qPrintable(error));
    SessionInfo info;
    QVERIFY(store.session(id, &info));
    QCOMPARE(info.state, SessionState::Finished);
    QCOMPARE(info.title, QStringLiteral("iperf3 import: live.json"));
    QCOMPARE(info.protocols, QStringList{protocol});
    QCOMPARE(info.startedAt, r.startedAt);
    const RunResultList back = store.runs(id);
    QCOMPARE(back.size(), 1);
    QCOMPARE(back.first().bytes, r.bytes);
    QCOMPARE(back.first().samples.size(), r.samples.size());
    QCOMPARE(back.first().extra, r.extra);
}

QTEST_GUILESS_MAIN(TestIperf3Import)
#include "TestIperf3Import.moc"
