// RunLatency: the idle and loaded figures (median, nearest-rank p90 and p99, max, lost) and the JSON form that the
// export and the store keep, read back whole.
#include "formats/JsonExport.h"
#include "model/RunLatency.h"
#include "model/RunResult.h"

#include <QtTest>

using namespace wb;

namespace {

LatencySampleList samplesOf(const QList<double> &rtts, bool loaded, double t0 = 0)
{
    LatencySampleList out;
    for (double rtt : rtts)
        out.append({3, t0 + 0.05 * double(out.size()), rtt, loaded});
    return out;
}

} // namespace

class TestRunLatency : public QObject
{
    Q_OBJECT
private slots:
    void stats_data();
    void stats();
    void phasesApart();
    void jsonRoundTrip();
    void exportAndImport();
};

void TestRunLatency::stats_data()
{
    QTest::addColumn<QList<double>>("rtts");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("lost");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("p90");
    QTest::addColumn<double>("p99");
    QTest::addColumn<double>("max");
    QTest::newRow("none") << QList<double>{} << 0 << 0 << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("one") << QList<double>{0.4} << 1 << 0 << 0.4 << 0.4 << 0.4 << 0.4;
    QTest::newRow("even count: middle pair") << QList<double>{4, 1, 3, 2} << 4 << 0 << 2.5 << 4.0 << 4.0 << 4.0;
    // 1..10: nearest rank 90% of 10 is the 9th value, 99% the 10th.
    QTest::newRow("ten") << QList<double>{10, 9, 8, 7, 6, 5, 4, 3, 2, 1} << 10 << 0 << 5.5 << 9.0 << 10.0 << 10.0;
    QList<double> hundred;
    for (int i = 1; i <= 100; ++i)
        hundred << double(i);
    QTest::newRow("hundred") << hundred << 100 << 0 << 50.5 << 90.0 << 99.0 << 100.0;
    QTest::newRow("lost ones left out") << QList<double>{-1, 2, -1, 4, 3} << 3 << 2 << 3.0 << 4.0 << 4.0 << 4.0;
}

void TestRunLatency::stats()
{
    QFETCH(QList<double>, rtts);
    const LatencyStats s = LatencyStats::of(samplesOf(rtts, true), true);
    QTEST(s.count, "count");
    QTEST(s.lost, "lost");
    QTEST(s.medianMs, "median");
    QTEST(s.p90Ms, "p90");
    QTEST(s.p99Ms, "p99");
    QTEST(s.maxMs, "max");
}

void TestRunLatency::phasesApart()
{
    RunLatency l;
    l.samples = samplesOf({0.4, 0.5, 0.3}, false, -2) + samplesOf({20.1, 23.4, 22.0}, true);
    QVERIFY(!l.measured());
    l.summarize();
    QVERIFY(l.measured());
    QCOMPARE(l.idle.medianMs, 0.4);
    QCOMPARE(l.loaded.medianMs, 22.0);
    QCOMPARE(l.increaseMs(), 21.6);
    RunLatency idleOnly;
    idleOnly.samples = samplesOf({0.4}, false);
    idleOnly.summarize();
    QVERIFY(!idleOnly.measured());
    QCOMPARE(idleOnly.increaseMs(), 0.0);
}

void TestRunLatency::jsonRoundTrip()
{
    RunLatency l;
    l.method = QStringLiteral("udp-echo");
    l.target = QStringLiteral("10.0.0.2 UDP port 5301");
    l.rateHz = 20;
    l.samples = samplesOf({0.4, -1}, false, -1) + samplesOf({20.5, 21.0}, true);
    l.summarize();
    const QJsonObject o = l.toJson();
    QCOMPARE(o.value(QStringLiteral("increase_ms")).toDouble(), 20.35);
    QCOMPARE(o.value(QStringLiteral("idle")).toObject().value(QStringLiteral("lost")).toInt(), 1);
    QVERIFY(o.value(QStringLiteral("samples")).toArray().at(1).toArray().at(1).isNull()); // lost: null
    const RunLatency back = RunLatency::fromJson(o, 3);
    QCOMPARE(back.method, l.method);
    QCOMPARE(back.target, l.target);
    QCOMPARE(back.rateHz, 20);
    QCOMPARE(back.idle, l.idle);
    QCOMPARE(back.loaded, l.loaded);
    QCOMPARE(back.samples.size(), 4);
    QVERIFY(back.samples.at(1).lost());
    QCOMPARE(back.samples.at(0).seconds, -1.0);
    QCOMPARE(back.samples.at(3).rttMs, 21.0);
    QVERIFY(back.samples.at(3).loaded);
    QCOMPARE(back.samples.at(3).runIndex, 3);
}

void TestRunLatency::exportAndImport()
{
    RunResult r;
    r.spec.index = 3;
    r.spec.protocol = QStringLiteral("tcp-send");
    r.status = RunStatus::Ok;
    r.latency.method = QStringLiteral("tcp-connect");
    r.latency.target = QStringLiteral("10.0.0.2 TCP port 5201");
    r.latency.samples = samplesOf({1.0, 1.2}, false, -1) + samplesOf({5.0}, true);
    r.latency.summarize();
    const QJsonObject withSamples = JsonExport::runToJson(r, true);
    QCOMPARE(withSamples.value(QStringLiteral("latency")).toObject().value(QStringLiteral("samples")).toArray().size(),
             3);
    QVERIFY(!JsonExport::runToJson(r, false)
                 .value(QStringLiteral("latency"))
                 .toObject()
                 .contains(QStringLiteral("samples")));
    RunResultList back;
    QString error;
    QVERIFY2(JsonExport::fromJson(JsonExport::toJson({r}), &back, &error), qPrintable(error));
    QCOMPARE(back.size(), 1);
    QCOMPARE(back.first().latency.loaded, r.latency.loaded);
    QCOMPARE(back.first().latency.idle, r.latency.idle);
    QVERIFY(!back.first().extra.contains(QStringLiteral("latency"))); // typed, not an extra
    RunResult none;
    QVERIFY(!JsonExport::runToJson(none, true).contains(QStringLiteral("latency")));
}

QTEST_GUILESS_MAIN(TestRunLatency)
#include "TestRunLatency.moc"
