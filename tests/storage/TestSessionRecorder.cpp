// SessionRecorder: what the engine reports becomes a stored session as it happens, and a failing store is said
// once and never stops the measuring, whether the writes run on the caller's thread (the CLI) or on the
// recorder's own (the window). The engine's signals are emitted here by hand: no run is measured.
#include "StoreTestData.h"
#include "engine/Engine.h"
#include "platform/ActivityMarker.h"
#include "storage/ResultStore.h"
#include "storage/SessionRecorder.h"
#include "support/CiRule.h"
#include "support/PostgresServer.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace wb;

namespace {

// A store in a folder of its own, an engine whose signals the test emits by hand, and the recorder between them.
struct Rig
{
    explicit Rig(SessionRecorder::Writes writes)
        : recorder(&engine, &store, nullptr, writes)
    {
    }
    QTemporaryDir dir;
    ResultStore store;
    Engine engine;
    SessionRecorder recorder;
    QSignalSpy stored{&recorder, &SessionRecorder::runStored};
    QSignalSpy ended{&recorder, &SessionRecorder::sessionEnded};
    QSignalSpy errors{&recorder, &SessionRecorder::storeError};

    /// `location`: a postgresql:// database, or empty for a file in the rig's folder.
    bool open(const QString &location = QString())
    {
        return store.open(location.isEmpty() ? dir.filePath(QStringLiteral("r.sqlite")) : location);
    }
};

} // namespace

class TestSessionRecorder : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase_data();
    void initTestCase();
    void storesEachRunAndTheEnd();
    void cancelledPlanIsCancelled();
    void withoutStoreNothingIsStored();
    void failingStoreSaysSoOnce();
    void ownThreadWritesOffTheCallersThread();
    void closingWaitsForTheWrites();

private:
    /// This row's store: empty (a file) for sqlite, a new database on the test's server for postgresql.
    QString location()
    {
        QFETCH_GLOBAL(bool, server);
        QString why;
        return server ? m_server.createDatabase(&why) : QString();
    }
    static SessionRecorder::Writes writes()
    {
        QFETCH_GLOBAL(bool, ownThread);
        return ownThread ? SessionRecorder::Writes::OnOwnThread : SessionRecorder::Writes::OnCallerThread;
    }
    bool backendReady() const
    {
        QFETCH_GLOBAL(bool, server);
        return !server || m_server.isRunning();
    }

    test::PostgresServer m_server;
    QString m_serverWhy;

    static QList<RunResult> twoRuns()
    {
        const QList<RunSpec> specs = wbtest::plan().expand();
        return {wbtest::run(specs.at(0), 1000, 3), wbtest::run(specs.at(1), 2000, 2)};
    }
};

// Every case against both backends: the embedded file and a PostgreSQL server that the test starts.
void TestSessionRecorder::initTestCase_data()
{
    QTest::addColumn<bool>("server");
    QTest::addColumn<bool>("ownThread");
    QTest::newRow("sqlite") << false << false;
    QTest::newRow("sqlite, own thread") << false << true;
    QTest::newRow("postgresql") << true << false;
    QTest::newRow("postgresql, own thread") << true << true;
}

void TestSessionRecorder::initTestCase()
{
    if (!m_server.start(&m_serverWhy))
        m_serverWhy = QStringLiteral("no PostgreSQL for the server rows: %1").arg(m_serverWhy);
}

void TestSessionRecorder::storesEachRunAndTheEnd()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    Rig rig(writes());
    QVERIFY(rig.open(location()));
    ResultStore &store = rig.store;
    Engine &engine = rig.engine;
    SessionRecorder &recorder = rig.recorder;

    const qint64 id = recorder.begin(wbtest::plan());
    QVERIFY(id > 0);
    QCOMPARE(recorder.sessionId(), id);
    SessionInfo info;
    QVERIFY(store.session(id, &info));
    QCOMPARE(info.state, SessionState::Running);

    for (const RunResult &r : twoRuns())
        emit engine.runFinished(r);
    QTRY_COMPARE(rig.stored.count(), 2);
    QVERIFY(!recorder.isWriting());
    QCOMPARE(rig.stored.at(0).at(0).toLongLong(), id);
    QCOMPARE(store.runs(id).size(), 2);
    QCOMPARE(store.runs(id).at(1).samples.size(), 2);

    emit engine.planFinished(false);
    QTRY_COMPARE(rig.ended.count(), 1);
    QCOMPARE(rig.ended.at(0).at(1).value<SessionState>(), SessionState::Finished);
    QCOMPARE(recorder.sessionId(), 0);
    QVERIFY(store.session(id, &info));
    QCOMPARE(info.state, SessionState::Finished);
    QCOMPARE(info.runCount, 2);

    // After the end nothing more lands in that session.
    emit engine.runFinished(twoRuns().first());
    recorder.waitForWrites();
    QCOMPARE(store.runs(id).size(), 2);
    QVERIFY(!recorder.isWriting());
}

void TestSessionRecorder::cancelledPlanIsCancelled()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    Rig rig(writes());
    QVERIFY(rig.open(location()));
    const qint64 id = rig.recorder.begin(wbtest::plan());
    emit rig.engine.runFinished(twoRuns().first());
    emit rig.engine.planFinished(true);
    QTRY_COMPARE(rig.ended.count(), 1);
    QCOMPARE(rig.ended.at(0).at(1).value<SessionState>(), SessionState::Cancelled);
    SessionInfo info;
    QVERIFY(rig.store.session(id, &info));
    QCOMPARE(info.state, SessionState::Cancelled);
    QCOMPARE(info.runCount, 1);
}

void TestSessionRecorder::withoutStoreNothingIsStored()
{
    Engine engine;
    SessionRecorder recorder(&engine, nullptr, nullptr, writes());
    QSignalSpy stored(&recorder, &SessionRecorder::runStored);
    QSignalSpy ended(&recorder, &SessionRecorder::sessionEnded);
    QSignalSpy errors(&recorder, &SessionRecorder::storeError);
    QCOMPARE(recorder.begin(wbtest::plan()), 0);
    emit engine.runFinished(twoRuns().first());
    emit engine.planFinished(false);
    recorder.waitForWrites();
    QCoreApplication::processEvents();
    QVERIFY(!recorder.isWriting());
    QCOMPARE(stored.count(), 0);
    QCOMPARE(ended.count(), 0);
    QCOMPARE(errors.count(), 0);

    ResultStore closed; // a store that could not be opened: the app goes on without history
    SessionRecorder closedRecorder(&engine, &closed, nullptr, writes());
    QCOMPARE(closedRecorder.begin(wbtest::plan()), 0);
}

void TestSessionRecorder::failingStoreSaysSoOnce()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    Rig rig(writes());
    QVERIFY(rig.open(location()));
    const qint64 id = rig.recorder.begin(wbtest::plan());
    QVERIFY(id > 0);
    QVERIFY(rig.store.deleteSession(id)); // every run of it now has no session to go to
    for (const RunResult &r : twoRuns())
        emit rig.engine.runFinished(r);
    emit rig.engine.planFinished(false);
    QTRY_COMPARE(rig.ended.count(), 1); // the end comes after every run's answer
    QCOMPARE(rig.stored.count(), 0);
    QCOMPARE(rig.errors.count(), 1);
    const QString message = rig.errors.at(0).at(0).toString();
    QVERIFY2(message.startsWith(QStringLiteral("Result store %1: ").arg(rig.store.path())), qPrintable(message));
    QVERIFY2(message.endsWith(QStringLiteral("(the results stay on screen; export them to keep them).")),
             qPrintable(message));
}

// The window's recorder: the writes happen on another thread, and what they answer arrives on this one.
void TestSessionRecorder::ownThreadWritesOffTheCallersThread()
{
    QFETCH_GLOBAL(bool, ownThread);
    WB_REQUIRE(backendReady(), m_serverWhy);
    Rig rig(writes());
    QVERIFY(rig.open(location()));
    QThread *writer = nullptr;
    QThread *answered = nullptr;
    ActivityMarker::setSink(
        [](void *context, const char *name, std::int64_t) {
            if (QByteArray(name) == "store: add run")
                *static_cast<QThread **>(context) = QThread::currentThread();
        },
        &writer);
    QObject::connect(&rig.recorder, &SessionRecorder::runStored, &rig.recorder,
                     [&answered] { answered = QThread::currentThread(); });
    QVERIFY(rig.recorder.begin(wbtest::plan()) > 0);
    emit rig.engine.runFinished(twoRuns().first());
    QTRY_COMPARE(rig.stored.count(), 1);
    ActivityMarker::setSink(nullptr, nullptr);
    QCOMPARE(answered, QThread::currentThread());
    // The marker's sink is this thread's only: a write on another thread does not reach it.
    if (ownThread)
        QCOMPARE(writer, nullptr);
    else
        QCOMPARE(writer, QThread::currentThread());
}

// A recorder destroyed (the window closed) right after a run ended has still put that run in the store.
void TestSessionRecorder::closingWaitsForTheWrites()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    const QString where = location();
    QVERIFY(store.open(where.isEmpty() ? dir.filePath(QStringLiteral("r.sqlite")) : where));
    Engine engine;
    qint64 id = 0;
    {
        SessionRecorder recorder(&engine, &store, nullptr, writes());
        id = recorder.begin(wbtest::plan());
        QVERIFY(id > 0);
        for (const RunResult &r : twoRuns())
            emit engine.runFinished(r);
        emit engine.planFinished(false);
    }
    QCOMPARE(store.runs(id).size(), 2);
    SessionInfo info;
    QVERIFY(store.session(id, &info));
    QCOMPARE(info.state, SessionState::Finished);
}

QTEST_GUILESS_MAIN(TestSessionRecorder)
#include "TestSessionRecorder.moc"
