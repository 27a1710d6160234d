#include "storage/ResultStore.h"
#include "StoreTestData.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

/// tests/data/store-v1.sqlite is a store written with schema 1 (see tests/data/store-v1.sql). Opening it migrates
/// to the current schema and keeps every session, run and sample.
class TestStoreMigration : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void migratesAndKeepsData();
    void migratedLayoutEqualsFresh();
    void latencyOfExtraMovesToItsColumns();

private:
    QString copyOfV1(const QTemporaryDir &dir) const;
    static QStringList layout(const QString &path);
    QString m_source;
};

void TestStoreMigration::initTestCase()
{
    m_source = QStringLiteral(WIREBENCH_TEST_DATA "/store-v1.sqlite");
    QVERIFY2(QFile::exists(m_source), qPrintable(m_source));
    QCOMPARE(ResultStore::fileSchemaVersion(m_source), 1);
}

QString TestStoreMigration::copyOfV1(const QTemporaryDir &dir) const
{
    const QString path = dir.filePath(QStringLiteral("results.sqlite"));
    if (!QFile::copy(m_source, path))
        return QString();
    QFile(path).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return path;
}

QStringList TestStoreMigration::layout(const QString &path)
{
    QStringList out;
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("layout"));
        raw.setDatabaseName(path);
        raw.open();
        QSqlQuery q(raw);
        q.exec(
            QStringLiteral("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"));
        while (q.next())
            out << q.value(0).toString() + QLatin1Char(' ') + q.value(1).toString() + QLatin1String(": ")
                    + q.value(2).toString().simplified();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("layout"));
    return out;
}

void TestStoreMigration::migratesAndKeepsData()
{
    QTemporaryDir dir;
    const QString path = copyOfV1(dir);
    QVERIFY(!path.isEmpty());
    const QByteArray original = [&] {
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();

    ResultStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.versionAtOpen(), 1);
    QCOMPARE(ResultStore::fileSchemaVersion(path), ResultStore::kSchemaVersion);
    // The file as it was before the migration is kept beside it.
    QVERIFY(!store.backupPath().isEmpty());
    {
        QFile backup(store.backupPath());
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), original);
    }
    QCOMPARE(store.interruptedAtOpen(), 1); // session 2 was left running

    const SessionInfoList sessions = store.sessions();
    QCOMPARE(sessions.size(), 2);
    const SessionInfo &crashed = sessions.at(0); // newest first
    const SessionInfo &done = sessions.at(1);
    QCOMPARE(done.uuid, QStringLiteral("6f1c2a54-0d2e-4f7b-9a51-3c0e8e7d2b10"));
    QCOMPARE(done.state, SessionState::Finished);
    QCOMPARE(done.startedAt, QDateTime(QDate(2026, 10, 1), QTime(9, 0), Qt::UTC));
    QCOMPARE(done.endedAt, QDateTime(QDate(2026, 10, 1), QTime(9, 1, 10), Qt::UTC));
    QCOMPARE(done.machineHostname, QStringLiteral("benchbox"));
    QCOMPARE(done.wirebenchVersion, QStringLiteral("0.0.9"));
    QCOMPARE(done.machineOs, QString()); // not recorded by schema 1
    // Hosts as they were: backfilled from the plan, options included.
    QCOMPARE(done.hostNames(), QStringList({QStringLiteral("linux-fs"), QStringLiteral("win-fs")}));
    QCOMPARE(done.hosts.at(0).options.value(QStringLiteral("smb.share")).toString(), QStringLiteral("bench"));
    QCOMPARE(done.hosts.at(1).osLabel, QStringLiteral("Windows Server 2003"));
    QCOMPARE(done.runCount, 3);
    QCOMPARE(done.okRuns, 2);
    QCOMPARE(done.frameSizes, QList<int>({1500, 9000}));

    QCOMPARE(crashed.state, SessionState::Interrupted);
    // Its plan held no hosts: they come from its runs.
    QCOMPARE(crashed.hostNames(), QStringList({QStringLiteral("nas")}));
    QCOMPARE(crashed.hosts.first().osLabel, QStringLiteral("FreeBSD"));
    // Version 5's search text, made for every session by the step (and for the crashed one again when it became
    // interrupted).
    auto found = [&](const QString &text) {
        SessionFilter f;
        f.text = text;
        QList<qint64> ids;
        for (const SessionInfo &s : store.sessions(f))
            ids << s.id;
        return ids;
    };
    QCOMPARE(found(QStringLiteral("benchbox")), QList<qint64>({crashed.id, done.id}));
    QCOMPARE(found(QStringLiteral("freebsd")), QList<qint64>({crashed.id}));
    QCOMPARE(found(QStringLiteral("interrupted")), QList<qint64>({crashed.id}));
    QCOMPARE(found(QStringLiteral("Windows Server")), QList<qint64>({done.id}));

    const RunResultList runs = store.runs(done.id, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs.at(0).spec.host.name, QStringLiteral("linux-fs"));
    QCOMPARE(runs.at(0).spec.host.options.value(QStringLiteral("smb.share")).toString(), QStringLiteral("bench"));
    QCOMPARE(runs.at(0).bytes, 1176000000);
    QCOMPARE(runs.at(0).seconds, 10.0);
    QCOMPARE(runs.at(0).megabytesPerSecond(), 117.6);
    QCOMPARE(runs.at(0).mss, 1448);
    QCOMPARE(runs.at(0).samples.size(), 3);
    QCOMPARE(runs.at(0).samples.at(1).bytes, 11800000);
    QCOMPARE(runs.at(1).warnings, QStringList({QStringLiteral("the server reported 3 retransmissions")}));
    QCOMPARE(runs.at(1).samples.size(), 2);
    QCOMPARE(runs.at(2).status, RunStatus::Failed);
    QVERIFY(runs.at(2).error.contains(QStringLiteral("connection refused")));
    QVERIFY(runs.at(2).extra.isEmpty());                // new column, default
    QCOMPARE(runs.at(2).spec.params.durationMs, 10000); // default params for runs stored without them

    // The migrated store takes new data with the new fields.
    RunResult more = runs.at(0);
    more.extra.insert(QStringLiteral("rtt_us"), 120.0);
    more.senderBytes = more.bytes + 10;
    const qint64 id = store.beginSession(TestPlan());
    QVERIFY(store.addRun(id, more, &error) > 0);
    QCOMPARE(store.runs(id).first().extra.value(QStringLiteral("rtt_us")).toDouble(), 120.0);
    QCOMPARE(store.runs(id).first().senderBytes, more.senderBytes);
    QVERIFY(!store.runs(id).first().bothWays()); // version 3's columns: NULL for a run of one direction
    // Both directions at once (version 3): the second figure and its samples.
    RunResult both = more;
    both.spec.protocol = QStringLiteral("tcp-bidir");
    both.reverse
        = RunResult::Reverse{34200000, 3.0, 34300000, {Sample{0, 1.0, 1.0, 11400000}, Sample{0, 2.0, 1.0, 11500000}}};
    QVERIFY(store.addRun(id, both, &error) > 0);
    const RunResult back = store.runs(id).last();
    QVERIFY(back.bothWays());
    QCOMPARE(back.reverse->bytes, 34200000);
    QCOMPARE(back.reverse->seconds, 3.0);
    QCOMPARE(back.reverse->senderBytes, 34300000);
    QCOMPARE(back.reverse->samples.size(), 2);
    QCOMPARE(back.reverse->samples.at(1).bytes, 11500000);
    QCOMPARE(back.reverse->samples.at(1).endSeconds, 2.0);

    // A second open finds nothing left to migrate.
    store.close();
    QVERIFY(store.open(path, &error));
    QCOMPARE(store.versionAtOpen(), ResultStore::kSchemaVersion);
    QVERIFY(store.backupPath().isEmpty());
}

void TestStoreMigration::migratedLayoutEqualsFresh()
{
    QTemporaryDir dir;
    const QString migrated = copyOfV1(dir);
    const QString fresh = dir.filePath(QStringLiteral("fresh.sqlite"));
    {
        ResultStore a;
        QVERIFY(a.open(migrated));
        ResultStore b;
        QVERIFY(b.open(fresh));
    }
    const QStringList tables = layout(fresh);
    QVERIFY(tables.size() >= 4);
    QCOMPARE(layout(migrated), tables);
}

// A build between schema versions 3 and 4 kept a run's latency in extra_json's "latency": the step to version 4
// moves it to the latency columns, and the run reads back as it was.
void TestStoreMigration::latencyOfExtraMovesToItsColumns()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v3.sqlite"));
    RunResult r = wbtest::run(wbtest::plan().expand().first(), 1000000, 5);
    r.latency.method = QStringLiteral("udp-echo");
    r.latency.target = QStringLiteral("127.0.0.2 UDP port 5301");
    r.latency.rateHz = 20;
    for (int i = 0; i < 10; ++i) {
        r.latency.samples.append({r.spec.index, -1 + 0.1 * i, 0.4, false});
        r.latency.samples.append({r.spec.index, 0.1 * i, 23.4, true});
    }
    r.latency.summarize();
    {
        ResultStore store;
        QVERIFY(store.open(path));
        const qint64 session = store.beginSession(wbtest::plan());
        RunResult plain = r;
        plain.latency = RunLatency();
        QVERIFY(store.addRun(session, plain) > 0);
        QVERIFY(store.endSession(session, SessionState::Finished));
    }
    // The store as that build left it: version 3, no latency columns, the figures in extra_json, no search text.
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v3"));
        raw.setDatabaseName(path);
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        for (const char *column : {"latency_method", "latency_idle_median_ms", "latency_loaded_median_ms",
                                   "latency_loaded_p99_ms", "latency_added_ms", "latency_json"})
            QVERIFY2(q.exec(QStringLiteral("ALTER TABLE runs DROP COLUMN %1").arg(QLatin1String(column))),
                     qPrintable(q.lastError().text()));
        QJsonObject extra = QJsonObject::fromVariantMap(r.extra);
        extra.insert(QStringLiteral("latency"), r.latency.toJson());
        q.prepare(QStringLiteral("UPDATE runs SET extra_json = ?"));
        q.addBindValue(QString::fromUtf8(QJsonDocument(extra).toJson(QJsonDocument::Compact)));
        QVERIFY(q.exec());
        // Nor the search's text of version 5 (its FTS5 index goes first: it reads session_search).
        QVERIFY(q.exec(QStringLiteral("DROP TABLE session_search_index")));
        QVERIFY(q.exec(QStringLiteral("DROP TABLE session_search")));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 3")));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v3"));
    ResultStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.versionAtOpen(), 3);
    const RunResultList runs = store.runs(store.sessions().first().id, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs.first().latency.toJson(), r.latency.toJson());
    QCOMPARE(runs.first().extra, r.extra); // the rest of extra_json as it was, without "latency"
}

QTEST_GUILESS_MAIN(TestStoreMigration)
#include "TestStoreMigration.moc"
