#include "ResultStore.h"

#include "PlanJson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>
#include <QUuid>
#include <QVariant>

#include <algorithm>

namespace wb {

QString sessionStateName(SessionState state)
{
    switch (state) {
    case SessionState::Running: return QStringLiteral("running");
    case SessionState::Finished: return QStringLiteral("finished");
    case SessionState::Cancelled: return QStringLiteral("cancelled");
    case SessionState::Interrupted: return QStringLiteral("interrupted");
    }
    return QStringLiteral("interrupted");
}

SessionState sessionStateFromName(const QString &name, bool *ok)
{
    static const SessionState all[] = {SessionState::Running, SessionState::Finished, SessionState::Cancelled,
                                       SessionState::Interrupted};
    for (SessionState s : all) {
        if (sessionStateName(s) == name) {
            if (ok)
                *ok = true;
            return s;
        }
    }
    if (ok)
        *ok = false;
    return SessionState::Interrupted;
}

QStringList SessionInfo::hostNames() const
{
    QStringList names;
    for (const Host &h : hosts)
        names << h.displayName();
    return names;
}

namespace {

// A null QString binds as SQL NULL; the text columns are NOT NULL DEFAULT ''.
QVariant str(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

QVariant nullIfEmpty(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

const char kSqliteMagic[] = "SQLite format 3"; // followed by a NUL: the first 16 bytes of every SQLite 3 file

QString isoUtc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime fromIso(const QString &s)
{
    if (s.isEmpty())
        return QDateTime();
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : t;
}

QString jsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString jsonText(const QJsonArray &a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QJsonObject jsonObject(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

QString sqlError(const QSqlQuery &q)
{
    return q.lastError().text().simplified();
}

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

bool execAll(QSqlDatabase &db, const char *const *statements, size_t count, QString *error)
{
    for (size_t i = 0; i < count; ++i) {
        QSqlQuery q(db);
        if (!q.exec(QString::fromLatin1(statements[i]))) {
            *error = sqlError(q);
            return false;
        }
    }
    return true;
}

bool insertHost(QSqlDatabase &db, qint64 sessionId, int position, const Host &host, QString *error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO session_hosts (session_id, position, name, address, port, os, server_type,"
                             " link_speed_Mbps, embedded, options_json) VALUES (?,?,?,?,?,?,?,?,?,?)"));
    q.addBindValue(sessionId);
    q.addBindValue(position);
    q.addBindValue(str(host.name));
    q.addBindValue(str(host.address));
    q.addBindValue(int(host.port));
    q.addBindValue(str(host.osLabel));
    q.addBindValue(str(host.serverType));
    q.addBindValue(host.linkSpeedMbps);
    q.addBindValue(host.embedded ? 1 : 0);
    q.addBindValue(jsonText(QJsonObject::fromVariantMap(PlanJson::withoutSecrets(host.options))));
    if (!q.exec()) {
        *error = sqlError(q);
        return false;
    }
    return true;
}

// v1 -> v2 data: the host snapshot comes from each session's plan, or from its runs when the plan has none.
bool backfillHostsV2(QSqlDatabase &db, QString *error)
{
    QSqlQuery sessions(db);
    if (!sessions.exec(QStringLiteral("SELECT id, plan_json FROM sessions"))) {
        *error = sqlError(sessions);
        return false;
    }
    QList<QPair<qint64, QString>> rows;
    while (sessions.next())
        rows.append({sessions.value(0).toLongLong(), sessions.value(1).toString()});
    for (const auto &[id, planText] : rows) {
        QList<Host> hosts = PlanJson::planFromJson(jsonObject(planText)).hosts;
        if (hosts.isEmpty()) {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT host, address, os FROM runs WHERE session_id = ?"
                                     " GROUP BY host, address ORDER BY MIN(id)"));
            q.addBindValue(id);
            if (!q.exec()) {
                *error = sqlError(q);
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
            if (!insertHost(db, id, i, hosts.at(i), error))
                return false;
        }
    }
    return true;
}

} // namespace

ResultStore::ResultStore()
    : m_connectionPrefix(QStringLiteral("wirebench-store-%1-").arg(QUuid::createUuid().toString(QUuid::Id128)))
    , m_context(std::make_unique<QObject>())
{
}

ResultStore::~ResultStore()
{
    close();
}

namespace {

// Qt's AppDataLocation is <the platform's folder>/<organisation>/<application>: the folder of another program's
// names (the GUI's, or an older wirebench-cli's) is that of this program with the names swapped.
QString appDataFolderOf(const QString &organization, const QString &application)
{
    auto tail = [](const QString &org, const QString &app) {
        QString t;
        if (!org.isEmpty())
            t += QLatin1Char('/') + org;
        if (!app.isEmpty())
            t += QLatin1Char('/') + app;
        return t;
    };
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    const QString own = tail(QCoreApplication::organizationName(), QCoreApplication::applicationName());
    if (dir.isEmpty())
        return QString();
    if (!own.isEmpty() && dir.endsWith(own))
        dir.chop(own.size());
    return dir + tail(organization, application);
}

} // namespace

QString ResultStore::defaultPath()
{
    // The window's names ("Wirebench", "wirebench", set in app/gui/main.cpp) decide the folder, whichever program
    // asks: wirebench-cli keeps its runs where the window's History and `wirebench-cli sessions` look.
    QString dir = appDataFolderOf(QStringLiteral("Wirebench"), QStringLiteral("wirebench"));
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.wirebench");
    return dir + QStringLiteral("/results.sqlite");
}

QString ResultStore::legacyCliPath()
{
    // wirebench-cli set only its application name, so its AppDataLocation was <data folder>/wirebench-cli.
    const QString dir = appDataFolderOf(QString(), QStringLiteral("wirebench-cli"));
    return dir.isEmpty() ? QString() : dir + QStringLiteral("/results.sqlite");
}

QString ResultStore::lastError() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastError;
}

bool ResultStore::fail(QString *error, const QString &message) const
{
    const QString line = QStringLiteral("Result store %1: %2").arg(QDir::toNativeSeparators(m_path), message);
    {
        QMutexLocker lock(&m_mutex);
        m_lastError = line;
    }
    if (error)
        *error = line;
    return false;
}

QSqlDatabase ResultStore::db() const
{
    QThread *thread = QThread::currentThread();
    const QString name = m_connectionPrefix + QString::number(quintptr(thread), 16);
    if (QSqlDatabase::contains(name)) {
        QSqlDatabase existing = QSqlDatabase::database(name, false);
        if (existing.isOpen())
            return existing;
        existing = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    bool isNew = false;
    {
        QMutexLocker lock(&m_mutex);
        isNew = !m_connections.contains(name);
        m_connections.insert(name, thread);
    }
    if (isNew && thread != m_context->thread()) {
        // A worker thread's connection must be closed in that thread, before it ends.
        QObject::connect(
            thread, &QThread::finished, m_context.get(),
            [this, name] {
                {
                    QMutexLocker lock(&m_mutex);
                    if (!m_connections.remove(name))
                        return;
                }
                {
                    QSqlDatabase d = QSqlDatabase::database(name, false);
                    d.close();
                }
                QSqlDatabase::removeDatabase(name);
            },
            Qt::DirectConnection);
    }
    if (db.open()) {
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA foreign_keys = ON"));
        q.exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
    }
    return db;
}

void ResultStore::dropConnections()
{
    QHash<QString, QThread *> names;
    {
        QMutexLocker lock(&m_mutex);
        names.swap(m_connections);
    }
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (it.value() == QThread::currentThread()) {
            QSqlDatabase d = QSqlDatabase::database(it.key(), false);
            d.close();
        }
        // Another live thread's connection cannot be closed from here; removing it invalidates it.
        QSqlDatabase::removeDatabase(it.key());
    }
}

void ResultStore::close()
{
    dropConnections();
    m_lock.reset();
    m_open = false;
}

int ResultStore::fileSchemaVersion(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = f.errorString();
        return -1;
    }
    const QByteArray header = f.read(100);
    if (!header.startsWith(QByteArray(kSqliteMagic, sizeof(kSqliteMagic)))) {
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
                *error = sqlError(q);
        } else if (error) {
            *error = d.lastError().text().simplified();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return version;
}

bool ResultStore::open(const QString &path, QString *error)
{
    close();
    m_interruptedAtOpen = 0;
    m_versionAtOpen = 0;
    m_backupPath.clear();
    m_path = QFileInfo(path.isEmpty() ? defaultPath() : path).absoluteFilePath();
    const QString tryThis = QStringLiteral("Wirebench runs without saved history; move the file away or choose "
                                           "another store file");

    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(error, QStringLiteral("cannot create the folder %1; check its permissions")
                               .arg(QDir::toNativeSeparators(info.absolutePath())));
    if (info.exists()) {
        if (info.isDir())
            return fail(error, QStringLiteral("is a folder, not a database file; choose a file name"));
        QFile f(m_path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(error, QStringLiteral("cannot be read (%1); check its permissions").arg(f.errorString()));
        const QByteArray head = f.read(16);
        f.close();
        // An empty file is a new database; anything else must start with SQLite's magic string. Checked by hand
        // so that SQLite never gets a chance to write to a file that is not ours.
        if (!head.isEmpty() && head != QByteArray(kSqliteMagic, sizeof(kSqliteMagic)))
            return fail(error, QStringLiteral("is not an SQLite database (it starts with other data); %1").arg(tryThis));
        if (!info.isWritable())
            return fail(error, QStringLiteral("is read-only; check its permissions or choose another store file"));
    }

    // Every early return drops the connection first, so that nothing of ours stays attached to the file.
    QSqlDatabase d = db();
    auto refuse = [&](const QString &message) {
        d = QSqlDatabase();
        close();
        return fail(error, message);
    };
    if (!d.isOpen())
        return refuse(QStringLiteral("cannot be opened (%1); %2").arg(d.lastError().text().simplified(), tryThis));

    QString verdict;
    QString why;
    bool readable = false;
    int version = 0;
    {
        QSqlQuery q(d);
        if (q.exec(QStringLiteral("PRAGMA quick_check")) && q.next()) {
            verdict = q.value(0).toString().simplified();
            if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next()) {
                version = q.value(0).toInt();
                readable = true;
            }
        }
        if (!readable)
            why = sqlError(q);
    }
    if (!readable)
        return refuse(QStringLiteral("is damaged (%1); %2").arg(why, tryThis));
    if (verdict != QLatin1String("ok"))
        return refuse(QStringLiteral("is damaged (integrity check: %1); %2").arg(verdict.left(300), tryThis));
    m_versionAtOpen = version;
    if (version > kSchemaVersion)
        return refuse(QStringLiteral("was written by a newer Wirebench (schema %1, this one knows %2); update "
                                     "Wirebench or choose another store file")
                          .arg(version)
                          .arg(kSchemaVersion));
    if (version > 0 && version < kSchemaVersion) {
        // Keep the old file as it was before changing its layout.
        QSqlQuery(d).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
        const QString backup = m_path + QStringLiteral(".v%1.bak").arg(version);
        QFile::remove(backup);
        if (QFile::copy(m_path, backup))
            m_backupPath = backup;
    }
    QString mode;
    {
        QSqlQuery q(d);
        if (q.exec(QStringLiteral("PRAGMA journal_mode = WAL")) && q.next())
            mode = q.value(0).toString();
        else
            why = sqlError(q);
    }
    if (mode.compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
        return refuse(QStringLiteral("cannot switch to WAL mode (%1); check that the folder is writable and on a "
                                     "local disk")
                          .arg(why.isEmpty() ? mode : why));
    if (!migrate(d, version, &why))
        return refuse(QStringLiteral("cannot update its layout from schema %1 to %2 (%3); %4")
                          .arg(version)
                          .arg(kSchemaVersion)
                          .arg(why, tryThis));
    m_open = true;

    // Only the first process on the file may decide that a running session is dead: a second Wirebench (the
    // CLI next to the GUI) must not mark the first one's session interrupted. A killed owner leaves a stale lock.
    m_lock = std::make_unique<QLockFile>(m_path + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0);
    if (m_lock->tryLock(0)) {
        const int n = markInterruptedSessions(&why);
        m_interruptedAtOpen = std::max(n, 0);
    } else {
        m_lock.reset();
    }
    return true;
}

bool ResultStore::migrate(QSqlDatabase &d, int from, QString *error)
{
    for (int version = from + 1; version <= kSchemaVersion; ++version) {
        if (!d.transaction()) {
            *error = d.lastError().text().simplified();
            return false;
        }
        bool ok = true;
        switch (version) {
        case 1: ok = execAll(d, kSchemaV1, std::size(kSchemaV1), error); break;
        case 2: ok = execAll(d, kSchemaV2, std::size(kSchemaV2), error) && backfillHostsV2(d, error); break;
        default: break;
        }
        if (ok) {
            QSqlQuery q(d);
            ok = q.exec(QStringLiteral("PRAGMA user_version = %1").arg(version));
            if (!ok)
                *error = sqlError(q);
        }
        if (!ok || !d.commit()) {
            if (ok)
                *error = d.lastError().text().simplified();
            d.rollback();
            return false;
        }
    }
    return true;
}

qint64 ResultStore::beginSession(const TestPlan &plan, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), 0;
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(error, QStringLiteral("cannot start a session (%1)").arg(d.lastError().text().simplified())), 0;
    QSqlQuery q(d);
    q.prepare(QStringLiteral("INSERT INTO sessions (uuid, started_at, state, plan_json, machine_hostname, machine_os,"
                             " wirebench_version) VALUES (?,?,?,?,?,?,?)"));
    q.addBindValue(QUuid::createUuid().toString(QUuid::WithoutBraces));
    q.addBindValue(isoUtc(QDateTime::currentDateTimeUtc()));
    q.addBindValue(sessionStateName(SessionState::Running));
    q.addBindValue(jsonText(PlanJson::planToJson(plan)));
    q.addBindValue(str(QSysInfo::machineHostName()));
    q.addBindValue(str(QSysInfo::prettyProductName()));
    q.addBindValue(QStringLiteral(WIREBENCH_VERSION));
    QString why;
    qint64 id = 0;
    if (q.exec()) {
        id = q.lastInsertId().toLongLong();
        for (int i = 0; i < plan.hosts.size() && id > 0; ++i) {
            if (!insertHost(d, id, i, plan.hosts.at(i), &why))
                id = 0;
        }
    } else {
        why = sqlError(q);
    }
    if (id <= 0 || !d.commit()) {
        if (why.isEmpty())
            why = d.lastError().text().simplified();
        d.rollback();
        return fail(error, QStringLiteral("cannot start a session (%1)").arg(why)), 0;
    }
    return id;
}

qint64 ResultStore::addRun(qint64 sessionId, const RunResult &r, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), 0;
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(error, QStringLiteral("cannot store a run (%1)").arg(d.lastError().text().simplified())), 0;
    QSqlQuery q(d);
    q.prepare(QStringLiteral(
        "INSERT INTO runs (session_id, run_index, host, address, port, server_type, os, server_os, protocol,"
        " frame_size, mss, repetition, bytes, seconds, sender_bytes, throughput_MBps, status, error, warnings_json,"
        " started_at, params_json, extra_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    q.addBindValue(sessionId);
    q.addBindValue(r.spec.index);
    q.addBindValue(str(r.spec.host.name));
    q.addBindValue(str(r.spec.host.address));
    q.addBindValue(int(r.spec.host.port));
    q.addBindValue(str(r.spec.host.serverType));
    q.addBindValue(str(r.spec.host.osLabel));
    q.addBindValue(str(r.serverOs));
    q.addBindValue(str(r.spec.protocol));
    q.addBindValue(r.spec.frameSize);
    q.addBindValue(r.mss);
    q.addBindValue(r.spec.repetition);
    q.addBindValue(r.bytes);
    q.addBindValue(r.seconds);
    q.addBindValue(r.senderBytes);
    q.addBindValue(r.megabytesPerSecond());
    q.addBindValue(runStatusName(r.status));
    q.addBindValue(str(r.error));
    q.addBindValue(jsonText(QJsonArray::fromStringList(r.warnings)));
    q.addBindValue(nullIfEmpty(isoUtc(r.startedAt)));
    q.addBindValue(jsonText(PlanJson::paramsToJson(r.spec.params)));
    q.addBindValue(jsonText(QJsonObject::fromVariantMap(r.extra)));
    QString why;
    qint64 runId = 0;
    if (q.exec()) {
        runId = q.lastInsertId().toLongLong();
        QSqlQuery s(d);
        s.prepare(QStringLiteral("INSERT INTO samples (run_id, end_seconds, interval_seconds, bytes) VALUES (?,?,?,?)"));
        for (const Sample &sample : r.samples) {
            s.bindValue(0, runId);
            s.bindValue(1, sample.endSeconds);
            s.bindValue(2, sample.intervalSeconds);
            s.bindValue(3, sample.bytes);
            if (!s.exec()) {
                why = sqlError(s);
                runId = 0;
                break;
            }
        }
    } else {
        why = sqlError(q);
    }
    if (runId <= 0 || !d.commit()) {
        if (why.isEmpty())
            why = d.lastError().text().simplified();
        d.rollback();
        return fail(error, QStringLiteral("cannot store run %1 of session %2 (%3)")
                               .arg(r.spec.index + 1)
                               .arg(sessionId)
                               .arg(why)),
               0;
    }
    return runId;
}

bool ResultStore::endSession(qint64 sessionId, SessionState state, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open"));
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE sessions SET state = ?, ended_at = ? WHERE id = ?"));
    q.addBindValue(sessionStateName(state));
    q.addBindValue(isoUtc(QDateTime::currentDateTimeUtc()));
    q.addBindValue(sessionId);
    if (!q.exec())
        return fail(error, QStringLiteral("cannot end session %1 (%2)").arg(sessionId).arg(sqlError(q)));
    if (q.numRowsAffected() != 1)
        return fail(error, QStringLiteral("has no session %1").arg(sessionId));
    return true;
}

int ResultStore::markInterruptedSessions(QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), -1;
    QSqlQuery q(db());
    if (!q.exec(QStringLiteral("UPDATE sessions SET state = 'interrupted' WHERE state = 'running'")))
        return fail(error, QStringLiteral("cannot mark interrupted sessions (%1)").arg(sqlError(q))), -1;
    return q.numRowsAffected();
}

qint64 ResultStore::importRuns(const QString &title, const RunResultList &runs, QString *error)
{
    TestPlan plan;
    plan.hosts.clear();
    plan.frameSizes.clear();
    int reps = 1;
    for (const RunResult &r : runs) {
        bool known = false;
        for (const Host &h : std::as_const(plan.hosts))
            known = known || (h.name == r.spec.host.name && h.address == r.spec.host.address);
        if (!known)
            plan.hosts.append(r.spec.host);
        if (!plan.protocols.contains(r.spec.protocol))
            plan.protocols.append(r.spec.protocol);
        if (!plan.frameSizes.contains(r.spec.frameSize))
            plan.frameSizes.append(r.spec.frameSize);
        reps = std::max(reps, r.spec.repetition);
    }
    plan.repetitions = reps;
    if (!runs.isEmpty())
        plan.params = runs.first().spec.params;
    const qint64 id = beginSession(plan, error);
    if (id <= 0)
        return 0;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE sessions SET title = ?, started_at = COALESCE(?, started_at) WHERE id = ?"));
    q.addBindValue(str(title));
    QDateTime first;
    for (const RunResult &r : runs) {
        if (r.startedAt.isValid() && (!first.isValid() || r.startedAt < first))
            first = r.startedAt;
    }
    q.addBindValue(nullIfEmpty(isoUtc(first)));
    q.addBindValue(id);
    if (!q.exec()) {
        deleteSession(id);
        return fail(error, QStringLiteral("cannot import \"%1\" (%2)").arg(title, sqlError(q))), 0;
    }
    for (const RunResult &r : runs) {
        if (addRun(id, r, error) <= 0) {
            deleteSession(id);
            return 0;
        }
    }
    if (!endSession(id, SessionState::Finished, error))
        return 0;
    return id;
}

SessionInfoList ResultStore::sessions(const SessionFilter &filter, QString *error) const
{
    SessionInfoList out;
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), out;
    QSqlDatabase d = db();
    QStringList where;
    QVariantList binds;
    if (filter.from.isValid()) {
        where << QStringLiteral("started_at >= ?");
        binds << isoUtc(filter.from);
    }
    if (filter.to.isValid()) {
        where << QStringLiteral("started_at < ?");
        binds << isoUtc(filter.to);
    }
    if (!filter.states.isEmpty()) {
        QStringList marks;
        for (SessionState s : filter.states) {
            marks << QStringLiteral("?");
            binds << sessionStateName(s);
        }
        where << QStringLiteral("state IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    QString sql = QStringLiteral("SELECT id, uuid, started_at, ended_at, state, plan_json, machine_hostname, machine_os,"
                                 " wirebench_version, title FROM sessions");
    if (!where.isEmpty())
        sql += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    sql += QStringLiteral(" ORDER BY started_at DESC, id DESC");

    QSqlQuery q(d);
    q.prepare(sql);
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec())
        return fail(error, QStringLiteral("cannot list sessions (%1)").arg(sqlError(q))), out;
    QHash<qint64, qsizetype> at;
    while (q.next()) {
        SessionInfo s;
        s.id = q.value(0).toLongLong();
        s.uuid = q.value(1).toString();
        s.startedAt = fromIso(q.value(2).toString());
        s.endedAt = fromIso(q.value(3).toString());
        s.state = sessionStateFromName(q.value(4).toString());
        s.plan = PlanJson::planFromJson(jsonObject(q.value(5).toString()));
        s.machineHostname = q.value(6).toString();
        s.machineOs = q.value(7).toString();
        s.wirebenchVersion = q.value(8).toString();
        s.title = q.value(9).toString();
        s.protocols = s.plan.protocols;
        s.frameSizes = s.plan.frameSizes;
        s.plannedRuns = s.plan.runCount();
        at.insert(s.id, out.size());
        out.append(s);
    }
    if (out.isEmpty())
        return out;

    QSqlQuery h(d);
    if (!h.exec(QStringLiteral("SELECT session_id, name, address, port, os, server_type, link_speed_Mbps, embedded,"
                               " options_json FROM session_hosts ORDER BY session_id, position")))
        return fail(error, QStringLiteral("cannot list hosts (%1)").arg(sqlError(h))), SessionInfoList();
    while (h.next()) {
        const auto it = at.constFind(h.value(0).toLongLong());
        if (it == at.constEnd())
            continue;
        Host host;
        host.name = h.value(1).toString();
        host.address = h.value(2).toString();
        host.port = quint16(h.value(3).toUInt());
        host.osLabel = h.value(4).toString();
        host.serverType = h.value(5).toString();
        host.linkSpeedMbps = h.value(6).toDouble();
        host.embedded = h.value(7).toInt() != 0;
        host.options = jsonObject(h.value(8).toString()).toVariantMap();
        out[*it].hosts.append(host);
    }
    QSqlQuery r(d);
    if (!r.exec(QStringLiteral("SELECT session_id, protocol, frame_size, COUNT(*), SUM(status = 'ok'),"
                               " SUM(status IN ('ok', 'failed')) FROM runs"
                               " GROUP BY session_id, protocol, frame_size ORDER BY MIN(id)")))
        return fail(error, QStringLiteral("cannot count runs (%1)").arg(sqlError(r))), SessionInfoList();
    while (r.next()) {
        const auto it = at.constFind(r.value(0).toLongLong());
        if (it == at.constEnd())
            continue;
        SessionInfo &s = out[*it];
        const QString protocol = r.value(1).toString();
        const int frame = r.value(2).toInt();
        if (!s.protocols.contains(protocol))
            s.protocols.append(protocol);
        if (!s.frameSizes.contains(frame))
            s.frameSizes.append(frame);
        s.runCount += r.value(3).toInt();
        s.okRuns += r.value(4).toInt();
        s.doneRuns += r.value(5).toInt();
    }

    // Text, host, protocol and frame filters look into the plan and hosts, which live in JSON and a side table.
    const QString text = filter.text.trimmed();
    SessionInfoList kept;
    for (const SessionInfo &s : std::as_const(out)) {
        if (!filter.protocol.isEmpty() && !s.protocols.contains(filter.protocol))
            continue;
        if (filter.frameSize > 0 && !s.frameSizes.contains(filter.frameSize))
            continue;
        if (!filter.host.isEmpty()) {
            bool any = false;
            for (const Host &host : s.hosts) {
                any = any || host.name.compare(filter.host, Qt::CaseInsensitive) == 0
                      || host.address.compare(filter.host, Qt::CaseInsensitive) == 0;
            }
            if (!any)
                continue;
        }
        if (!text.isEmpty()) {
            QStringList haystack{s.title, s.uuid, s.machineHostname, sessionStateName(s.state)};
            haystack += s.protocols;
            for (const Host &host : s.hosts)
                haystack << host.name << host.address << host.osLabel;
            bool any = false;
            for (const QString &hay : std::as_const(haystack))
                any = any || hay.contains(text, Qt::CaseInsensitive);
            if (!any)
                continue;
        }
        kept.append(s);
        if (filter.limit > 0 && kept.size() >= filter.limit)
            break;
    }
    return kept;
}

bool ResultStore::session(qint64 sessionId, SessionInfo *info, QString *error) const
{
    // The list query is cheap enough for one session and keeps one way of building a SessionInfo.
    QString why;
    const SessionInfoList all = sessions(SessionFilter(), &why);
    if (!why.isEmpty())
        return error ? (*error = why, false) : false;
    for (const SessionInfo &s : all) {
        if (s.id == sessionId) {
            if (info)
                *info = s;
            return true;
        }
    }
    return fail(error, QStringLiteral("has no session %1; list them with `wirebench-cli sessions`").arg(sessionId));
}

RunResultList ResultStore::runs(qint64 sessionId, QString *error, QList<qint64> *runIds) const
{
    RunResultList out;
    if (runIds)
        runIds->clear();
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), out;
    QSqlDatabase d = db();

    QList<Host> hosts;
    {
        QSqlQuery h(d);
        h.prepare(QStringLiteral("SELECT name, address, port, os, server_type, link_speed_Mbps, embedded, options_json"
                                 " FROM session_hosts WHERE session_id = ? ORDER BY position"));
        h.addBindValue(sessionId);
        if (!h.exec())
            return fail(error, QStringLiteral("cannot read hosts (%1)").arg(sqlError(h))), out;
        while (h.next()) {
            Host host;
            host.name = h.value(0).toString();
            host.address = h.value(1).toString();
            host.port = quint16(h.value(2).toUInt());
            host.osLabel = h.value(3).toString();
            host.serverType = h.value(4).toString();
            host.linkSpeedMbps = h.value(5).toDouble();
            host.embedded = h.value(6).toInt() != 0;
            host.options = jsonObject(h.value(7).toString()).toVariantMap();
            hosts.append(host);
        }
    }

    QSqlQuery q(d);
    q.prepare(QStringLiteral(
        "SELECT id, run_index, host, address, port, server_type, os, server_os, protocol, frame_size, mss, repetition,"
        " bytes, seconds, sender_bytes, status, error, warnings_json, started_at, params_json, extra_json"
        " FROM runs WHERE session_id = ? ORDER BY id"));
    q.addBindValue(sessionId);
    if (!q.exec())
        return fail(error, QStringLiteral("cannot read the runs of session %1 (%2)").arg(sessionId).arg(sqlError(q))),
               out;
    QHash<qint64, qsizetype> at;
    while (q.next()) {
        RunResult r;
        const qint64 id = q.value(0).toLongLong();
        r.spec.index = q.value(1).toInt();
        Host host;
        host.name = q.value(2).toString();
        host.address = q.value(3).toString();
        for (const Host &known : std::as_const(hosts)) {
            if (known.name == host.name && known.address == host.address) {
                host = known;
                break;
            }
        }
        host.port = quint16(q.value(4).toUInt());
        if (!q.value(5).toString().isEmpty())
            host.serverType = q.value(5).toString();
        host.osLabel = q.value(6).toString(); // the label as it was when this run ran
        r.spec.host = host;
        r.serverOs = q.value(7).toString();
        r.spec.protocol = q.value(8).toString();
        r.spec.frameSize = q.value(9).toInt();
        r.mss = q.value(10).toInt();
        r.spec.repetition = q.value(11).toInt();
        r.bytes = q.value(12).toLongLong();
        r.seconds = q.value(13).toDouble();
        r.senderBytes = q.value(14).toLongLong();
        r.status = runStatusFromName(q.value(15).toString());
        r.error = q.value(16).toString();
        for (const QJsonValue &w : QJsonDocument::fromJson(q.value(17).toString().toUtf8()).array())
            r.warnings.append(w.toString());
        r.startedAt = fromIso(q.value(18).toString());
        r.spec.params = PlanJson::paramsFromJson(jsonObject(q.value(19).toString()));
        r.extra = jsonObject(q.value(20).toString()).toVariantMap();
        at.insert(id, out.size());
        out.append(r);
        if (runIds)
            runIds->append(id);
    }
    QSqlQuery s(d);
    s.prepare(QStringLiteral("SELECT run_id, end_seconds, interval_seconds, bytes FROM samples WHERE run_id IN"
                             " (SELECT id FROM runs WHERE session_id = ?) ORDER BY run_id, rowid"));
    s.addBindValue(sessionId);
    if (!s.exec())
        return fail(error, QStringLiteral("cannot read samples (%1)").arg(sqlError(s))), RunResultList();
    while (s.next()) {
        const auto it = at.constFind(s.value(0).toLongLong());
        if (it == at.constEnd())
            continue;
        RunResult &r = out[*it];
        Sample sample;
        sample.runIndex = r.spec.index;
        sample.endSeconds = s.value(1).toDouble();
        sample.intervalSeconds = s.value(2).toDouble();
        sample.bytes = s.value(3).toLongLong();
        r.samples.append(sample);
    }
    return out;
}

bool ResultStore::deleteSession(qint64 sessionId, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open"));
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(error, QStringLiteral("cannot delete session %1 (%2)")
                               .arg(sessionId)
                               .arg(d.lastError().text().simplified()));
    // Explicit deletes rather than relying on ON DELETE CASCADE, which needs foreign_keys on every connection.
    static const char *const statements[] = {
        "DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE session_id = ?)",
        "DELETE FROM runs WHERE session_id = ?",
        "DELETE FROM session_hosts WHERE session_id = ?",
        "DELETE FROM sessions WHERE id = ?",
    };
    QString why;
    int removed = 0;
    for (const char *sql : statements) {
        QSqlQuery q(d);
        q.prepare(QString::fromLatin1(sql));
        q.addBindValue(sessionId);
        if (!q.exec()) {
            why = sqlError(q);
            break;
        }
        removed = q.numRowsAffected();
    }
    if (!why.isEmpty() || !d.commit()) {
        if (why.isEmpty())
            why = d.lastError().text().simplified();
        d.rollback();
        return fail(error, QStringLiteral("cannot delete session %1 (%2)").arg(sessionId).arg(why));
    }
    if (removed != 1)
        return fail(error, QStringLiteral("has no session %1").arg(sessionId));
    return true;
}

qint64 ResultStore::findSession(const QString &idOrUuid, QString *error) const
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), 0;
    const QString text = idOrUuid.trimmed();
    const QString none = QStringLiteral("has no session \"%1\"; list them with `wirebench-cli sessions`").arg(text);
    if (text.isEmpty())
        return fail(error, none), 0;
    QSqlDatabase d = db();
    // A number is an id first; a uuid prefix may also be all digits ("12345678"), so fall back to the uuids.
    bool isNumber = false;
    const qint64 number = text.toLongLong(&isNumber);
    if (isNumber) {
        QSqlQuery q(d);
        q.prepare(QStringLiteral("SELECT id FROM sessions WHERE id = ?"));
        q.addBindValue(number);
        if (q.exec() && q.next())
            return q.value(0).toLongLong();
    }
    QSqlQuery q(d);
    q.prepare(QStringLiteral("SELECT id FROM sessions WHERE uuid LIKE ? ESCAPE '\\'"));
    QString pattern = text.toLower();
    pattern.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('%'), QLatin1String("\\%"))
        .replace(QLatin1Char('_'), QLatin1String("\\_"));
    q.addBindValue(pattern + QLatin1Char('%'));
    if (!q.exec())
        return fail(error, QStringLiteral("cannot look up session \"%1\" (%2)").arg(text, sqlError(q))), 0;
    QList<qint64> ids;
    while (q.next())
        ids.append(q.value(0).toLongLong());
    if (ids.size() == 1)
        return ids.first();
    if (ids.size() > 1)
        return fail(error, QStringLiteral("has %1 sessions starting with \"%2\"; type more of the id").arg(ids.size()).arg(text)),
               0;
    return fail(error, none), 0;
}

} // namespace wb
