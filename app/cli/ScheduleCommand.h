#pragma once

#include <QString>
#include <QStringList>

namespace wb::cli {

/// Repeated runs from a desktop, on the user's own systemd (no scheduler of ours):
///   wirebench-cli schedule --plan FILE --every 1h [--name NAME] [--store FILE] [--key-file FILE] [--secrets FILE]
///   [--set K=@FILE] wirebench-cli schedule --plan FILE --remove     (or --name NAME --remove)
/// writes (or removes) wirebench-NAME.service and wirebench-NAME.timer in the user's systemd folder
/// ($XDG_CONFIG_HOME/systemd/user, ~/.config/systemd/user). The service runs `wirebench-cli run --plan FILE
/// --scheduled EVERY`: its session goes to the store, titled as scheduled. Enabling is the user's
/// `systemctl --user enable --now`, which the command prints.
class ScheduleCommand
{
public:
    static bool handles(const QStringList &arguments);
    /// Arguments without the program name; the exit code (0 done, 1 a file could not be written or removed, 2 usage).
    static int exec(const QStringList &arguments);
    static QString helpText();
    /// Where the user's units go: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user.
    static QString unitFolder();
};

} // namespace wb::cli
