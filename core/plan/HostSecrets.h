#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace wb {

struct TestPlan;

/// Settings that name their host, so that each host of a plan gets its own password: `--set NAME:KEY=VALUE`
/// (and `NAME:KEY=@FILE`) on the command line, and the lines of a secrets file (`--secrets FILE`):
///
///     # host          key=value
///     linux-server    smb.password=first one
///     windows-server  ftp.password=second one
///
/// NAME is a host's name in the plan or its address (any case); a value is never part of a message.
class HostSecrets
{
public:
    /// One setting: the host it names (empty: every host), the key and the value as written.
    struct Setting
    {
        QString host;
        QString key;
        QString value;
        int line = 0; ///< the secrets file's line (1-based); 0 on the command line
    };

    /// "KEY=VALUE" or "NAME:KEY=VALUE" ("[IPv6]:KEY=VALUE" and "IPv6:KEY=VALUE" too: a key holds no ':').
    /// The value is as written (an "@FILE" is the caller's to read). False with the reason.
    static bool splitSetting(const QString &text, Setting *setting, QString *why);
    /// The indexes of the plan's hosts that name names: their name or their address, in any case.
    static QList<int> hostsNamed(const TestPlan &plan, const QString &name);
    /// "linux-server (192.0.2.10), 192.0.2.11": the plan's hosts, for a message about a name none has.
    static QString hostsText(const TestPlan &plan);

    /// A secrets file's text: "HOST KEY=VALUE" per line (blanks between HOST and KEY, the value the rest of the
    /// line without its line end), '#' comments and blank lines; secret keys only (Secrets::isSecret). False with
    /// the line and the reason, never the value.
    static bool parseFile(const QByteArray &text, QList<Setting> *settings, QString *why);
    /// Why the file at path may not hold secrets (group or others may read or write it: "chmod 600 FILE"), or
    /// empty. Windows has no such mode bits: empty there.
    static QString modeProblem(const QString &path);
    /// modeProblem, then the file read and parsed. False with one line naming the file.
    static bool readFile(const QString &path, QList<Setting> *settings, QString *why);
    /// Gives each host of the plan the file's settings for it, where it has none yet (what the command line
    /// gave wins). Lines of hosts the plan does not have are left (one file may serve several plans); their
    /// host names go to *unmatched.
    static void apply(const QList<Setting> &settings, TestPlan *plan, QStringList *unmatched);

    /// The value of KEY=@FILE: the file's first line without its line end ("\n" or "\r\n"). False with the reason.
    static bool readValueFile(const QString &path, QString *value, QString *why);
};

} // namespace wb
