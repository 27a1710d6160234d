#pragma once

#include <QString>
#include <QStringList>

namespace wb::cli {

/// The CLI's way into the result store:
///   wirebench-cli sessions [--store PATH] [--limit N]
///   wirebench-cli show SESSION [--json] [--samples] [--store PATH]
///   wirebench-cli report SESSION [--html FILE] [--pdf FILE] [--store PATH]
///   wirebench-cli import iperf3 FILE.json [--name HOST] [--os LABEL] [--frame BYTES] [--title TEXT] [--store PATH]
/// SESSION is a session id, a uuid or its unique prefix, or `latest`. Without --store the GUI's store is used.
class StoreCommands
{
public:
    /// True when the first argument names one of these commands.
    static bool handles(const QStringList &arguments);
    /// `report` draws charts: the application must be a QApplication (offscreen).
    static bool needsGui(int argc, char **argv);
    /// Runs the command (arguments without the program name); returns the exit code (0 ok, 1 failure, 2 usage).
    static int exec(const QStringList &arguments);
    static QString helpText();
};

} // namespace wb::cli
