#include "SessionSearch.h"

#include "StoreRows.h"

#include <QSqlQuery>
#include <QStringList>

namespace wb {

namespace {

// Up to this many matches the index's answer is the condition; beyond it the search reads the sessions newest
// first, and a page of 200 is met within about the newest 200 / 1,000 of the store.
constexpr int kIndexedMatches = 1000;

bool exec(QSqlDatabase &db, const QString &sql, const QVariantList &binds, QString *error)
{
    QSqlQuery q(db);
    q.prepare(sql);
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec()) {
        *error = StoreRows::sqlError(q);
        return false;
    }
    return true;
}

} // namespace

QString SessionSearch::textOfSession(StoreDialect::Kind k)
{
    const QString nl = StoreDialect::newline(k);
    const QString planProtocols
        = QStringLiteral("CASE WHEN %1 THEN (SELECT %2 FROM %3 WHERE type = 'text') END")
              .arg(StoreDialect::planIsArray(k, "protocols"), StoreDialect::lines(k, QStringLiteral("value")),
                   StoreDialect::planValues(k, "protocols"));
    const QString runProtocols = QStringLiteral("(SELECT %1 FROM (SELECT DISTINCT protocol FROM runs"
                                                " WHERE runs.session_id = sessions.id) AS p)")
                                     .arg(StoreDialect::lines(k, QStringLiteral("p.protocol")));
    const QString hosts
        = QStringLiteral("(SELECT %1 FROM session_hosts h WHERE h.session_id = sessions.id)")
              .arg(StoreDialect::lines(k, QStringLiteral("h.name || %1 || h.address || %1 || h.os").arg(nl)));
    const QString text = QStringList{QStringLiteral("sessions.title"),
                                     QStringLiteral("sessions.uuid"),
                                     QStringLiteral("sessions.machine_hostname"),
                                     QStringLiteral("sessions.state"),
                                     QStringLiteral("COALESCE(%1, '')").arg(planProtocols),
                                     QStringLiteral("COALESCE(%1, '')").arg(runProtocols),
                                     QStringLiteral("COALESCE(%1, '')").arg(hosts)}
                             .join(QStringLiteral(" || %1 || ").arg(nl));
    return StoreDialect::fold(k, text);
}

bool SessionSearch::refresh(QSqlDatabase &db, const QString &where, const QVariantList &binds, QString *error)
{
    const StoreDialect::Kind k = StoreDialect::of(db);
    return exec(db,
                QStringLiteral(
                    "DELETE FROM session_search WHERE session_id IN (SELECT sessions.id FROM sessions WHERE %1)")
                    .arg(where),
                binds, error)
        && exec(db,
                QStringLiteral(
                    "INSERT INTO session_search (session_id, text) SELECT sessions.id, %1 FROM sessions WHERE %2")
                    .arg(textOfSession(k), where),
                binds, error);
}

bool SessionSearch::refresh(QSqlDatabase &db, qint64 sessionId, QString *error)
{
    return refresh(db, QStringLiteral("sessions.id = ?"), {sessionId}, error);
}

bool SessionSearch::condition(QSqlDatabase &db, const QString &text, QString *clause, QVariantList *binds,
                              QString *error)
{
    const StoreDialect::Kind k = StoreDialect::of(db);
    // A trigram index finds three characters or more; the needle is counted as the index counts (folded, by code
    // point). A line break would let a needle span two fields: read those.
    const bool indexable = text.toCaseFolded().toUcs4().size() >= 3 && !text.contains(QLatin1Char('\n'));
    if (indexable) {
        QSqlQuery q(db);
        q.prepare(StoreDialect::searchIndexed(k) + QStringLiteral(" LIMIT %1").arg(kIndexedMatches + 1));
        q.addBindValue(StoreDialect::searchNeedle(k, text, true));
        if (!q.exec()) {
            *error = QStringLiteral("cannot search (%1)").arg(StoreRows::sqlError(q));
            return false;
        }
        QStringList ids;
        while (q.next())
            ids << QString::number(q.value(0).toLongLong());
        if (ids.size() <= kIndexedMatches) {
            *clause = ids.isEmpty() ? QStringLiteral("1 = 0")
                                    : QStringLiteral("sessions.id IN (%1)").arg(ids.join(QLatin1Char(',')));
            binds->clear();
            return true;
        }
    }
    *clause
        = QStringLiteral("EXISTS (SELECT 1 FROM session_search WHERE session_search.session_id = sessions.id AND %1)")
              .arg(StoreDialect::searchScanned(k));
    *binds = {StoreDialect::searchNeedle(k, text, false)};
    return true;
}

} // namespace wb
