#include "StoreSchema.h"

#include "SessionSearch.h"
#include "StoreDialect.h"
#include "StoreRows.h"
#include "plan/PlanJson.h"

#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QPair>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QUuid>

#include <iterator>
#include <tuple>

namespace wb {

namespace {

const char kSqliteMagic[] = "SQLite format 3"; // followed by a NUL: the first 16 bytes of every SQLite 3 file

// Schema version 1: the first shipped layout. Never edit it; add a step below instead.
const char *const kSchemaV1[] = {
    "CREATE TABLE sessions ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " uuid TEXT NOT NULL UNIQUE,"
    " started_at TEXT NOT NULL,"
    " ended_at TEXT,"
    " state TEXT NOT NULL CHECK (state IN ('running','finished','cancelled','interrupted')),"
    " plan_json TEXT NOT NULL DEFAULT '{}',"
    " machine_hostname TEXT NOT NULL DEFAULT '',"
    " wirebench_version TEXT NOT NULL DEFAULT '')",
    "CREATE TABLE runs ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
    " run_index INTEGER NOT NULL DEFAULT 0,"
    " host TEXT NOT NULL DEFAULT '',"
    " address TEXT NOT NULL DEFAULT '',"
    " os TEXT NOT NULL DEFAULT '',"
    " protocol TEXT NOT NULL,"
    " frame_size INTEGER NOT NULL DEFAULT 0,"
    " mss INTEGER NOT NULL DEFAULT 0,"
    " repetition INTEGER NOT NULL DEFAULT 1,"
    " bytes INTEGER NOT NULL DEFAULT 0,"
    " seconds REAL NOT NULL DEFAULT 0,"
    " throughput_MBps REAL NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL,"
    " error TEXT NOT NULL DEFAULT '',"
    " warnings_json TEXT NOT NULL DEFAULT '[]',"
    " started_at TEXT)",
    "CREATE TABLE samples ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " end_seconds REAL NOT NULL,"
    " interval_seconds REAL NOT NULL,"
    " bytes INTEGER NOT NULL)",
    "CREATE INDEX runs_by_session ON runs(session_id)",
    "CREATE INDEX samples_by_run ON samples(run_id)",
};

// Version 2: machine OS and a title per session, the hosts as they were, the rest of a run's fields.
const char *const kSchemaV2[] = {
    "ALTER TABLE sessions ADD COLUMN machine_os TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE sessions ADD COLUMN title TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE runs ADD COLUMN port INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE runs ADD COLUMN server_type TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE runs ADD COLUMN server_os TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE runs ADD COLUMN sender_bytes INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE runs ADD COLUMN params_json TEXT NOT NULL DEFAULT '{}'",
    "ALTER TABLE runs ADD COLUMN extra_json TEXT NOT NULL DEFAULT '{}'",
    "CREATE TABLE session_hosts ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
    " position INTEGER NOT NULL,"
    " name TEXT NOT NULL DEFAULT '',"
    " address TEXT NOT NULL DEFAULT '',"
    " port INTEGER NOT NULL DEFAULT 0,"
    " os TEXT NOT NULL DEFAULT '',"
    " server_type TEXT NOT NULL DEFAULT '',"
    " link_speed_Mbps REAL NOT NULL DEFAULT 0,"
    " embedded INTEGER NOT NULL DEFAULT 0,"
    " options_json TEXT NOT NULL DEFAULT '{}')",
    "CREATE INDEX session_hosts_by_session ON session_hosts(session_id)",
    "CREATE INDEX sessions_by_start ON sessions(started_at)",
};

// Version 3: both directions at once (tcp-bidir, iperf3-bidir). The second figure, server -> client, beside the
// first; NULL on a run of one direction. Its samples as JSON ([[end_seconds, interval_seconds, bytes], ...]): they
// are read with their run and never searched.
const char *const kSchemaV3[] = {
    "ALTER TABLE runs ADD COLUMN reverse_bytes INTEGER",
    "ALTER TABLE runs ADD COLUMN reverse_seconds REAL",
    "ALTER TABLE runs ADD COLUMN reverse_sender_bytes INTEGER",
    "ALTER TABLE runs ADD COLUMN reverse_throughput_MBps REAL",
    "ALTER TABLE runs ADD COLUMN reverse_samples_json TEXT",
};

// Version 4: latency under load (issue 16, part 3). What a query compares as columns: how the round trips were
// timed, the idle and loaded medians, the loaded p99 and what the load added (ms); every figure and the round trips
// themselves as RunLatency's JSON (idle, loaded, samples), read with their run and never searched. NULL on a run
// without a probe.
const char *const kSchemaV4[] = {
    "ALTER TABLE runs ADD COLUMN latency_method TEXT",
    "ALTER TABLE runs ADD COLUMN latency_idle_median_ms REAL",
    "ALTER TABLE runs ADD COLUMN latency_loaded_median_ms REAL",
    "ALTER TABLE runs ADD COLUMN latency_loaded_p99_ms REAL",
    "ALTER TABLE runs ADD COLUMN latency_added_ms REAL",
    "ALTER TABLE runs ADD COLUMN latency_json TEXT",
};

// Version 5: the search's text, a line per field it looks in, folded (SessionSearch), one row per session, under a
// trigram index (StoreDialect::searchIndex: FTS5 here, a part of this step; pg_trgm on a server, made when it can be).
// A search that matched nothing read every session's runs, hosts and plan: 1.6-2.0 s at 100,000 sessions.
const char *const kSchemaV5[] = {
    "CREATE TABLE session_search ("
    " session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,"
    " text TEXT NOT NULL)",
};

// Indexes that any schema version can have (an older Wirebench reads past them), so they need no new version:
// made at the first open that lacks them. runs_by_start: a transfer's reference TCP stream is looked for among
// the runs of the hour before it (ResultStore::runsBetween), which read every run of the store without it.
// runs_by_session_protocol covers what the session list reads of the runs (their protocols, frame sizes and
// states: SessionQuery) without the rows themselves, which are large: a search of 100,000 sessions read 8 GB.
const char *const kIndexes[] = {
    "CREATE INDEX IF NOT EXISTS runs_by_start ON runs(started_at)",
    "CREATE INDEX IF NOT EXISTS runs_by_session_protocol ON runs(session_id, protocol, frame_size, status)",
};

bool execAll(QSqlDatabase &db, const char *const *statements, size_t count, QString *error)
{
    const StoreDialect::Kind kind = StoreDialect::of(db);
    for (size_t i = 0; i < count; ++i) {
        QSqlQuery q(db);
        if (!q.exec(StoreDialect::schemaStatement(kind, statements[i]))) {
            *error = StoreRows::sqlError(q);
            return false;
        }
    }
    return true;
}

// v1 -> v2 data: the host snapshot comes from each session's plan, or from its runs when the plan has none.
bool backfillHostsV2(QSqlDatabase &db, QString *error)
{
    QSqlQuery sessions(db);
    if (!sessions.exec(QStringLiteral("SELECT id, plan_json FROM sessions"))) {
        *error = StoreRows::sqlError(sessions);
        return false;
    }
    QList<QPair<qint64, QString>> rows;
    while (sessions.next())
        rows.append({sessions.value(0).toLongLong(), sessions.value(1).toString()});
    for (const auto &[id, planText] : rows) {
        QList<Host> hosts = PlanJson::planFromJson(StoreRows::jsonObject(planText)).hosts;
        if (hosts.isEmpty()) {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT host, address, os FROM runs WHERE session_id = ?"
                                     " GROUP BY host, address ORDER BY MIN(id)"));
            q.addBindValue(id);
            if (!q.exec()) {
                *error = StoreRows::sqlError(q);
                return false;
            }
            while (q.next()) {
                Host h;
                h.name = q.value(0).toString();
                h.address = q.value(1).toString();
                h.osLabel = q.value(2).toString();
                hosts.append(h);
            }
        }
        for (int i = 0; i < hosts.size(); ++i) {
            if (!StoreRows::insertHost(db, id, i, hosts.at(i), error))
                return false;
        }
    }
    return true;
}

// v3 -> v4 data: a build of Wirebench between schema versions kept a run's latency in extra_json's "latency"; it
// moves to the columns of version 4.
bool backfillLatencyV4(QSqlDatabase &db, QString *error)
{
    QSqlQuery runs(db);
    if (!runs.exec(
            QStringLiteral("SELECT id, run_index, extra_json FROM runs WHERE extra_json LIKE '%\"latency\"%'"))) {
        *error = StoreRows::sqlError(runs);
        return false;
    }
    QList<std::tuple<qint64, int, QJsonObject>> rows;
    while (runs.next())
        rows.append(
            {runs.value(0).toLongLong(), runs.value(1).toInt(), StoreRows::jsonObject(runs.value(2).toString())});
    for (auto &[id, index, extra] : rows) {
        if (!extra.value(QStringLiteral("latency")).isObject())
            continue;
        RunResult r;
        r.latency = RunLatency::fromJson(extra.take(QStringLiteral("latency")).toObject(), index);
        if (!StoreRows::updateLatency(db, id, r.latency, error))
            return false;
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE runs SET extra_json = ? WHERE id = ?"));
        q.addBindValue(StoreRows::jsonText(extra));
        q.addBindValue(id);
        if (!q.exec()) {
            *error = StoreRows::sqlError(q);
            return false;
        }
    }
    return true;
}

bool execList(QSqlDatabase &db, const QStringList &statements, QString *error)
{
    for (const QString &sql : statements) {
        QSqlQuery q(db);
        if (!q.exec(sql)) {
            *error = StoreRows::sqlError(q);
            return false;
        }
    }
    return true;
}

bool searchV5(QSqlDatabase &d, QString *error)
{
    const StoreDialect::Kind kind = StoreDialect::of(d);
    return execAll(d, kSchemaV5, std::size(kSchemaV5), error)
        && (kind != StoreDialect::Kind::SQLite || execList(d, StoreDialect::searchIndex(kind), error))
        && SessionSearch::refresh(d, QStringLiteral("1 = 1"), {}, error);
}

// The server's trigram index, outside the steps: without pg_trgm on the server the search works on, reading
// session_search whole, and says so once; an administrator who adds it (CREATE EXTENSION pg_trgm) gets the index at
// the next open.
void serverTrigrams(QSqlDatabase &d)
{
    if (StoreDialect::of(d) != StoreDialect::Kind::PostgreSQL)
        return;
    QString why;
    if (!execList(d, StoreDialect::searchIndex(StoreDialect::Kind::PostgreSQL), &why))
        qWarning("result store: the search has no trigram index on this server, so it reads every session's line (%s); "
                 "the server's administrator can add one: CREATE EXTENSION pg_trgm (Debian: in the postgresql package)",
                 qPrintable(why));
}

bool step(QSqlDatabase &d, int version, QString *error)
{
    switch (version) {
    case 1:
        return execAll(d, kSchemaV1, std::size(kSchemaV1), error);
    case 2:
        return execAll(d, kSchemaV2, std::size(kSchemaV2), error) && backfillHostsV2(d, error);
    case 3:
        return execAll(d, kSchemaV3, std::size(kSchemaV3), error);
    case 4:
        return execAll(d, kSchemaV4, std::size(kSchemaV4), error) && backfillLatencyV4(d, error);
    case StoreSchema::kSearchVersion:
        return searchV5(d, error);
    default:
        return true;
    }
}

} // namespace

QByteArray StoreSchema::sqliteMagic()
{
    return QByteArray(kSqliteMagic, sizeof(kSqliteMagic));
}

bool StoreSchema::migrate(QSqlDatabase &d, QString *error)
{
    // Two Wirebenches that meet a new file at once (two wirebench-cli run) would both create its tables: each step
    // takes SQLite's write lock first (BEGIN EXCLUSIVE waits out the other one up to the connection's busy timeout)
    // and reads the version again under it, so that the second one finds the steps the first one made. On a
    // server the caller holds an advisory lock around the whole of it (ServerStore::open).
    const bool sqlite = StoreDialect::of(d) == StoreDialect::Kind::SQLite;
    for (;;) {
        bool begun = false;
        QString why;
        if (sqlite) {
            QSqlQuery begin(d);
            begun = begin.exec(QStringLiteral("BEGIN EXCLUSIVE"));
            if (!begun)
                why = StoreRows::sqlError(begin);
        } else {
            begun = d.transaction();
            if (!begun)
                why = d.lastError().text().simplified();
        }
        if (!begun) {
            *error = why;
            return false;
        }
        const int current = StoreDialect::readVersion(d, error);
        if (current < 0) {
            d.rollback();
            return false;
        }
        if (current >= kVersion) {
            if (d.commit())
                break;
            *error = d.lastError().text().simplified();
            d.rollback();
            return false;
        }
        const int version = current + 1;
        bool ok = step(d, version, error) && StoreDialect::writeVersion(d, version, error);
        if (!ok || !d.commit()) {
            if (ok)
                *error = d.lastError().text().simplified();
            d.rollback();
            return false;
        }
    }
    if (!execAll(d, kIndexes, std::size(kIndexes), error))
        return false;
    serverTrigrams(d);
    return true;
}

int StoreSchema::fileVersion(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = f.errorString();
        return -1;
    }
    const QByteArray header = f.read(100);
    if (!header.startsWith(sqliteMagic())) {
        if (error)
            *error = QStringLiteral("not an SQLite database");
        return -1;
    }
    f.close();
    const QFileInfo wal(path + QStringLiteral("-wal"));
    if (header.size() == 100 && (!wal.exists() || wal.size() == 0)) {
        // No pending WAL: the header is up to date. user_version: big-endian 32 bits at offset 60.
        const auto *p = reinterpret_cast<const uchar *>(header.constData()) + 60;
        return int((quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]));
    }
    // The header's copy of user_version may lag behind the WAL: ask SQLite, read-only.
    const QString name = QStringLiteral("wirebench-version-probe-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    int version = -1;
    {
        QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        d.setDatabaseName(path);
        d.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=10000"));
        if (d.open()) {
            QSqlQuery q(d);
            if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                version = q.value(0).toInt();
            else if (error)
                *error = StoreRows::sqlError(q);
        } else if (error) {
            *error = d.lastError().text().simplified();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return version;
}

} // namespace wb
