#include "ScheduleCommand.h"

#include "Console.h"
#include "SystemdUnits.h"
#include "plan/HostSecrets.h"
#include "plan/PlanFile.h"
#include "storage/StoreLocation.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace wb::cli {

namespace {

struct Request
{
    QString planPath; ///< absolute
    QString name;     ///< the units' name without "wirebench-"
    qint64 everySeconds = 0;
    QString every;      ///< as typed, for the session's title
    QStringList passOn; ///< --store, --key-file, --secrets, --set as the service gives them to `run`
    bool remove = false;
};

/// A path option as the service will need it: absolute, since the service does not start in this folder.
QString absolute(const QString &path)
{
    return QFileInfo(path).absoluteFilePath();
}

/// The command line into *request; false with the one-line usage error.
bool parse(const QStringList &arguments, Request *request, bool *help, QString *error)
{
    QCommandLineParser p;
    const QCommandLineOption plan(QStringLiteral("plan"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption every(QStringLiteral("every"), QString(), QStringLiteral("INTERVAL"));
    const QCommandLineOption name(QStringLiteral("name"), QString(), QStringLiteral("NAME"));
    const QCommandLineOption store(QStringLiteral("store"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption keyFile(QStringLiteral("key-file"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption set(QStringLiteral("set"), QString(), QStringLiteral("KEY=VALUE"));
    const QCommandLineOption secrets(QStringLiteral("secrets"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption remove(QStringLiteral("remove"));
    const QCommandLineOption helpOption(QStringList{QStringLiteral("h"), QStringLiteral("help")});
    p.addOptions({plan, every, name, store, keyFile, set, secrets, remove, helpOption});
    if (!p.parse(QStringList{QStringLiteral("wirebench-cli")} + arguments.mid(1))) {
        *error = p.errorText();
        return false;
    }
    *help = p.isSet(helpOption);
    if (*help)
        return true;
    if (!p.positionalArguments().isEmpty()) {
        *error = QStringLiteral("unexpected \"%1\"").arg(p.positionalArguments().first());
        return false;
    }
    request->remove = p.isSet(remove);
    if (p.isSet(plan))
        request->planPath = absolute(p.value(plan));
    request->name = p.isSet(name) ? p.value(name).trimmed() : QFileInfo(request->planPath).fileName();
    if (request->name.endsWith(QLatin1String(PlanFile::kSuffix)))
        request->name.chop(int(qstrlen(PlanFile::kSuffix)));
    if (request->name.isEmpty()) {
        *error = QStringLiteral("give the plan with --plan FILE (or the schedule's --name)");
        return false;
    }
    if (request->remove)
        return true;
    if (request->planPath.isEmpty()) {
        *error = QStringLiteral("--plan FILE: the plan to run");
        return false;
    }
    if (!p.isSet(every)) {
        *error = QStringLiteral("--every INTERVAL: how often to run the plan, e.g. --every 1h");
        return false;
    }
    request->every = p.value(every).trimmed();
    if (!SystemdUnits::parseEvery(request->every, &request->everySeconds, error))
        return false;
    if (p.isSet(store))
        request->passOn << QStringLiteral("--store")
                        << (StoreLocation::isServerUrl(p.value(store)) ? p.value(store) : absolute(p.value(store)));
    if (p.isSet(keyFile))
        request->passOn << QStringLiteral("--key-file") << absolute(p.value(keyFile));
    if (p.isSet(secrets)) {
        // Refused now rather than at every run of the timer: a file others may read, or one with a bad line.
        QList<HostSecrets::Setting> settings;
        if (!HostSecrets::readFile(p.value(secrets), &settings, error)) {
            *error = QStringLiteral("--secrets: ") + *error;
            return false;
        }
        request->passOn << QStringLiteral("--secrets") << absolute(p.value(secrets));
    }
    for (QString setting : p.values(set)) {
        const qsizetype at = setting.indexOf(QStringLiteral("=@"));
        if (at > 0)
            setting = setting.left(at + 2) + absolute(setting.mid(at + 2));
        request->passOn << QStringLiteral("--set") << setting;
    }
    return true;
}

/// Writes text to path, readable by the user alone (a --set value may be a setting of a login). False with the
/// reason in *error.
bool writeUnit(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

int removeUnits(const Request &request)
{
    const QString base = SystemdUnits::unitBaseName(request.name);
    const QDir folder(ScheduleCommand::unitFolder());
    int removed = 0;
    for (const QString &suffix : {QStringLiteral(".timer"), QStringLiteral(".service")}) {
        const QString path = folder.filePath(base + suffix);
        if (!QFile::exists(path))
            continue;
        if (!QFile::remove(path)) {
            Console::err(QStringLiteral("wirebench-cli schedule: cannot remove %1").arg(path));
            return 1;
        }
        Console::out(QStringLiteral("Removed %1").arg(path));
        ++removed;
    }
    if (removed == 0) {
        Console::out(QStringLiteral("No schedule %1 in %2: nothing to remove.").arg(base, folder.path()));
        return 0;
    }
    Console::out(QStringLiteral("If it was enabled, stop it and let systemd forget it:\n"
                                "  systemctl --user disable --now %1.timer; systemctl --user daemon-reload")
                     .arg(base));
    return 0;
}

int writeUnits(const Request &request)
{
    TestPlan plan;
    QString error;
    if (!PlanFile::read(request.planPath, &plan, &error)) {
        Console::err(QStringLiteral("wirebench-cli schedule: %1").arg(error));
        return 2;
    }
    if (plan.hosts.isEmpty()) {
        Console::err(QStringLiteral("wirebench-cli schedule: plan file %1 names no host: a scheduled run tests the "
                                    "plan's hosts")
                         .arg(request.planPath));
        return 2;
    }
    const QString base = SystemdUnits::unitBaseName(request.name);
    const QStringList command = QStringList{QCoreApplication::applicationFilePath(),
                                            QStringLiteral("run"),
                                            QStringLiteral("--plan"),
                                            request.planPath,
                                            QStringLiteral("--scheduled"),
                                            request.every}
        + request.passOn;
    for (const QString &word : command) {
        if (SystemdUnits::execWord(word).isEmpty()) {
            Console::err(QStringLiteral("wirebench-cli schedule: \"%1\" holds a line break, which a unit file "
                                        "cannot hold")
                             .arg(word));
            return 2;
        }
    }
    const QString planName = QFileInfo(request.planPath).fileName();
    const QString every = SystemdUnits::timeSpan(request.everySeconds);
    const QDir folder(ScheduleCommand::unitFolder());
    if (!QDir().mkpath(folder.path())) {
        Console::err(QStringLiteral("wirebench-cli schedule: cannot make the folder %1").arg(folder.path()));
        return 1;
    }
    const QString service = folder.filePath(base + QStringLiteral(".service"));
    const QString timer = folder.filePath(base + QStringLiteral(".timer"));
    if (!writeUnit(service,
                   SystemdUnits::serviceText(
                       QStringLiteral("Wirebench plan %1 (scheduled every %2)").arg(planName, every), command),
                   &error)
        || !writeUnit(timer,
                      SystemdUnits::timerText(QStringLiteral("Run the Wirebench plan %1 every %2").arg(planName, every),
                                              base, request.everySeconds),
                      &error)) {
        Console::err(QStringLiteral("wirebench-cli schedule: %1").arg(error));
        return 1;
    }
    Console::out(QStringLiteral("Wrote %1\nWrote %2\n"
                                "The plan %3 runs every %4 once the timer is on (its first run a minute after):\n"
                                "  systemctl --user daemon-reload; systemctl --user enable --now %5.timer\n"
                                "Its sessions go to the result store, marked \"Scheduled every %6\" in History and "
                                "`wirebench-cli sessions`; its output to `journalctl --user -u %5.service`.")
                     .arg(service, timer, planName, every, base, request.every));
    return 0;
}

} // namespace

bool ScheduleCommand::handles(const QStringList &arguments)
{
    return !arguments.isEmpty() && arguments.first() == QLatin1String("schedule");
}

QString ScheduleCommand::unitFolder()
{
    const QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    const QString base = QDir::isAbsolutePath(config) ? config : QDir::homePath() + QStringLiteral("/.config");
    return QDir::cleanPath(base + QStringLiteral("/systemd/user"));
}

QString ScheduleCommand::helpText()
{
    return QStringLiteral(
               "Repeated runs (systemd user timer):\n"
               "  wirebench-cli schedule --plan FILE --every INTERVAL [--name NAME] [--store FILE] [--key-file FILE]\n"
               "                         [--secrets FILE] [--set [HOST:]KEY=@FILE ...]\n"
               "                         run the plan every INTERVAL (15m, 1h, 6h, 1d, 2h30m)\n"
               "  wirebench-cli schedule --plan FILE --remove    (or --name NAME --remove) remove that schedule\n"
               "  Writes wirebench-NAME.service and .timer (NAME: the plan file's name) in %1;\n"
               "  `systemctl --user enable --now wirebench-NAME.timer` starts it.")
        .arg(unitFolder());
}

int ScheduleCommand::exec(const QStringList &arguments)
{
    Request request;
    bool help = false;
    QString error;
    if (!parse(arguments, &request, &help, &error)) {
        Console::err(QStringLiteral("wirebench-cli schedule: %1 (see wirebench-cli schedule --help)").arg(error));
        return 2;
    }
    if (help) {
        Console::out(helpText());
        return 0;
    }
    return request.remove ? removeUnits(request) : writeUnits(request);
}

} // namespace wb::cli
