// wirebench-cli: the engine without a window. All the work is in CliOptions and RunCommand.
#include "ChartOutput.h"
#include "CliOptions.h"
#include "Console.h"
#include "RunCommand.h"
#include "ScheduleCommand.h"
#include "StoreCommands.h"
#include "protocols/DriverRegistry.h"
#include "latency/LatencyRecorder.h"
#include "protocols/tcp/TcpSettings.h"
#include "protocols/transfer/TransferSettings.h"

#include <QCoreApplication>

#include <cstring>

using namespace wb;
using namespace wb::cli;

namespace {

bool asksForChart(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--chart") == 0 || std::strncmp(argv[i], "--chart=", 8) == 0
            || std::strcmp(argv[i], "-chart") == 0 || std::strncmp(argv[i], "-chart=", 7) == 0)
            return true;
    }
    return false;
}

void listProtocols()
{
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        Console::out(QStringLiteral("%1  %2 - %3 %4")
                         .arg(info.id.leftJustified(10), info.title, info.description,
                              info.timed ? QStringLiteral("(timed: --duration)")
                                         : QStringLiteral("(moves a file of a fixed size)")));
    }
    // The keys --set takes: per family once, then the plan-wide transfer settings.
    auto describe = [](const OptionSpec &o) {
        QString line = QStringLiteral("  %1  %2").arg(o.key.leftJustified(22), o.label);
        if (!o.choices.isEmpty())
            line += QStringLiteral(" (%1)").arg(o.choices.join(QLatin1Char('|')));
        else if (o.type == OptionSpec::Type::Bool)
            line += QStringLiteral(" (yes|no)");
        if (o.defaultValue.isValid() && !o.defaultValue.toString().isEmpty())
            line += QStringLiteral(", default %1").arg(o.defaultValue.toString());
        if (o.type == OptionSpec::Type::Secret)
            line += QStringLiteral(" - secret: give KEY=@FILE, HOST:KEY=@FILE or --secrets FILE");
        return line;
    };
    QStringList seen;
    Console::out(QStringLiteral("\nSettings for --set KEY=VALUE (every host) or --set HOST:KEY=VALUE (one host):"));
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        for (const OptionSpec &o : info.hostOptions) {
            if (seen.contains(o.key))
                continue;
            seen << o.key;
            Console::out(describe(o));
        }
    }
    Console::out(QStringLiteral("Settings for --set KEY=VALUE (the plan's file transfers):"));
    for (const OptionSpec &o : TransferSettings::planOptions())
        Console::out(describe(o));
    Console::out(QStringLiteral("Settings for --set KEY=VALUE (the plan's TCP streams):"));
    for (const OptionSpec &o : TcpSettings::planOptions())
        Console::out(describe(o));
    Console::out(QStringLiteral("Settings for --set KEY=VALUE (the latency probe beside each run with a far host):"));
    Console::out(describe(LatencyRecorder::planOption()));
}

} // namespace

int main(int argc, char *argv[])
{
    const bool needsCharts = asksForChart(argc, argv) || StoreCommands::needsGui(argc, argv);
    std::unique_ptr<QCoreApplication> app = ChartOutput::createApplication(argc, argv, needsCharts);
    QString handOverError;
    if (needsCharts && !ChartOutput::available())
        ChartOutput::handOver(argv, &handOverError); // returns only when wirebench-cli-charts cannot take over
    // (then the command says why it cannot draw)
    QCoreApplication::setApplicationName(QStringLiteral("wirebench-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WIREBENCH_VERSION));

    if (StoreCommands::handles(QCoreApplication::arguments().mid(1))) // sessions, show, report, import
        return StoreCommands::exec(QCoreApplication::arguments().mid(1));
    if (ScheduleCommand::handles(QCoreApplication::arguments().mid(1))) // a systemd user timer for a plan
        return ScheduleCommand::exec(QCoreApplication::arguments().mid(1));

    CliOptions options;
    QString error;
    if (!CliOptions::parse(QCoreApplication::arguments().mid(1), &options, &error)) {
        Console::err(QStringLiteral("wirebench-cli: %1 (see wirebench-cli --help)").arg(error));
        return 2;
    }
    switch (options.command) {
    case CliOptions::Command::Help:
        Console::out(CliOptions::helpText());
        return 0;
    case CliOptions::Command::Version:
        Console::out(CliOptions::versionText());
        return 0;
    case CliOptions::Command::Protocols:
        listProtocols();
        return 0;
    case CliOptions::Command::Run:
        break;
    }
    if (!options.chartPath.isEmpty() && !ChartOutput::available()) {
        Console::err(handOverError.isEmpty()
                         ? QStringLiteral("wirebench-cli: --chart is not available in this build (it was built without "
                                          "the GUI's chart exporter); use --json or --csv and leave out --chart")
                         : QStringLiteral("wirebench-cli: --chart: ") + handOverError);
        return 2;
    }
    RunCommand run(options);
    return run.exec();
}
