#include "StoreConnections.h"

#include "StoreFunctions.h"

#include <QSqlQuery>
#include <QThread>
#include <QUuid>

namespace wb {

StoreConnections::StoreConnections()
    : m_prefix(QStringLiteral("wirebench-store-%1-").arg(QUuid::createUuid().toString(QUuid::Id128)))
    , m_context(std::make_unique<QObject>())
{
}

StoreConnections::~StoreConnections()
{
    dropAll();
}

namespace {

// A server that does not answer is given up after 5 s rather than libpq's default of waiting for ever.
void configureServer(QSqlDatabase &db, const StoreLocation &store)
{
    db.setHostName(store.host());
    db.setPort(store.port());
    db.setDatabaseName(store.database());
    db.setUserName(store.user());
    // Empty: libpq reads PGPASSWORD or ~/.pgpass, as psql does.
    if (!store.password().isEmpty())
        db.setPassword(store.password());
    db.setConnectOptions(QStringLiteral("connect_timeout=5;application_name=wirebench"));
}

} // namespace

QSqlDatabase StoreConnections::database(const StoreLocation &store) const
{
    QThread *thread = QThread::currentThread();
    const QString name = m_prefix + QString::number(quintptr(thread), 16);
    if (QSqlDatabase::contains(name)) {
        QSqlDatabase existing = QSqlDatabase::database(name, false);
        if (existing.isOpen())
            return existing;
        existing = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
    }
    QSqlDatabase db
        = QSqlDatabase::addDatabase(store.isServer() ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"), name);
    if (store.isServer()) {
        configureServer(db, store);
    } else {
        db.setDatabaseName(store.path());
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    }
    bool isNew = false;
    {
        QMutexLocker lock(&m_mutex);
        isNew = !m_connections.contains(name);
        m_connections.insert(name, thread);
    }
    if (isNew && thread != m_context->thread())
        closeWhenFinished(thread, name);
    if (store.isServer()) {
        // The migration's "already exists, skipping" notices would reach stderr through Qt's warnings.
        if (db.open())
            QSqlQuery(db).exec(QStringLiteral("SET client_min_messages = warning"));
        return db;
    }
    if (db.open()) {
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA foreign_keys = ON"));
        q.exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
        if (!StoreFunctions::install(db))
            qWarning("result store: could not add its SQL functions to the connection to %s", qPrintable(store.path()));
    }
    return db;
}

void StoreConnections::closeWhenFinished(QThread *thread, const QString &name) const
{
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

void StoreConnections::dropAll()
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

} // namespace wb
