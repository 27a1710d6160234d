// Bufferbloat: the one rule for latency under load (what the load added, graded: under 5 ms nothing, 5 to 30 ms a
// note, from 30 ms a warning), its sentence only where it applies, the figures line of every measured run and the
// note of an unmeasured one, units on every number.
#include "analysis/Bufferbloat.h"

#include <QtTest>

using namespace wb;

namespace {

RunLatency latency(double idleMs, double loadedMs)
{
    RunLatency l;
    l.method = QStringLiteral("udp-echo");
    l.target = QStringLiteral("10.0.0.2 UDP port 5301");
    for (int i = 0; i < 4; ++i) {
        l.samples.append({0, -1.0 + 0.1 * i, idleMs, false});
        l.samples.append({0, 0.1 * i, loadedMs, true});
    }
    l.summarize();
    return l;
}

} // namespace

class TestBufferbloat : public QObject
{
    Q_OBJECT
private slots:
    void sentence_data();
    void sentence();
    void gradeNames();
    void figures();
    void unmeasured();
    void testFigures();
    void ms_data();
    void ms();
};

void TestBufferbloat::sentence_data()
{
    QTest::addColumn<double>("idle");
    QTest::addColumn<double>("loaded");
    QTest::addColumn<int>("grade");
    QTest::addColumn<QString>("expected");
    const int good = int(Bufferbloat::Grade::Good);
    const int note = int(Bufferbloat::Grade::Note);
    const int warning = int(Bufferbloat::Grade::Warning);
    QTest::newRow("healthy: nothing said") << 0.4 << 2.1 << good << QString();
    QTest::newRow("just under 5 ms: nothing") << 0.4 << 5.3 << good << QString();
    QTest::newRow("5 ms: a note") << 0.5 << 5.5 << note
                                  << QStringLiteral("the queue on the path adds 5.0 ms at full load (round trip 5.5 ms "
                                                    "loaded against 0.5 ms idle, medians); under 5 ms is good");
    QTest::newRow("8.5 ms, a 1 Gbit/s interface's queue: a note")
        << 0.1 << 8.6 << note
        << QStringLiteral(
               "the queue on the path adds 8.5 ms at full load (round trip 8.6 ms loaded against 0.1 ms idle, "
               "medians); under 5 ms is good");
    QTest::newRow("23 ms: a note") << 0.4 << 23.4 << note
                                   << QStringLiteral("the queue on the path adds 23 ms at full load (round trip 23 ms "
                                                     "loaded against 0.4 ms idle, medians); under 5 ms is good");
    QTest::newRow("under 30 ms: a note") << 0.4 << 29.4 << note
                                         << QStringLiteral(
                                                "the queue on the path adds 29 ms at full load (round trip "
                                                "29 ms loaded against 0.4 ms idle, medians); under 5 ms is good");
    QTest::newRow("30 ms: a warning") << 1.0 << 31.0 << warning
                                      << QStringLiteral(
                                             "the queue on the path adds 30 ms at full load (round trip 31 ms "
                                             "loaded against 1.0 ms idle, medians); under 5 ms is good");
    QTest::newRow("200 ms: a warning") << 0.4 << 200.4 << warning
                                       << QStringLiteral(
                                              "the queue on the path adds 200 ms at full load (round trip "
                                              "200 ms loaded against 0.4 ms idle, medians); under 5 ms is good");
    QTest::newRow("loaded faster than idle") << 3.0 << 1.0 << good << QString();
}

void TestBufferbloat::sentence()
{
    QFETCH(double, idle);
    QFETCH(double, loaded);
    QFETCH(int, grade);
    QFETCH(QString, expected);
    const RunLatency l = latency(idle, loaded);
    QCOMPARE(int(Bufferbloat::gradeOf(l)), grade);
    QCOMPARE(Bufferbloat::sentence(l), expected);
    // The same sentence is a note below 30 ms and a warning from 30 ms, never both.
    QCOMPARE(Bufferbloat::note(l), grade == int(Bufferbloat::Grade::Note) ? expected : QString());
    QCOMPARE(Bufferbloat::warning(l), grade == int(Bufferbloat::Grade::Warning) ? expected : QString());
}

void TestBufferbloat::gradeNames()
{
    QCOMPARE(Bufferbloat::gradeName(Bufferbloat::gradeOf(RunLatency())), QString());
    QCOMPARE(Bufferbloat::gradeName(Bufferbloat::gradeOf(4.99)), QStringLiteral("good"));
    QCOMPARE(Bufferbloat::gradeName(Bufferbloat::gradeOf(5.0)), QStringLiteral("note"));
    QCOMPARE(Bufferbloat::gradeName(Bufferbloat::gradeOf(29.99)), QStringLiteral("note"));
    QCOMPARE(Bufferbloat::gradeName(Bufferbloat::gradeOf(30.0)), QStringLiteral("warning"));
}

void TestBufferbloat::figures()
{
    QCOMPARE(
        Bufferbloat::figures(latency(0.4, 23.4)),
        QStringLiteral("latency under load +23 ms over the idle 0.4 ms (loaded: median 23 ms, p90 23 ms, p99 23 ms, "
                       "max 23 ms; idle: median 0.4 ms, p90 0.4 ms, p99 0.4 ms, max 0.4 ms; udp-echo to 10.0.0.2 UDP "
                       "port 5301)"));
    RunLatency lossy = latency(0.4, 1.0);
    lossy.samples.append({0, 0.5, -1, true});
    lossy.summarize();
    QVERIFY2(Bufferbloat::figures(lossy).contains(QStringLiteral("max 1.0 ms, 1 of 5 lost; idle")),
             qPrintable(Bufferbloat::figures(lossy)));
    QCOMPARE(Bufferbloat::figures(latency(1.0, 0.5)).left(42),
             QStringLiteral("latency under load -0.5 ms over the idle 1"));
}

void TestBufferbloat::unmeasured()
{
    QCOMPARE(Bufferbloat::figures(RunLatency()), QString()); // no far host (a local copy)
    RunLatency noted;
    noted.note = QStringLiteral("latency not measured: wirebenchd on fs1 gave no echo token: it sent no hello");
    QCOMPARE(Bufferbloat::figures(noted), noted.note);
    QCOMPARE(Bufferbloat::sentence(noted), QString());
    RunLatency silent;
    silent.method = QStringLiteral("tcp-connect");
    silent.target = QStringLiteral("10.0.0.2 TCP port 445");
    silent.samples.append({0, -1, -1, false});
    silent.samples.append({0, 0.5, -1, true});
    silent.summarize();
    QCOMPARE(
        Bufferbloat::figures(silent),
        QStringLiteral("latency not measured: no round trip to 10.0.0.2 TCP port 445 was answered before the load"));
    silent.samples.first().rttMs = 0.3;
    silent.summarize();
    QCOMPARE(
        Bufferbloat::figures(silent),
        QStringLiteral("latency not measured: no round trip to 10.0.0.2 TCP port 445 was answered during the load"));
}

void TestBufferbloat::testFigures()
{
    QCOMPARE(
        Bufferbloat::testFigures(Statistics::summarize({0.4, 0.5, 0.3}), Statistics::summarize({23.0, 24.0, 22.0})),
        QStringLiteral("latency under load +23 ms over the idle 0.4 ms (loaded 23 ms; medians of 3 runs); the queue "
                       "on the path adds 23 ms at full load; under 5 ms is good"));
    QCOMPARE(Bufferbloat::testFigures(Statistics::summarize({0.4}), Statistics::summarize({4.3})),
             QStringLiteral("latency under load +3.9 ms over the idle 0.4 ms (loaded 4.3 ms; one run)"));
    QCOMPARE(Bufferbloat::testFigures(Statistics::summarize({0.4}), Statistics::summarize({1.2})),
             QStringLiteral("latency under load +0.8 ms over the idle 0.4 ms (loaded 1.2 ms; one run)"));
    QCOMPARE(Bufferbloat::testFigures(Summary(), Summary()), QString());
}

void TestBufferbloat::ms_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("loopback") << 0.046 << QStringLiteral("0.05 ms");
    QTest::newRow("LAN") << 0.41 << QStringLiteral("0.4 ms");
    QTest::newRow("few") << 4.24 << QStringLiteral("4.2 ms");
    QTest::newRow("queue") << 23.4 << QStringLiteral("23 ms");
    QTest::newRow("negative") << -0.5 << QStringLiteral("-0.5 ms");
}

void TestBufferbloat::ms()
{
    QFETCH(double, value);
    QTEST(Bufferbloat::ms(value), "text");
}

QTEST_GUILESS_MAIN(TestBufferbloat)
#include "TestBufferbloat.moc"
