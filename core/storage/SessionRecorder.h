#pragma once

#include "StoreTypes.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QObject>

#include <functional>

class QThread;

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
    /// Where a run's and a session end's writes happen. The CLI has nothing else to do on its thread; the window's
    /// event loop must not wait 2-13 ms for the disk at every run's end, so it gives them a thread of their own
    /// (the store keeps one connection per thread). The signals arrive on the recorder's thread either way.
    enum class Writes { OnCallerThread, OnOwnThread };

    SessionRecorder(Engine *engine, ResultStore *store, QObject *parent = nullptr,
                    Writes writes = Writes::OnCallerThread);
    ~SessionRecorder() override;

    /// Call right before Engine::start with the same plan. Returns the new session id, 0 without a store.
    /// The session row is written here, on the caller's thread, since its id is needed at once.
    qint64 begin(const TestPlan &plan);
    qint64 sessionId() const { return m_session; }
    /// True while a run or a session's end is written and its signal has not arrived yet.
    bool isWriting() const { return m_pending > 0; }
    /// Blocks until every write asked for so far is in the store (their signals follow through the event loop).
    void waitForWrites();

signals:
    void runStored(qint64 sessionId, qint64 runId);
    void sessionEnded(qint64 sessionId, wb::SessionState state);
    void storeError(const QString &message);

private:
    /// `job` runs where the writes run; the function it returns runs afterwards on the recorder's thread.
    using Job = std::function<std::function<void()>()>;
    void post(Job job);
    void onRunFinished(const RunResult &result);
    void onPlanFinished(bool cancelled);
    void report(const QString &message);

    ResultStore *m_store;
    qint64 m_session = 0;
    bool m_reported = false;
    int m_pending = 0;           // writes posted whose answer has not come back (recorder's thread only)
    QThread *m_thread = nullptr; // Writes::OnOwnThread
    QObject *m_writer = nullptr; // lives on m_thread: the receiver of the posted writes
};

} // namespace wb
