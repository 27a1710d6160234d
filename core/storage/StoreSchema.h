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

    /// Takes the database from version `from` (0 = empty) to kVersion, one transaction per step.
    static bool migrate(QSqlDatabase &db, int from, QString *error);
    /// Reads `PRAGMA user_version` of a file without changing it; -1 when it cannot be read.
    static int fileVersion(const QString &path, QString *error = nullptr);
    /// The first 16 bytes of every SQLite 3 file ("SQLite format 3" and a NUL).
    static QByteArray sqliteMagic();
};

} // namespace wb
