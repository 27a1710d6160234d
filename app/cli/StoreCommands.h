#pragma once

#include <QString>
#include <QStringList>

namespace wb {
class ResultStore;
}

namespace wb::cli {

/// The CLI's way into the result store:
///   wirebench-cli sessions [--store PATH] [--limit N]
///   wirebench-cli show SESSION [--json] [--samples] [--store PATH]
///   wirebench-cli report SESSION [--html FILE] [--pdf FILE] [--store PATH]
///   wirebench-cli import iperf3 FILE.json [--name HOST] [--os LABEL] [--frame BYTES] [--title TEXT] [--store PATH]
/// SESSION is a session id, a uuid or its unique prefix, or `latest`. Without --store: the user's store
/// (ResultStore::defaultPath()), the one the window and `wirebench-cli run` use.
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
    /// Opens `path`, or the user's store when it is empty, for `run` and every store command; the user's store
    /// first takes in what earlier builds of wirebench-cli kept elsewhere (LegacyCliStore), said on stderr.
    /// `error`: one line naming the file.
    static bool openStore(ResultStore *store, const QString &path, QString *error);
};

} // namespace wb::cli
