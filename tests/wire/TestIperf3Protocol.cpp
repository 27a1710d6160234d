// Encoding and decoding of iperf3's control messages, without a network.
#include "wire/QtWire.h"
#include "wire/iperf3/Iperf3Protocol.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace wb::iperf3;
using wb::wire::qb;
using wb::wire::qs;
using wb::wire::sb;

class TestIperf3Protocol : public QObject
{
    Q_OBJECT

private slots:
    void cookieIs36CharactersAndNul()
    {
        const QByteArray a = qb(makeCookie());
        const QByteArray b = qb(makeCookie());
        QCOMPARE(a.size(), 37);
        QCOMPARE(a.at(36), '\0');
        QCOMPARE(qstrlen(a.constData()), 36u);
        for (char c : a.left(36))
            QVERIFY((c >= 'a' && c <= 'z') || (c >= '2' && c <= '7'));
        QVERIFY(a != b);
    }

    void streamIds_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("id");
        QTest::newRow("first") << 0 << 1;
        QTest::newRow("second skips 2") << 1 << 3;
        QTest::newRow("third") << 2 << 4;
        QTest::newRow("128th") << 127 << 129;
    }
    void streamIds()
    {
        QFETCH(int, index);
        QFETCH(int, id);
        QCOMPARE(streamId(index), id);
    }

    void stateNames_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("known");
        QTest::newRow("param exchange") << 9 << "PARAM_EXCHANGE" << true;
        QTest::newRow("access denied") << -1 << "ACCESS_DENIED" << true;
        QTest::newRow("server error") << -2 << "SERVER_ERROR" << true;
        QTest::newRow("ssh banner S") << 83 << "state 83" << false;
        QTest::newRow("zero") << 0 << "state 0" << false;
    }
    void stateNames()
    {
        QFETCH(int, state);
        QFETCH(QString, name);
        QFETCH(bool, known);
        QCOMPARE(qs(stateName(state)), name);
        QCOMPARE(isKnownState(state), known);
    }

    void jsonFraming_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<qint64>("length");
        QTest::newRow("small") << QByteArray::fromHex("0000002a") << qint64(42);
        QTest::newRow("zero") << QByteArray::fromHex("00000000") << qint64(0);
        QTest::newRow("negative") << QByteArray::fromHex("ffffffff") << qint64(-1);
        QTest::newRow("too long") << QByteArray::fromHex("7fffffff") << qint64(-1);
        QTest::newRow("truncated") << QByteArray::fromHex("0000") << qint64(-1);
    }
    void jsonFraming()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(qint64, length);
        QCOMPARE(qint64(decodeJsonLength(sb(prefix))), length);
    }

    void frameRoundTrip()
    {
        const QByteArray json = "{\"tcp\":true}";
        const QByteArray framed = qb(frameJson(sb(json)));
        QCOMPARE(framed.size(), json.size() + 4);
        QCOMPARE(qint64(decodeJsonLength(sb(framed.left(4)))), qint64(json.size()));
        QCOMPARE(framed.mid(4), json);
    }

    void parameters()
    {
        TestParameters p;
        p.reverse = true;
        p.omitSeconds = 2;
        p.timeSeconds = 5;
        p.parallel = 4;
        p.blockSize = 1472;
        p.window = 262144;
        p.mss = 1460;
        const QJsonObject o = QJsonDocument::fromJson(qb(p.toJson())).object();
        QCOMPARE(o.value("tcp").toBool(), true);
        QCOMPARE(o.value("reverse").toBool(), true);
        QCOMPARE(o.value("omit").toInt(), 2);
        QCOMPARE(o.value("time").toInt(), 5);
        QCOMPARE(o.value("parallel").toInt(), 4);
        QCOMPARE(o.value("len").toInt(), 1472);
        QCOMPARE(o.value("window").toInt(), 262144);
        QCOMPARE(o.value("MSS").toInt(), 1460);
        QVERIFY(o.contains("client_version"));

        const QJsonObject plain = QJsonDocument::fromJson(qb(TestParameters{}.toJson())).object();
        QVERIFY(!plain.contains("reverse"));
        QVERIFY(!plain.contains("MSS"));
        QVERIFY(!plain.contains("window"));
    }

    void resultsRoundTrip()
    {
        Results r;
        r.cpuTotal = 12.5;
        r.senderHasRetransmits = 1;
        r.streams.push_back(StreamResult{1, 1000000000LL * 5, 3, 0, 0, 0, 0, 2.0});
        r.streams.push_back(StreamResult{3, 7, 0, 0, 0, 0, 0, 2.5});
        Results back;
        std::string error;
        QVERIFY2(Results::fromJson(r.toJson(), &back, &error), error.c_str());
        QCOMPARE(back.streams.size(), std::size_t(2));
        QCOMPARE(back.streams.at(0).id, 1);
        QCOMPARE(back.streams.at(1).id, 3);
        QCOMPARE(qint64(back.totalBytes()), 5000000007LL);
        QCOMPARE(back.longestSeconds(), 2.5);
        QCOMPARE(back.totalRetransmits(), 3);
        QCOMPARE(back.cpuTotal, 12.5);
        QCOMPARE(back.senderHasRetransmits, 1);
    }

    void resultsFromRealServerShape()
    {
        // As iperf3 3.12's server sends them (send_results).
        const QByteArray json = R"({"cpu_util_total":3.2,"cpu_util_user":0.4,"cpu_util_system":2.8,
            "sender_has_retransmits":-1,"congestion_used":"cubic","streams":[{"id":1,"bytes":1234567,
            "retransmits":-1,"jitter":0,"errors":0,"omitted_errors":0,"packets":0,"omitted_packets":0,
            "start_time":0,"end_time":3.000213}]})";
        Results r;
        std::string error;
        QVERIFY2(Results::fromJson(sb(json), &r, &error), error.c_str());
        QCOMPARE(qint64(r.totalBytes()), 1234567LL);
        QCOMPARE(r.totalRetransmits(), -1);
        QVERIFY(qAbs(r.longestSeconds() - 3.000213) < 1e-9);
    }

    void malformedResults_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("garbage") << QByteArray("\x01\x02garbage");
        QTest::newRow("array") << QByteArray("[1,2,3]");
        QTest::newRow("no streams") << QByteArray(R"({"cpu_util_total":1})");
        QTest::newRow("streams not a list") << QByteArray(R"({"streams":7})");
        QTest::newRow("stream without bytes") << QByteArray(R"({"streams":[{"id":1}]})");
        QTest::newRow("negative bytes") << QByteArray(R"({"streams":[{"id":1,"bytes":-5}]})");
        QTest::newRow("truncated") << QByteArray(R"({"streams":[{"id":1,"bytes":5)");
        QTest::newRow("bytes 1e999") << QByteArray(R"({"streams":[{"id":1,"bytes":1e999}]})");
        QTest::newRow("bytes 1e300") << QByteArray(R"({"streams":[{"id":1,"bytes":1e300}]})");
        QTest::newRow("nested 10000 deep") << QByteArray(R"({"streams":[{"id":1,"bytes":5}],"x":)")
                + QByteArray(10000, '[') + QByteArray(10000, ']') + "}";
    }
    void malformedResults()
    {
        QFETCH(QByteArray, json);
        Results r;
        std::string error;
        QVERIFY(!Results::fromJson(sb(json), &r, &error));
        QVERIFY(!error.empty());
    }

    void hugeCountersClamp()
    {
        // A far server's counters beyond int64 (finite): clamped, never cast out of range.
        Results r;
        std::string error;
        QVERIFY2(Results::fromJson(
                     R"({"streams":[{"id":1,"bytes":5,"errors":1e300,"packets":-1e300,"omitted_errors":1e19}]})", &r,
                     &error),
                 error.c_str());
        QCOMPARE(r.streams.at(0).errors, std::numeric_limits<std::int64_t>::max());
        QCOMPARE(r.streams.at(0).packets, std::int64_t(0));
        QCOMPARE(r.streams.at(0).omittedErrors, std::numeric_limits<std::int64_t>::max());
        ClientParameters p;
        QVERIFY(!ClientParameters::fromJson(R"({"tcp":true,"time":1e999})", &p, &error));
        QVERIFY2(error.find("number out of range") != std::string::npos, error.c_str());
        QVERIFY(!ClientParameters::fromJson(R"({"tcp":true,"time":1e300})", &p, &error));
        QVERIFY2(error.find("\"time\"") != std::string::npos, error.c_str());
    }

    void serverErrorTexts()
    {
        QVERIFY(qs(serverErrorText(ErrAuthTest)).contains("authentication"));
        QVERIFY(qs(serverErrorText(ErrAccessDenied)).contains("busy"));
        QVERIFY(qs(serverErrorText(999)).contains("999"));
    }
};

QTEST_GUILESS_MAIN(TestIperf3Protocol)
#include "TestIperf3Protocol.moc"
