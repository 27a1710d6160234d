#include "ServerStore.h"

#include "ResultStore.h"
#include "StoreDialect.h"
#include "StoreRows.h"
#include "StoreSchema.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace wb {

namespace {

// The advisory locks of Wirebench on a server: key (kLockSpace, session id); (kLockSpace, 0) for the migration.
constexpr int kLockSpace = 0x57420000;

} // namespace

namespace {

// The password file libpq reads (PGPASSFILE, else ~/.pgpass), as libpq finds it.
QString passwordFile()
{
    const QString named = qEnvironmentVariable("PGPASSFILE");
    return named.isEmpty() ? QDir::home().filePath(QStringLiteral(".pgpass")) : named;
}

// libpq skips a password file that its group or others may read (it warns on stderr, then asks for no password).
bool passwordFileIgnored(const QString &path)
{
    const QFileInfo info(path);
    return info.isFile()
        && (info.permissions()
            & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther
               | QFile::ExeOther));
}

} // namespace

QString ServerStore::advice(const StoreLocation &store, const QString &message)
{
    const QString m = message.toLower();
    const QString user = store.user().isEmpty() ? QStringLiteral("this user") : store.user();
    const QString line
        = QStringLiteral("%1:%2:%3:%4:PASSWORD").arg(store.host()).arg(store.port()).arg(store.database(), user);
    // Which password libpq sent, in its order: the connection's own (the window's keychain), PGPASSWORD, the file.
    if (m.contains(QLatin1String("password authentication failed"))) {
        if (!store.password().isEmpty())
            return QStringLiteral(
                       "the server refused the password of %1: check the one saved in Settings (the keychain)")
                .arg(user);
        if (!qEnvironmentVariableIsEmpty("PGPASSWORD"))
            return QStringLiteral("the server refused the password of %1: check the one in PGPASSWORD").arg(user);
        return QStringLiteral("the server refused the password of %1: check the line %2 of %3")
            .arg(user, line, passwordFile());
    }
    if (m.contains(QLatin1String("password")) || m.contains(QLatin1String("fe_sendauth"))) {
        const QString file = passwordFile();
        if (store.password().isEmpty() && qEnvironmentVariableIsEmpty("PGPASSWORD") && passwordFileIgnored(file))
            return QStringLiteral("libpq ignores %1 because others may read it: chmod 0600 %1").arg(file);
        return QStringLiteral("the server wants a password for %1: put it in PGPASSWORD or in ~/.pgpass as "
                              "%2 (mode 0600); in the window, in Settings")
            .arg(user, line);
    }
    if (m.contains(QLatin1String("database")) && m.contains(QLatin1String("does not exist")))
        return QStringLiteral("create the database (createdb -h %1 -p %2 -U %3 %4) or ask the server's administrator")
            .arg(store.host())
            .arg(store.port())
            .arg(store.user().isEmpty() ? QStringLiteral("USER") : store.user(), store.database());
    if (m.contains(QLatin1String("role")) && m.contains(QLatin1String("does not exist")))
        return QStringLiteral("the server has no user %1; ask its administrator for one (createuser)")
            .arg(store.user());
    if (m.contains(QLatin1String("pg_hba.conf")))
        return QStringLiteral("the server does not let this computer in: its administrator adds a line for it to "
                              "pg_hba.conf");
    return QStringLiteral("check the server's name and port, that PostgreSQL runs there and listens beyond its own "
                          "computer (listen_addresses), and that no firewall is in the way");
}

bool ServerStore::open(QSqlDatabase &db, const StoreLocation &store, int *version, QString *error)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        *error = QStringLiteral("this Wirebench has no PostgreSQL driver (Qt's QPSQL); install the package "
                                "libqt6sql6-psql");
        return false;
    }
    if (!db.isOpen()) {
        const QString why = db.lastError().databaseText().simplified();
        const QString text = why.isEmpty() ? db.lastError().text().simplified() : why;
        *error = QStringLiteral("cannot connect to %1 port %2 (%3); %4")
                     .arg(store.host())
                     .arg(store.port())
                     .arg(text, advice(store, text));
        return false;
    }
    // Two clients that meet a new database at once would both create its tables: one migrates, the other waits.
    QSqlQuery lock(db);
    if (!lock.exec(QStringLiteral("SELECT pg_advisory_lock(%1, 0)").arg(kLockSpace))) {
        *error = QStringLiteral("cannot lock the store to check its layout (%1)").arg(StoreRows::sqlError(lock));
        return false;
    }
    QString why;
    bool ok = true;
    *version = StoreDialect::readVersion(db, &why);
    if (*version < 0) {
        *error = QStringLiteral("cannot read its schema version (%1); check that the user %2 may read the database %3")
                     .arg(why, store.user(), store.database());
        ok = false;
    } else if (*version > StoreSchema::kVersion) {
        *error = QStringLiteral("was written by a newer Wirebench (schema %1, this one knows %2); update Wirebench or "
                                "choose another store")
                     .arg(*version)
                     .arg(StoreSchema::kVersion);
        ok = false;
    } else if (!StoreSchema::migrate(db, &why)) {
        *error = QStringLiteral("cannot update its layout from schema %1 to %2 (%3); check that the user %4 may create "
                                "tables in the database %5")
                     .arg(*version)
                     .arg(StoreSchema::kVersion)
                     .arg(why, store.user(), store.database());
        ok = false;
    }
    lock.exec(QStringLiteral("SELECT pg_advisory_unlock(%1, 0)").arg(kLockSpace));
    return ok;
}

void ServerStore::hold(QSqlDatabase &db, qint64 id, bool held)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT %1(%2, CAST(? AS integer))")
                  .arg(held ? QStringLiteral("pg_advisory_lock") : QStringLiteral("pg_advisory_unlock"))
                  .arg(kLockSpace));
    q.addBindValue(id);
    if (!q.exec())
        qWarning("result store: session %lld: %s", id, qPrintable(StoreRows::sqlError(q)));
}

QString ServerStore::unheldSessions()
{
    return QStringLiteral(" AND pg_try_advisory_lock(%1, CAST(id AS integer))").arg(kLockSpace);
}

void ServerStore::releaseProbes(QSqlDatabase &db, const QList<qint64> &ids)
{
    for (qint64 id : ids)
        hold(db, id, false);
}

} // namespace wb
