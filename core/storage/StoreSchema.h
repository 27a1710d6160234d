#pragma once

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>

namespace wb {

/// The store's layout: each schema version's statements and the step from the one before. A new version is a
/// new list of statements here (never an edit of an old one) and kVersion + 1.
class StoreSchema
{
public:
    static constexpr int kVersion = 5;
    /// The step that added the search's text (SessionSearch); its own constant so that a step landed beside it can
    /// take the number before it.
    static constexpr int kSearchVersion = 5;

    /// Takes the database from the version it has (0 = empty) to kVersion, one transaction per step; each step reads
    /// the version under the write lock (SQLite: BEGIN EXCLUSIVE), so that a second process migrating the same new
    /// file at once waits and finds what the first one made.
    static bool migrate(QSqlDatabase &db, QString *error);
    /// Reads `PRAGMA user_version` of a file without changing it; -1 when it cannot be read.
    static int fileVersion(const QString &path, QString *error = nullptr);
    /// The first 16 bytes of every SQLite 3 file ("SQLite format 3" and a NUL).
    static QByteArray sqliteMagic();
};

} // namespace wb
