#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

class QSqlQuery;

namespace wb {

/// The few places where the store's SQL differs between SQLite and PostgreSQL, in one table: the schema and its
/// migrations are written once (in SQLite's words) and every query asks here for what is not portable: key
/// types, the schema version, the ids of new rows, case-insensitive matching and the plan's JSON.
class StoreDialect
{
public:
    enum class Kind { SQLite, PostgreSQL };

    static Kind of(const QSqlDatabase &db);

    /// A schema statement as StoreSchema writes it, for `kind`: PostgreSQL gets BIGSERIAL keys, BIGINT for
    /// INTEGER (64-bit in SQLite, 32-bit in PostgreSQL) and DOUBLE PRECISION for REAL (8 bytes in SQLite, 4 there).
    static QString schemaStatement(Kind kind, const char *statement);
    /// The schema version stored in the database: 0 for an empty one, -1 with *error when it cannot be read.
    static int readVersion(QSqlDatabase &db, QString *error);
    /// Inside the migration's transaction.
    static bool writeVersion(QSqlDatabase &db, int version, QString *error);

    /// Appended to an INSERT whose new id insertedId() reads.
    static QString returningId(Kind kind);
    /// The new row's id after exec() of an INSERT ending in returningId(); 0 when there is none.
    static qint64 insertedId(Kind kind, QSqlQuery &q);

    /// True when `column` contains the bound text (one `?`), ignoring case as QString does.
    static QString contains(Kind kind, const QString &column);
    /// True when `column` equals the bound text ignoring case.
    static QString same(Kind kind, const QString &column);
    /// The session's plan as JSON (its text, or an empty object when it is not one).
    static QString plan(Kind kind);
    /// True when the plan has an array at `key`.
    static QString planIsArray(Kind kind, const char *key);
    /// True when the plan has no `key` at all.
    static QString planLacks(Kind kind, const char *key);
    /// A FROM source of the plan's array at `key` with columns `type` ('text', 'integer', 'real', ...) and `value`.
    static QString planValues(Kind kind, const char *key);
    /// ORDER BY of a run's samples in the order they were stored.
    static QString sampleOrder(Kind kind);

    /// The search's trigram index over session_search (schema 5, SessionSearch): SQLite's is an FTS5 table kept by
    /// triggers (part of the schema), PostgreSQL's a pg_trgm GIN index, which a server may lack (made when it can be).
    static QStringList searchIndex(Kind kind);
    /// `text` folded as the index's text is (wb_fold: Qt's folding; lower(): by the database's LC_CTYPE).
    static QString fold(Kind kind, const QString &text);
    /// The values of `expression` over the rows of an aggregate, one a line.
    static QString lines(Kind kind, const QString &expression);
    /// A line break in SQL.
    static QString newline(Kind kind);
    /// A sub-select of the ids of the sessions whose search text holds the bound needle (searchNeedle(..., true)),
    /// found through the index.
    static QString searchIndexed(Kind kind);
    /// True when session_search.text holds the bound needle (searchNeedle(..., false)), by reading it.
    static QString searchScanned(Kind kind);
    /// What to bind for `text` (trimmed, non-empty) to searchIndexed() or searchScanned().
    static QString searchNeedle(Kind kind, const QString &text, bool indexed);
};

} // namespace wb
