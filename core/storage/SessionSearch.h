#pragma once

#include "StoreDialect.h"

#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

namespace wb {

/// The search of History and `wirebench-cli sessions`: one line-separated, case-folded text per session in
/// session_search (schema 5) holding what the search looks in (title, uuid, computer, state, the plan's and the
/// runs' protocols, the hosts' names, addresses and OS), under a trigram index (StoreDialect::searchIndex). A search
/// that matches few sessions is answered by the index; one that matches many, or is shorter than a trigram, reads
/// the sessions newest first, where it meets its page soon. The store's writes call refresh() for the sessions they
/// change, in their own transaction.
class SessionSearch
{
public:
    /// Rewrites the search text of the sessions `where` selects (a condition on `sessions`, its `?` bound to `binds`).
    static bool refresh(QSqlDatabase &db, const QString &where, const QVariantList &binds, QString *error);
    static bool refresh(QSqlDatabase &db, qint64 sessionId, QString *error);
    /// A WHERE condition on `sessions` that holds for the sessions whose text contains `text` (trimmed, not empty)
    /// ignoring case, as QString::contains does (PostgreSQL: lower()), with its bound values. The index is asked
    /// first, once.
    static bool condition(QSqlDatabase &db, const QString &text, QString *clause, QVariantList *binds, QString *error);

private:
    static QString textOfSession(StoreDialect::Kind kind);
};

} // namespace wb
