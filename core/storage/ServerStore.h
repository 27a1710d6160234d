#pragma once

#include "StoreLocation.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

namespace wb {

/// What only a store on a PostgreSQL server needs: connecting (and saying plainly why it could not), bringing the
/// layout up to date while other clients may open it at the same moment, and knowing which `running` sessions are
/// still being written. A running session is held by an advisory lock of the connection that began it, so a
/// client that opens the store marks interrupted only the sessions whose writer is gone (a crash, a lost link):
/// never a colleague's plan that is running now.
class ServerStore
{
public:
    /// `db` is the thread's connection (open or not). On success *version is the schema version found before
    /// the migration. On failure: one line, what failed and what to try, without the store's name (ResultStore
    /// adds it).
    static bool open(QSqlDatabase &db, const StoreLocation &store, int *version, QString *error);
    /// What to try when a connection to `store` fails with libpq's `message`.
    static QString advice(const StoreLocation &store, const QString &message);

    /// Holds (or lets go of) the running session `id` for the life of this connection.
    static void hold(QSqlDatabase &db, qint64 id, bool held);
    /// Appended to the UPDATE that marks running sessions interrupted: only those no connection holds.
    static QString unheldSessions();
    /// After that UPDATE, with the ids it took: lets the probing locks go.
    static void releaseProbes(QSqlDatabase &db, const QList<qint64> &ids);
};

} // namespace wb
