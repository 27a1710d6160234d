#pragma once

#include <QString>

namespace wb::cli {

/// Line output for the CLI: every line is flushed at once so that a pipe or a log sees each run as it ends.
class Console
{
public:
    static void out(const QString &line); ///< stdout
    static void err(const QString &line); ///< stderr
};

} // namespace wb::cli
