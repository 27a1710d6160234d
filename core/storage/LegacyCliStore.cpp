#include "LegacyCliStore.h"

#include "ResultStore.h"
#include "SessionSearch.h"
#include "StoreFunctions.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QUrl>
#include <QUuid>
#include <QVariant>

namespace wb {

namespace {

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

/// Copies rows of one table from the attached `old` store into `main`: the rows whose `keyColumn` is a given
/// value, with `parentColumn` (when named) set to the parent's new id. The columns are those both files have.
class TableCopy
{
public:
    TableCopy(const QSqlDatabase &db, const QString &table, const QString &parentColumn, const QString &keyColumn)
        : m_db(db)
        , m_hasParent(!parentColumn.isEmpty())
    {
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA old.table_info(%1)").arg(table));
        QStringList oldColumns;
        while (q.next())
            oldColumns << q.value(1).toString();
        q.exec(QStringLiteral("PRAGMA main.table_info(%1)").arg(table));
        QStringList columns;
        while (q.next()) {
            const QString c = q.value(1).toString();
            if (c != QLatin1String("id") && c != parentColumn && oldColumns.contains(c))
                columns << c;
        }
        const QString list = columns.join(QLatin1Char(','));
        m_sql = m_hasParent
            ? QStringLiteral("INSERT INTO main.%1 (%2,%3) SELECT ?,%3 FROM old.%1 WHERE %4 = ? ORDER BY rowid")
                  .arg(table, parentColumn, list, keyColumn)
            : QStringLiteral("INSERT INTO main.%1 (%2) SELECT %2 FROM old.%1 WHERE %3 = ?").arg(table, list, keyColumn);
        m_valid = !columns.isEmpty();
    }

    /// Copies the rows whose key is `oldKey`; `newId`: the new rowid (of the last row copied).
    bool copy(qint64 newParent, qint64 oldKey, qint64 *newId, QString *error) const
    {
        QSqlQuery q(m_db);
        q.prepare(m_sql);
        if (m_hasParent)
            q.addBindValue(newParent);
        q.addBindValue(oldKey);
        if (!m_valid || !q.exec()) {
            *error = m_valid ? q.lastError().text().simplified() : QStringLiteral("the old file has no usable tables");
            return false;
        }
        if (newId)
            *newId = q.lastInsertId().toLongLong();
        return true;
    }

private:
    QSqlDatabase m_db;
    bool m_hasParent = false;
    QString m_sql;
    bool m_valid = false;
};

QList<qint64> idsOf(const QSqlDatabase &db, const QString &sql, const QVariantList &values = {})
{
    QSqlQuery q(db);
    q.prepare(sql);
    for (const QVariant &v : values)
        q.addBindValue(v);
    QList<qint64> ids;
    if (q.exec()) {
        while (q.next())
            ids << q.value(0).toLongLong();
    }
    return ids;
}

/// One old session with its hosts, runs and samples.
bool copySession(const QSqlDatabase &db, qint64 oldId, QString *error)
{
    const QString session = QStringLiteral("session_id");
    const TableCopy sessions(db, QStringLiteral("sessions"), QString(), QStringLiteral("id"));
    const TableCopy hosts(db, QStringLiteral("session_hosts"), session, session);
    const TableCopy runs(db, QStringLiteral("runs"), session, QStringLiteral("id"));
    const TableCopy samples(db, QStringLiteral("samples"), QStringLiteral("run_id"), QStringLiteral("run_id"));
    qint64 newSession = 0;
    if (!sessions.copy(0, oldId, &newSession, error) || !hosts.copy(newSession, oldId, nullptr, error))
        return false;
    for (qint64 oldRun :
         idsOf(db, QStringLiteral("SELECT id FROM old.runs WHERE session_id = ? ORDER BY id"), {oldId})) {
        qint64 newRun = 0;
        if (!runs.copy(newSession, oldRun, &newRun, error) || !samples.copy(newRun, oldRun, nullptr, error))
            return false;
    }
    QSqlDatabase main = db;
    return SessionSearch::refresh(main, newSession, error);
}

/// Every session of the attached old store that `main` lacks; how many were copied, -1 on failure.
int copyMissingSessions(QSqlDatabase &db, QString *error)
{
    // Inside the transaction, so that two programs starting at once cannot both copy a session.
    if (!db.transaction()) {
        *error = db.lastError().text().simplified();
        return -1;
    }
    const QList<qint64> ids = idsOf(db,
                                    QStringLiteral("SELECT id FROM old.sessions WHERE uuid NOT IN "
                                                   "(SELECT uuid FROM main.sessions) ORDER BY started_at, id"));
    for (qint64 id : ids) {
        if (!copySession(db, id, error)) {
            db.rollback();
            return -1;
        }
    }
    if (!db.commit()) {
        *error = db.lastError().text().simplified();
        return -1;
    }
    return int(ids.size());
}

/// Copies through a connection of its own to the default store, with the old file attached read-only.
int copyFrom(const QString &oldPath, const QString &newPath, QString *error)
{
    const QString name = QStringLiteral("wirebench-legacy-import-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    int copied = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(newPath);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000;QSQLITE_OPEN_URI"));
        if (!db.open()) {
            *error = db.lastError().text().simplified();
        } else if (!StoreFunctions::install(db)) { // the search text's wb_fold
            *error = QStringLiteral("cannot add the store's SQL functions to its connection");
        } else {
            QSqlQuery attach(db);
            attach.prepare(QStringLiteral("ATTACH DATABASE ? AS old"));
            attach.addBindValue(QUrl::fromLocalFile(oldPath).toString() + QStringLiteral("?mode=ro"));
            if (!attach.exec()) {
                *error = attach.lastError().text().simplified();
            } else {
                copied = copyMissingSessions(db, error);
                QSqlQuery(db).exec(QStringLiteral("DETACH DATABASE old"));
            }
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return copied;
}

/// `<file>.imported`, or `.imported-2`, ... when that name is taken: nothing of the user's is overwritten.
QString movedName(const QString &path)
{
    QString target = path + QStringLiteral(".imported");
    for (int n = 2; QFileInfo::exists(target); ++n)
        target = path + QStringLiteral(".imported-%1").arg(n);
    return target;
}

} // namespace

QString LegacyCliStore::adoptInto(const ResultStore &store)
{
    const QString oldPath = ResultStore::legacyCliPath();
    if (!store.isOpen() || oldPath.isEmpty() || !QFileInfo(oldPath).isFile()
        || QFileInfo(store.path()) != QFileInfo(ResultStore::defaultPath())
        || QFileInfo(oldPath) == QFileInfo(store.path()))
        return QString();
    const QString seeThem = QStringLiteral("earlier runs of wirebench-cli are still in %1 (see them with "
                                           "`wirebench-cli sessions --store %1`)")
                                .arg(native(oldPath));
    QString error;
    {
        // Opening brings an old layout up to date (keeping a .bak) and closes sessions a crash left running.
        ResultStore old;
        if (!old.open(oldPath, &error))
            return QStringLiteral("%1; it cannot be read: %2").arg(seeThem, error);
    }
    const int copied = copyFrom(oldPath, store.path(), &error);
    if (copied < 0)
        return QStringLiteral("%1; moving them into the result store %2 failed: %3")
            .arg(seeThem, native(store.path()), error);
    const QString moved = movedName(oldPath);
    const bool renamed = QFile::rename(oldPath, moved);
    if (copied == 0)
        return QString(); // what it held is in the store already
    if (!renamed)
        return QStringLiteral("copied %1 session(s) of earlier wirebench-cli runs from %2 into the result store %3, "
                              "but could not rename the old file; remove it, or its sessions come back after a delete")
            .arg(copied)
            .arg(native(oldPath), native(store.path()));
    return QStringLiteral("moved %1 session(s) of earlier wirebench-cli runs from %2 into the result store %3 (the "
                          "window's History and `wirebench-cli sessions` show them); the old file is kept as %4")
        .arg(copied)
        .arg(native(oldPath), native(store.path()), native(moved));
}

} // namespace wb
