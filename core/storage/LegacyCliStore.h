#pragma once

#include <QString>

namespace wb {

class ResultStore;

/// Earlier builds of wirebench-cli kept their runs in a store of their own (ResultStore::legacyCliPath()) that
/// neither the window nor `wirebench-cli sessions` read. This moves those sessions into the user's store, once.
class LegacyCliStore
{
public:
    /// When `store` is the default store (ResultStore::defaultPath()) and the old file exists: copies each of its
    /// sessions that `store` lacks (by uuid), with hosts, runs and samples, in one transaction, then renames the
    /// old file to `<file>.imported` so that this happens once. Returns what to tell the user in one line (empty
    /// when there was nothing to do); when the old file cannot be read or moved, the line says where it is and
    /// how to see it, and the file stays as it was.
    static QString adoptInto(const ResultStore &store);
};

} // namespace wb
