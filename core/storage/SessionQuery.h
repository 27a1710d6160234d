#pragma once

#include "StoreDialect.h"
#include "StoreTypes.h"

#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

namespace wb {

/// The sessions a SessionFilter (or one id) selects, found by SQL: the filter becomes one WHERE clause over
/// sessions, its plan's JSON (StoreDialect::planValues), its hosts and its runs, the text through SessionSearch; then
/// the selected sessions' hosts and run counts are read with that clause as a sub-select. Newest first.
class SessionQuery
{
public:
    static SessionQuery matching(const SessionFilter &filter, StoreDialect::Kind kind);
    static SessionQuery withId(qint64 sessionId);

    /// Returns false with a one-line reason (what could not be read and SQLite's words) in *error.
    bool run(QSqlDatabase &db, SessionInfoList *out, QString *error) const;
    /// How many sessions the filter selects, without its limit (for "50 of 100,000").
    bool count(QSqlDatabase &db, qint64 *n, QString *error) const;

private:
    void require(const QString &clause, const QVariantList &binds = {});
    bool withText(QSqlDatabase &db, SessionQuery *out, QString *error) const;
    void addFieldsFilter(const QString &text);
    QString whereClause() const;
    QString selectedIds() const;
    bool readSessions(QSqlDatabase &db, SessionInfoList *out, QString *error) const;
    bool readHosts(QSqlDatabase &db, SessionInfoList *out, QString *error) const;
    bool readRunCounts(QSqlDatabase &db, SessionInfoList *out, QString *error) const;

    QStringList m_where;
    QVariantList m_binds;
    QString m_text;
    int m_limit = 0;
    StoreDialect::Kind m_kind = StoreDialect::Kind::SQLite;
};

} // namespace wb
