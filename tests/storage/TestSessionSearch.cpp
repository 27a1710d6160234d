#include "storage/ResultStore.h"
#include "storage/StoreSchema.h"
#include "StoreTestData.h"
#include "support/CiRule.h"
#include "support/PostgresServer.h"

#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace wb;

/// The search of History and `sessions` (SessionSearch, schema 5): it finds the sessions whose title, uuid,
/// computer, state, protocols (the plan's and the runs') or hosts (name, address, OS) contain the text, ignoring case
/// as Qt does, and no other; after every kind of write; through its index or by reading; on both backends.
class TestSessionSearch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase_data();
    void initTestCase();
    void findsWhatItsFieldsHold();
    void manySessions();
    void migratesFromTheSchemaBefore();

private:
    bool onServer() const;
    QString newStore(const QTemporaryDir &dir);
    /// What the search must find: the sessions of `all` (newest first) with a field that contains `needle`.
    static QList<qint64> expected(const SessionInfoList &all, const QString &needle);
    static QStringList fieldsOf(const SessionInfo &s);
    static QList<qint64> found(const ResultStore &store, const QString &needle, int limit = 0);
    /// Compares the search with expected() for needles cut from every field of every session, and some that
    /// span two fields, miss, or hold the characters of LIKE and FTS5's syntax.
    static void compareForNeedles(const ResultStore &store);

    test::PostgresServer m_server;
    QString m_serverWhy;
};

void TestSessionSearch::initTestCase_data()
{
    QTest::addColumn<bool>("server");
    QTest::newRow("sqlite") << false;
    QTest::newRow("postgresql") << true;
}

void TestSessionSearch::initTestCase()
{
    if (!m_server.start(&m_serverWhy))
        m_serverWhy = QStringLiteral("no PostgreSQL for the server rows: %1").arg(m_serverWhy);
}

bool TestSessionSearch::onServer() const
{
    QFETCH_GLOBAL(bool, server);
    return server;
}

QString TestSessionSearch::newStore(const QTemporaryDir &dir)
{
    if (!onServer())
        return dir.filePath(QStringLiteral("results.sqlite"));
    QString why;
    const QString url = m_server.createDatabase(&why);
    if (url.isEmpty())
        qWarning("cannot create a database: %s", qPrintable(why));
    return url;
}

QStringList TestSessionSearch::fieldsOf(const SessionInfo &s)
{
    QStringList fields{s.title, s.uuid, s.machineHostname, sessionStateName(s.state)};
    fields += s.protocols; // the plan's, then the runs' others
    for (const Host &h : s.hosts)
        fields << h.name << h.address << h.osLabel;
    return fields;
}

QList<qint64> TestSessionSearch::expected(const SessionInfoList &all, const QString &needle)
{
    QList<qint64> ids;
    for (const SessionInfo &s : all) {
        const QStringList fields = fieldsOf(s);
        if (std::any_of(fields.cbegin(), fields.cend(),
                        [&](const QString &f) { return f.contains(needle.trimmed(), Qt::CaseInsensitive); }))
            ids << s.id;
    }
    return ids;
}

QList<qint64> TestSessionSearch::found(const ResultStore &store, const QString &needle, int limit)
{
    SessionFilter f;
    f.text = needle;
    f.limit = limit;
    QList<qint64> ids;
    for (const SessionInfo &s : store.sessions(f))
        ids << s.id;
    return ids;
}

void TestSessionSearch::compareForNeedles(const ResultStore &store)
{
    const SessionInfoList all = store.sessions();
    QVERIFY(!all.isEmpty());
    QSet<QString> needles{QStringLiteral("no-such-host"), QStringLiteral("zq"),         QStringLiteral("ß"),
                          QStringLiteral("1 = 0"),        QStringLiteral("%"),          QStringLiteral("_"),
                          QStringLiteral("\""),           QStringLiteral("\\"),         QStringLiteral("50%"),
                          QStringLiteral("a_b"),          QStringLiteral("\"quoted\""), QStringLiteral("*"),
                          QStringLiteral("OR"),           QStringLiteral("NEAR("),      QStringLiteral("  spaced  ")};
    for (const SessionInfo &s : all) {
        const QStringList fields = fieldsOf(s);
        for (qsizetype i = 0; i < fields.size(); ++i) {
            const QString &v = fields.at(i);
            if (v.isEmpty())
                continue;
            needles << v << v.toUpper() << v.toLower() << v.left(1) << v.left(2) << v.mid(1, 3) << v.right(4)
                    << v.mid(v.size() / 2, 5);
            if (i + 1 < fields.size() && !fields.at(i + 1).isEmpty()) {
                // Across two fields: never a match, with or without the line that parts them in the index.
                needles << v.right(2) + fields.at(i + 1).left(2)
                        << v.right(2) + QLatin1Char('\n') + fields.at(i + 1).left(2);
            }
        }
    }
    for (const QString &needle : std::as_const(needles)) {
        if (needle.trimmed().isEmpty())
            continue;
        QCOMPARE(found(store, needle), expected(all, needle));
        SessionFilter f;
        f.text = needle;
        QCOMPARE(store.sessionCount(f), qint64(expected(all, needle).size()));
    }
}

// One session of each kind of write, each of which changes what the search looks in.
void TestSessionSearch::findsWhatItsFieldsHold()
{
    WB_REQUIRE(!onServer() || m_server.isRunning(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    QString error;
    QVERIFY2(store.open(newStore(dir), &error), qPrintable(error));

    // Measured and finished; a run of a protocol its plan did not name.
    const TestPlan a = wbtest::plan();
    const qint64 idA = store.beginSession(a);
    QVERIFY(idA > 0);
    QVERIFY(store.addRun(idA, wbtest::run(a.expand().first(), 10, 2)) > 0);
    RunSpec other = a.expand().first();
    other.protocol = QStringLiteral("iperf3-send");
    QVERIFY(store.addRun(idA, wbtest::run(other, 10, 2)) > 0);
    QVERIFY(store.addRun(idA, wbtest::run(other, 11, 2)) > 0);
    QVERIFY(store.endSession(idA, SessionState::Finished));

    // Hosts in other scripts (folding that changes the letter: Σ, ς and σ; Ä; ß), left running, then interrupted.
    TestPlan b;
    b.hosts = {wbtest::host(QStringLiteral("Ägir-NAS"), QStringLiteral("127.0.0.7"), QStringLiteral("Système Ω")),
               wbtest::host(QStringLiteral("ΣΊΣΥΦΟΣ"), QStringLiteral("::1"), QStringLiteral("Straße 5 σς"))};
    b.protocols = {QStringLiteral("ftp-get")};
    b.frameSizes = {1500};
    b.repetitions = 1;
    const qint64 idB = store.beginSession(b);
    QVERIFY(idB > 0);
    QCOMPARE(store.markInterruptedSessions(&error), 1);

    // A title given afterwards (a scheduled session's), then cancelled.
    const qint64 idC = store.beginSession(a);
    QVERIFY(store.setSessionTitle(idC, QStringLiteral("Scheduled every 1h: nightly.wbplan.json"), &error));
    QVERIFY(store.endSession(idC, SessionState::Cancelled));

    // Imported runs; a title holding what LIKE and FTS5 read as syntax.
    RunSpec imported = b.expand().first();
    imported.host = wbtest::host(QStringLiteral("lab-srv"), QStringLiteral("127.0.0.9"), QStringLiteral("Debian 12"));
    imported.protocol = QStringLiteral("iperf3-recv");
    QVERIFY(store.importRuns(QStringLiteral("iperf3 import: 50% of a_b \"quoted\" back\\slash NEAR(x) * OR"),
                             {wbtest::run(imported, 10, 2)}, &error)
            > 0);

    // Deleted: not found any more.
    TestPlan ghost = b;
    ghost.hosts = {wbtest::host(QStringLiteral("ghost-host"), QStringLiteral("127.0.0.66"), QStringLiteral("Plan 9"))};
    const qint64 idGhost = store.beginSession(ghost);
    QCOMPARE(found(store, QStringLiteral("ghost-host")), QList<qint64>({idGhost}));
    QVERIFY(store.deleteSession(idGhost, &error));
    QCOMPARE(found(store, QStringLiteral("ghost")), QList<qint64>());

    // Some cases by hand, then every needle against what the fields hold.
    QCOMPARE(found(store, QStringLiteral("interrupted")), QList<qint64>({idB}));
    QCOMPARE(found(store, QStringLiteral("ägir")), QList<qint64>({idB}));
    // Qt folds the final ς as σ; PostgreSQL's lower() does not (the store's search there is lower()'s: SCALE.md).
    if (!onServer())
        QCOMPARE(found(store, QStringLiteral("σίσυφος")), QList<qint64>({idB}));
    QCOMPARE(found(store, QStringLiteral("IPERF3-SEND")), QList<qint64>({idA}));
    QCOMPARE(found(store, QStringLiteral("nightly")), QList<qint64>({idC}));
    QCOMPARE(found(store, QStringLiteral("running")), QList<qint64>());
    compareForNeedles(store);
}

// More sessions match than the index hands over (1,000): the search reads them newest first, page and count right.
void TestSessionSearch::manySessions()
{
    WB_REQUIRE(!onServer() || m_server.isRunning(), m_serverWhy);
    QTemporaryDir dir;
    ResultStore store;
    QString error;
    QVERIFY2(store.open(newStore(dir), &error), qPrintable(error));
    const int n = 1010;
    for (int i = 0; i < n; ++i) {
        const qint64 id = store.beginSession(wbtest::plan());
        QVERIFY(id > 0);
        QVERIFY(store.endSession(id, SessionState::Finished));
    }
    TestPlan rare;
    rare.hosts = {wbtest::host(QStringLiteral("uniq-host"), QStringLiteral("127.0.0.99"), QStringLiteral("Linux"))};
    const qint64 idRare = store.beginSession(rare);
    QVERIFY(store.endSession(idRare, SessionState::Finished));

    const SessionInfoList all = store.sessions();
    QCOMPARE(all.size(), n + 1);
    for (const QString &common : {QStringLiteral("127.0.0.2"), QStringLiteral("Windows"), QStringLiteral("fs")}) {
        const QList<qint64> want = expected(all, common);
        QCOMPARE(want.size(), n);
        QCOMPARE(found(store, common, 200), want.mid(0, 200));
        QCOMPARE(found(store, common), want);
        SessionFilter f;
        f.text = common;
        QCOMPARE(store.sessionCount(f), qint64(n));
    }
    QCOMPARE(found(store, QStringLiteral("linux")), expected(all, QStringLiteral("linux")));
    QCOMPARE(found(store, QStringLiteral("uniq")), QList<qint64>({idRare}));
    QCOMPARE(found(store, QStringLiteral("no-such-host")), QList<qint64>());
}

// A store of the schema before the search (no search text) is brought to kVersion at open: every session gets its
// text and is found.
void TestSessionSearch::migratesFromTheSchemaBefore()
{
    WB_REQUIRE(!onServer() || m_server.isRunning(), m_serverWhy);
    QTemporaryDir dir;
    const QString location = newStore(dir);
    SessionInfoList before;
    {
        ResultStore store;
        QVERIFY(store.open(location));
        const qint64 a = store.beginSession(wbtest::plan());
        QVERIFY(store.addRun(a, wbtest::run(wbtest::plan().expand().first(), 10, 2)) > 0);
        QVERIFY(store.endSession(a, SessionState::Finished));
        QVERIFY(store.importRuns(QStringLiteral("iperf3 import: old.json"),
                                 {wbtest::run(wbtest::plan().expand().last(), 10, 2)})
                > 0);
        before = store.sessions();
    }
    // The schema before the search's step is this one without session_search (and SQLite's index over it, which
    // goes with it), while that step is the newest.
    QCOMPARE(StoreSchema::kSearchVersion, StoreSchema::kVersion);
    const int older = StoreSchema::kSearchVersion - 1;
    {
        QSqlDatabase db;
        if (onServer()) {
            db = m_server.open(location.section(QLatin1Char('/'), -1), QStringLiteral("raw-v3"));
        } else {
            db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw-v3"));
            db.setDatabaseName(location);
            QVERIFY(db.open());
        }
        QSqlQuery q(db);
        const QStringList downgrade = onServer()
            ? QStringList{QStringLiteral("DROP TABLE session_search"),
                          QStringLiteral("UPDATE wirebench_schema SET version = %1").arg(older)}
            : QStringList{QStringLiteral("DROP TABLE session_search_index"),
                          QStringLiteral("DROP TABLE session_search"),
                          QStringLiteral("PRAGMA user_version = %1").arg(older)};
        for (const QString &sql : downgrade)
            QVERIFY2(q.exec(sql), qPrintable(sql));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw-v3"));

    ResultStore store;
    QString error;
    QVERIFY2(store.open(location, &error), qPrintable(error));
    QCOMPARE(store.versionAtOpen(), older);
    if (!onServer()) {
        QCOMPARE(ResultStore::fileSchemaVersion(location), StoreSchema::kVersion);
        QVERIFY(store.backupPath().endsWith(QStringLiteral(".v%1.bak").arg(older)));
    }
    QCOMPARE(store.sessions().size(), before.size());
    QCOMPARE(found(store, QStringLiteral("old.json")).size(), 1);
    QCOMPARE(found(store, QStringLiteral("win-fs")).size(), 2);
    compareForNeedles(store);
    // And a second open finds nothing to do.
    store.close();
    QVERIFY(store.open(location, &error));
    QCOMPARE(store.versionAtOpen(), StoreSchema::kVersion);
}

QTEST_GUILESS_MAIN(TestSessionSearch)
#include "TestSessionSearch.moc"
