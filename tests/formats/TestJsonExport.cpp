#include "formats/CsvExport.h"
#include "formats/JsonExport.h"
#include "support/RunCompare.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

RunResult makeRun(int index, int rep, RunStatus status, qint64 bytes, double seconds)
{
    RunResult r;
    r.spec.index = index;
    r.spec.host.name = QStringLiteral("fileserver, \"linux\"");
    r.spec.host.address = QStringLiteral("127.0.0.1");
    r.spec.host.port = 5301;
    r.spec.host.osLabel = QStringLiteral("Linux");
    r.spec.protocol = QStringLiteral("tcp-send");
    r.spec.frameSize = 9000;
    r.spec.repetition = rep;
    r.spec.params.durationMs = 2500;
    r.spec.params.messageSize = 1472;
    r.spec.params.sendBufferBytes = 65536;
    r.status = status;
    r.bytes = bytes;
    r.seconds = seconds;
    r.senderBytes = bytes + 4096;
    r.mss = 8948;
    r.serverOs = QStringLiteral("Debian GNU/Linux 12, Linux 6.1");
    r.startedAt = QDateTime(QDate(2026, 11, 30), QTime(3, 4, 5, 678), Qt::UTC);
    if (status != RunStatus::Ok)
        r.error = QStringLiteral("127.0.0.1:5301: connection refused: is wirebenchd running there?");
    r.warnings = {QStringLiteral("above 100% of the ceiling"), QStringLiteral("second, with a \"quote\"")};
    r.extra.insert(QStringLiteral("rtt_us"), 505);
    r.extra.insert(QStringLiteral("cpu_local_percent"), 12.5);
    r.extra.insert(QStringLiteral("interface"), QStringLiteral("lo"));
    for (int i = 1; i <= 3; ++i) {
        Sample s;
        s.runIndex = index;
        s.endSeconds = i * 0.1;
        s.intervalSeconds = 0.1;
        s.bytes = 1000 * i;
        r.samples.append(s);
    }
    return r;
}

RunResultList sampleResults()
{
    RunResultList list{makeRun(0, 1, RunStatus::Ok, 117'700'000, 1.0), makeRun(1, 2, RunStatus::Ok, 230'000'000, 2.0),
                       makeRun(2, 3, RunStatus::Failed, 0, 0), makeRun(3, 4, RunStatus::NotRun, 0, 0)};
    list[3].warnings.clear();
    list[3].extra.clear();
    return list;
}

} // namespace

class TestJsonExport : public QObject
{
    Q_OBJECT
private slots:
    void schemaKeys();
    void summaryValues();
    void roundTrip_data();
    void roundTrip();
    void fileRoundTrip();
    void extraCannotOverwriteSchema();
    void bothWaysRoundTrip();
    void badInput_data();
    void badInput();
    void unwritablePath();
    void csvHeaderAndRows();
    void csvBothWays();
    void csvParse_data();
    void csvParse();
};

void TestJsonExport::schemaKeys()
{
    const QJsonObject root = JsonExport::toJsonObject(sampleResults(), JsonExport::Options());
    const QJsonObject meta = root.value(QStringLiteral("meta")).toObject();
    for (const char *key : {"wirebench_version", "created_at", "unit_note", "schema_version"})
        QVERIFY2(meta.contains(QLatin1String(key)), key);
    QVERIFY(meta.value(QStringLiteral("unit_note")).toString().contains(QStringLiteral("10^6 bytes/s")));
    QCOMPARE(meta.value(QStringLiteral("wirebench_version")).toString(), QStringLiteral(WIREBENCH_VERSION));

    const QJsonArray results = root.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 4);
    for (const QJsonValue &v : results) {
        const QJsonObject o = v.toObject();
        for (const char *key :
             {"host", "address", "os", "protocol", "frame_size", "mss", "repetition", "bytes", "seconds",
              "throughput_MBps", "throughput_Mbps", "status", "error", "warnings", "started_at"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QVERIFY(!o.contains(QStringLiteral("samples"))); // only on request
    }
    const QJsonObject first = results.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("host")).toString(), QStringLiteral("fileserver, \"linux\""));
    QCOMPARE(first.value(QStringLiteral("os")).toString(), QStringLiteral("Linux"));
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(first.value(QStringLiteral("throughput_MBps")).toDouble(), 117.7);
    QCOMPARE(first.value(QStringLiteral("throughput_Mbps")).toDouble(), 941.6);
    QCOMPARE(first.value(QStringLiteral("started_at")).toString(), QStringLiteral("2026-11-30T03:04:05.678Z"));
    QCOMPARE(first.value(QStringLiteral("rtt_us")).toInt(), 505); // extra keys sit beside the schema's
    QCOMPARE(results.at(2).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    QCOMPARE(results.at(3).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("not-run"));

    const QJsonArray summary = root.value(QStringLiteral("summary")).toArray();
    QCOMPARE(summary.size(), 1);
    const QJsonObject s = summary.at(0).toObject();
    for (const char *key :
         {"host", "os", "protocol", "frame_size", "reps", "ok_runs", "min", "median", "mean", "max", "stddev", "ci95"})
        QVERIFY2(s.contains(QLatin1String(key)), key);
}

void TestJsonExport::summaryValues()
{
    const QJsonObject s = JsonExport::toJsonObject(sampleResults(), JsonExport::Options())
                              .value(QStringLiteral("summary"))
                              .toArray()
                              .at(0)
                              .toObject();
    QCOMPARE(s.value(QStringLiteral("reps")).toInt(), 4);
    QCOMPARE(s.value(QStringLiteral("ok_runs")).toInt(), 2);
    QCOMPARE(s.value(QStringLiteral("min")).toDouble(), 115.0);
    QCOMPARE(s.value(QStringLiteral("max")).toDouble(), 117.7);
    QCOMPARE(s.value(QStringLiteral("median")).toDouble(), 116.35);
    QVERIFY(qAbs(s.value(QStringLiteral("stddev")).toDouble() - 1.909188) < 1e-5);
    // t(1) = 12.7062: 12.7062 * 1.909188 / sqrt(2)
    QVERIFY(qAbs(s.value(QStringLiteral("ci95")).toDouble() - 17.1531) < 1e-3);
    QCOMPARE(s.value(QStringLiteral("mss")).toInt(), 8948);
    // The test's verdict in words (from core/analysis) travels with its figures.
    QVERIFY(!s.value(QStringLiteral("bottleneck")).toString().isEmpty());
}

void TestJsonExport::roundTrip_data()
{
    QTest::addColumn<bool>("samples");
    QTest::addColumn<bool>("indented");
    QTest::newRow("compact, no samples") << false << false;
    QTest::newRow("indented, with samples") << true << true;
}

void TestJsonExport::roundTrip()
{
    QFETCH(bool, samples);
    QFETCH(bool, indented);
    const RunResultList in = sampleResults();
    JsonExport::Options opts;
    opts.includeSamples = samples;
    opts.indented = indented;
    RunResultList out;
    QString error;
    QVERIFY2(JsonExport::fromJson(JsonExport::toJson(in, opts), &out, &error), qPrintable(error));
    QCOMPARE(out.size(), in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        const RunResult &a = in.at(i);
        const RunResult &b = out.at(i);
        test::compareKeptFields(b, a);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(b.spec.host.serverType, a.spec.host.serverType);
        QCOMPARE(b.spec.params.sendBufferBytes, a.spec.params.sendBufferBytes);
        QCOMPARE(b.extra.keys(), a.extra.keys());
        for (auto it = a.extra.cbegin(); it != a.extra.cend(); ++it)
            QCOMPARE(b.extra.value(it.key()).toString(), it.value().toString());
        QCOMPARE(b.samples.size(), samples ? a.samples.size() : 0);
        for (qsizetype k = 0; k < b.samples.size(); ++k) {
            QCOMPARE(b.samples.at(k).bytes, a.samples.at(k).bytes);
            QCOMPARE(b.samples.at(k).endSeconds, a.samples.at(k).endSeconds);
            QCOMPARE(b.samples.at(k).intervalSeconds, a.samples.at(k).intervalSeconds);
            QCOMPARE(b.samples.at(k).runIndex, a.spec.index);
        }
    }
    // Twice through gives the same document (apart from its creation time).
    opts.createdAt = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    QCOMPARE(JsonExport::toJson(out, opts), JsonExport::toJson(in, opts));
}

void TestJsonExport::fileRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("results.json"));
    QString error;
    QVERIFY2(JsonExport::write(path, sampleResults(), &error), qPrintable(error));
    RunResultList back;
    QVERIFY2(JsonExport::read(path, &back, &error), qPrintable(error));
    QCOMPARE(back.size(), 4);
    QCOMPARE(back.at(1).megabytesPerSecond(), 115.0);

    // A host given only by its address keeps an empty name (displayName falls back to the address).
    RunResultList bare{makeRun(0, 1, RunStatus::Ok, 1000, 1)};
    bare[0].spec.host.name.clear();
    QVERIFY(JsonExport::fromJson(JsonExport::toJson(bare), &back, &error));
    QVERIFY(back.at(0).spec.host.name.isEmpty());
    QCOMPARE(back.at(0).spec.host.displayName(), QStringLiteral("127.0.0.1"));

    // A bare array of entries is accepted too (the result store and importers hand those around).
    QJsonArray array{JsonExport::runToJson(sampleResults().at(0))};
    QVERIFY(JsonExport::fromJson(QJsonDocument(array).toJson(), &back, &error));
    QCOMPARE(back.size(), 1);
}

void TestJsonExport::bothWaysRoundTrip()
{
    // Both directions at once: the second figure under "reverse", as the first is written, and back.
    RunResult r = sampleResults().first();
    r.spec.protocol = QStringLiteral("tcp-bidir");
    r.reverse = RunResult::Reverse{34200000, 3.0, 34300000, {Sample{r.spec.index, 1.0, 1.0, 11400000}}};
    JsonExport::Options options;
    options.includeSamples = true;
    const QJsonObject root = JsonExport::toJsonObject({r}, options);
    const QJsonObject o = root.value(QStringLiteral("results")).toArray().first().toObject();
    const QJsonObject reverse = o.value(QStringLiteral("reverse")).toObject();
    QCOMPARE(reverse.value(QStringLiteral("bytes")).toDouble(), 34200000.0);
    QCOMPARE(reverse.value(QStringLiteral("seconds")).toDouble(), 3.0);
    QCOMPARE(reverse.value(QStringLiteral("sender_bytes")).toDouble(), 34300000.0);
    QCOMPARE(reverse.value(QStringLiteral("throughput_MBps")).toDouble(), 11.4);
    QCOMPARE(reverse.value(QStringLiteral("throughput_Mbps")).toDouble(), 91.2);
    QCOMPARE(reverse.value(QStringLiteral("samples")).toArray().size(), 1);
    const QJsonObject summary = root.value(QStringLiteral("summary")).toArray().first().toObject();
    QCOMPARE(summary.value(QStringLiteral("reverse")).toObject().value(QStringLiteral("median")).toDouble(), 11.4);
    const RunResult back = JsonExport::runFromJson(o);
    QVERIFY(back.bothWays());
    QCOMPARE(back.reverse->bytes, r.reverse->bytes);
    QCOMPARE(back.reverse->seconds, r.reverse->seconds);
    QCOMPARE(back.reverse->senderBytes, r.reverse->senderBytes);
    QCOMPARE(back.reverse->samples.size(), 1);
    QCOMPARE(back.reverse->samples.first().bytes, 11400000);
    QVERIFY(!back.extra.contains(QStringLiteral("reverse")));
    // A run of one direction has none.
    const QJsonObject one = JsonExport::runToJson(sampleResults().first(), false);
    QVERIFY(!one.contains(QStringLiteral("reverse")));
    QVERIFY(!JsonExport::runFromJson(one).bothWays());
}

void TestJsonExport::extraCannotOverwriteSchema()
{
    RunResult r = makeRun(0, 1, RunStatus::Ok, 5'000'000, 1.0);
    r.extra.insert(QStringLiteral("throughput_MBps"), 999.0);
    r.extra.insert(QStringLiteral("status"), QStringLiteral("ok?"));
    const QJsonObject o = JsonExport::runToJson(r);
    QCOMPARE(o.value(QStringLiteral("throughput_MBps")).toDouble(), 5.0);
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
}

void TestJsonExport::badInput_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << QByteArray() << "not valid JSON";
    QTest::newRow("garbage") << QByteArray("\x01\x02{]") << "not valid JSON";
    QTest::newRow("truncated") << JsonExport::toJson(sampleResults()).left(200) << "not valid JSON";
    QTest::newRow("no results") << QByteArray(R"({"meta":{}})") << "no \"results\" array";
    QTest::newRow("results not an array") << QByteArray(R"({"results":5})") << "no \"results\" array";
    QTest::newRow("entry not an object") << QByteArray(R"({"results":[{},7]})") << "entry 1 is not an object";
}

void TestJsonExport::badInput()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, reason);
    RunResultList out{makeRun(0, 1, RunStatus::Ok, 1, 1)};
    QString error;
    QVERIFY(!JsonExport::fromJson(json, &out, &error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    QCOMPARE(out.size(), 1); // untouched on failure
}

void TestJsonExport::unwritablePath()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no/such/folder/results.json"));
    QString error;
    QVERIFY(!JsonExport::write(path, sampleResults(), &error));
    QVERIFY2(error.contains(path) && !error.contains(QLatin1Char('\n')), qPrintable(error));
    QVERIFY(!CsvExport::write(dir.filePath(QStringLiteral("no/such/x.csv")), sampleResults(), &error));
    QVERIFY2(error.contains(QStringLiteral("CSV")), qPrintable(error));
    RunResultList out;
    QVERIFY(!JsonExport::read(path, &out, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
}

void TestJsonExport::csvHeaderAndRows()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("results.csv"));
    QString error;
    QVERIFY2(CsvExport::write(path, sampleResults(), &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QStringList> rows = CsvExport::parse(QString::fromUtf8(file.readAll()));
    QCOMPARE(rows.size(), 5); // header + one row per run
    const QStringList header = rows.first();
    for (const char *col : {"host", "os", "protocol", "frame_size", "mss", "repetition", "bytes", "seconds",
                            "throughput_MBps", "throughput_Mbps", "status", "error", "warnings", "started_at"})
        QVERIFY2(header.contains(QLatin1String(col)), col);
    // extra keys follow the fixed columns, sorted
    QCOMPARE(header.mid(CsvExport::columns().size()),
             QStringList({QStringLiteral("cpu_local_percent"), QStringLiteral("interface"), QStringLiteral("rtt_us")}));
    for (const QStringList &row : rows)
        QCOMPARE(row.size(), header.size());
    auto cell = [&](int row, const char *col) { return rows.at(row).at(header.indexOf(QLatin1String(col))); };
    QCOMPARE(cell(1, "host"), QStringLiteral("fileserver, \"linux\""));
    QCOMPARE(cell(1, "throughput_MBps").toDouble(), 117.7);
    QCOMPARE(cell(1, "throughput_Mbps").toDouble(), 941.6);
    QCOMPARE(cell(1, "warnings"), QStringLiteral("above 100% of the ceiling; second, with a \"quote\""));
    QCOMPARE(cell(1, "rtt_us"), QStringLiteral("505"));
    QCOMPARE(cell(3, "status"), QStringLiteral("failed"));
    QVERIFY(cell(3, "error").contains(QStringLiteral("connection refused")));
    QCOMPARE(cell(4, "status"), QStringLiteral("not-run"));
    QCOMPARE(cell(4, "rtt_us"), QString());
}

void TestJsonExport::csvBothWays()
{
    // A run both ways at once has a second figure: its own columns after the fixed ones, empty for the other runs.
    RunResultList results = sampleResults();
    QVERIFY(!CsvExport::toCsv(results).contains(QLatin1String("reverse_")));
    results[0].spec.protocol = QStringLiteral("tcp-bidir");
    results[0].reverse = RunResult::Reverse{34200000, 3.0, 34300000, {}};
    const QList<QStringList> rows = CsvExport::parse(CsvExport::toCsv(results));
    const QStringList header = rows.first();
    QCOMPARE(header.mid(CsvExport::columns().size(), CsvExport::reverseColumns().size()), CsvExport::reverseColumns());
    for (const QStringList &row : rows)
        QCOMPARE(row.size(), header.size());
    auto cell = [&](int row, const char *col) { return rows.at(row).at(header.indexOf(QLatin1String(col))); };
    QCOMPARE(cell(1, "reverse_bytes"), QStringLiteral("34200000"));
    QCOMPARE(cell(1, "reverse_seconds").toDouble(), 3.0);
    QCOMPARE(cell(1, "reverse_throughput_MBps").toDouble(), 11.4);
    QCOMPARE(cell(1, "reverse_throughput_Mbps").toDouble(), 91.2);
    QCOMPARE(cell(1, "reverse_sender_bytes"), QStringLiteral("34300000"));
    QCOMPARE(cell(1, "throughput_MBps").toDouble(), 117.7); // the first figure stays where it was
    QCOMPARE(cell(2, "reverse_throughput_MBps"), QString());
    QVERIFY(header.indexOf(QLatin1String("rtt_us"))
            >= CsvExport::columns().size() + CsvExport::reverseColumns().size());
}

void TestJsonExport::csvParse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QStringList>("last");
    QTest::newRow("plain") << "a,b\r\n1,2\r\n" << 2 << QStringList{"1", "2"};
    QTest::newRow("no final newline") << "a,b\n1,2" << 2 << QStringList{"1", "2"};
    QTest::newRow("quoted comma and quote") << "x\n\"a,b\",\"say \"\"hi\"\"\"\n"
                                            << 2 << QStringList{"a,b", "say \"hi\""};
    QTest::newRow("embedded newline") << "\"one\ntwo\",3\n" << 1 << QStringList{"one\ntwo", "3"};
    QTest::newRow("empty fields") << ",,\n" << 1 << QStringList{"", "", ""};
    QTest::newRow("unterminated quote") << "\"abc" << 1 << QStringList{"abc"};
}

void TestJsonExport::csvParse()
{
    QFETCH(QString, text);
    QFETCH(int, rows);
    QFETCH(QStringList, last);
    const QList<QStringList> parsed = CsvExport::parse(text);
    QCOMPARE(parsed.size(), rows);
    QCOMPARE(parsed.last(), last);
    QCOMPARE(CsvExport::parse(CsvExport::quote(QStringLiteral("a,\"b\"\nc"))).first().first(),
             QStringLiteral("a,\"b\"\nc"));
}

QTEST_GUILESS_MAIN(TestJsonExport)
#include "TestJsonExport.moc"
