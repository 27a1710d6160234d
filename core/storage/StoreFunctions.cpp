#include "StoreFunctions.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QString>
#include <QVariant>

#include <sqlite3.h>

namespace wb::StoreFunctions {
namespace {

QString textOf(sqlite3_value *v)
{
    const auto *bytes = static_cast<const char *>(static_cast<const void *>(sqlite3_value_text(v)));
    return bytes ? QString::fromUtf8(bytes, sqlite3_value_bytes(v)) : QString();
}

void contains(sqlite3_context *ctx, int, sqlite3_value **argv)
{
    sqlite3_result_int(ctx, textOf(argv[0]).contains(textOf(argv[1]), Qt::CaseInsensitive) ? 1 : 0);
}

// The search index's text (SessionSearch): folded as Qt folds for a case-insensitive match, one character for one,
// so that folded text contains the folded needle exactly when QString::contains(needle, Qt::CaseInsensitive).
void fold(sqlite3_context *ctx, int, sqlite3_value **argv)
{
    const QByteArray folded = textOf(argv[0]).toCaseFolded().toUtf8();
    sqlite3_result_text(ctx, folded.constData(), int(folded.size()), SQLITE_TRANSIENT);
}

void same(sqlite3_context *ctx, int, sqlite3_value **argv)
{
    sqlite3_result_int(ctx, textOf(argv[0]).compare(textOf(argv[1]), Qt::CaseInsensitive) == 0 ? 1 : 0);
}

} // namespace

bool install(const QSqlDatabase &db)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return false;
    sqlite3 *h = *static_cast<sqlite3 *const *>(handle.constData());
    if (!h)
        return false;
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    return sqlite3_create_function_v2(h, "wb_contains", 2, flags, nullptr, contains, nullptr, nullptr, nullptr)
        == SQLITE_OK
        && sqlite3_create_function_v2(h, "wb_same", 2, flags, nullptr, same, nullptr, nullptr, nullptr) == SQLITE_OK
        && sqlite3_create_function_v2(h, "wb_fold", 1, flags, nullptr, fold, nullptr, nullptr, nullptr) == SQLITE_OK;
}

} // namespace wb::StoreFunctions
