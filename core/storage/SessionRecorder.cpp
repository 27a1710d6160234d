#include "SessionRecorder.h"

#include "ResultStore.h"
#include "engine/Engine.h"
#include "platform/ActivityMarker.h"

namespace wb {

SessionRecorder::SessionRecorder(Engine *engine, ResultStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    connect(engine, &Engine::runFinished, this, &SessionRecorder::onRunFinished);
    connect(engine, &Engine::planFinished, this, &SessionRecorder::onPlanFinished);
}

qint64 SessionRecorder::begin(const TestPlan &plan)
{
    m_session = 0;
    m_reported = false;
    if (!m_store || !m_store->isOpen())
        return 0;
    const ActivityMarker busy("store: begin session");
    QString error;
    m_session = m_store->beginSession(plan, &error);
    if (m_session <= 0) {
        m_session = 0;
        report(error);
    }
    return m_session;
}

void SessionRecorder::onRunFinished(const RunResult &result)
{
    if (!m_session)
        return;
    const ActivityMarker busy("store: add run");
    QString error;
    const qint64 runId = m_store->addRun(m_session, result, &error);
    if (runId > 0)
        emit runStored(m_session, runId);
    else
        report(error);
}

void SessionRecorder::onPlanFinished(bool cancelled)
{
    if (!m_session)
        return;
    const SessionState state = cancelled ? SessionState::Cancelled : SessionState::Finished;
    const ActivityMarker busy("store: end session");
    QString error;
    if (!m_store->endSession(m_session, state, &error))
        report(error);
    emit sessionEnded(m_session, state);
    m_session = 0;
}

void SessionRecorder::report(const QString &message)
{
    if (m_reported) // one message per plan: a full disk would otherwise say so for every run
        return;
    m_reported = true;
    emit storeError(QStringLiteral("Result store %1: %2 (the results stay on screen; export them to keep them).")
                        .arg(m_store->path(), message));
}

} // namespace wb
