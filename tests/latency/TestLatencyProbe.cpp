// The latency probe beside real runs (Engine, LatencyRecorder, LatencyProbe, LatencyTarget): wirebenchd's UDP echo
// for tcp-send and tcp-recv, the TCP connect time to an iperf3 server's port, idle round trips before the load and
// loaded ones during it on the throughput samples' clock, live batches, the notes when there is no figure, and no
// sentence on a healthy (loopback) run.
#include "analysis/Bufferbloat.h"
#include "engine/Engine.h"
#include "latency/LatencyRecorder.h"
#include "responder/Iperf3Responder.h"
#include "responder/Responder.h"

#include <QSignalSpy>
#include <QTest>

using namespace wb;

namespace {

constexpr int kIdleMs = 600;

struct Ran
{
    RunResultList results;
    LatencySampleList live;
    QStringList status;
};

Ran runPlan(const TestPlan &plan)
{
    Ran ran;
    Engine engine;
    QSignalSpy runs(&engine, &Engine::runFinished);
    QSignalSpy live(&engine, &Engine::latencyReady);
    QSignalSpy status(&engine, &Engine::statusChanged);
    QSignalSpy finished(&engine, &Engine::planFinished);
    if (!engine.start(plan) || !finished.wait(120000))
        return ran;
    for (const QList<QVariant> &a : std::as_const(runs))
        ran.results << a.first().value<RunResult>();
    for (const QList<QVariant> &a : std::as_const(live))
        ran.live << a.first().value<LatencySampleList>();
    for (const QList<QVariant> &a : std::as_const(status))
        ran.status << a.first().toString();
    return ran;
}

TestPlan planFor(quint16 port, const QStringList &protocols, int idleMs = kIdleMs)
{
    TestPlan p;
    Host h;
    h.name = QStringLiteral("loop");
    h.address = QStringLiteral("127.0.0.1");
    h.port = port;
    p.hosts << h;
    p.protocols = protocols;
    p.frameSizes = {1500};
    p.repetitions = 1;
    p.params.durationMs = 1500;
    p.params.options.insert(LatencyRecorder::idleOption(), idleMs);
    return p;
}

ResponderConfig loopbackConfig(bool echoOn = true)
{
    ResponderConfig c;
    c.address = QHostAddress::LocalHost;
    c.port = 0;
    c.echo = echoOn;
    return c;
}

/// What every measured run shows: both phases, idle before t = 0 and loaded after it, on the run's clock.
void checkPhases(const RunResult &r, const QString &method)
{
    const RunLatency &l = r.latency;
    QCOMPARE(l.method, method);
    QVERIFY2(l.idle.count >= 2, qPrintable(QString::number(l.idle.count)));
    QVERIFY2(l.loaded.count >= 2, qPrintable(QString::number(l.loaded.count)));
    QVERIFY(l.measured());
    for (const LatencySample &s : l.samples) {
        QCOMPARE(s.runIndex, r.spec.index);
        if (s.loaded)
            QVERIFY2(s.seconds > -0.1, qPrintable(QString::number(s.seconds))); // from the first sample with bytes
        else
            QVERIFY2(s.seconds < 0, qPrintable(QString::number(s.seconds))); // before the driver started
    }
    QVERIFY(l.idle.medianMs > 0 && l.idle.medianMs <= l.idle.p90Ms && l.idle.p90Ms <= l.idle.p99Ms
            && l.idle.p99Ms <= l.idle.maxMs);
    QVERIFY(Bufferbloat::figures(l).startsWith(QStringLiteral("latency under load ")));
    qInfo("%s: %s", qPrintable(r.spec.protocol), qPrintable(Bufferbloat::figures(l)));
}

/// Each of two runs succeeded and measured both phases by method, to target at rateHz.
void checkRuns(const Ran &ran, const QString &method, const QString &target, int rateHz)
{
    QCOMPARE(ran.results.size(), 2);
    for (const RunResult &r : ran.results) {
        QVERIFY2(r.ok(), qPrintable(r.error));
        checkPhases(r, method);
        QCOMPARE(r.latency.target, target);
        QCOMPARE(r.latency.rateHz, rateHz);
        for (const QString &w : r.warnings) // loopback has no queue worth a sentence
            QVERIFY2(!w.contains(QStringLiteral("queue on the path")), qPrintable(w));
    }
}

} // namespace

class TestLatencyProbe : public QObject
{
    Q_OBJECT
private slots:
    void echoBesideOwnTcp();
    void connectTimeToIperf3();
    void olderWirebenchdHasANote();
    void offWhenIdleIsZero();
};

void TestLatencyProbe::echoBesideOwnTcp()
{
    Responder responder(loopbackConfig());
    QVERIFY(responder.start());
    const Ran ran = runPlan(planFor(responder.port(), {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    checkRuns(ran, QStringLiteral("udp-echo"), QStringLiteral("127.0.0.1 UDP port %1").arg(responder.port()), 20);
    QVERIFY(ran.status.contains(QStringLiteral("Timing the round trip to loop before the load (0.6 s)")));
    // Live: the rounds of both runs reached the GUI's side, each with its run's index.
    QSet<int> liveRuns;
    for (const LatencySample &s : ran.live)
        liveRuns.insert(s.runIndex);
    QCOMPARE(liveRuns, (QSet<int>{0, 1}));
}

void TestLatencyProbe::connectTimeToIperf3()
{
    Iperf3Responder iperf3(loopbackConfig());
    QString error;
    QVERIFY2(iperf3.start(&error), qPrintable(error));
    // The probe's connections reach the server between its tests' stream set-ups; the test itself is unharmed.
    const Ran ran = runPlan(planFor(iperf3.port(), {QStringLiteral("iperf3-send"), QStringLiteral("iperf3-recv")}));
    checkRuns(ran, QStringLiteral("tcp-connect"), QStringLiteral("127.0.0.1 TCP port %1").arg(iperf3.port()), 10);
}

void TestLatencyProbe::olderWirebenchdHasANote()
{
    Responder responder(loopbackConfig(false));
    QVERIFY(responder.start());
    const Ran ran = runPlan(planFor(responder.port(), {QStringLiteral("tcp-send")}));
    QCOMPARE(ran.results.size(), 1);
    const RunResult &r = ran.results.first();
    QVERIFY2(r.ok(), qPrintable(r.error)); // the test itself runs as before
    QVERIFY(r.latency.method.isEmpty());
    QCOMPARE(r.latency.note,
             QStringLiteral("latency not measured: wirebenchd on loop gave no echo token: it offers no "
                            "latency echo (a wirebenchd older than this Wirebench, or one whose UDP "
                            "port was taken)"));
    QCOMPARE(Bufferbloat::figures(r.latency), r.latency.note);
}

void TestLatencyProbe::offWhenIdleIsZero()
{
    Responder responder(loopbackConfig());
    QVERIFY(responder.start());
    const Ran ran = runPlan(planFor(responder.port(), {QStringLiteral("tcp-send")}, 0));
    QCOMPARE(ran.results.size(), 1);
    QVERIFY(ran.results.first().ok());
    QVERIFY(ran.results.first().latency.method.isEmpty());
    QVERIFY(ran.results.first().latency.note.isEmpty());
    QVERIFY(ran.live.isEmpty());
    for (const QString &line : ran.status)
        QVERIFY(!line.startsWith(QStringLiteral("Timing the round trip")));
}

QTEST_GUILESS_MAIN(TestLatencyProbe)
#include "TestLatencyProbe.moc"
