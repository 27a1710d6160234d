// "Repeat until stable" in the engine loop, against a real in-process responder on loopback.
#include "engine/Engine.h"
#include "responder/Responder.h"
#include "support/LoopbackResponder.h"

#include <QSignalSpy>
#include <QTest>

using namespace wb;

class TestEngineStable : public QObject
{
    Q_OBJECT

private:
    TestPlan planFor(quint16 port, double targetPercent, int minReps, int maxReps)
    {
        TestPlan plan;
        Host host;
        host.name = QStringLiteral("loopback");
        host.address = QStringLiteral("127.0.0.1");
        host.port = port;
        plan.hosts = {host};
        plan.protocols = {QStringLiteral("tcp-send")};
        plan.frameSizes = {1500};
        plan.repetitions = maxReps;
        plan.params.durationMs = 300;
        plan.params.stableTargetPercent = targetPercent;
        plan.params.minRepetitions = minReps;
        return plan;
    }

    QList<RunResult> runPlan(const TestPlan &plan, QList<QVariantList> *progress = nullptr)
    {
        Engine engine;
        QSignalSpy finished(&engine, &Engine::runFinished);
        QSignalSpy done(&engine, &Engine::planFinished);
        QSignalSpy prog(&engine, &Engine::progressChanged);
        if (!engine.start(plan))
            return {};
        if (!done.wait(60000))
            return {};
        QList<RunResult> out;
        for (const QList<QVariant> &args : finished)
            out.append(args.at(0).value<RunResult>());
        if (progress)
            *progress = prog;
        return out;
    }

private slots:
    void initTestCase()
    {
        m_responder = test::loopbackResponder();
        QString error;
        QVERIFY2(m_responder->start(&error), qPrintable(error));
    }

    void looseTargetStopsAtMinimum()
    {
        // A half-width within 1000% of the mean is reached by any three loopback runs.
        QList<QVariantList> progress;
        const QList<RunResult> results = runPlan(planFor(m_responder->port(), 1000, 3, 8), &progress);
        QCOMPARE(results.size(), 3);
        for (const RunResult &r : results)
            QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(results.last().extra.value(QStringLiteral("stability")).toString().contains(QLatin1String("95%")));
        QVERIFY(results.last().warnings.filter(QStringLiteral("95%")).isEmpty());
        // The progress bar's total shrinks to the runs actually made.
        QCOMPARE(progress.last().at(0).toInt(), 3);
        QCOMPARE(progress.last().at(1).toInt(), 3);
    }

    void unreachableTargetRunsMaximumAndSaysSo()
    {
        const QList<RunResult> results = runPlan(planFor(m_responder->port(), 0.0001, 2, 3));
        QCOMPARE(results.size(), 3);
        const QString note = results.last().extra.value(QStringLiteral("stability")).toString();
        QVERIFY2(!note.isEmpty(), "the last repetition says how the stability rule ended");
        QCOMPARE(results.last().warnings.filter(note).size(), 1);
    }

    void offRunsEveryRepetition()
    {
        const QList<RunResult> results = runPlan(planFor(m_responder->port(), 0, 3, 4));
        QCOMPARE(results.size(), 4);
        QVERIFY(!results.last().extra.contains(QStringLiteral("stability")));
    }

private:
    std::unique_ptr<Responder> m_responder;
};

QTEST_GUILESS_MAIN(TestEngineStable)
#include "TestEngineStable.moc"
