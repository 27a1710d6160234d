#pragma once

class QSqlDatabase;

namespace wb {

/// SQL functions the store's queries call, registered on each connection: Qt's own case-insensitive text
/// rules, which cover every script (SQLite's LIKE and COLLATE NOCASE fold ASCII letters only, so "ä" would
/// miss "Ä"). wb_contains(haystack, needle) and wb_same(a, b) are 1 or 0; wb_fold(text) is the text case-folded
/// (QString::toCaseFolded), for the search index.
namespace StoreFunctions {
/// False when the connection is not SQLite's or the functions could not be added.
bool install(const QSqlDatabase &db);
} // namespace StoreFunctions

} // namespace wb
