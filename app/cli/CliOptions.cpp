#include "CliOptions.h"

#include "plan/HostSecrets.h"
#include "plan/PlanFile.h"
#include "plan/PlanOptions.h"
#include "plan/Secrets.h"
#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolSets.h"
#include "protocols/tcp/TcpDriver.h"
#include "latency/LatencyRecorder.h"
#include "protocols/tcp/TcpSettings.h"
#include "protocols/transfer/TransferSettings.h"

#include <QCommandLineParser>
#include <QFile>
#include <QMap>
#include <QRegularExpression>

#include <cmath>
#include <cstring>

namespace wb::cli {

namespace {

QString usageLines()
{
    return QStringLiteral(
        "Usage:\n"
        "  wirebench-cli run --host ADDR[:PORT] [--host ...] --protocol tcp-send[,tcp-recv] --frame 1500[,9000]\n"
        "                    --reps N --duration SECONDS --message-size BYTES [--send-buffer B] [--recv-buffer B]\n"
        "                    [--server wirebenchd|iperf3] [--json FILE] [--csv FILE] [--chart FILE.png|.pdf|.jpg]\n"
        "                    [--unit MBps|MiBps|Mbps] [--stop-on-error] [--interleave] [--warmup SECONDS]\n"
        "                    [--stable PERCENT [--min-reps N]] [--file-size SIZE] [--set [HOST:]KEY=VALUE ...]\n"
        "                    [--save-plan FILE] [--skip-check | --strict-check] [--reference-streams]\n"
        "                    [--reference-duration SECONDS] [--streams N] [--secrets FILE]\n"
        "  wirebench-cli run --plan FILE [any option above overrides that part of the plan, e.g. --reps 1]\n"
        "  wirebench-cli protocols        list the protocols this build offers and the --set keys they read\n"
        "  wirebench-cli schedule --plan FILE --every 1h   run a plan repeatedly (a systemd user timer; --remove)\n"
        "  wirebench-cli --version | --help\n"
        "\n"
        "Hosts: ADDR, ADDR:PORT, [IPv6]:PORT or NAME=ADDR[:PORT]; the port defaults to the server's\n"
        "(wirebenchd 5301, iperf3 5201). Traffic goes only to the hosts named with --host or in the plan file.\n"
        "Plan files (.wbplan.json, as the GUI's File > Save plan writes them) hold hosts, protocols, frame sizes,\n"
        "repetitions and parameters, never passwords or keys: give those with --set [HOST:]KEY=@FILE, --secrets FILE\n"
        "(one line per host and key) or --key-file; without them, those the window saved in the keychain are read.\n"
        "`wirebench-cli show SESSION --save-plan FILE` writes the plan of a stored session.\n"
        "Before the first run each host and protocol is checked (listening, login, share, folder): every problem\n"
        "is printed at once and the runs it stands in the way of are not run (--strict-check: nothing runs).\n"
        "Units: MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s, Mbit/s = 10^6 bits/s. Sizes take K/KiB and M/MiB\n"
        "(binary). Exit status: 0 all runs ok, 1 a run failed or was not run (e.g. for a problem the check found)\n"
        "or a file could not be written, 2 usage error\n"
        "or a plan file that cannot be used, 130 interrupted (Ctrl-C; runs finished so far are still printed and "
        "written).\n");
}

/// The option a --set key names: a host option of some protocol, or a plan-wide transfer option.
bool findOption(const QString &key, OptionSpec *spec, bool *hostOption)
{
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        for (const OptionSpec &o : info.hostOptions) {
            if (o.key == key) {
                *spec = o;
                *hostOption = true;
                return true;
            }
        }
    }
    for (const OptionSpec &o :
         TransferSettings::planOptions() + TcpSettings::planOptions() + QList{LatencyRecorder::planOption()}) {
        if (o.key == key) {
            *spec = o;
            *hostOption = false;
            return true;
        }
    }
    return false;
}

/// A --set's value typed as its option declares: yes/no, a whole number, one of the choices; text and secrets as
/// given. False with the reason (a secret's value never is one: it is taken as it is).
bool typedValue(const OptionSpec &spec, const QString &text, QVariant *value, QString *why)
{
    using T = OptionSpec::Type;
    switch (spec.type) {
    case T::Bool: {
        const QString t = text.trimmed().toLower();
        if (QStringList{QStringLiteral("1"), QStringLiteral("true"), QStringLiteral("yes"), QStringLiteral("on")}
                .contains(t))
            *value = true;
        else if (QStringList{QStringLiteral("0"), QStringLiteral("false"), QStringLiteral("no"), QStringLiteral("off")}
                     .contains(t))
            *value = false;
        else
            return *why = QStringLiteral("\"%1\" is not yes or no (true/false, on/off, 1/0)").arg(text), false;
        return true;
    }
    case T::Integer: {
        bool ok = false;
        const qlonglong n = text.trimmed().toLongLong(&ok);
        if (!ok || n < 0)
            return *why = QStringLiteral("\"%1\" is not a whole number of 0 or more").arg(text), false;
        *value = n;
        return true;
    }
    case T::Choice:
        if (!spec.choices.contains(text.trimmed()))
            return *why = QStringLiteral("\"%1\" is not one of: %2").arg(text, spec.choices.join(QLatin1String(", "))),
                   false;
        *value = text.trimmed();
        return true;
    case T::Text:
    case T::Secret:
        break;
    }
    *value = text;
    return true;
}

/// KEY=VALUE (or KEY=@FILE) into every host's options or the plan's; HOST:KEY=VALUE into that host's alone.
bool applySetting(const HostSecrets::Setting &setting, TestPlan *plan, QString *why)
{
    OptionSpec spec;
    bool hostOption = false;
    if (!findOption(setting.key, &spec, &hostOption)) {
        *why = QStringLiteral("no protocol reads this key; 'wirebench-cli protocols' lists the keys");
        return false;
    }
    QList<int> hosts;
    if (setting.host.isEmpty()) {
        for (int i = 0; i < plan->hosts.size(); ++i)
            hosts << i;
    } else if (!hostOption) {
        *why = QStringLiteral("%1 is a setting of the whole plan, not of one host: write --set %1=VALUE")
                   .arg(setting.key);
        return false;
    } else {
        hosts = HostSecrets::hostsNamed(*plan, setting.host);
        if (hosts.isEmpty()) {
            *why = QStringLiteral("the plan has no host \"%1\" (its hosts: %2): name one by its name or address")
                       .arg(setting.host, HostSecrets::hostsText(*plan));
            return false;
        }
    }
    QString text = setting.value;
    if (text.startsWith(QLatin1Char('@')) && !HostSecrets::readValueFile(text.mid(1), &text, why))
        return false;
    QVariant value;
    if (!typedValue(spec, text, &value, why))
        return false;
    if (!hostOption) {
        plan->params.options.insert(setting.key, value);
        return true;
    }
    for (int i : hosts)
        plan->hosts[i].options.insert(setting.key, value);
    return true;
}

/// wirebench-cli's options, in the order --help lists them: the name, the word --help shows for the value (empty
/// for a switch) and the help text. Parser below holds one of each by name.
struct OptionText
{
    const char *name, *valueName, *help;
};

constexpr OptionText kOptionTexts[] = {
    {"host", "ADDR[:PORT]", "Host to test, [NAME=]ADDR[:PORT]; repeatable."},
    {"protocol", "LIST", "Comma-separated protocol ids (see 'protocols'); default tcp-send."},
    {"frame", "LIST", "Comma-separated frame sizes (MTU) in bytes; MSS = frame - 40. Default 1500."},
    {"reps", "N", "Repetitions of each test; default 5."},
    {"duration", "SECONDS", "Length of one run in seconds; default 10."},
    {"streams", "N", "Parallel TCP streams of tcp-send, tcp-recv and the iperf3 tests, 1 to 128; default 1."},
    {"message-size", "BYTES", "Bytes per send() call (netperf -m); default 128K."},
    {"send-buffer", "BYTES", "SO_SNDBUF in bytes; default: the system's."},
    {"recv-buffer", "BYTES", "SO_RCVBUF in bytes; default: the system's."},
    {"server", "TYPE", "Server type on the hosts: wirebenchd (default) or iperf3."},
    {"key", "KEY", "wirebenchd's key (printed on its first start); visible to other users in ps, prefer --key-file."},
    {"key-file", "FILE", "File holding wirebenchd's key."},
    {"json", "FILE", "Write results and summary as JSON."},
    {"json-samples", "", "Include every run's 100 ms samples in the JSON file."},
    {"csv", "FILE", "Write one CSV row per run."},
    {"chart", "FILE", "Render the comparison chart (PNG, JPEG or PDF by extension)."},
    {"chart-size", "WxH", "Chart size in pixels; default 1600x1000."},
    {"unit", "UNIT", "Unit of the summary table and chart: MBps (default), MiBps or Mbps."},
    {"interval", "MS", "Sampling interval in milliseconds; default 100."},
    {"stop-on-error", "", "Stop at the first failed run."},
    {"interleave", "", "Alternate hosts (A B A B) rather than A A B B."},
    {"reference-streams", "",
     "Before the plan's runs, a short tcp-send and tcp-recv (3 s) per host and frame size, the "
     "network's capacity the findings judge each file transfer by (the GUI's shoot-out preset); "
     "a host whose server does not answer gets none."},
    {"reference-duration", "SECONDS",
     "Length of each reference stream, 0.1 to 60 s; default 3. Implies --reference-streams."},
    {"warmup", "SECONDS", "Seconds at the start of each timed run left out of the figure (iperf3 -O); default 0."},
    {"stable", "PERCENT",
     "Repeat until stable (netperf -I 95,width): stop repeating a test once the 95% confidence "
     "interval is within +/-PERCENT of the mean; --reps is the maximum."},
    {"min-reps", "N", "With --stable: runs before the rule judges (netperf -i max,min); default 3."},
    {"file-size", "SIZE", "Size of the file FTP, SMB and copy move (K, M, G binary); default 256M."},
    {"set", "[HOST:]KEY=VALUE",
     "A protocol setting for every host, or a file-transfer setting of the plan (keys: "
     "'protocols'); repeatable. HOST:KEY=VALUE sets it for that host alone (its name in the plan or its "
     "address). KEY=@FILE reads the value from FILE's first line (passwords: other users can see the "
     "command line)."},
    {"secrets", "FILE",
     "Passwords and keys host by host, one line per host and key: 'linux-server smb.password=...' "
     "(HOST: its name in the plan or its address). Refused when other users may read FILE (chmod 600 "
     "FILE). --set wins over it; lines of hosts the plan does not have are left. Without either, the "
     "passwords the window saved in the system keychain are read."},
    {"store", "FILE|URL",
     "Keep the results in the SQLite result store FILE, or in a team's store on a PostgreSQL "
     "server: postgresql://USER@HOST[:PORT]/DATABASE, the password from PGPASSWORD or ~/.pgpass "
     "(default: the user's store, which the window's History and `wirebench-cli sessions` read)."},
    {"no-store", "", "Do not keep the results in the result store."},
    {"plan", "FILE",
     "Run the plan in FILE (a .wbplan.json from the GUI or --save-plan); the other options override "
     "its parts: --host its hosts, --protocol its protocols, --reps its repetitions, ..."},
    {"save-plan", "FILE",
     "Write the plan about to run (after all options) to FILE, then run it; passwords and keys "
     "are left out."},
    {"skip-check", "", "Do not check the hosts and protocols before the first run."},
    {"strict-check", "",
     "Run nothing (exit 1) when the check before the first run finds a problem; by default the "
     "runs it does not stand in the way of run."},
    {"scheduled", "EVERY",
     "Mark the stored session as a scheduled run of the plan (History and `sessions` show "
     "\"Scheduled every EVERY: PLAN\"); the service `wirebench-cli schedule` writes passes it."},
};

/// The option of the table above named `name`.
QCommandLineOption option(const char *name)
{
    for (const OptionText &o : kOptionTexts) {
        if (std::strcmp(o.name, name) != 0)
            continue;
        const QString help = QString::fromUtf8(o.help);
        if (*o.valueName == '\0')
            return QCommandLineOption(QString::fromUtf8(o.name), help);
        return QCommandLineOption(QString::fromUtf8(o.name), help, QString::fromUtf8(o.valueName));
    }
    qFatal("wirebench-cli: the option table has no --%s", name);
}

struct Parser
{
    QCommandLineParser p;
    QCommandLineOption host = option("host");
    QCommandLineOption protocol = option("protocol");
    QCommandLineOption frame = option("frame");
    QCommandLineOption reps = option("reps");
    QCommandLineOption duration = option("duration");
    QCommandLineOption streams = option("streams");
    QCommandLineOption messageSize = option("message-size");
    QCommandLineOption sendBuffer = option("send-buffer");
    QCommandLineOption recvBuffer = option("recv-buffer");
    QCommandLineOption server = option("server");
    QCommandLineOption key = option("key");
    QCommandLineOption keyFile = option("key-file");
    QCommandLineOption json = option("json");
    QCommandLineOption jsonSamples = option("json-samples");
    QCommandLineOption csv = option("csv");
    QCommandLineOption chart = option("chart");
    QCommandLineOption chartSize = option("chart-size");
    QCommandLineOption unit = option("unit");
    QCommandLineOption interval = option("interval");
    QCommandLineOption stopOnError = option("stop-on-error");
    QCommandLineOption interleave = option("interleave");
    QCommandLineOption referenceStreams = option("reference-streams");
    QCommandLineOption referenceDuration = option("reference-duration");
    QCommandLineOption warmup = option("warmup");
    QCommandLineOption stable = option("stable");
    QCommandLineOption minReps = option("min-reps");
    QCommandLineOption fileSize = option("file-size");
    QCommandLineOption set = option("set");
    QCommandLineOption secrets = option("secrets");
    QCommandLineOption store = option("store");
    QCommandLineOption noStore = option("no-store");
    QCommandLineOption plan = option("plan");
    QCommandLineOption savePlan = option("save-plan");
    QCommandLineOption skipCheck = option("skip-check");
    QCommandLineOption strictCheck = option("strict-check");
    QCommandLineOption scheduled = option("scheduled");
    QCommandLineOption help{{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help.")};
    QCommandLineOption version{{QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Show the version.")};

    Parser()
    {
        p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
        p.addOptions({host,
                      protocol,
                      frame,
                      reps,
                      duration,
                      streams,
                      messageSize,
                      sendBuffer,
                      recvBuffer,
                      server,
                      key,
                      keyFile,
                      json,
                      jsonSamples,
                      csv,
                      chart,
                      chartSize,
                      unit,
                      interval,
                      stopOnError,
                      interleave,
                      referenceStreams,
                      referenceDuration,
                      warmup,
                      stable,
                      minReps,
                      fileSize,
                      set,
                      secrets,
                      store,
                      noStore,
                      plan,
                      savePlan,
                      skipCheck,
                      strictCheck,
                      scheduled,
                      help,
                      version});
        p.addPositionalArgument(QStringLiteral("command"), QStringLiteral("run | protocols"));
    }
};

} // namespace

QString CliOptions::versionText()
{
    return QStringLiteral("wirebench-cli %1").arg(QStringLiteral(WIREBENCH_VERSION));
}

QString CliOptions::helpText()
{
    Parser parser;
    QString options = parser.p.helpText();
    // Qt's help starts with its own usage line; ours above says more.
    const qsizetype at = options.indexOf(QStringLiteral("Options:"));
    if (at > 0)
        options = options.mid(at);
    return versionText() + QStringLiteral(": measure network throughput from the command line.\n\n") + usageLines()
        + QLatin1Char('\n') + options;
}

qint64 CliOptions::parseSize(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*(k|kib|m|mib|g|gib)?\\s*$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return -1;
    bool ok = false;
    const qint64 n = m.captured(1).toLongLong(&ok);
    if (!ok || n > (qint64(1) << 40))
        return -1;
    const QString suffix = m.captured(2).toLower();
    if (suffix.startsWith(QLatin1Char('k')))
        return n * 1024;
    if (suffix.startsWith(QLatin1Char('m')))
        return n * 1024 * 1024;
    if (suffix.startsWith(QLatin1Char('g')))
        return n * 1024 * 1024 * 1024;
    return n;
}

bool CliOptions::parseHost(const QString &input, Host *host, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("--host \"%1\": %2").arg(input, why);
        return false;
    };
    QString text = input.trimmed();
    Host h;
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq >= 0) {
        h.name = text.left(eq).trimmed();
        text = text.mid(eq + 1).trimmed();
        if (h.name.isEmpty())
            return fail(QStringLiteral("the name before '=' is empty"));
    }
    QString address = text;
    QString portText;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        if (close < 0)
            return fail(QStringLiteral("missing ']' after the IPv6 address; write [::1]:5301"));
        address = text.mid(1, close - 1);
        const QString rest = text.mid(close + 1);
        if (!rest.isEmpty()) {
            if (!rest.startsWith(QLatin1Char(':')))
                return fail(QStringLiteral("expected ':PORT' after ']'"));
            portText = rest.mid(1);
        }
    } else if (text.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        address = text.left(colon);
        portText = text.mid(colon + 1);
    } // several colons and no brackets: a bare IPv6 address without a port
    if (address.isEmpty())
        return fail(QStringLiteral("the address is empty"));
    if (address.contains(QRegularExpression(QStringLiteral("[\\s/\\[\\]]"))))
        return fail(QStringLiteral("not a host name or IP address"));
    if (!text.startsWith(QLatin1Char('[')) && text.count(QLatin1Char(':')) == 1 && portText.isEmpty())
        return fail(QStringLiteral("the port after ':' is empty"));
    if (!portText.isEmpty()) {
        bool ok = false;
        const int port = portText.toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return fail(QStringLiteral("the port must be a number from 1 to 65535"));
        h.port = quint16(port);
    }
    h.address = address;
    *host = h;
    return true;
}

namespace {

// Each step of `run`'s parse reads its options into the plan or the options; false with the reason in *why.
struct RunParse
{
    const Parser &parser;
    CliOptions &o;
    QString *why;
    bool fromFile = false;

    bool isSet(const QCommandLineOption &opt) const { return parser.p.isSet(opt); }
    QString value(const QCommandLineOption &opt) const { return parser.p.value(opt); }
    bool fail(const QString &reason) const
    {
        *why = reason;
        return false;
    }
    PlanOptions planOptions() const { return PlanOptions(parser.p, &o.plan, o.planPath); }

    bool planFile();
    bool hosts();
    bool protocols();
    bool frames();
    bool timing();
    bool sizes();
    bool settings();
    bool setSettings();
    bool secretsFile();
    bool stability();
    bool outputs();
    bool chart();
};

// --plan FILE: the plan the other options then override.
bool RunParse::planFile()
{
    fromFile = isSet(parser.plan);
    if (!fromFile)
        return true;
    o.planPath = value(parser.plan);
    if (o.planPath.isEmpty())
        return fail(QStringLiteral("--plan needs a file name"));
    QString reason;
    if (!PlanFile::read(o.planPath, &o.plan, &reason))
        return fail(reason);
    return true;
}

// --host, --server, --key and --key-file.
bool RunParse::hosts()
{
    TestPlan &plan = o.plan;
    QString serverType = QStringLiteral("wirebenchd");
    if (isSet(parser.server)) {
        serverType = value(parser.server).trimmed().toLower();
        if (serverType != QLatin1String("wirebenchd") && serverType != QLatin1String("iperf3"))
            return fail(QStringLiteral("--server must be wirebenchd or iperf3, not \"%1\"").arg(value(parser.server)));
    }
    const QStringList hosts = parser.p.values(parser.host);
    if (hosts.isEmpty() && !fromFile)
        return fail(QStringLiteral("name at least one host with --host ADDR[:PORT]"));
    if (hosts.isEmpty() && plan.hosts.isEmpty())
        return fail(QStringLiteral("plan file %1 names no host: add one with --host ADDR[:PORT]").arg(o.planPath));
    QString key = value(parser.key).trimmed();
    if (isSet(parser.keyFile)) {
        QFile f(value(parser.keyFile));
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("--key-file: cannot read %1: %2").arg(f.fileName(), f.errorString()));
        key = QString::fromUtf8(f.read(4096)).trimmed();
    }
    if (!hosts.isEmpty()) {
        plan.hosts.clear(); // --host replaces a plan file's hosts
        for (const QString &text : hosts) {
            Host h;
            QString reason;
            if (!CliOptions::parseHost(text, &h, &reason))
                return fail(reason);
            h.serverType = serverType;
            plan.hosts.append(h);
        }
    } else if (isSet(parser.server)) {
        for (Host &h : plan.hosts)
            h.serverType = serverType;
    }
    for (Host &h : plan.hosts) {
        if (h.embedded) // the GUI's in-process responder: its port is new on every start of the GUI
            return fail(QStringLiteral("plan file %1: host \"%2\" is the GUI's built-in loopback responder, which runs "
                                       "only inside Wirebench; start `wirebenchd --listen 127.0.0.1:5301` and pass "
                                       "--host 127.0.0.1:5301 (it replaces the plan's hosts), or edit the plan")
                            .arg(o.planPath, h.displayName()));
        if (!key.isEmpty())
            h.options.insert(QLatin1String(TcpDriver::kKeyOption), key); // a secret: never exported (PlanJson)
    }
    return true;
}

// --protocol and --frame (PlanOptions, the GUI's rules too); without a plan file the CLI's default protocol.
bool RunParse::protocols()
{
    if (!isSet(parser.protocol) && !fromFile)
        o.plan.protocols = ProtocolSets::cliDefault();
    return planOptions().protocols(why);
}

bool RunParse::frames()
{
    return planOptions().frames(why);
}

// --reps, --duration, --streams, --interval and the flags --stop-on-error and --interleave.
bool RunParse::timing()
{
    TestPlan &plan = o.plan;
    if (!planOptions().repetitions(why) || !planOptions().duration(why) || !planOptions().streams(why) || !sizes())
        return false;
    if (isSet(parser.interval)) {
        bool ok = false;
        const int ms = value(parser.interval).toInt(&ok);
        if (!ok || ms < 10 || ms > 10000)
            return fail(QStringLiteral("--interval must be a number of milliseconds from 10 to 10000"));
        plan.params.sampleIntervalMs = ms;
    }
    // Flags can only switch on what a plan file left off; without a file, absent means off as always.
    if (isSet(parser.stopOnError) || !fromFile)
        plan.params.stopOnError = isSet(parser.stopOnError);
    if (isSet(parser.interleave) || !fromFile)
        plan.interleaveHosts = isSet(parser.interleave);
    if (isSet(parser.referenceStreams) || !fromFile)
        plan.referenceStreams = isSet(parser.referenceStreams);
    if (isSet(parser.referenceDuration)) {
        if (!PlanOptions::secondsToMs(value(parser.referenceDuration), TestPlan::kReferenceMinMs / 1000.0,
                                      TestPlan::kReferenceMaxMs / 1000.0, &plan.referenceMs))
            return fail(QStringLiteral("--reference-duration must be a number of seconds from 0.1 to 60"));
        plan.referenceStreams = true;
    }
    return true;
}

// --message-size, --send-buffer and --recv-buffer.
bool RunParse::sizes()
{
    auto sizeOption = [&](const QCommandLineOption &opt, const QString &name, qint64 min, qint64 max, int *out) {
        if (!isSet(opt))
            return true;
        const qint64 v = CliOptions::parseSize(value(opt));
        if (v < min || v > max)
            return fail(QStringLiteral("--%1 \"%2\": give a number of bytes from %3 to %4 (K and M suffixes are "
                                       "binary: 128K = 131072)")
                            .arg(name, value(opt))
                            .arg(min)
                            .arg(max));
        *out = int(v);
        return true;
    };
    TestParams &params = o.plan.params;
    return sizeOption(parser.messageSize, QStringLiteral("message-size"), 1, 16 * 1024 * 1024, &params.messageSize)
        && sizeOption(parser.sendBuffer, QStringLiteral("send-buffer"), 0, 1024 * 1024 * 1024, &params.sendBufferBytes)
        && sizeOption(parser.recvBuffer, QStringLiteral("recv-buffer"), 0, 1024 * 1024 * 1024, &params.recvBufferBytes);
}

// --file-size, --set, --secrets and --warmup.
bool RunParse::settings()
{
    TestPlan &plan = o.plan;
    if (isSet(parser.fileSize)) {
        const qint64 v = CliOptions::parseSize(value(parser.fileSize));
        if (v < 1 || v > (qint64(1) << 40))
            return fail(QStringLiteral("--file-size \"%1\": give a size from 1 byte to 1T (K, M and G are binary: "
                                       "256M = 268435456 bytes)")
                            .arg(value(parser.fileSize)));
        plan.params.fileSizeBytes = v;
    }
    if (!setSettings() || !secretsFile())
        return false;
    if (isSet(parser.warmup)) {
        if (!PlanOptions::secondsToMs(value(parser.warmup), 0, 600, &plan.params.warmupMs))
            return fail(QStringLiteral("--warmup must be a number of seconds from 0 to 600"));
    }
    return true;
}

// --set: those for every host first, so that a HOST:KEY=VALUE wins over KEY=VALUE whatever their order.
bool RunParse::setSettings()
{
    QList<HostSecrets::Setting> all;
    QList<HostSecrets::Setting> perHost;
    for (const QString &text : parser.p.values(parser.set)) {
        HostSecrets::Setting setting;
        QString reason;
        const QString what = text.section(QLatin1Char('='), 0, 0); // never the value: it may be a password
        if (!HostSecrets::splitSetting(text, &setting, &reason))
            return fail(QStringLiteral("--set \"%1\": %2").arg(what, reason));
        (setting.host.isEmpty() ? all : perHost) << setting;
    }
    for (const HostSecrets::Setting &setting : all + perHost) {
        QString reason;
        if (!applySetting(setting, &o.plan, &reason))
            return fail(
                QStringLiteral("--set \"%1%2\": %3")
                    .arg(setting.host.isEmpty() ? QString() : setting.host + QLatin1Char(':'), setting.key, reason));
    }
    return true;
}

// --secrets FILE: each host's passwords and keys that --set did not give.
bool RunParse::secretsFile()
{
    if (!isSet(parser.secrets))
        return true;
    const QString path = value(parser.secrets);
    QList<HostSecrets::Setting> settings;
    QString reason;
    if (!HostSecrets::readFile(path, &settings, &reason))
        return fail(QStringLiteral("--secrets: ") + reason);
    QStringList unmatched;
    HostSecrets::apply(settings, &o.plan, &unmatched);
    if (!unmatched.isEmpty())
        o.notes << QStringLiteral("note: --secrets %1: the plan has no host %2 (its hosts: %3); those lines are left")
                       .arg(path, unmatched.join(QStringLiteral(", ")), HostSecrets::hostsText(o.plan));
    return true;
}

// --stable and --min-reps, against the plan file's own "repeat until stable" rule.
bool RunParse::stability()
{
    TestPlan &plan = o.plan;
    if (isSet(parser.stable)) {
        bool ok = false;
        const double percent = value(parser.stable).toDouble(&ok);
        if (!ok || !std::isfinite(percent) || percent <= 0 || percent > 100)
            return fail(QStringLiteral("--stable must be a percentage above 0 and at most 100 (e.g. 5 for +/-5 %)"));
        plan.params.stableTargetPercent = percent;
    }
    if (isSet(parser.minReps)) {
        if (!isSet(parser.stable) && plan.params.stableTargetPercent <= 0)
            return fail(QStringLiteral("--min-reps goes with --stable"));
        bool ok = false;
        plan.params.minRepetitions = value(parser.minReps).toInt(&ok);
        if (!ok || plan.params.minRepetitions < 2 || plan.params.minRepetitions > plan.repetitions)
            return fail(
                QStringLiteral("--min-reps must be a whole number from 2 to --reps (%1)").arg(plan.repetitions));
    } else if (plan.params.stableTargetPercent > 0) {
        plan.params.minRepetitions = qMin(plan.params.minRepetitions, qMax(2, plan.repetitions));
        if (plan.repetitions < 2 && !isSet(parser.stable) && isSet(parser.reps)) {
            // The plan file repeats until stable, the command line asks for one quick run: one run cannot be judged.
            o.notes << QStringLiteral("note: --reps %1 switches off the plan's \"repeat until stable\" rule (+/-%2 %)")
                           .arg(plan.repetitions)
                           .arg(plan.params.stableTargetPercent);
            plan.params.stableTargetPercent = 0;
        } else if (plan.repetitions < 2) {
            return fail(QStringLiteral("--stable needs --reps of at least 2: the rule judges after two runs or more"));
        }
    }
    return true;
}

// --unit, the files to write, the store and the check before the first run.
bool RunParse::outputs()
{
    if (isSet(parser.unit)) {
        bool ok = false;
        o.unit = Units::fromId(value(parser.unit), &ok);
        if (!ok)
            return fail(QStringLiteral("--unit must be MBps, MiBps or Mbps, not \"%1\"").arg(value(parser.unit)));
    }
    o.jsonPath = value(parser.json);
    o.csvPath = value(parser.csv);
    o.chartPath = value(parser.chart);
    o.includeSamples = isSet(parser.jsonSamples);
    o.storePath = value(parser.store);
    o.useStore = !isSet(parser.noStore);
    o.scheduledEvery = value(parser.scheduled).trimmed();
    if (isSet(parser.scheduled) && (o.scheduledEvery.isEmpty() || o.planPath.isEmpty()))
        return fail(QStringLiteral("--scheduled marks a scheduled run of a plan: give --plan FILE and the interval, "
                                   "e.g. --scheduled 1h"));
    o.skipCheck = isSet(parser.skipCheck);
    o.strictCheck = isSet(parser.strictCheck);
    if (o.skipCheck && o.strictCheck)
        return fail(QStringLiteral("--skip-check and --strict-check exclude each other: choose one"));
    o.savePlanPath = value(parser.savePlan);
    if (isSet(parser.savePlan) && o.savePlanPath.isEmpty())
        return fail(QStringLiteral("--save-plan needs a file name"));
    if (isSet(parser.json) && o.jsonPath.isEmpty())
        return fail(QStringLiteral("--json needs a file name"));
    if (isSet(parser.csv) && o.csvPath.isEmpty())
        return fail(QStringLiteral("--csv needs a file name"));
    return chart();
}

// --chart and --chart-size.
bool RunParse::chart()
{
    if (isSet(parser.chart)) {
        const QString ext = o.chartPath.section(QLatin1Char('.'), -1).toLower();
        if (o.chartPath.isEmpty() || !o.chartPath.contains(QLatin1Char('.'))
            || !QStringList{QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("jpg"), QStringLiteral("jpeg")}
                    .contains(ext))
            return fail(
                QStringLiteral("--chart \"%1\": the file name must end in .png, .pdf, .jpg or .jpeg").arg(o.chartPath));
    }
    if (isSet(parser.chartSize)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
        const QRegularExpressionMatch m = re.match(value(parser.chartSize).trimmed());
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
        const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (w < 100 || h < 100 || w > 20000 || h > 20000)
            return fail(
                QStringLiteral("--chart-size must be WIDTHxHEIGHT in pixels, 100 to 20000 each, e.g. 1600x1000"));
        o.chartSize = QSize(w, h);
    }
    return true;
}

// --help, --version and the command word; true with *done set when the command needs no more options.
bool readCommand(const Parser &parser, CliOptions *o, bool *done, QString *why)
{
    *done = true;
    if (parser.p.isSet(parser.help)) {
        o->command = CliOptions::Command::Help;
        return true;
    }
    if (parser.p.isSet(parser.version)) {
        o->command = CliOptions::Command::Version;
        return true;
    }
    const QStringList positional = parser.p.positionalArguments();
    if (positional.isEmpty())
        return *why = QStringLiteral("no command given; use 'run' or 'protocols'"), false;
    if (positional.size() > 1)
        return *why = QStringLiteral("unexpected argument \"%1\"").arg(positional.at(1)), false;
    const QString command = positional.first();
    if (command == QLatin1String("protocols")) {
        o->command = CliOptions::Command::Protocols;
        return true;
    }
    if (command == QLatin1String("help")) {
        o->command = CliOptions::Command::Help;
        return true;
    }
    if (command != QLatin1String("run"))
        return *why = QStringLiteral("unknown command \"%1\"; use 'run' or 'protocols'").arg(command), false;
    o->command = CliOptions::Command::Run;
    *done = false;
    return true;
}

} // namespace

bool CliOptions::parse(const QStringList &arguments, CliOptions *options, QString *error)
{
    QString why;
    auto fail = [&] {
        if (error)
            *error = why;
        return false;
    };
    Parser parser;
    if (!parser.p.parse(QStringList{QStringLiteral("wirebench-cli")} + arguments)) {
        why = parser.p.errorText();
        return fail();
    }
    CliOptions o;
    bool done = false;
    if (!readCommand(parser, &o, &done, &why))
        return fail();
    if (done) {
        *options = o;
        return true;
    }
    RunParse run{parser, o, &why};
    if (!run.planFile() || !run.hosts() || !run.protocols() || !run.frames() || !run.timing() || !run.settings()
        || !run.stability() || !run.outputs())
        return fail();
    const QStringList problems = o.plan.validate();
    if (!problems.isEmpty()) {
        why = (run.fromFile ? QStringLiteral("the plan from %1 cannot run: ").arg(o.planPath) : QString())
            + problems.join(QLatin1Char(' '));
        return fail();
    }
    *options = o;
    return true;
}

bool CliOptions::savePlan(const QString &path, const TestPlan &plan, QStringList *notes, QString *error)
{
    if (!PlanFile::write(path, plan, error))
        return false;
    if (notes)
        *notes = Secrets::notes(plan);
    return true;
}

} // namespace wb::cli
