#include "wire/wirebenchd/ControlMessage.h"
#include "wire/PrintableText.h"
#include "wire/QtWire.h"

#include <QJsonDocument>
#include <QTest>

using namespace wb;
using namespace wb::control;
using wb::wire::qb;
using wb::wire::sb;

namespace {

QByteArray frame(const QByteArray &payload, qint64 declaredLength = -1)
{
    const quint32 n = quint32(declaredLength >= 0 ? declaredLength : payload.size());
    QByteArray out;
    out.append(char(n >> 24)).append(char(n >> 16)).append(char(n >> 8)).append(char(n));
    return out + payload;
}

} // namespace

class TestControlMessage : public QObject
{
    Q_OBJECT
private slots:
    void encodeHeader();
    void busyMaySayWhenToTryAgain();
    void decodeOne_data();
    void decodeOne();
    void streamDecoding();
    void roundTrips();
    void requestValidation_data();
    void requestValidation();
    void versionIsReadFromHello();
    void printableText_data();
    void printableText();
    void quotedTypeIsShortAndEscaped();
    void hugeNumbersInAResult();
};

void TestControlMessage::encodeHeader()
{
    const QByteArray f = qb(encode(Json{{"type", "busy"}}));
    const QByteArray json = R"({"type":"busy"})";
    QCOMPARE(f.size(), 4 + json.size());
    QCOMPARE(f.left(4), QByteArray::fromHex("0000000f"));
    QCOMPARE(f.mid(4), json);
}

void TestControlMessage::decodeOne_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxBytes");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("errorContains");

    const QByteArray hello = R"({"type":"hello","version":1})";
    QTest::newRow("valid") << frame(hello) << 1024 << true << QString();
    QTest::newRow("utf-8 text") << frame(R"({"type":"error","code":"x","message":"größe ✓"})") << 1024 << true
                                << QString();
    QTest::newRow("empty buffer") << QByteArray() << 1024 << false << QStringLiteral("truncated");
    QTest::newRow("half a header") << QByteArray::fromHex("0000") << 1024 << false << QStringLiteral("truncated");
    QTest::newRow("truncated body") << frame(hello).left(12) << 1024 << false << QStringLiteral("truncated");
    QTest::newRow("oversized declared") << frame(hello, 1 << 20) << 1024 << false
                                        << QStringLiteral("exceeds the limit");
    QTest::newRow("oversized real") << frame(QByteArray(2000, ' ') + hello) << 1024 << false
                                    << QStringLiteral("exceeds the limit");
    QTest::newRow("length 0") << frame(QByteArray()) << 1024 << false << QStringLiteral("empty");
    QTest::newRow("max length 0xffffffff")
        << QByteArray::fromHex("ffffffff") << 1024 << false << QStringLiteral("exceeds");
    QTest::newRow("garbage") << frame("\x01\x02garbage\xff") << 1024 << false << QStringLiteral("not valid JSON");
    QTest::newRow("http request") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << 1024 << false
                                  << QStringLiteral("exceeds");
    QTest::newRow("array") << frame("[1,2,3]") << 1024 << false << QStringLiteral("not a JSON object");
    QTest::newRow("string") << frame("\"hello\"") << 1024 << false << QStringLiteral("not");
    QTest::newRow("no type") << frame(R"({"version":1})") << 1024 << false << QStringLiteral("no \"type\"");
    QTest::newRow("numeric type") << frame(R"({"type":5})") << 1024 << false << QStringLiteral("no \"type\"");
    QTest::newRow("stray bytes") << frame(hello) + "xx" << 1024 << false << QStringLiteral("stray");
    // nlohmann reports these as out_of_range, not parse_error: they once ended wirebenchd.
    QTest::newRow("number overflow 1e999")
        << frame(R"({"type":"hello","x":1e999})") << 1024 << false << QStringLiteral("number out of range");
    QTest::newRow("negative overflow") << frame(R"({"type":"hello","x":-1e999})") << 1024 << false
                                       << QStringLiteral("number out of range");
    QTest::newRow("nested 40 deep") << frame("{\"type\":\"hello\",\"x\":" + QByteArray(39, '[') + QByteArray(39, ']')
                                             + "}")
                                    << 1024 << false << QStringLiteral("nested deeper than 32 levels");
    QTest::newRow("nested 60000 deep") << frame("{\"type\":\"hello\",\"x\":" + QByteArray(60000, '[')
                                                + QByteArray(60000, ']') + "}")
                                       << (1 << 20) << false << QStringLiteral("nested deeper than 32 levels");
    QTest::newRow("nested 31 deep") << frame("{\"type\":\"hello\",\"x\":" + QByteArray(31, '[') + QByteArray(31, ']')
                                             + "}")
                                    << 1024 << true << QString();
}

void TestControlMessage::decodeOne()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxBytes);
    QFETCH(bool, ok);
    QFETCH(QString, errorContains);
    const Decoded d = control::decodeOne(sb(input), maxBytes);
    QCOMPARE(d.ok(), ok);
    if (!ok) {
        QCOMPARE(d.status, Decoded::Status::Error);
        QVERIFY2(QString::fromStdString(d.error).contains(errorContains), d.error.c_str());
        QVERIFY(d.error.find('\n') == std::string::npos);
    }
}

void TestControlMessage::streamDecoding()
{
    // Two frames fed byte by byte: Incomplete until each is whole, then exactly the frame's bytes consumed.
    Progress p;
    p.bytes = 123456789012LL;
    p.seconds = 1.5;
    const std::string stream = encode(Hello::local("test").toJson()) + encode(p.toJson());
    std::string buffer;
    std::vector<Json> got;
    for (char c : stream) {
        buffer.push_back(c);
        const Decoded d = decode(buffer, 64 * 1024);
        QVERIFY2(d.status != Decoded::Status::Error, d.error.c_str());
        if (d.ok()) {
            got.push_back(d.message);
            buffer.erase(0, d.consumed);
        }
    }
    QVERIFY(buffer.empty());
    QCOMPARE(got.size(), std::size_t(2));
    Progress back;
    std::string error;
    QVERIFY2(Progress::fromJson(got.at(1), &back, &error), error.c_str());
    QCOMPARE(back.bytes, p.bytes);
    QCOMPARE(back.seconds, p.seconds);
}

void TestControlMessage::roundTrips()
{
    std::string error;
    const Hello h = Hello::local("wirebenchd 1.2.3");
    Hello h2;
    QVERIFY(Hello::fromJson(control::decodeOne(encode(h.toJson()), 4096).message, &h2, &error));
    QCOMPARE(h2.software, h.software);
    QCOMPARE(h2.kernel, h.kernel);
    QCOMPARE(h2.hostname, h.hostname);
    QCOMPARE(h2.cpus, h.cpus);
    QVERIFY(!h2.osSummary().empty());

    const TestRequest t{.direction = TestRequest::Direction::Recv,
                        .durationMs = 2500,
                        .messageSize = 1472,
                        .sendBuffer = 65536,
                        .recvBuffer = 131072,
                        .mss = 8960,
                        .sampleIntervalMs = 250,
                        .warmupMs = 2000};
    TestRequest t2;
    QVERIFY2(TestRequest::fromJson(control::decodeOne(encode(t.toJson()), 4096).message, &t2, &error), error.c_str());
    QCOMPARE(t2.direction, t.direction);
    QCOMPARE(t2.durationMs, t.durationMs);
    QCOMPARE(t2.messageSize, t.messageSize);
    QCOMPARE(t2.sendBuffer, t.sendBuffer);
    QCOMPARE(t2.recvBuffer, t.recvBuffer);
    QCOMPARE(t2.mss, t.mss);
    QCOMPARE(t2.sampleIntervalMs, t.sampleIntervalMs);
    QCOMPARE(t2.warmupMs, t.warmupMs);

    Result r;
    r.bytes = 9876543210LL;
    r.seconds = 10.25;
    r.senderBytes = 9876543211LL;
    r.mss = 1448;
    r.rttUs = 42;
    r.retransmits = 3;
    r.cpuPercent = 12.5;
    r.warmupMs = 2000;
    r.drops = Json{{"version", 1}, {"qdisc_drops", 5}};
    Result r2;
    QVERIFY2(Result::fromJson(control::decodeOne(encode(r.toJson()), 4096).message, &r2, &error), error.c_str());
    QVERIFY(r2.drops == r.drops); // the far end's drop counters, their own version inside
    // A wirebenchd that predates them sends none: empty, which the client reads as unknown (not zero).
    Json older = r.toJson();
    older.erase("drops");
    Result r3;
    QVERIFY(Result::fromJson(older, &r3, &error));
    QVERIFY(r3.drops.empty());
    QCOMPARE(r2.bytes, r.bytes);
    QCOMPARE(r2.seconds, r.seconds);
    QCOMPARE(r2.senderBytes, r.senderBytes);
    QCOMPARE(r2.mss, r.mss);
    QCOMPARE(r2.rttUs, r.rttUs);
    QCOMPARE(r2.retransmits, r.retransmits);
    QCOMPARE(r2.cpuPercent, r.cpuPercent);
    QCOMPARE(r2.warmupMs, r.warmupMs);

    Ready ready;
    ready.dataPort = 40000;
    Ready ready2;
    QVERIFY(Ready::fromJson(ready.toJson(), &ready2, &error));
    QCOMPARE(ready2.dataPort, 40000);

    const Json e = control::decodeOne(encode(errorMessage("limit", "too long")), 4096).message;
    QCOMPARE(textAt(e, "type"), std::string("error"));
    QCOMPARE(textAt(e, "code"), std::string("limit"));
    QCOMPARE(textAt(e, "message"), std::string("too long"));
}

void TestControlMessage::requestValidation_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("errorContains");
    const QByteArray good
        = R"({"type":"test","direction":"send","duration_ms":1000,"message_size":131072,"send_buffer":0,"recv_buffer":0,"mss":1460,"sample_interval_ms":100})";
    QTest::newRow("good") << good << QString();
    QTest::newRow("wrong type") << QByteArray(good).replace("\"test\"", "\"hello\"")
                                << QStringLiteral("expected a \"test\"");
    QTest::newRow("bad direction") << QByteArray(good).replace("\"send\"", "\"both\"") << QStringLiteral("direction");
    QTest::newRow("missing duration") << QByteArray(good).replace("\"duration_ms\":1000,", "")
                                      << QStringLiteral("lacks \"duration_ms\"");
    QTest::newRow("negative size") << QByteArray(good).replace("131072", "-5") << QStringLiteral("message_size");
    QTest::newRow("fractional size") << QByteArray(good).replace("131072", "1.5") << QStringLiteral("whole number");
    QTest::newRow("string duration") << QByteArray(good).replace("1000", "\"1000\"") << QStringLiteral("duration_ms");
    QTest::newRow("huge mss") << QByteArray(good).replace("1460", "70000") << QStringLiteral("mss");
    QTest::newRow("zero duration") << QByteArray(good).replace("1000", "0") << QStringLiteral("duration_ms");
    QTest::newRow("warm-up") << QByteArray(good).replace("\"mss\"", "\"warmup_ms\":2000,\"mss\"") << QString();
    QTest::newRow("negative warm-up") << QByteArray(good).replace("\"mss\"", "\"warmup_ms\":-1,\"mss\"")
                                      << QStringLiteral("warmup_ms");
    // Finite but beyond every range: refused by the range check, never cast.
    QTest::newRow("duration 1e300") << QByteArray(good).replace("1000", "1e300") << QStringLiteral("duration_ms");
    QTest::newRow("duration 2^63") << QByteArray(good).replace("1000", "9223372036854775808")
                                   << QStringLiteral("duration_ms");
    QTest::newRow("duration 2^64") << QByteArray(good).replace("1000", "18446744073709551616")
                                   << QStringLiteral("duration_ms");
    QTest::newRow("size -1e300") << QByteArray(good).replace("131072", "-1e300") << QStringLiteral("message_size");
    QTest::newRow("size 4.9e-324") << QByteArray(good).replace("131072", "4.9e-324") << QStringLiteral("whole number");
    QTest::newRow("streams 1e19") << QByteArray(good).replace("\"mss\"", "\"streams\":1e19,\"mss\"")
                                  << QStringLiteral("streams");
    QTest::newRow("direction a list") << QByteArray(good).replace("\"send\"", "[\"send\"]")
                                      << QStringLiteral("direction");
}

void TestControlMessage::requestValidation()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, errorContains);
    const Decoded d = control::decodeOne(sb(frame(json)), 4096);
    QVERIFY2(d.ok(), d.error.c_str());
    TestRequest t;
    std::string error;
    const bool ok = TestRequest::fromJson(d.message, &t, &error);
    QCOMPARE(ok, errorContains.isEmpty());
    if (!ok)
        QVERIFY2(QString::fromStdString(error).contains(errorContains), error.c_str());
}

void TestControlMessage::versionIsReadFromHello()
{
    Hello h;
    std::string error;
    QVERIFY(!Hello::fromJson(Json{{"type", "hello"}}, &h, &error));
    QVERIFY2(error.find("version") != std::string::npos, error.c_str());
    QVERIFY(Hello::fromJson(Json{{"type", "hello"}, {"version", 7}}, &h, &error));
    QCOMPARE(h.version, 7);
}

void TestControlMessage::printableText_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << QStringLiteral("tcp-send 1.5 MB/s") << 100 << QStringLiteral("tcp-send 1.5 MB/s");
    QTest::newRow("newline, return, tab") << QStringLiteral("a\nb\r\tc") << 100 << QStringLiteral("a\\nb\\r\\tc");
    QTest::newRow("ESC sequences") << QStringLiteral("\x1b[2J\x1b]0;title\x07") << 100
                                   << QStringLiteral("\\x1b[2J\\x1b]0;title\\x07");
    QTest::newRow("NUL and DEL") << QStringLiteral("a") + QChar(0) + QStringLiteral("b\x7f") << 100
                                 << QStringLiteral("a\\x00b\\x7f");
    QTest::newRow("C1 CSI") << QString::fromUtf16(u"\u009b31m") << 100 << QStringLiteral("\\x9b31m");
    QTest::newRow("bidi override") << QString::fromUtf16(u"abc\u202edef") << 100 << QStringLiteral("abc\\u202edef");
    QTest::newRow("line separator") << QString::fromUtf16(u"a\u2028b\u2029c") << 100
                                    << QStringLiteral("a\\u2028b\\u2029c");
    QTest::newRow("zero width") << QString::fromUtf16(u"a\u200bb") << 100 << QStringLiteral("a\\u200bb");
    QTest::newRow("printable non-ASCII kept") << QString::fromUtf16(u"gr\u00f6\u00dfe \u2713 \U0001F600") << 100
                                              << QString::fromUtf16(u"gr\u00f6\u00dfe \u2713 \U0001F600");
    QTest::newRow("unpaired surrogate") << QString::fromUtf16(u"a") + QChar(0xd800) + QStringLiteral("b") << 100
                                        << QString::fromUtf16(u"a\ufffdb");
    QTest::newRow("exactly the cap") << QString(40, QLatin1Char('x')) << 40 << QString(40, QLatin1Char('x'));
    QTest::newRow("cut with a note") << QString(100, QLatin1Char('x')) << 40
                                     << QString(7, QLatin1Char('x'))
            + QStringLiteral(" [... cut: 100 characters in all]");
    // An escape is never cut in half: "\x1b" stays whole or goes.
    QTest::newRow("cut before an escape")
        << QString(6, QLatin1Char('x')) + QStringLiteral("\x1b") + QString(100, QLatin1Char('y')) << 41
        << QString(6, QLatin1Char('x')) + QStringLiteral(" [... cut: 107 characters in all]");
}

void TestControlMessage::printableText()
{
    QFETCH(QString, input);
    QFETCH(int, maxChars);
    QFETCH(QString, expected);
    const QString once = wire::printableText(input, maxChars);
    QCOMPARE(once, expected);
    QVERIFY(once.size() <= maxChars);
    QCOMPARE(wire::printableText(once, maxChars), once); // twice is once: wirebenchd's own lines pass again
}

void TestControlMessage::quotedTypeIsShortAndEscaped()
{
    // What a peer puts in "type" is quoted in errors and log lines: escaped, and cut to kMaxQuotedTypeChars.
    const QString hostile
        = QStringLiteral("hello\n2099-01-01T00:00:00 forged\x1b[2J") + QString(4000, QLatin1Char('A'));
    const Json m{{"type", hostile.toStdString()}};
    const QString quoted = QString::fromStdString(quotedType(m));
    QVERIFY2(quoted.size() <= kMaxQuotedTypeChars, qPrintable(quoted));
    QVERIFY2(quoted.startsWith(QStringLiteral("hello\\n2099-01-01T00:00:00 forged\\x1b[2J")), qPrintable(quoted));
    QVERIFY2(quoted.endsWith(QStringLiteral("[... cut: %1 characters in all]").arg(hostile.size())),
             qPrintable(quoted));
    std::string wireError;
    Hello h;
    QVERIFY(!Hello::fromJson(m, &h, &wireError));
    const QString error = QString::fromStdString(wireError);
    QVERIFY2(error.contains(quoted) && !error.contains(QLatin1Char('\n')) && error.size() < 200, qPrintable(error));
    QCOMPARE(quotedType(Json{{"type", "hello"}}), std::string("hello"));
}

void TestControlMessage::busyMaySayWhenToTryAgain()
{
    // A refusal that passes by itself says after how long (wirebenchd's --max-unproven-per-address: 100 ms); a full
    // queue says nothing, and a client then does not try again.
    const Json passes = busyMessage("wirebenchd holds 4 connections from 127.0.0.1 ...", 100);
    QCOMPARE(typeOf(passes), std::string(kBusy));
    QCOMPARE(retryAfterMs(passes), 100);
    QCOMPARE(retryAfterMs(busyMessage("wirebenchd on x is busy with another test")), 0);
    QVERIFY(!busyMessage("full").contains("retry_after_ms"));
    // What a far end sends is bounded: nothing below 1 ms, nothing above 10 s, nothing that is not a number.
    for (const char *bad :
         {R"({"type":"busy","retry_after_ms":-5})", R"({"type":"busy","retry_after_ms":1e999})",
          R"({"type":"busy","retry_after_ms":86400000})", R"({"type":"busy","retry_after_ms":"soon"})"}) {
        const Json j = Json::parse(bad, nullptr, false);
        if (!j.is_discarded())
            QCOMPARE(retryAfterMs(j), 0);
    }
}

QTEST_GUILESS_MAIN(TestControlMessage)
#include "TestControlMessage.moc"

void TestControlMessage::hugeNumbersInAResult()
{
    // A far wirebenchd's result with finite numbers beyond int64: counters clamp, required ones refuse.
    const QByteArray base = R"({"type":"result","bytes":1000,"seconds":1.5,"sender_bytes":1000,"mss":1448)";
    Result r;
    std::string error;
    QVERIFY2(Result::fromJson(
                 control::decodeOne(sb(frame(base + R"(,"rtt_us":1e300,"rttvar_us":-1e300,"retransmits":1e19})")), 4096)
                     .message,
                 &r, &error),
             error.c_str());
    QCOMPARE(r.rttUs, std::numeric_limits<std::int64_t>::max());
    QCOMPARE(r.rttVarUs, std::int64_t(0));
    QCOMPARE(r.retransmits, std::numeric_limits<std::int64_t>::max());
    QVERIFY(!Result::fromJson(control::decodeOne(sb(frame(base + R"(,"stream_bytes":[1e300]})")), 4096).message, &r,
                              &error));
    QVERIFY2(error.find("stream_bytes") != std::string::npos, error.c_str());
    const QByteArray huge = R"({"type":"result","bytes":9223372036854775808,"seconds":1,"sender_bytes":1,"mss":1448})";
    QVERIFY(!Result::fromJson(control::decodeOne(sb(frame(huge)), 4096).message, &r, &error));
    QVERIFY2(error.find("\"bytes\"") != std::string::npos, error.c_str());
}
