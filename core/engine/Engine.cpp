#include "Engine.h"

#include "EngineWorker.h"

namespace wb {

void registerEngineMetaTypes()
{
    qRegisterMetaType<wb::Host>();
    qRegisterMetaType<wb::TestParams>();
    qRegisterMetaType<wb::RunSpec>();
    qRegisterMetaType<wb::Sample>();
    qRegisterMetaType<wb::SampleList>();
    qRegisterMetaType<wb::LatencySampleList>();
    qRegisterMetaType<wb::RunResult>();
    qRegisterMetaType<wb::RunResultList>();
    qRegisterMetaType<wb::TestPlan>();
    qRegisterMetaType<wb::PreflightReport>();
}

Engine::Engine(QObject *parent)
    : QObject(parent)
{
    registerEngineMetaTypes();
    m_thread.setObjectName(QStringLiteral("wirebench-engine"));
    m_worker = new EngineWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    connect(m_worker, &EngineWorker::planStarted, this, &Engine::planStarted);
    connect(m_worker, &EngineWorker::runStarted, this, &Engine::runStarted);
    connect(m_worker, &EngineWorker::samplesReady, this, &Engine::samplesReady);
    connect(m_worker, &EngineWorker::latencyReady, this, &Engine::latencyReady);
    connect(m_worker, &EngineWorker::statusChanged, this, &Engine::statusChanged);
    connect(m_worker, &EngineWorker::runFinished, this, &Engine::runFinished);
    connect(m_worker, &EngineWorker::progressChanged, this, &Engine::progressChanged);
    connect(m_worker, &EngineWorker::planFinished, this, &Engine::onWorkerFinished);
    m_thread.start();
}

Engine::~Engine()
{
    // Quit-then-wait: the worker sees the stop flag, its driver returns within a second, the thread's
    // event loop then handles quit() and the worker is deleted on its own thread.
    m_worker->requestStop();
    m_thread.quit();
    m_thread.wait();
}

bool Engine::start(const TestPlan &plan, const PreflightReport &checked)
{
    if (m_running || !plan.validate().isEmpty())
        return false;
    m_running = true;
    TestPlan copy = plan;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, copy, checked] { worker->runPlan(copy, checked); }, Qt::QueuedConnection);
    return true;
}

void Engine::stop()
{
    if (m_running)
        m_worker->requestStop();
}

void Engine::onWorkerFinished(bool cancelled)
{
    m_running = false;
    emit planFinished(cancelled);
}

} // namespace wb
