#include "storage/ResultStore.h"
#include "StoreTestData.h"
#include "support/CiRule.h"
#include "support/FreePort.h"
#include "support/PostgresServer.h"
#include "support/RunCompare.h"

#include <QFile>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <vector>

using namespace wb;

class TestResultStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase_data();
    void initTestCase();
    void roundTrip();
    void latencyRoundTrip();
    void secretsNeverStored();
    void filter();
    void filterFoldsCaseInEveryScript();
    void deleteAndFind();
    void walMode();
    void otherThread();
    void secondStoreDoesNotInterruptFirst();
    void closedStoreFailsCleanly();
    void concurrentWriters();
    void deadWritersSessionIsInterrupted();
    void newerStoreRefused();
    void serverThatCannotBeReached();

private:
    static void compareRuns(const RunResult &a, const RunResult &b);
    bool onServer() const;
    /// Whether this row's backend can run (always for SQLite); m_serverWhy says why not.
    bool backendReady() const { return !onServer() || m_server.isRunning(); }
    /// A new store for this row: a file in `dir`, or a new database on the test's server.
    QString newStore(const QTemporaryDir &dir, const QString &name = QStringLiteral("results.sqlite"));
    /// A raw connection (`name`) to the store at `location`, for looking past the store's API.
    QSqlDatabase raw(const QString &location, const QString &name) const;

    test::PostgresServer m_server;
    QString m_serverWhy;
};

// Every test runs against both backends: the embedded file and a PostgreSQL server that the test starts itself.
void TestResultStore::initTestCase_data()
{
    QTest::addColumn<bool>("server");
    QTest::newRow("sqlite") << false;
    QTest::newRow("postgresql") << true;
}

void TestResultStore::initTestCase()
{
    if (!m_server.start(&m_serverWhy))
        m_serverWhy = QStringLiteral("no PostgreSQL for the server rows: %1").arg(m_serverWhy);
}

bool TestResultStore::onServer() const
{
    QFETCH_GLOBAL(bool, server);
    return server;
}

QString TestResultStore::newStore(const QTemporaryDir &dir, const QString &name)
{
    if (!onServer())
        return dir.filePath(name);
    QString why;
    const QString url = m_server.createDatabase(&why);
    if (url.isEmpty())
        qWarning("cannot create a database: %s", qPrintable(why));
    return url;
}

QSqlDatabase TestResultStore::raw(const QString &location, const QString &name) const
{
    if (onServer())
        return m_server.open(location.section(QLatin1Char('/'), -1), name);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(location);
    db.open();
    return db;
}

void TestResultStore::compareRuns(const RunResult &got, const RunResult &want)
{
    test::compareKeptFields(got, want);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(got.spec.host.linkSpeedMbps, want.spec.host.linkSpeedMbps);
    QCOMPARE(got.extra, want.extra);
    QCOMPARE(got.samples.size(), want.samples.size());
    for (qsizetype i = 0; i < got.samples.size(); ++i) {
        QCOMPARE(got.samples.at(i).runIndex, want.samples.at(i).runIndex);
        QCOMPARE(got.samples.at(i).endSeconds, want.samples.at(i).endSeconds);
        QCOMPARE(got.samples.at(i).intervalSeconds, want.samples.at(i).intervalSeconds);
        QCOMPARE(got.samples.at(i).bytes, want.samples.at(i).bytes);
    }
}

void TestResultStore::roundTrip()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = newStore(dir, QStringLiteral("sub/results.sqlite"));
    const TestPlan plan = wbtest::plan();
    const QList<RunSpec> specs = plan.expand();
    RunResultList written;
    qint64 sessionId = 0;
    {
        ResultStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        QCOMPARE(store.versionAtOpen(), 0);
        sessionId = store.beginSession(plan, &error);
        QVERIFY2(sessionId > 0, qPrintable(error));
        for (int i = 0; i < 3; ++i) {
            RunResult r = wbtest::run(specs.at(i), 1000000 + i, 20 + i);
            if (i == 1) {
                r.warnings = {QStringLiteral("faster than the 1000 Mbit/s link: check the link speed"),
                              QStringLiteral("sender and receiver disagree by 4096 B")};
                QVariantMap nested;
                nested.insert(QStringLiteral("cpu_local_percent"), 12.5);
                r.extra.insert(QStringLiteral("cpu"), nested);
                r.extra.insert(QStringLiteral("retransmits"), 3);
            }
            if (i == 2) {
                r.status = RunStatus::Failed;
                r.error = QStringLiteral("win-fs (127.0.0.3:5301): connection refused; start wirebenchd there");
                r.samples.clear();
                r.bytes = 0;
                r.seconds = 0;
                r.extra.clear();
                r.startedAt = QDateTime();
            }
            QVERIFY2(store.addRun(sessionId, r, &error) > 0, qPrintable(error));
            written.append(r);
        }
        QVERIFY2(store.endSession(sessionId, SessionState::Cancelled, &error), qPrintable(error));
    }

    ResultStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.versionAtOpen(), ResultStore::kSchemaVersion);
    QCOMPARE(store.interruptedAtOpen(), 0);
    const SessionInfoList sessions = store.sessions(SessionFilter(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(sessions.size(), 1);
    const SessionInfo &s = sessions.first();
    QCOMPARE(s.id, sessionId);
    QCOMPARE(s.uuid.size(), 36);
    QCOMPARE(s.state, SessionState::Cancelled);
    QVERIFY(s.startedAt.isValid());
    QVERIFY(s.endedAt.isValid());
    QVERIFY(s.endedAt >= s.startedAt);
    QCOMPARE(s.hostNames(), QStringList({QStringLiteral("linux-fs"), QStringLiteral("win-fs")}));
    QCOMPARE(s.hosts.at(1).osLabel, QStringLiteral("Windows Server 2003"));
    QCOMPARE(s.protocols, plan.protocols);
    QCOMPARE(s.frameSizes, plan.frameSizes);
    QCOMPARE(s.runCount, 3);
    QCOMPARE(s.okRuns, 2);
    QCOMPARE(s.plannedRuns, plan.runCount());
    QCOMPARE(s.plan.repetitions, 2);
    QCOMPARE(s.plan.params.messageSize, 1472);
    QCOMPARE(s.wirebenchVersion, QStringLiteral(WIREBENCH_VERSION));
    QVERIFY(!s.machineHostname.isEmpty());
    QVERIFY(!s.machineOs.isEmpty());

    QList<qint64> ids;
    const RunResultList runs = store.runs(sessionId, &error, &ids);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), written.size());
    QCOMPARE(ids.size(), written.size());
    for (qsizetype i = 0; i < runs.size(); ++i)
        compareRuns(runs.at(i), written.at(i));
    QCOMPARE(
        runs.at(1).extra.value(QStringLiteral("cpu")).toMap().value(QStringLiteral("cpu_local_percent")).toDouble(),
        12.5);
}

// Latency under load (schema version 4): the figures as columns a query can compare, every figure and round trip
// read back with the run; a run without a probe leaves them NULL.
void TestResultStore::latencyRoundTrip()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = newStore(dir);
    const QList<RunSpec> specs = wbtest::plan().expand();
    RunResult measured = wbtest::run(specs.at(0), 1000000, 10);
    measured.latency.method = QStringLiteral("udp-echo");
    measured.latency.target = QStringLiteral("127.0.0.2 UDP port 5301");
    measured.latency.rateHz = 20;
    for (int i = 0; i < 20; ++i) {
        measured.latency.samples.append({specs.at(0).index, -2 + 0.1 * i, 0.25 + 0.01 * i, false});
        measured.latency.samples.append({specs.at(0).index, 0.05 * i, i == 7 ? -1 : 20.5 + 0.1 * i, true}); // one lost
    }
    measured.latency.summarize();
    RunResult noted = wbtest::run(specs.at(1), 1000000, 10);
    noted.latency.note
        = QStringLiteral("latency not measured: wirebenchd on win-fs gave no echo token: it sent no hello");
    const RunResult plain = wbtest::run(specs.at(2), 1000000, 10); // no probe (a local copy)
    QList<qint64> ids;
    {
        ResultStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        const qint64 session = store.beginSession(wbtest::plan(), &error);
        QVERIFY2(session > 0, qPrintable(error));
        for (const RunResult &r : {measured, noted, plain})
            QVERIFY2(store.addRun(session, r, &error) > 0, qPrintable(error));
        const RunResultList back = store.runs(session, &error, &ids);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(back.size(), 3);
        QCOMPARE(back.at(0).latency.toJson(), measured.latency.toJson());
        QCOMPARE(back.at(0).latency.samples.size(), 40);
        QCOMPARE(back.at(0).latency.loaded.lost, 1);
        QCOMPARE(back.at(0).latency.loaded, measured.latency.loaded);
        QCOMPARE(back.at(0).latency.idle, measured.latency.idle);
        QVERIFY(!back.at(0).extra.contains(QStringLiteral("latency"))); // its own columns, not extra_json
        QCOMPARE(back.at(1).latency.note, noted.latency.note);
        QVERIFY(!back.at(1).latency.measured());
        QVERIFY(back.at(2).latency.method.isEmpty() && back.at(2).latency.note.isEmpty());
    }
    QSqlDatabase db = raw(path, QStringLiteral("latency-raw"));
    {
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("SELECT id, latency_method, latency_idle_median_ms, latency_loaded_median_ms,"
                                      " latency_loaded_p99_ms, latency_added_ms FROM runs ORDER BY id")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toLongLong(), ids.at(0));
        QCOMPARE(q.value(1).toString(), QStringLiteral("udp-echo"));
        QCOMPARE(q.value(2).toDouble(), measured.latency.idle.medianMs);
        QCOMPARE(q.value(3).toDouble(), measured.latency.loaded.medianMs);
        QCOMPARE(q.value(4).toDouble(), measured.latency.loaded.p99Ms);
        QCOMPARE(q.value(5).toDouble(), measured.latency.increaseMs());
        QVERIFY(q.next()); // the noted run: a method-less row with no figures
        QVERIFY(q.value(2).isNull() && q.value(5).isNull());
        QVERIFY(q.next()); // no probe: NULL
        QVERIFY(q.value(1).isNull() && q.value(3).isNull());
    }
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("latency-raw"));
}

void TestResultStore::secretsNeverStored()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    const QString path = newStore(dir);
    {
        ResultStore store;
        QVERIFY(store.open(path));
        const qint64 id = store.beginSession(wbtest::plan());
        QVERIFY(id > 0);
        QVERIFY(store.addRun(id, wbtest::run(wbtest::plan().expand().first(), 100, 3)) > 0);
        const SessionInfoList list = store.sessions();
        QCOMPARE(list.size(), 1);
        QVERIFY(!list.first().hosts.first().options.contains(QStringLiteral("ftp.password")));
        QCOMPARE(list.first().hosts.first().options.value(QStringLiteral("smb.share")).toString(),
                 QStringLiteral("bench"));
        QVERIFY(!store.runs(id).first().spec.host.options.contains(QStringLiteral("ftp.password")));
    }
    if (onServer()) {
        // Not in any text the server holds.
        QSqlDatabase db = raw(path, QStringLiteral("raw-secrets"));
        {
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT (SELECT COUNT(*) FROM sessions WHERE plan_json LIKE '%hunter2%')"
                                          " + (SELECT COUNT(*) FROM session_hosts WHERE options_json LIKE '%hunter2%')"
                                          " + (SELECT COUNT(*) FROM runs WHERE params_json LIKE '%hunter2%'"
                                          " OR extra_json LIKE '%hunter2%')")));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 0);
        }
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("raw-secrets"));
        return;
    }
    // Not in any table, not in the plan JSON, not in the WAL: look at the raw bytes of every file.
    for (const QString &name : QDir(dir.path()).entryList(QDir::Files)) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains("hunter2"), qPrintable(name));
    }
}

void TestResultStore::filter()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    QString error;
    QVERIFY2(store.open(newStore(dir), &error), qPrintable(error));

    TestPlan a = wbtest::plan(); // linux-fs + win-fs, tcp-send/recv, 1500/9000
    TestPlan b;
    b.hosts = {wbtest::host(QStringLiteral("nas"), QStringLiteral("127.0.0.9"), QStringLiteral("FreeBSD"))};
    b.protocols = {QStringLiteral("ftp-get")};
    b.frameSizes = {1500};
    b.repetitions = 1;
    const qint64 idA = store.beginSession(a);
    const qint64 idB = store.beginSession(b);
    QVERIFY(idA > 0 && idB > idA);
    QVERIFY(store.endSession(idA, SessionState::Finished));
    // A run whose protocol the plan did not name still shows in the list.
    RunSpec extraSpec = b.expand().first();
    extraSpec.protocol = QStringLiteral("iperf3-send");
    extraSpec.frameSize = 4000;
    QVERIFY(store.addRun(idB, wbtest::run(extraSpec, 10, 2)) > 0);

    auto ids = [&](const SessionFilter &f) {
        QList<qint64> out;
        for (const SessionInfo &s : store.sessions(f))
            out << s.id;
        return out;
    };
    QCOMPARE(ids(SessionFilter()), QList<qint64>({idB, idA})); // newest first
    SessionFilter f;
    f.text = QStringLiteral("windows");
    QCOMPARE(ids(f), QList<qint64>({idA}));
    f = SessionFilter();
    f.text = QStringLiteral("FTP");
    QCOMPARE(ids(f), QList<qint64>({idB}));
    f = SessionFilter();
    f.states = {SessionState::Running};
    QCOMPARE(ids(f), QList<qint64>({idB}));
    f.states = {SessionState::Finished, SessionState::Cancelled};
    QCOMPARE(ids(f), QList<qint64>({idA}));
    f = SessionFilter();
    f.protocol = QStringLiteral("iperf3-send");
    QCOMPARE(ids(f), QList<qint64>({idB}));
    f = SessionFilter();
    f.frameSize = 9000;
    QCOMPARE(ids(f), QList<qint64>({idA}));
    f.frameSize = 4000;
    QCOMPARE(ids(f), QList<qint64>({idB}));
    f = SessionFilter();
    f.host = QStringLiteral("127.0.0.2");
    QCOMPARE(ids(f), QList<qint64>({idA}));
    f.host = QStringLiteral("NAS");
    QCOMPARE(ids(f), QList<qint64>({idB}));
    f = SessionFilter();
    f.from = QDateTime::currentDateTimeUtc().addDays(-1);
    f.to = QDateTime::currentDateTimeUtc().addDays(1);
    QCOMPARE(ids(f).size(), 2);
    f.to = QDateTime::currentDateTimeUtc().addDays(-1);
    QCOMPARE(ids(f).size(), 0);
    f = SessionFilter();
    f.limit = 1;
    QCOMPARE(ids(f), QList<qint64>({idB}));

    const SessionInfoList all = store.sessions();
    QCOMPARE(all.first().protocols, QStringList({QStringLiteral("ftp-get"), QStringLiteral("iperf3-send")}));
    QCOMPARE(all.first().frameSizes, QList<int>({1500, 4000}));
    QCOMPARE(all.first().runCount, 1);
    QCOMPARE(all.last().runCount, 0);
}

// The search and the host filter ignore case as Qt does, in every script: SQLite's LIKE and NOCASE fold ASCII only.
void TestResultStore::filterFoldsCaseInEveryScript()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    QString error;
    QVERIFY2(store.open(newStore(dir), &error), qPrintable(error));
    TestPlan p;
    p.hosts = {wbtest::host(QStringLiteral("Ägir-NAS"), QStringLiteral("127.0.0.7"), QStringLiteral("Système Ω"))};
    p.protocols = {QStringLiteral("ftp-get")};
    p.frameSizes = {1500};
    p.repetitions = 1;
    const qint64 other = store.beginSession(wbtest::plan());
    const qint64 id = store.beginSession(p);
    QVERIFY(other > 0 && id > other);
    auto ids = [&](const SessionFilter &f) {
        QList<qint64> out;
        for (const SessionInfo &s : store.sessions(f))
            out << s.id;
        return out;
    };
    SessionFilter f;
    for (const char *text : {"ägir", "ÄGIR", "système ω", "SYSTÈME Ω"}) {
        f.text = QString::fromUtf8(text);
        QCOMPARE(ids(f), QList<qint64>({id}));
    }
    f = SessionFilter();
    f.host = QStringLiteral("ägir-nas");
    QCOMPARE(ids(f), QList<qint64>({id}));
    // The text is text, not a pattern.
    f = SessionFilter();
    f.text = QStringLiteral("%");
    QCOMPARE(ids(f), QList<qint64>());
    f.text = QStringLiteral("_");
    QCOMPARE(ids(f), QList<qint64>());
}

void TestResultStore::deleteAndFind()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    const QString location = newStore(dir);
    QVERIFY(store.open(location));
    const TestPlan plan = wbtest::plan();
    const qint64 keep = store.beginSession(plan);
    const qint64 drop = store.beginSession(plan);
    for (const RunSpec &spec : plan.expand().mid(0, 2)) {
        QVERIFY(store.addRun(keep, wbtest::run(spec, 5, 4)) > 0);
        QVERIFY(store.addRun(drop, wbtest::run(spec, 7, 4)) > 0);
    }
    SessionInfo info;
    QVERIFY(store.session(drop, &info));
    QCOMPARE(store.findSession(QString::number(drop)), drop);
    QCOMPARE(store.findSession(info.uuid.left(8).toUpper()), drop);
    QCOMPARE(store.findSession(info.uuid), drop);
    QString error;
    QCOMPARE(store.findSession(QStringLiteral("no-such-session"), &error), 0);
    QVERIFY(error.contains(QStringLiteral("no session")));

    QVERIFY2(store.deleteSession(drop, &error), qPrintable(error));
    QVERIFY(!store.session(drop, &info, &error));
    QCOMPARE(store.runs(drop).size(), 0);
    QCOMPARE(store.runs(keep).size(), 2);
    QCOMPARE(store.runs(keep).first().samples.size(), 4);
    QVERIFY(!store.deleteSession(drop, &error));
    QVERIFY(error.contains(QStringLiteral("no session")));

    // No orphan rows left behind.
    QSqlDatabase rawDb = raw(location, QStringLiteral("raw-delete"));
    QVERIFY(rawDb.isOpen());
    {
        QSqlQuery q(rawDb);
        QVERIFY(q.exec(QStringLiteral("SELECT (SELECT COUNT(*) FROM samples), (SELECT COUNT(*) FROM runs),"
                                      " (SELECT COUNT(*) FROM session_hosts)")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 8);
        QCOMPARE(q.value(1).toInt(), 2);
        QCOMPARE(q.value(2).toInt(), 2);
        // A uuid prefix made of digits is not taken for an id that does not exist.
        QVERIFY(q.exec(QStringLiteral("UPDATE sessions SET uuid = '12345678-0000-4000-8000-000000000000' WHERE id = %1")
                           .arg(keep)));
    }
    rawDb = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("raw-delete"));
    QCOMPARE(store.findSession(QStringLiteral("12345678")), keep);
    QCOMPARE(store.findSession(QString::number(keep)), keep);
}

void TestResultStore::walMode()
{
    if (onServer())
        QSKIP("WAL is SQLite's journal; a server keeps its own");
    QTemporaryDir dir;
    ResultStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("results.sqlite"))));
    QCOMPARE(ResultStore::fileSchemaVersion(store.path()), ResultStore::kSchemaVersion);
    QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw-wal"));
    raw.setDatabaseName(store.path());
    QVERIFY(raw.open());
    {
        QSqlQuery q(raw);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
    }
    raw = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("raw-wal"));
}

void TestResultStore::otherThread()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    QVERIFY(store.open(newStore(dir)));
    const TestPlan plan = wbtest::plan();
    const qint64 id = store.beginSession(plan);
    QVERIFY(id > 0);
    // The engine's worker thread stores runs while the GUI thread reads the list.
    qint64 stored = 0;
    QString threadError;
    std::unique_ptr<QThread> worker(QThread::create([&] {
        for (const RunSpec &spec : plan.expand())
            stored += store.addRun(id, wbtest::run(spec, 50, 5), &threadError) > 0 ? 1 : 0;
    }));
    worker->start();
    QVERIFY(worker->wait(60000));
    QVERIFY2(threadError.isEmpty(), qPrintable(threadError));
    QCOMPARE(stored, qint64(plan.runCount()));
    QCOMPARE(store.runs(id).size(), plan.runCount());
}

void TestResultStore::secondStoreDoesNotInterruptFirst()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    const QString path = newStore(dir);
    ResultStore gui;
    QVERIFY(gui.open(path));
    const qint64 id = gui.beginSession(wbtest::plan());
    {
        ResultStore cli; // a second user of the same file while the first one runs a plan
        QString error;
        QVERIFY2(cli.open(path, &error), qPrintable(error));
        QCOMPARE(cli.interruptedAtOpen(), 0);
        SessionInfo info;
        QVERIFY(cli.session(id, &info));
        QCOMPARE(info.state, SessionState::Running);
    }
    QVERIFY(gui.addRun(id, wbtest::run(wbtest::plan().expand().first(), 10, 2)) > 0);
    QVERIFY(gui.endSession(id, SessionState::Finished));
}

void TestResultStore::closedStoreFailsCleanly()
{
    ResultStore store;
    QString error;
    QCOMPARE(store.beginSession(wbtest::plan(), &error), 0);
    QVERIFY(error.contains(QStringLiteral("not open")));
    QCOMPARE(store.addRun(1, RunResult(), &error), 0);
    QVERIFY(store.sessions(SessionFilter(), &error).isEmpty());
    QVERIFY(store.runs(1, &error).isEmpty());
    QVERIFY(!store.endSession(1, SessionState::Finished, &error));
}

// Three clients, each with its own connection, write many runs at the same time: afterwards every run is there,
// whole, in its own session, and no two sessions or runs share an id.
void TestResultStore::concurrentWriters()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    const QString location = newStore(dir);
    {
        ResultStore first; // the layout exists before the writers race (they would wait for each other anyway)
        QString error;
        QVERIFY2(first.open(location, &error), qPrintable(error));
    }
    constexpr int kWriters = 3;
    constexpr int kSessions = 4;
    constexpr int kRuns = 25;
    const TestPlan plan = wbtest::plan();
    const RunSpec spec = plan.expand().first();
    struct Written
    {
        QList<qint64> sessions;
        QList<qint64> runs;
        QString error;
    };
    std::vector<Written> written(kWriters);
    std::vector<std::unique_ptr<QThread>> threads;
    for (int w = 0; w < kWriters; ++w) {
        threads.emplace_back(QThread::create([&, w] {
            ResultStore store;
            Written &out = written[size_t(w)];
            if (!store.open(location, &out.error))
                return;
            for (int s = 0; s < kSessions && out.error.isEmpty(); ++s) {
                TestPlan p = plan;
                p.hosts.first().name = QStringLiteral("writer-%1").arg(w);
                const qint64 id = store.beginSession(p, &out.error);
                if (id <= 0)
                    return;
                out.sessions << id;
                for (int r = 0; r < kRuns; ++r) {
                    RunSpec rs = spec;
                    rs.index = r;
                    rs.host.name = p.hosts.first().name;
                    // bytes say who wrote the run, in which session and which run it was
                    const qint64 runId
                        = store.addRun(id, wbtest::run(rs, 1000000LL * (w + 1) + 1000 * s + r, 5), &out.error);
                    if (runId <= 0)
                        return;
                    out.runs << runId;
                }
                if (!store.endSession(id, SessionState::Finished, &out.error))
                    return;
            }
        }));
    }
    for (auto &t : threads)
        t->start();
    for (auto &t : threads)
        QVERIFY(t->wait(300000));

    QSet<qint64> sessionIds;
    QSet<qint64> runIds;
    for (const Written &w : written) {
        QVERIFY2(w.error.isEmpty(), qPrintable(w.error));
        QCOMPARE(w.sessions.size(), kSessions);
        QCOMPARE(w.runs.size(), kSessions * kRuns);
        for (qint64 id : w.sessions)
            sessionIds.insert(id);
        for (qint64 id : w.runs)
            runIds.insert(id);
    }
    QCOMPARE(sessionIds.size(), kWriters * kSessions);
    QCOMPARE(runIds.size(), kWriters * kSessions * kRuns);

    ResultStore store;
    QString error;
    QVERIFY2(store.open(location, &error), qPrintable(error));
    QCOMPARE(store.sessionCount(), qint64(kWriters * kSessions));
    for (int w = 0; w < kWriters; ++w) {
        for (int s = 0; s < kSessions; ++s) {
            const qint64 id = written[size_t(w)].sessions.at(s);
            SessionInfo info;
            QVERIFY2(store.session(id, &info, &error), qPrintable(error));
            QCOMPARE(info.state, SessionState::Finished);
            QCOMPARE(info.runCount, kRuns);
            QCOMPARE(info.hosts.first().name, QStringLiteral("writer-%1").arg(w));
            const RunResultList runs = store.runs(id, &error);
            QCOMPARE(runs.size(), kRuns);
            for (int r = 0; r < kRuns; ++r) {
                QCOMPARE(runs.at(r).spec.index, r);
                QCOMPARE(runs.at(r).samples.first().bytes, 1000000LL * (w + 1) + 1000 * s + r);
                QCOMPARE(runs.at(r).spec.host.name, QStringLiteral("writer-%1").arg(w));
                QCOMPARE(runs.at(r).samples.size(), 5);
            }
        }
    }
}

// A session whose writer went away without ending it (a crash, a lost link) is marked interrupted by the next
// client that opens the store; one whose writer is alive is not (secondStoreDoesNotInterruptFirst).
void TestResultStore::deadWritersSessionIsInterrupted()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    const QString location = newStore(dir);
    qint64 id = 0;
    {
        ResultStore writer;
        QVERIFY(writer.open(location));
        id = writer.beginSession(wbtest::plan());
        QVERIFY(id > 0);
        QVERIFY(writer.addRun(id, wbtest::run(wbtest::plan().expand().first(), 10, 2)) > 0);
    } // gone without endSession
    if (onServer()) {
        // The server lets the writer's lock go when its backend has ended, a moment after the client closed.
        QSqlDatabase db = raw(location, QStringLiteral("raw-locks"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QSqlQuery q(db);
                return q.exec(QStringLiteral("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'")) && q.next()
                    && q.value(0).toInt() == 0;
            }(),
            60000);
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("raw-locks"));
    }
    ResultStore next;
    QString error;
    QVERIFY2(next.open(location, &error), qPrintable(error));
    QCOMPARE(next.interruptedAtOpen(), 1);
    SessionInfo info;
    QVERIFY(next.session(id, &info));
    QCOMPARE(info.state, SessionState::Interrupted);
    QCOMPARE(next.runs(id).size(), 1);
}

// A store that a newer Wirebench has migrated is left alone, with a sentence that says so.
void TestResultStore::newerStoreRefused()
{
    WB_REQUIRE(backendReady(), m_serverWhy);
    QTemporaryDir dir;
    const QString location = newStore(dir);
    {
        ResultStore store;
        QVERIFY(store.open(location));
        QVERIFY(store.beginSession(wbtest::plan()) > 0);
    }
    const int newer = ResultStore::kSchemaVersion + 1;
    {
        QSqlDatabase db = raw(location, QStringLiteral("raw-newer"));
        QSqlQuery q(db);
        QVERIFY(q.exec(onServer() ? QStringLiteral("UPDATE wirebench_schema SET version = %1").arg(newer)
                                  : QStringLiteral("PRAGMA user_version = %1").arg(newer)));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw-newer"));
    ResultStore store;
    QString error;
    QVERIFY(!store.open(location, &error));
    QVERIFY(!store.isOpen());
    QVERIFY2(error.contains(QStringLiteral("was written by a newer Wirebench (schema %1, this one knows %2); update "
                                           "Wirebench or choose another store")
                                .arg(newer)
                                .arg(ResultStore::kSchemaVersion)),
             qPrintable(error));
    QVERIFY2(error.contains(onServer() ? location : QStringLiteral("results.sqlite")), qPrintable(error));
}

// What a user reads when the server is not there, the database or the user is missing, or the address is wrong.
void TestResultStore::serverThatCannotBeReached()
{
    if (!onServer())
        QSKIP("a server's case");
    const quint16 nobody = test::freeLoopbackPort();
    const QString url = QStringLiteral("postgresql://bench@127.0.0.1:%1/wirebench").arg(nobody);
    ResultStore store;
    QString error;
    QVERIFY(!store.open(url, &error));
    QVERIFY2(
        error.startsWith(QStringLiteral("Result store %1: cannot connect to 127.0.0.1 port %2 (").arg(url).arg(nobody)),
        qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("check the server's name and port, that PostgreSQL runs there")),
             qPrintable(error));
    QCOMPARE(store.lastError(), error);
    QCOMPARE(store.sessions(SessionFilter(), &error).size(), 0);

    QVERIFY(!store.open(QStringLiteral("postgresql://bench:secret@127.0.0.1/wirebench"), &error));
    QVERIFY2(error.contains(QStringLiteral("carries a password")) && error.contains(QStringLiteral("PGPASSWORD"))
                 && !error.contains(QStringLiteral("secret")),
             qPrintable(error));
    QVERIFY(!store.open(QStringLiteral("postgresql://bench@127.0.0.1"), &error));
    QVERIFY2(error.contains(QStringLiteral("names no database")), qPrintable(error));

    WB_REQUIRE(m_server.isRunning(), m_serverWhy);
    QVERIFY(!store.open(m_server.url(QStringLiteral("nosuchdb")), &error));
    QVERIFY2(error.contains(QStringLiteral("create the database (createdb -h 127.0.0.1 -p %1 -U wirebench nosuchdb)")
                                .arg(m_server.port())),
             qPrintable(error));
    QVERIFY(!store.open(QStringLiteral("postgresql://nobody@127.0.0.1:%1/postgres").arg(m_server.port()), &error));
    QVERIFY2(error.contains(QStringLiteral("the server has no user nobody")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestResultStore)
#include "TestResultStore.moc"
