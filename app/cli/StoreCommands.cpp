#include "StoreCommands.h"
#include "ChartOutput.h"

#include "CliOptions.h"
#include "Console.h"
#include "FindingsOutput.h"
#include "formats/JsonExport.h"
#include "plan/PlanFile.h"
#include "plan/Secrets.h"
#include "stats/TestSummary.h"
#include "stats/Units.h"
#include "formats/Iperf3Import.h"
#include "storage/LegacyCliStore.h"
#include "storage/ResultStore.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cstdio>
#include <cstring>

namespace wb::cli {

namespace {

const QStringList &commands()
{
    static const QStringList names{QStringLiteral("sessions"), QStringLiteral("show"), QStringLiteral("report"),
                                   QStringLiteral("import")};
    return names;
}

struct Args
{
    QStringList positional;
    QHash<QString, QString> values; ///< --name value
    QSet<QString> flags;            ///< --name

    /// --name N, a whole number of 0 or more, into *value (left as it is when absent); false: say `usage` (exit 2).
    bool count(const QString &name, int *value, const QString &usage) const
    {
        bool ok = true;
        if (values.contains(name))
            *value = values.value(name).toInt(&ok);
        if (!ok || *value < 0) {
            Console::err(QStringLiteral("wirebench-cli: ") + usage);
            return false;
        }
        return true;
    }
};

/// Options that take a value; everything else starting with "--" is a flag.
bool parseArgs(const QStringList &arguments, const QStringList &valueOptions, const QStringList &flagOptions,
               Args *args, QString *error)
{
    for (int i = 0; i < arguments.size(); ++i) {
        QString a = arguments.at(i);
        if (!a.startsWith(QLatin1String("--"))) {
            args->positional << a;
            continue;
        }
        QString value;
        const int eq = a.indexOf(QLatin1Char('='));
        const bool inlineValue = eq > 0;
        if (inlineValue) {
            value = a.mid(eq + 1);
            a = a.left(eq);
        }
        const QString name = a.mid(2);
        if (valueOptions.contains(name)) {
            if (!inlineValue) {
                if (i + 1 >= arguments.size()) {
                    *error = QStringLiteral("option --%1 needs a value").arg(name);
                    return false;
                }
                value = arguments.at(++i);
            }
            args->values.insert(name, value);
        } else if (flagOptions.contains(name) && !inlineValue) {
            args->flags.insert(name);
        } else {
            *error = QStringLiteral("unknown option --%1").arg(name);
            return false;
        }
    }
    return true;
}

bool openStore(const Args &args, ResultStore *store)
{
    QString error;
    if (!StoreCommands::openStore(store, args.values.value(QStringLiteral("store")), &error)) {
        Console::err(QStringLiteral("wirebench-cli: %1").arg(error));
        return false;
    }
    return true;
}

qint64 resolveSession(const ResultStore &store, const QString &text)
{
    QString error;
    if (text == QLatin1String("latest")) {
        SessionFilter filter;
        filter.limit = 1;
        const SessionInfoList list = store.sessions(filter, &error);
        if (list.isEmpty()) {
            Console::err(QStringLiteral("wirebench-cli: the result store %1 holds no session yet%2")
                             .arg(QDir::toNativeSeparators(store.path()),
                                  error.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(error)));
            return 0;
        }
        return list.first().id;
    }
    const qint64 id = store.findSession(text, &error);
    if (id == 0)
        Console::err(error.isEmpty() ? QStringLiteral("wirebench-cli: no single session matches \"%1\"; list them with "
                                                      "`wirebench-cli sessions`")
                                           .arg(text)
                                     : QStringLiteral("wirebench-cli: %1").arg(error));
    return id;
}

/// The store and the session the first positional argument names (an id, text or "latest"); 0 when either is
/// missing (said on stderr).
qint64 openSession(const Args &args, ResultStore *store)
{
    return openStore(args, store) ? resolveSession(*store, args.positional.first()) : 0;
}

QString hostsOf(const SessionInfo &info)
{
    QStringList parts;
    for (const Host &h : info.hosts)
        parts << (h.osLabel.isEmpty() ? h.displayName() : QStringLiteral("%1 (%2)").arg(h.displayName(), h.osLabel));
    return parts.join(QStringLiteral(", "));
}

QString framesOf(const SessionInfo &info)
{
    QStringList parts;
    for (int f : info.frameSizes)
        parts << QString::number(f);
    return parts.join(QLatin1Char(','));
}

/// Runs done (ok or failed) of runs planned, so that a plan stopped early reads "3/6"; "up to" the plan's count
/// when it repeats until stable; the ok count when some failed ("3/6, 2 ok").
QString runsOf(const SessionInfo &info)
{
    const int planned = qMax(info.plannedRuns, info.runCount);
    const bool untilStable = info.plan.params.stableTargetPercent > 0;
    QString text = QStringLiteral("%1/%2%3")
                       .arg(info.doneRuns)
                       .arg(untilStable ? QStringLiteral("up to ") : QString())
                       .arg(planned);
    if (info.okRuns != info.doneRuns)
        text += QStringLiteral(", %1 ok").arg(info.okRuns);
    return text;
}

constexpr int kSessionsPage = 50;

int sessionsCommand(const Args &args)
{
    ResultStore store;
    if (!openStore(args, &store))
        return 1;
    SessionFilter filter;
    // A page by default: a team's store holds tens of thousands of sessions, and a list of them all is read by no one.
    filter.limit = kSessionsPage;
    if (!args.count(QStringLiteral("limit"), &filter.limit,
                    QStringLiteral("--limit takes a number of sessions, e.g. --limit 10 (0: all)")))
        return 2;
    QString error;
    const SessionInfoList list = store.sessions(filter, &error);
    if (!error.isEmpty()) {
        Console::err(QStringLiteral("wirebench-cli: %1").arg(error));
        return 1;
    }
    if (list.isEmpty()) {
        Console::out(QStringLiteral("No sessions in %1.").arg(QDir::toNativeSeparators(store.path())));
        return 0;
    }
    // COMPUTER: the one that ran the session, which a team's shared store holds many of.
    Console::out(QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8  %9")
                     .arg(QStringLiteral("ID").rightJustified(5), QStringLiteral("UUID").leftJustified(8),
                          QStringLiteral("STARTED (local)").leftJustified(16),
                          QStringLiteral("STATE").leftJustified(11), QStringLiteral("COMPUTER").leftJustified(16),
                          QStringLiteral("RUNS done/planned").leftJustified(17),
                          QStringLiteral("FRAMES (B)").leftJustified(10), QStringLiteral("PROTOCOLS").leftJustified(20),
                          QStringLiteral("HOSTS")));
    for (const SessionInfo &s : list) {
        QString hosts = hostsOf(s);
        if (!s.title.isEmpty())
            hosts += QStringLiteral(" [%1]").arg(s.title);
        Console::out(QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8  %9")
                         .arg(QString::number(s.id).rightJustified(5), s.uuid.left(8).leftJustified(8),
                              s.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")).leftJustified(16),
                              sessionStateName(s.state).leftJustified(11),
                              (s.machineHostname.isEmpty() ? QStringLiteral("-") : s.machineHostname).leftJustified(16),
                              runsOf(s).leftJustified(17), framesOf(s).leftJustified(10),
                              s.protocols.join(QLatin1Char(',')).leftJustified(20), hosts));
    }
    if (filter.limit > 0 && list.size() == filter.limit) {
        const qint64 total = store.sessionCount(SessionFilter(), &error);
        if (total > list.size())
            Console::out(QStringLiteral("The newest %1 of %2 sessions; --limit N shows more, --limit 0 all.")
                             .arg(list.size())
                             .arg(total));
    }
    return 0;
}

/// `show SESSION --save-plan FILE`: the session's plan as it was run, to run again with `run --plan FILE`.
int savePlanOf(const SessionInfo &info, const QString &path)
{
    QString error;
    if (!PlanFile::write(path, info.plan, &error)) {
        Console::err(QStringLiteral("wirebench-cli: session %1: %2").arg(info.id).arg(error));
        return 1;
    }
    Console::out(
        QStringLiteral("plan of session %1 saved to %2 (%3 runs; run it again with `wirebench-cli run --plan %2`)")
            .arg(info.id)
            .arg(path)
            .arg(info.plan.runCount()));
    for (const Host &h : info.plan.hosts) {
        if (h.embedded)
            Console::out(
                QStringLiteral("note: host \"%1\" was the GUI's built-in loopback responder, which the CLI "
                               "cannot reach: start `wirebenchd --listen 127.0.0.1:5301` and run the plan with "
                               "--host 127.0.0.1:5301")
                    .arg(h.displayName()));
    }
    for (const QString &note : Secrets::notes(info.plan, true))
        Console::out(note);
    return 0;
}

int showCommand(const Args &args)
{
    if (args.positional.size() != 1) {
        Console::err(QStringLiteral("wirebench-cli: show needs one SESSION (an id, a uuid prefix or `latest`)"));
        return 2;
    }
    if (args.values.contains(QStringLiteral("save-plan"))
        && (args.values.value(QStringLiteral("save-plan")).isEmpty() || args.flags.contains(QStringLiteral("json")))) {
        Console::err(QStringLiteral("wirebench-cli: show --save-plan needs a file name and goes without --json"));
        return 2;
    }
    ResultStore store;
    const qint64 id = openSession(args, &store);
    if (id == 0)
        return 1;
    SessionInfo info;
    QString error;
    const RunResultList runs = store.runs(id, &error);
    if (!error.isEmpty() || !store.session(id, &info, &error)) {
        Console::err(QStringLiteral("wirebench-cli: session %1: %2").arg(id).arg(error));
        return 1;
    }
    if (args.values.contains(QStringLiteral("save-plan")))
        return savePlanOf(info, args.values.value(QStringLiteral("save-plan")));
    if (args.flags.contains(QStringLiteral("json"))) {
        JsonExport::Options options;
        options.includeSamples = args.flags.contains(QStringLiteral("samples"));
        options.createdAt = info.startedAt;
        QJsonObject object = JsonExport::toJsonObject(runs, options);
        // The session this came from, beside the schema's own keys (the schema only ever adds keys).
        QJsonObject session;
        session.insert(QStringLiteral("id"), info.id);
        session.insert(QStringLiteral("uuid"), info.uuid);
        session.insert(QStringLiteral("state"), sessionStateName(info.state));
        session.insert(QStringLiteral("started_at"), info.startedAt.toString(Qt::ISODateWithMs));
        session.insert(QStringLiteral("title"), info.title);
        session.insert(QStringLiteral("machine"), info.machineHostname);
        object.insert(QStringLiteral("session"), session);
        const QByteArray json = QJsonDocument(object).toJson(QJsonDocument::Indented);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fflush(stdout);
        return 0;
    }
    RateUnit unit = RateUnit::MBps;
    Console::out(QStringLiteral("Session %1 (%2), %3, started %4 on the computer %5 (%6)")
                     .arg(info.id)
                     .arg(info.uuid, sessionStateName(info.state),
                          info.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                          info.machineHostname, info.machineOs));
    if (!info.title.isEmpty())
        Console::out(info.title);
    Console::out(QStringLiteral("Hosts: %1").arg(hostsOf(info)));
    for (const RunResult &r : runs) {
        const QString os = r.spec.host.osLabel.isEmpty() ? r.serverOs : r.spec.host.osLabel;
        QString line
            = QStringLiteral("%1 (%2)  %3  frame %4 B  rep %5  ")
                  .arg(r.spec.host.displayName(), os.isEmpty() ? QStringLiteral("OS unknown") : os, r.spec.protocol)
                  .arg(r.spec.frameSize)
                  .arg(r.spec.repetition);
        if (r.ok())
            line += QStringLiteral("%1  %2").arg(Units::format(r.bytesPerSecond(), unit),
                                                 Units::format(r.bytesPerSecond(), RateUnit::Mbps));
        else
            line += QStringLiteral("%1: %2").arg(runStatusName(r.status), r.error);
        Console::out(line);
    }
    const QList<TestSummary> summaries = TestSummary::build(runs);
    if (!summaries.isEmpty())
        Console::out(QStringLiteral("Summary per test (MB/s = 10^6 bytes/s): reps, min, median, mean, max, stddev"));
    for (const TestSummary &t : summaries) {
        Console::out(QStringLiteral("%1  %2 @ %3 B  n=%4  min %5  median %6  mean %7  max %8  stddev %9 MB/s")
                         .arg(t.host.displayName(), t.protocol)
                         .arg(t.frameSize)
                         .arg(t.okRuns)
                         .arg(t.MBps.min, 0, 'f', 1)
                         .arg(t.MBps.median, 0, 'f', 1)
                         .arg(t.MBps.mean, 0, 'f', 1)
                         .arg(t.MBps.max, 0, 'f', 1)
                         .arg(t.MBps.stddev, 0, 'f', 2));
    }
    FindingsOutput::print(runs, &store);
    return 0;
}

int reportCommand(const Args &args)
{
    if (args.positional.size() != 1) {
        Console::err(QStringLiteral("wirebench-cli: report needs one SESSION (an id, a uuid prefix or `latest`)"));
        return 2;
    }
    const QString html = args.values.value(QStringLiteral("html"));
    const QString pdf = args.values.value(QStringLiteral("pdf"));
    if (html.isEmpty() && pdf.isEmpty()) {
        Console::err(QStringLiteral("wirebench-cli: report needs --html FILE, --pdf FILE or both"));
        return 2;
    }
    ResultStore store;
    const qint64 id = openSession(args, &store);
    if (id == 0)
        return 1;
    QString error;
    ReportInput input;
    if (!ReportGenerator::fromStore(store, id, &input, &error) || !ChartOutput::writeReport(input, html, pdf, &error)) {
        Console::err(QStringLiteral("wirebench-cli: %1").arg(error));
        return 1;
    }
    if (!html.isEmpty())
        Console::out(
            QStringLiteral("Report written to %1").arg(QDir::toNativeSeparators(QFileInfo(html).absoluteFilePath())));
    if (!pdf.isEmpty())
        Console::out(
            QStringLiteral("Report written to %1").arg(QDir::toNativeSeparators(QFileInfo(pdf).absoluteFilePath())));
    return 0;
}

int importCommand(const Args &args)
{
    if (args.positional.size() != 2 || args.positional.first() != QLatin1String("iperf3")) {
        Console::err(QStringLiteral("wirebench-cli: usage: import iperf3 FILE.json (the output of `iperf3 -J`)"));
        return 2;
    }
    const QString file = args.positional.at(1);
    Iperf3Import::Options options;
    options.hostName = args.values.value(QStringLiteral("name"));
    options.osLabel = args.values.value(QStringLiteral("os"));
    options.source = QFileInfo(file).fileName();
    if (!args.count(QStringLiteral("frame"), &options.frameSize,
                    QStringLiteral("--frame takes the Ethernet frame size in bytes, e.g. --frame 1500")))
        return 2;
    RunResultList runs;
    QString error;
    if (!Iperf3Import::fromFile(file, &runs, &error, options)) {
        Console::err(QStringLiteral("wirebench-cli: %1").arg(error));
        return 1;
    }
    ResultStore store;
    if (!openStore(args, &store))
        return 1;
    const QString title = args.values.value(QStringLiteral("title"),
                                            QStringLiteral("iperf3 import: %1").arg(QFileInfo(file).fileName()));
    const qint64 id = store.importRuns(title, runs, &error);
    if (id == 0) {
        Console::err(
            QStringLiteral("wirebench-cli: result store %1: %2").arg(QDir::toNativeSeparators(store.path()), error));
        return 1;
    }
    SessionInfo info;
    store.session(id, &info);
    int okRuns = 0;
    for (const RunResult &r : runs)
        okRuns += r.ok() ? 1 : 0;
    Console::out(QStringLiteral("Imported %1 run(s) (%2 ok) from %3 as session %4 (%5)")
                     .arg(runs.size())
                     .arg(okRuns)
                     .arg(QDir::toNativeSeparators(file))
                     .arg(id)
                     .arg(info.uuid));
    for (const RunResult &r : runs) {
        if (r.ok())
            Console::out(QStringLiteral("  %1  %2  %3  %4")
                             .arg(r.spec.host.displayName(), r.spec.protocol,
                                  Units::format(r.bytesPerSecond(), RateUnit::MBps),
                                  Units::format(r.bytesPerSecond(), RateUnit::Mbps)));
        else
            Console::out(QStringLiteral("  %1  %2  %3: %4")
                             .arg(r.spec.host.displayName(), r.spec.protocol, runStatusName(r.status), r.error));
    }
    return 0;
}

} // namespace

bool StoreCommands::openStore(ResultStore *store, const QString &path, QString *error)
{
    if (!store->open(path, error))
        return false;
    // On stderr: stdout may be JSON (`show --json`).
    if (const QString note = LegacyCliStore::adoptInto(*store); !note.isEmpty())
        Console::err(QStringLiteral("wirebench-cli: ") + note);
    return true;
}

bool StoreCommands::handles(const QStringList &arguments)
{
    return !arguments.isEmpty() && commands().contains(arguments.first());
}

bool StoreCommands::needsGui(int argc, char **argv)
{
    return argc > 1 && std::strcmp(argv[1], "report") == 0;
}

QString StoreCommands::helpText()
{
    return QStringLiteral(
               "Result store:\n"
               "  wirebench-cli sessions [--limit N]                 the newest 50 stored sessions (--limit 0: all)\n"
               "  wirebench-cli show SESSION [--json [--samples]]    a session's runs and summary (JSON: docs/CLI.md "
               "schema)\n"
               "  wirebench-cli show SESSION --save-plan FILE        its plan as a plan file, for `run --plan FILE`\n"
               "  wirebench-cli report SESSION [--html FILE] [--pdf FILE]   the session report\n"
               "  wirebench-cli import iperf3 FILE.json [--name HOST] [--os LABEL] [--frame BYTES] [--title TEXT]\n"
               "  SESSION: an id, a uuid or its unique prefix, or `latest`. --store PATH: another store file, or\n"
               "  --store postgresql://USER@HOST[:PORT]/DATABASE: a team's store on a PostgreSQL server (the password "
               "from\n"
               "  PGPASSWORD or ~/.pgpass, never on the command line) (default: %1).")
        .arg(QDir::toNativeSeparators(ResultStore::defaultPath()));
}

int StoreCommands::exec(const QStringList &arguments)
{
    if (!handles(arguments))
        return 2;
    const QString command = arguments.first();
    const QStringList rest = arguments.mid(1);
    Args args;
    QString error;
    QStringList values{QStringLiteral("store")};
    QStringList flags{QStringLiteral("help")};
    if (command == QLatin1String("sessions"))
        values << QStringLiteral("limit");
    else if (command == QLatin1String("show")) {
        flags << QStringLiteral("json") << QStringLiteral("samples");
        values << QStringLiteral("save-plan");
    } else if (command == QLatin1String("report"))
        values << QStringLiteral("html") << QStringLiteral("pdf");
    else if (command == QLatin1String("import"))
        values << QStringLiteral("name") << QStringLiteral("os") << QStringLiteral("frame") << QStringLiteral("title");
    if (!parseArgs(rest, values, flags, &args, &error)) {
        Console::err(QStringLiteral("wirebench-cli %1: %2 (see wirebench-cli %1 --help)").arg(command, error));
        return 2;
    }
    if (args.flags.contains(QStringLiteral("help"))) {
        Console::out(helpText());
        return 0;
    }
    if (command == QLatin1String("sessions"))
        return sessionsCommand(args);
    if (command == QLatin1String("show"))
        return showCommand(args);
    if (command == QLatin1String("report"))
        return reportCommand(args);
    return importCommand(args);
}

} // namespace wb::cli
