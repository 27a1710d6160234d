#pragma once

#include "engine/Engine.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QSignalSpy>
#include <QString>

namespace wb::test {

/// An engine with spies on the runs it finishes and on its end, for a test that checks each step itself.
struct EngineSpies
{
    Engine engine;
    QSignalSpy finished{&engine, &Engine::runFinished};
    QSignalSpy done{&engine, &Engine::planFinished};
};

/// Runs `plan` on an Engine made here (its worker thread starts in the calling thread's network namespace)
/// until the plan ends or timeoutMs pass: the result of every run that finished, in order. error, when
/// given, says why the list may be short ("" when the plan ran to its end).
inline RunResultList runPlanToEnd(const TestPlan &plan, int timeoutMs, QString *error = nullptr)
{
    Engine engine;
    QSignalSpy finished(&engine, &Engine::runFinished);
    QSignalSpy done(&engine, &Engine::planFinished);
    QString why;
    if (!engine.start(plan))
        why = QStringLiteral("the engine did not start the plan");
    else if (!done.wait(timeoutMs) && done.isEmpty())
        why = QStringLiteral("the plan did not finish within %1 s").arg(timeoutMs / 1000);
    if (error)
        *error = why;
    RunResultList out;
    for (const QList<QVariant> &args : std::as_const(finished))
        out << args.at(0).value<RunResult>();
    return out;
}

} // namespace wb::test
