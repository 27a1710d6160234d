// The live latency graph (ui/charts/LatencyChart): what it holds is read back from the graph (QCPGraph::data()): the
// loaded round trips of each repetition, lost probes as gaps, the idle median as the dashed line with its label, the
// throughput graph's time range, the note when a run has no figure, and a real run through the engine.
#include "LatencyChart.h"
#include "ThroughputChart.h"

#include "engine/Engine.h"
#include "latency/LatencyRecorder.h"
#include "responder/Responder.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace wb;

namespace {

RunSpec specOf(int index, int repetition)
{
    RunSpec s;
    s.index = index;
    s.repetition = repetition;
    s.protocol = QStringLiteral("tcp-send");
    s.host.name = QStringLiteral("lab");
    s.host.address = QStringLiteral("10.0.0.2");
    return s;
}

} // namespace

class TestLatencyChart : public QObject
{
    Q_OBJECT
private slots:
    void emptyHint();
    void holdsLoadedRoundTrips();
    void runRecordReplacesLiveLine();
    void noteWhenNotMeasured();
    void followsTheThroughputTimeAxis();
    void realRun();
};

void TestLatencyChart::emptyHint()
{
    LatencyChart chart;
    QCOMPARE(chart.hint(), QStringLiteral("The round trip to the host, before and during each run, appears here."));
    QCOMPARE(chart.lineCount(), 0);
    QCOMPARE(chart.idleLineMs(), -1.0);
}

void TestLatencyChart::holdsLoadedRoundTrips()
{
    LatencyChart chart;
    chart.onPlanStarted();
    chart.onRunStarted(specOf(4, 1));
    chart.addSamples({{4, -1.0, 0.5, false},
                      {4, -0.5, 0.3, false},
                      {4, -0.1, 0.4, false},
                      {4, 0.05, 20.0, true},
                      {4, 0.10, -1, true},
                      {4, 0.15, 22.5, true},
                      {9, 0.2, 99.0, true}}); // run 9 is not on screen
    chart.replotNow();
    QCPGraph *g = chart.graphForRun(4);
    QVERIFY(g);
    QCOMPARE(g->data()->size(), 3); // the loaded ones; idle ones are before t = 0
    auto it = g->data()->constBegin();
    QCOMPARE(it->key, 0.05);
    QCOMPARE(it->value, 20.0);
    ++it;
    QVERIFY(std::isnan(it->value)); // lost: a gap
    ++it;
    QCOMPARE(it->value, 22.5);
    QCOMPARE(chart.idleLineMs(), 0.4);
    QCOMPARE(chart.idleLabel(), QStringLiteral("dashed: idle 0.4 ms (median before the load)"));
    QVERIFY(chart.hint().isEmpty());
    QVERIFY(chart.plot()->yAxis->range().upper >= 22.5);

    // Another repetition of the same test: a second line; another test: the lines start again.
    chart.onRunStarted(specOf(5, 2));
    QCOMPARE(chart.lineCount(), 2);
    RunSpec other = specOf(6, 1);
    other.protocol = QStringLiteral("tcp-recv");
    chart.onRunStarted(other);
    QCOMPARE(chart.lineCount(), 1);
    QVERIFY(!chart.graphForRun(4));
}

void TestLatencyChart::runRecordReplacesLiveLine()
{
    LatencyChart chart;
    chart.onRunStarted(specOf(0, 1));
    chart.addSamples({{0, 0.05, 3.0, true}});
    RunResult r;
    r.spec = specOf(0, 1);
    r.latency.method = QStringLiteral("udp-echo");
    r.latency.samples = {{0, -0.5, 1.0, false}, {0, -0.2, 2.0, false}, {0, 0.05, 3.0, true}, {0, 0.10, 4.0, true}};
    r.latency.summarize();
    chart.onRunFinished(r);
    chart.replotNow();
    QCOMPARE(chart.graphForRun(0)->data()->size(), 2);
    QCOMPARE((chart.graphForRun(0)->data()->constEnd() - 1)->value, 4.0);
    QCOMPARE(chart.idleLineMs(), 1.5);
}

void TestLatencyChart::noteWhenNotMeasured()
{
    LatencyChart chart;
    chart.resize(600, 300);
    chart.onRunStarted(specOf(0, 1));
    RunResult r;
    r.spec = specOf(0, 1);
    r.latency.note = QStringLiteral("latency not measured: wirebenchd on lab gave no echo token: it sent no hello");
    chart.onRunFinished(r);
    QCOMPARE(chart.hint().simplified(), r.latency.note);
}

void TestLatencyChart::followsTheThroughputTimeAxis()
{
    ThroughputChart live;
    LatencyChart chart;
    chart.followTimeAxis(live.plot()->xAxis);
    live.plot()->xAxis->setRange(0, 42);
    QCOMPARE(chart.plot()->xAxis->range().lower, 0.0);
    QCOMPARE(chart.plot()->xAxis->range().upper, 42.0);
}

void TestLatencyChart::realRun()
{
    ResponderConfig c;
    c.address = QHostAddress::LocalHost;
    c.port = 0;
    Responder responder(c);
    QVERIFY(responder.start());
    Engine engine;
    ThroughputChart live;
    LatencyChart chart;
    live.follow(&engine);
    chart.follow(&engine);
    chart.followTimeAxis(live.plot()->xAxis);
    QSignalSpy runs(&engine, &Engine::runFinished);
    QSignalSpy done(&engine, &Engine::planFinished);
    TestPlan plan;
    Host h;
    h.name = QStringLiteral("loop");
    h.address = QStringLiteral("127.0.0.1");
    h.port = responder.port();
    plan.hosts << h;
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 1500;
    plan.params.options.insert(LatencyRecorder::idleOption(), 500);
    QVERIFY(engine.start(plan));
    QVERIFY(done.wait(60000));
    QCOMPARE(runs.size(), 1);
    const RunResult r = runs.first().first().value<RunResult>();
    QVERIFY2(r.ok(), qPrintable(r.error));
    chart.replotNow();
    live.replotNow();
    QCPGraph *g = chart.graphForRun(r.spec.index);
    QVERIFY(g);
    int loaded = 0;
    for (const LatencySample &s : r.latency.samples)
        loaded += s.loaded ? 1 : 0;
    QVERIFY(loaded >= 2);
    QCOMPARE(g->data()->size(), loaded);
    qsizetype i = 0;
    for (const LatencySample &s : r.latency.samples) {
        if (!s.loaded)
            continue;
        const auto point = g->data()->at(i++);
        QCOMPARE(point->key, s.seconds);
        if (!s.lost())
            QCOMPARE(point->value, s.rttMs);
    }
    QCOMPARE(chart.idleLineMs(), r.latency.idle.medianMs);
    QCOMPARE(chart.plot()->xAxis->range().upper, live.plot()->xAxis->range().upper);
}

QTEST_MAIN(TestLatencyChart)
#include "TestLatencyChart.moc"
