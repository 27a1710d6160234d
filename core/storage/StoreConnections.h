#pragma once

#include "StoreLocation.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QSqlDatabase>
#include <QString>

#include <memory>

class QThread;

namespace wb {

/// One QSqlDatabase connection per thread to one store (QSqlDatabase is per thread), named after the store and
/// the thread: QSQLITE to a file, QPSQL to a server. A worker thread's connection is closed in that thread when it
/// finishes.
class StoreConnections
{
public:
    StoreConnections();
    ~StoreConnections();
    StoreConnections(const StoreConnections &) = delete;
    StoreConnections &operator=(const StoreConnections &) = delete;

    /// This thread's connection to `store`, opened (SQLite: with foreign keys on) or, when it cannot open, closed
    /// with the reason in its lastError().
    QSqlDatabase database(const StoreLocation &store) const;
    /// Closes this thread's connection and forgets every other one.
    void dropAll();

private:
    void closeWhenFinished(QThread *thread, const QString &name) const;

    QString m_prefix;
    mutable QMutex m_mutex;                          // guards m_connections
    mutable QHash<QString, QThread *> m_connections; // connection name -> the thread that made it
    std::unique_ptr<QObject> m_context;              // receiver for QThread::finished
};

} // namespace wb
