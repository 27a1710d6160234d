#pragma once

#include "StoreTypes.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QObject>

namespace wb {

class Engine;
class ResultStore;

/// Writes what an Engine measures into a ResultStore as it happens: a session when the plan starts, each run
/// the moment it ends (so a crash loses at most the run in flight), the session's end state last.
/// The GUI and the CLI share it. A store that fails never stops the measuring: the error is reported once
/// through storeError() and the results stay on screen.
class SessionRecorder : public QObject
{
    Q_OBJECT
public:
    SessionRecorder(Engine *engine, ResultStore *store, QObject *parent = nullptr);

    /// Call right before Engine::start with the same plan. Returns the new session id, 0 without a store.
    qint64 begin(const TestPlan &plan);
    qint64 sessionId() const { return m_session; }

signals:
    void runStored(qint64 sessionId, qint64 runId);
    void sessionEnded(qint64 sessionId, wb::SessionState state);
    void storeError(const QString &message);

private:
    void onRunFinished(const RunResult &result);
    void onPlanFinished(bool cancelled);
    void report(const QString &message);

    ResultStore *m_store;
    qint64 m_session = 0;
    bool m_reported = false;
};

} // namespace wb
