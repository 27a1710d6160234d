#include "SessionRecorder.h"

#include "ResultStore.h"
#include "engine/Engine.h"
#include "platform/ActivityMarker.h"

#include <QThread>

namespace wb {

SessionRecorder::SessionRecorder(Engine *engine, ResultStore *store, QObject *parent, Writes writes)
    : QObject(parent)
    , m_store(store)
{
    connect(engine, &Engine::runFinished, this, &SessionRecorder::onRunFinished);
    connect(engine, &Engine::planFinished, this, &SessionRecorder::onPlanFinished);
    if (writes == Writes::OnOwnThread && store) {
        m_thread = new QThread(this);
        m_thread->setObjectName(QStringLiteral("wirebench store writer"));
        m_writer = new QObject; // no parent: it moves to the thread and is deleted after the thread ends
        m_writer->moveToThread(m_thread);
        m_thread->start();
    }
}

SessionRecorder::~SessionRecorder()
{
    if (!m_thread)
        return;
    waitForWrites(); // a run measured before the window closed is not lost
    m_thread->quit();
    m_thread->wait(); // the store's connection on that thread closes as it finishes (StoreConnections)
    delete m_writer;
}

void SessionRecorder::waitForWrites()
{
    if (m_writer)
        QMetaObject::invokeMethod(
            m_writer, [] {}, Qt::BlockingQueuedConnection); // the queue is first in, first out
}

void SessionRecorder::post(Job job)
{
    if (!m_writer) {
        job()();
        return;
    }
    ++m_pending;
    QMetaObject::invokeMethod(
        m_writer,
        [this, job = std::move(job)] {
            // The recorder outlives this call: its destructor waits for the queue before the thread ends.
            QMetaObject::invokeMethod(
                this,
                [this, answer = job()] {
                    --m_pending;
                    answer();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
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
    const qint64 session = m_session;
    post([this, session, result]() -> std::function<void()> {
        const ActivityMarker busy("store: add run");
        QString error;
        const qint64 runId = m_store->addRun(session, result, &error);
        if (runId > 0)
            return [this, session, runId] { emit runStored(session, runId); };
        return [this, error] { report(error); };
    });
}

void SessionRecorder::onPlanFinished(bool cancelled)
{
    if (!m_session)
        return;
    const qint64 session = m_session;
    m_session = 0;
    const SessionState state = cancelled ? SessionState::Cancelled : SessionState::Finished;
    post([this, session, state]() -> std::function<void()> {
        const ActivityMarker busy("store: end session");
        QString error;
        const bool ok = m_store->endSession(session, state, &error);
        return [this, session, state, ok, error] {
            if (!ok)
                report(error);
            emit sessionEnded(session, state);
        };
    });
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
