#include "ResultStore.h"

#include "SessionQuery.h"
#include "SessionSearch.h"
#include "StoreConnections.h"
#include "ServerStore.h"
#include "StoreDialect.h"
#include "StoreRows.h"
#include "StoreSchema.h"
#include "plan/PlanJson.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
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
#include <QStorageInfo>
#include <QSysInfo>
#include <QThread>
#include <QUrl>
#include <QUuid>
#include <QVariant>

#include <algorithm>

namespace wb {

ResultStore::ResultStore()
    : m_connections(std::make_unique<StoreConnections>())
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
    return m_connections->database(m_location);
}

bool ResultStore::isServer() const
{
    return m_location.isServer();
}

void ResultStore::close()
{
    m_connections->dropAll();
    m_lock.reset();
    m_open = false;
}

int ResultStore::fileSchemaVersion(const QString &path, QString *error)
{
    return StoreSchema::fileVersion(path, error);
}

namespace {

/// SQLite's quick_check reads every page: 0.18 s per 100 MB here, at every open by every command, so a store of a
/// team's year (100,000 sessions, 8 GB) would take 15 s to list. Up to kFullCheckBytes the whole file is checked;
/// a larger one has its schema read, and a damaged page of its tables is met by SQLite where it is read ("database
/// disk image is malformed" in that command's error).
constexpr qint64 kFullCheckBytes = 64 * 1024 * 1024;

QString integrityCheck(const QFileInfo &file)
{
    if (!file.exists() || file.size() <= kFullCheckBytes)
        return QStringLiteral("PRAGMA quick_check");
    return QStringLiteral("SELECT CASE WHEN COUNT(*) > 0 THEN 'ok' ELSE 'it has no tables' END FROM sqlite_master");
}

/// How long open() tries to switch a file to WAL mode while another process holds it (the busy timeout of its
/// connections, StoreConnections).
constexpr int kWalSwitchWaitMs = 10000;

/// Free room a file store needs to be opened and to keep a session: its -shm (32 KiB) and a -wal with a session's
/// pages.
constexpr qint64 kStoreNeedsBytes = 1024 * 1024;

/// The sentence for SQLite's error `sqlError` on the store `path` when its filesystem is full, empty otherwise. SQLite
/// says "database or disk is full" (SQLITE_FULL) when a write of the database finds no room, but only "disk I/O
/// error" when its -shm cannot grow (ENOSPC from the mmap'ed file): that one is the disk only when the store's
/// filesystem has less free room than the store needs. A full disk is never damage: moving the healthy file away
/// would be harmful advice.
QString diskFullMessage(const QString &path, const QString &sqlError)
{
    const bool sqliteFull = sqlError.contains(QLatin1String("disk is full"), Qt::CaseInsensitive);
    const bool ioError = sqlError.contains(QLatin1String("disk I/O error"), Qt::CaseInsensitive);
    if (!sqliteFull && !ioError)
        return QString();
    QStorageInfo disk(QFileInfo(path).absolutePath());
    disk.refresh();
    const qint64 freeBytes = disk.isValid() ? disk.bytesAvailable() : -1;
    if (!sqliteFull && (freeBytes < 0 || freeBytes >= kStoreNeedsBytes))
        return QString();
    const QString freeText = freeBytes < 0
        ? QStringLiteral("no room")
        : QStringLiteral("%1 KiB free").arg(QString::number(freeBytes / 1024.0, 'f', 1));
    return QStringLiteral(
               "cannot be written because its disk is full: the filesystem on %1 has %2, and the store needs "
               "at least %3 KiB for its journal (%4); the store itself is not damaged: free space on that "
               "disk (delete or move other files there) and run again")
        .arg(QDir::toNativeSeparators(disk.isValid() ? disk.rootPath() : QFileInfo(path).absolutePath()), freeText)
        .arg(kStoreNeedsBytes / 1024)
        .arg(sqlError);
}

/// Said after a store that cannot be used as it is.
const QString kMoveAwayAdvice = QStringLiteral("Wirebench runs without saved history; move the file away or choose "
                                               "another store file");

/// How long open() waits for another process that is opening the same file (reading, backing up and updating its
/// layout): longer than that process's own wait for the WAL switch and its migration's busy timeout.
constexpr int kOpenTurnWaitMs = 30000;

/// Why the store file `path` must not be handed to SQLite, empty when it may be. Checked by hand so that SQLite
/// never gets a chance to write to a file that is not ours: an empty file is a new database; anything else must
/// start with SQLite's magic string.
QString refuseFileBeforeOpen(const QString &path)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("cannot create the folder %1; check its permissions")
            .arg(QDir::toNativeSeparators(info.absolutePath()));
    if (!info.exists())
        return QString();
    if (info.isDir())
        return QStringLiteral("is a folder, not a database file; choose a file name");
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be read (%1); check its permissions").arg(f.errorString());
    const QByteArray head = f.read(16);
    if (!head.isEmpty() && head != StoreSchema::sqliteMagic())
        return QStringLiteral("is not an SQLite database (it starts with other data); %1").arg(kMoveAwayAdvice);
    if (!info.isWritable())
        return QStringLiteral("is read-only; check its permissions or choose another store file");
    return QString();
}

/// The process that holds `lock`, as the error names it.
QString lockHolder(const QLockFile &lock)
{
    qint64 pid = 0;
    QString host;
    QString app;
    if (!lock.getLockInfo(&pid, &host, &app))
        return QStringLiteral("unknown");
    return QStringLiteral("%1 on %2").arg(pid).arg(host);
}

/// Reads the layout's version and the integrity check's verdict; false with SQLite's error in `why` when the file
/// cannot be read as a database.
bool readLayout(QSqlDatabase &d, const QFileInfo &file, int *version, QString *verdict, QString *why)
{
    QSqlQuery q(d);
    if (q.exec(integrityCheck(file)) && q.next()) {
        *verdict = q.value(0).toString().simplified();
        if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next()) {
            *version = q.value(0).toInt();
            return true;
        }
    }
    *why = StoreRows::sqlError(q);
    return false;
}

/// Keeps the file at `path` as it was before its layout (schema `version`) changes; the copy's path, empty if it
/// could not be made.
QString keepOldLayout(QSqlDatabase &d, const QString &path, int version)
{
    QSqlQuery(d).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    const QString backup = path + QStringLiteral(".v%1.bak").arg(version);
    QFile::remove(backup);
    return QFile::copy(path, backup) ? backup : QString();
}

/// Switches the connection's file to WAL mode; false with the reason in `why`. A second Wirebench switching the same
/// new file at once gets "database is locked" at once: SQLite does not wait for a change of journal mode (no busy
/// handler there). It tries again up to the connections' busy timeout; the one that wins leaves the file in WAL
/// mode, which the other then finds.
bool switchToWal(QSqlDatabase &d, QString *why)
{
    QDeadlineTimer deadline(kWalSwitchWaitMs);
    for (;;) {
        QSqlQuery q(d);
        if (q.exec(QStringLiteral("PRAGMA journal_mode = WAL")) && q.next()) {
            const QString mode = q.value(0).toString();
            if (mode.compare(QLatin1String("wal"), Qt::CaseInsensitive) == 0)
                return true;
            *why = mode;
            return false;
        }
        *why = StoreRows::sqlError(q);
        const bool busy = why->contains(QLatin1String("locked"), Qt::CaseInsensitive)
            || why->contains(QLatin1String("busy"), Qt::CaseInsensitive);
        if (!busy || deadline.hasExpired())
            return false;
        QThread::msleep(10);
    }
}
} // namespace

bool ResultStore::open(const QString &pathOrUrl, QString *error)
{
    StoreLocation location;
    QString why;
    if (!StoreLocation::parse(pathOrUrl, &location, &why)) {
        close();
        m_path = QUrl(pathOrUrl.trimmed()).toString(QUrl::RemovePassword); // what the error names: never the password
        m_location = StoreLocation();
        return fail(error, why);
    }
    return open(location, error);
}

bool ResultStore::open(const StoreLocation &location, QString *error)
{
    close();
    m_interruptedAtOpen = 0;
    m_versionAtOpen = 0;
    m_backupPath.clear();
    m_location = location;
    if (location.isServer()) {
        m_path = location.display();
        return openServer(error);
    }
    m_path = QFileInfo(location.path().isEmpty() ? defaultPath() : location.path()).absoluteFilePath();
    m_location = StoreLocation::file(m_path);
    return openFile(error);
}

bool ResultStore::openFile(QString *error)
{
    const QString refusal = refuseFileBeforeOpen(m_path);
    if (!refusal.isEmpty())
        return fail(error, refusal);

    // Two Wirebenches opening one file at once (the window and a scheduled run, two CLI runs) take turns from the
    // first read of the layout to the end of its update: without that, the second one reads a layout that the
    // first is halfway through updating and keeps a needless backup of it. A killed holder leaves a stale lock
    // (its process is gone); one that cannot be made (a read-only folder) is no reason to refuse the store.
    QLockFile turn(m_path + QStringLiteral(".open.lock"));
    turn.setStaleLockTime(0);
    if (!turn.tryLock(kOpenTurnWaitMs) && turn.error() == QLockFile::LockFailedError)
        return fail(error,
                    QStringLiteral("is being opened by another Wirebench (process %1) for more than %2 s; wait "
                                   "for it to start or end, then try again")
                        .arg(lockHolder(turn))
                        .arg(kOpenTurnWaitMs / 1000));

    // Every early return drops the connection first, so that nothing of ours stays attached to the file.
    QSqlDatabase d = db();
    auto refuse = [&](const QString &message) {
        d = QSqlDatabase();
        close();
        return fail(error, message);
    };
    // SQLite's error `sqlError` led to `message`, unless it was the disk being full (then nothing is damaged).
    auto refuseUnlessFull = [&](const QString &sqlError, const QString &message) {
        const QString full = diskFullMessage(m_path, sqlError);
        return refuse(full.isEmpty() ? message : full);
    };
    if (!d.isOpen())
        return refuseUnlessFull(
            d.lastError().text().simplified(),
            QStringLiteral("cannot be opened (%1); %2").arg(d.lastError().text().simplified(), kMoveAwayAdvice));

    int version = 0;
    QString verdict;
    QString why;
    if (!readLayout(d, QFileInfo(m_path), &version, &verdict, &why))
        return refuseUnlessFull(why, QStringLiteral("is damaged (%1); %2").arg(why, kMoveAwayAdvice));
    if (verdict != QLatin1String("ok"))
        return refuse(QStringLiteral("is damaged (integrity check: %1); %2").arg(verdict.left(300), kMoveAwayAdvice));
    m_versionAtOpen = version;
    if (version > kSchemaVersion)
        return refuse(QStringLiteral("was written by a newer Wirebench (schema %1, this one knows %2); update "
                                     "Wirebench or choose another store file")
                          .arg(version)
                          .arg(kSchemaVersion));
    if (version > 0 && version < kSchemaVersion)
        m_backupPath = keepOldLayout(d, m_path, version);
    if (!switchToWal(d, &why))
        return refuseUnlessFull(why,
                                QStringLiteral("cannot switch to WAL mode (%1); check that the folder is writable "
                                               "and on a local disk")
                                    .arg(why));
    if (!StoreSchema::migrate(d, &why))
        return refuseUnlessFull(why,
                                QStringLiteral("cannot update its layout from schema %1 to %2 (%3); %4")
                                    .arg(version)
                                    .arg(kSchemaVersion)
                                    .arg(why, kMoveAwayAdvice));
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

bool ResultStore::openServer(QString *error)
{
    QSqlDatabase d = db();
    QString why;
    if (!ServerStore::open(d, m_location, &m_versionAtOpen, &why)) {
        d = QSqlDatabase();
        close();
        return fail(error, why);
    }
    m_open = true;
    // Many clients share a server: only the sessions whose writer's connection is gone are dead (ServerStore).
    const int n = markInterruptedSessions(&why);
    m_interruptedAtOpen = std::max(n, 0);
    return true;
}

namespace {

// Whether the session's search text names `protocol` already: true unless this run is the first of it (its row is in).
bool searchKnowsProtocol(QSqlDatabase &d, qint64 sessionId, const QString &protocol)
{
    QSqlQuery q(d);
    q.prepare(
        QStringLiteral("SELECT COUNT(*) FROM (SELECT 1 FROM runs WHERE session_id = ? AND protocol = ? LIMIT 2) AS r"));
    q.addBindValue(sessionId);
    q.addBindValue(protocol);
    return q.exec() && q.next() && q.value(0).toInt() > 1;
}

// UPDATE sessions SET `assignments` (bound to `values`) of one session, with its search text, in one transaction.
bool changeSession(QSqlDatabase &d, qint64 sessionId, const QString &assignments, QVariantList values, int *changed,
                   QString *why)
{
    if (!d.transaction()) {
        *why = d.lastError().text().simplified();
        return false;
    }
    QSqlQuery q(d);
    q.prepare(QStringLiteral("UPDATE sessions SET %1 WHERE id = ?").arg(assignments));
    values << sessionId;
    for (const QVariant &v : std::as_const(values))
        q.addBindValue(v);
    bool ok = q.exec();
    if (!ok)
        *why = StoreRows::sqlError(q);
    else if (changed)
        *changed = q.numRowsAffected();
    ok = ok && SessionSearch::refresh(d, sessionId, why);
    if (!ok || !d.commit()) {
        if (ok)
            *why = d.lastError().text().simplified();
        d.rollback();
        return false;
    }
    return true;
}

} // namespace

qint64 ResultStore::beginSession(const TestPlan &plan, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), 0;
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(error, QStringLiteral("cannot start a session (%1)").arg(d.lastError().text().simplified())), 0;
    QSqlQuery q(d);
    q.prepare(QStringLiteral("INSERT INTO sessions (uuid, started_at, state, plan_json, machine_hostname, machine_os,"
                             " wirebench_version) VALUES (?,?,?,?,?,?,?)")
              + StoreDialect::returningId(StoreDialect::of(d)));
    q.addBindValue(QUuid::createUuid().toString(QUuid::WithoutBraces));
    q.addBindValue(StoreRows::isoUtc(QDateTime::currentDateTimeUtc()));
    q.addBindValue(sessionStateName(SessionState::Running));
    q.addBindValue(StoreRows::jsonText(PlanJson::planToJson(plan)));
    q.addBindValue(StoreRows::str(QSysInfo::machineHostName()));
    q.addBindValue(StoreRows::str(QSysInfo::prettyProductName()));
    q.addBindValue(QStringLiteral(WIREBENCH_VERSION));
    QString why;
    qint64 id = 0;
    if (q.exec()) {
        id = StoreDialect::insertedId(StoreDialect::of(d), q);
        for (int i = 0; i < plan.hosts.size() && id > 0; ++i) {
            if (!StoreRows::insertHost(d, id, i, plan.hosts.at(i), &why))
                id = 0;
        }
        if (id > 0 && !SessionSearch::refresh(d, id, &why))
            id = 0;
    } else {
        why = StoreRows::sqlError(q);
    }
    if (id <= 0 || !d.commit()) {
        if (why.isEmpty())
            why = d.lastError().text().simplified();
        d.rollback();
        return fail(error, QStringLiteral("cannot start a session (%1)").arg(why)), 0;
    }
    if (isServer())
        ServerStore::hold(d, id, true);
    return id;
}

qint64 ResultStore::addRun(qint64 sessionId, const RunResult &r, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), 0;
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(error, QStringLiteral("cannot store a run (%1)").arg(d.lastError().text().simplified())), 0;
    QString why;
    qint64 runId = StoreRows::insertRun(d, sessionId, r, &why);
    if (runId > 0 && !searchKnowsProtocol(d, sessionId, r.spec.protocol) && !SessionSearch::refresh(d, sessionId, &why))
        runId = 0;
    if (runId <= 0 || !d.commit()) {
        if (why.isEmpty())
            why = d.lastError().text().simplified();
        d.rollback();
        return fail(error,
                    QStringLiteral("cannot store run %1 of session %2 (%3)")
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
    QSqlDatabase d = db();
    int changed = 0;
    QString why;
    const bool ok
        = changeSession(d, sessionId, QStringLiteral("state = ?, ended_at = ?"),
                        {sessionStateName(state), StoreRows::isoUtc(QDateTime::currentDateTimeUtc())}, &changed, &why);
    if (!ok)
        return fail(error, QStringLiteral("cannot end session %1 (%2)").arg(sessionId).arg(why));
    if (changed != 1)
        return fail(error, QStringLiteral("has no session %1").arg(sessionId));
    if (isServer())
        ServerStore::hold(d, sessionId, false);
    return true;
}

int ResultStore::markInterruptedSessions(QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), -1;
    QSqlDatabase d = db();
    QList<qint64> ids; // on a server: each probed by an advisory lock, let go at the end whatever happens
    QString why;
    bool ok = d.transaction();
    if (ok) {
        QSqlQuery q(d);
        ok = q.exec(QStringLiteral("UPDATE sessions SET state = 'interrupted' WHERE state = 'running'")
                    + (isServer() ? ServerStore::unheldSessions() : QString()) + QStringLiteral(" RETURNING id"));
        while (ok && q.next())
            ids.append(q.value(0).toLongLong());
        if (!ok)
            why = StoreRows::sqlError(q);
    }
    QStringList list;
    for (qint64 id : std::as_const(ids))
        list << QString::number(id);
    if (ok && !ids.isEmpty())
        ok = SessionSearch::refresh(d, QStringLiteral("sessions.id IN (%1)").arg(list.join(QLatin1Char(','))), {},
                                    &why);
    if (!ok || !d.commit()) {
        if (why.isEmpty())
            why = d.lastError().text().simplified();
        d.rollback();
        ok = false;
    }
    if (isServer())
        ServerStore::releaseProbes(d, ids);
    if (!ok)
        return fail(error, QStringLiteral("cannot mark interrupted sessions (%1)").arg(why)), -1;
    return int(ids.size());
}

bool ResultStore::setSessionTitle(qint64 sessionId, const QString &title, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open"));
    QSqlDatabase d = db();
    QString why;
    if (!changeSession(d, sessionId, QStringLiteral("title = ?"), {StoreRows::str(title)}, nullptr, &why))
        return fail(error, QStringLiteral("cannot set the title of session %1 (%2)").arg(sessionId).arg(why));
    return true;
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
    QDateTime first;
    for (const RunResult &r : runs) {
        if (r.startedAt.isValid() && (!first.isValid() || r.startedAt < first))
            first = r.startedAt;
    }
    QSqlDatabase d = db();
    QString why;
    if (!changeSession(d, id, QStringLiteral("title = ?, started_at = COALESCE(?, started_at)"),
                       {StoreRows::str(title), StoreRows::nullIfEmpty(StoreRows::isoUtc(first))}, nullptr, &why)) {
        deleteSession(id);
        return fail(error, QStringLiteral("cannot import \"%1\" (%2)").arg(title, why)), 0;
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
    QString why;
    if (!SessionQuery::matching(filter, StoreDialect::of(d)).run(d, &out, &why))
        return fail(error, why), SessionInfoList();
    return out;
}

qint64 ResultStore::sessionCount(const SessionFilter &filter, QString *error) const
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), -1;
    QSqlDatabase d = db();
    qint64 n = 0;
    QString why;
    if (!SessionQuery::matching(filter, StoreDialect::of(d)).count(d, &n, &why))
        return fail(error, why), -1;
    return n;
}

QString ResultStore::changeMark() const
{
    if (!m_open)
        return {};
    QSqlQuery q(db());
    if (!q.exec(QStringLiteral("SELECT (SELECT COUNT(*) FROM sessions), (SELECT COALESCE(MAX(id), 0) FROM runs), "
                               "(SELECT COUNT(*) FROM sessions WHERE state = 'running')"))
        || !q.next())
        return {};
    return QStringLiteral("%1/%2/%3")
        .arg(q.value(0).toLongLong())
        .arg(q.value(1).toLongLong())
        .arg(q.value(2).toLongLong());
}

bool ResultStore::session(qint64 sessionId, SessionInfo *info, QString *error) const
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open"));
    QSqlDatabase d = db();
    SessionInfoList found;
    QString why;
    if (!SessionQuery::withId(sessionId).run(d, &found, &why))
        return fail(error, why);
    if (found.isEmpty())
        return fail(error, QStringLiteral("has no session %1; list them with `wirebench-cli sessions`").arg(sessionId));
    if (info)
        *info = found.first();
    return true;
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
        h.prepare(QStringLiteral("SELECT %1 FROM session_hosts WHERE session_id = ? ORDER BY position")
                      .arg(StoreRows::hostColumns()));
        h.addBindValue(sessionId);
        if (!h.exec())
            return fail(error, QStringLiteral("cannot read hosts (%1)").arg(StoreRows::sqlError(h))), out;
        while (h.next())
            hosts.append(StoreRows::hostAt(h, 0));
    }

    QSqlQuery q(d);
    q.prepare(QStringLiteral("SELECT %1 FROM runs WHERE session_id = ? ORDER BY id").arg(StoreRows::runColumns()));
    q.addBindValue(sessionId);
    if (!q.exec())
        return fail(error,
                    QStringLiteral("cannot read the runs of session %1 (%2)")
                        .arg(sessionId)
                        .arg(StoreRows::sqlError(q))),
               out;
    QHash<qint64, qsizetype> at;
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        at.insert(id, out.size());
        out.append(StoreRows::runAt(q, hosts));
        if (runIds)
            runIds->append(id);
    }
    QSqlQuery s(d);
    s.prepare(QStringLiteral("SELECT run_id, end_seconds, interval_seconds, bytes FROM samples WHERE run_id IN"
                             " (SELECT id FROM runs WHERE session_id = ?) ORDER BY %1")
                  .arg(StoreDialect::sampleOrder(StoreDialect::of(d))));
    s.addBindValue(sessionId);
    if (!s.exec())
        return fail(error, QStringLiteral("cannot read samples (%1)").arg(StoreRows::sqlError(s))), RunResultList();
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

StoredRunList ResultStore::runsBetween(const QDateTime &from, const QDateTime &to, const QStringList &protocols,
                                       QString *error) const
{
    StoredRunList out;
    if (!m_open)
        return fail(error, QStringLiteral("is not open")), out;
    if (protocols.isEmpty())
        return out;
    QSqlDatabase d = db();
    QSqlQuery q(d);
    // started_at is ISO 8601 UTC with milliseconds (StoreRows::isoUtc), so text order is time order.
    const QString marks = QStringList(protocols.size(), QStringLiteral("?")).join(QLatin1Char(','));
    q.prepare(
        QStringLiteral("SELECT %1, session_id FROM runs WHERE status = 'ok' AND started_at >= ? AND started_at < ?"
                       " AND protocol IN (%2) ORDER BY started_at, id")
            .arg(StoreRows::runColumns(), marks));
    q.addBindValue(StoreRows::isoUtc(from));
    q.addBindValue(StoreRows::isoUtc(to));
    for (const QString &p : protocols)
        q.addBindValue(p);
    if (!q.exec())
        return fail(error, QStringLiteral("cannot read earlier runs (%1)").arg(StoreRows::sqlError(q))), out;
    const int sessionColumn = int(StoreRows::runColumns().count(QLatin1Char(','))) + 1;
    while (q.next())
        out.append(StoredRun{q.value(sessionColumn).toLongLong(), StoreRows::runAt(q, {})});
    return out;
}

bool ResultStore::deleteSession(qint64 sessionId, QString *error)
{
    if (!m_open)
        return fail(error, QStringLiteral("is not open"));
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(
            error,
            QStringLiteral("cannot delete session %1 (%2)").arg(sessionId).arg(d.lastError().text().simplified()));
    // Explicit deletes rather than relying on ON DELETE CASCADE, which needs foreign_keys on every connection.
    static const char *const statements[] = {
        "DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE session_id = ?)",
        "DELETE FROM runs WHERE session_id = ?",
        "DELETE FROM session_hosts WHERE session_id = ?",
        "DELETE FROM session_search WHERE session_id = ?",
        "DELETE FROM sessions WHERE id = ?",
    };
    QString why;
    int removed = 0;
    for (const char *sql : statements) {
        QSqlQuery q(d);
        q.prepare(QString::fromLatin1(sql));
        q.addBindValue(sessionId);
        if (!q.exec()) {
            why = StoreRows::sqlError(q);
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
        return fail(error, QStringLiteral("cannot look up session \"%1\" (%2)").arg(text, StoreRows::sqlError(q))), 0;
    QList<qint64> ids;
    while (q.next())
        ids.append(q.value(0).toLongLong());
    if (ids.size() == 1)
        return ids.first();
    if (ids.size() > 1)
        return fail(error,
                    QStringLiteral("has %1 sessions starting with \"%2\"; type more of the id")
                        .arg(ids.size())
                        .arg(text)),
               0;
    return fail(error, none), 0;
}

} // namespace wb
