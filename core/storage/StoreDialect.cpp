#include "StoreDialect.h"

#include <QRegularExpression>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace wb {

namespace {

QString errorOf(const QSqlQuery &q)
{
    return q.lastError().text().simplified();
}

} // namespace

StoreDialect::Kind StoreDialect::of(const QSqlDatabase &db)
{
    return db.driverName() == QLatin1String("QPSQL") ? Kind::PostgreSQL : Kind::SQLite;
}

QString StoreDialect::schemaStatement(Kind kind, const char *statement)
{
    QString sql = QString::fromLatin1(statement);
    if (kind == Kind::SQLite)
        return sql;
    static const QRegularExpression integer(QStringLiteral("\\bINTEGER\\b"));
    static const QRegularExpression real(QStringLiteral("\\bREAL\\b"));
    sql.replace(QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT"), QLatin1String("BIGSERIAL PRIMARY KEY"));
    sql.replace(integer, QStringLiteral("BIGINT"));
    sql.replace(real, QStringLiteral("DOUBLE PRECISION"));
    return sql;
}

int StoreDialect::readVersion(QSqlDatabase &db, QString *error)
{
    QSqlQuery q(db);
    if (of(db) == Kind::SQLite) {
        if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
            return q.value(0).toInt();
        *error = errorOf(q);
        return -1;
    }
    // PostgreSQL has no user_version: a table of one row holds it, made by the first migration step.
    if (!q.exec(QStringLiteral("SELECT to_regclass('wirebench_schema') IS NOT NULL")) || !q.next()) {
        *error = errorOf(q);
        return -1;
    }
    if (!q.value(0).toBool())
        return 0;
    if (!q.exec(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM wirebench_schema")) || !q.next()) {
        *error = errorOf(q);
        return -1;
    }
    return q.value(0).toInt();
}

bool StoreDialect::writeVersion(QSqlDatabase &db, int version, QString *error)
{
    QSqlQuery q(db);
    const bool ok = of(db) == Kind::SQLite
        ? q.exec(QStringLiteral("PRAGMA user_version = %1").arg(version))
        : q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS wirebench_schema (version INTEGER NOT NULL)"))
            && q.exec(QStringLiteral("DELETE FROM wirebench_schema"))
            && q.exec(QStringLiteral("INSERT INTO wirebench_schema (version) VALUES (%1)").arg(version));
    if (!ok)
        *error = errorOf(q);
    return ok;
}

QString StoreDialect::returningId(Kind kind)
{
    // QPSQL's lastInsertId() is the row's OID, which tables have not had since PostgreSQL 12.
    return kind == Kind::PostgreSQL ? QStringLiteral(" RETURNING id") : QString();
}

qint64 StoreDialect::insertedId(Kind kind, QSqlQuery &q)
{
    if (kind == Kind::SQLite)
        return q.lastInsertId().toLongLong();
    return q.next() ? q.value(0).toLongLong() : 0;
}

QString StoreDialect::contains(Kind kind, const QString &column)
{
    // wb_contains (StoreFunctions) in SQLite, whose LIKE folds ASCII only; PostgreSQL's lower() folds every script
    // by the database's LC_CTYPE. strpos, not LIKE: the text is text, not a pattern.
    if (kind == Kind::SQLite)
        return QStringLiteral("wb_contains(%1, ?)").arg(column);
    return QStringLiteral("(strpos(lower(%1), lower(CAST(? AS TEXT))) > 0)").arg(column);
}

QString StoreDialect::same(Kind kind, const QString &column)
{
    if (kind == Kind::SQLite)
        return QStringLiteral("wb_same(%1, ?)").arg(column);
    return QStringLiteral("(lower(%1) = lower(CAST(? AS TEXT)))").arg(column);
}

QString StoreDialect::plan(Kind kind)
{
    // A text that is not a JSON object reads as an empty plan, as PlanJson reads it. Wirebench writes only objects;
    // PostgreSQL 15 has no json_valid, and its cast of a damaged text fails the query, which says so.
    if (kind == Kind::PostgreSQL)
        return QStringLiteral("CAST(sessions.plan_json AS jsonb)");
    return QStringLiteral("(CASE WHEN json_valid(sessions.plan_json) AND json_type(sessions.plan_json) = 'object'"
                          " THEN sessions.plan_json ELSE '{}' END)");
}

QString StoreDialect::planIsArray(Kind kind, const char *key)
{
    if (kind == Kind::PostgreSQL)
        return QStringLiteral("(jsonb_typeof(%1 -> '%2') = 'array')").arg(plan(kind), QLatin1String(key));
    return QStringLiteral("json_type(%1, '$.%2') = 'array'").arg(plan(kind), QLatin1String(key));
}

QString StoreDialect::planLacks(Kind kind, const char *key)
{
    if (kind == Kind::PostgreSQL)
        return QStringLiteral("(%1 -> '%2') IS NULL").arg(plan(kind), QLatin1String(key));
    return QStringLiteral("json_type(%1, '$.%2') IS NULL").arg(plan(kind), QLatin1String(key));
}

QString StoreDialect::planValues(Kind kind, const char *key)
{
    if (kind == Kind::SQLite)
        return QStringLiteral("json_each(%1, '$.%2')").arg(plan(kind), QLatin1String(key));
    // jsonb_array_elements fails on anything but an array, and AND does not promise to test the type first.
    const QString array = QStringLiteral("CASE WHEN %1 THEN %2 -> '%3' ELSE CAST('[]' AS jsonb) END")
                              .arg(planIsArray(kind, key), plan(kind), QLatin1String(key));
    return QStringLiteral("(SELECT CASE jsonb_typeof(e) WHEN 'string' THEN 'text' WHEN 'number' THEN 'real'"
                          " ELSE jsonb_typeof(e) END AS type, e #>> '{}' AS value"
                          " FROM jsonb_array_elements(%1) AS e) AS plan_values")
        .arg(array);
}

QString StoreDialect::sampleOrder(Kind kind)
{
    // PostgreSQL's rows have no insertion order; a run's samples are stored in the order of their ends.
    return kind == Kind::PostgreSQL ? QStringLiteral("run_id, end_seconds") : QStringLiteral("run_id, rowid");
}

QStringList StoreDialect::searchIndex(Kind kind)
{
    if (kind == Kind::PostgreSQL) {
        // pg_trgm comes with PostgreSQL (Debian's postgresql package; postgresql-contrib elsewhere) and is trusted:
        // the database's owner may add it. Without it the search reads session_search whole, one short row a session.
        return {QStringLiteral("CREATE EXTENSION IF NOT EXISTS pg_trgm"),
                QStringLiteral("CREATE INDEX IF NOT EXISTS session_search_trigrams ON session_search"
                               " USING gin (text gin_trgm_ops)")};
    }
    // FTS5's trigram tokenizer indexes every three characters, so that a substring of three or more is found
    // through it. The text is session_search's (an external content table), already folded: case_sensitive 1.
    // The triggers are FTS5's documented way to keep such an index up to date.
    return {
        QStringLiteral("CREATE VIRTUAL TABLE session_search_index USING fts5(text, content = 'session_search',"
                       " content_rowid = 'session_id', tokenize = 'trigram case_sensitive 1')"),
        QStringLiteral("CREATE TRIGGER session_search_added AFTER INSERT ON session_search BEGIN"
                       " INSERT INTO session_search_index (rowid, text) VALUES (new.session_id, new.text); END"),
        QStringLiteral("CREATE TRIGGER session_search_removed AFTER DELETE ON session_search BEGIN"
                       " INSERT INTO session_search_index (session_search_index, rowid, text)"
                       " VALUES ('delete', old.session_id, old.text); END"),
        QStringLiteral("CREATE TRIGGER session_search_changed AFTER UPDATE ON session_search BEGIN"
                       " INSERT INTO session_search_index (session_search_index, rowid, text)"
                       " VALUES ('delete', old.session_id, old.text);"
                       " INSERT INTO session_search_index (rowid, text) VALUES (new.session_id, new.text); END"),
    };
}

QString StoreDialect::fold(Kind kind, const QString &text)
{
    return (kind == Kind::SQLite ? QStringLiteral("wb_fold(%1)") : QStringLiteral("lower(%1)")).arg(text);
}

QString StoreDialect::lines(Kind kind, const QString &expression)
{
    return (kind == Kind::SQLite ? QStringLiteral("group_concat(%1, char(10))")
                                 : QStringLiteral("string_agg(%1, chr(10))"))
        .arg(expression);
}

QString StoreDialect::newline(Kind kind)
{
    return kind == Kind::SQLite ? QStringLiteral("char(10)") : QStringLiteral("chr(10)");
}

QString StoreDialect::searchIndexed(Kind kind)
{
    // A phrase of trigrams in FTS5 is a substring; pg_trgm's GIN index answers LIKE '%...%'.
    if (kind == Kind::SQLite)
        return QStringLiteral("SELECT rowid FROM session_search_index WHERE session_search_index MATCH ?");
    return QStringLiteral("SELECT session_id FROM session_search WHERE text LIKE lower(CAST(? AS TEXT))");
}

QString StoreDialect::searchScanned(Kind kind)
{
    if (kind == Kind::SQLite)
        return QStringLiteral("instr(session_search.text, ?) > 0");
    return QStringLiteral("strpos(session_search.text, lower(CAST(? AS TEXT))) > 0");
}

QString StoreDialect::searchNeedle(Kind kind, const QString &text, bool indexed)
{
    if (kind == Kind::SQLite) {
        const QString folded = text.toCaseFolded();
        if (!indexed)
            return folded;
        QString phrase = folded;
        return QLatin1Char('"') + phrase.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
    }
    if (!indexed)
        return text;
    QString pattern = text; // LIKE's escape is the backslash
    pattern.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('%'), QLatin1String("\\%"))
        .replace(QLatin1Char('_'), QLatin1String("\\_"));
    return QLatin1Char('%') + pattern + QLatin1Char('%');
}

} // namespace wb
