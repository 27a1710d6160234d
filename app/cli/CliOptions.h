#pragma once

#include "plan/TestPlan.h"
#include "stats/Units.h"

#include <QSize>
#include <QString>
#include <QStringList>

namespace wb::cli {

/// What the command line asked for. Parsing never touches the network.
struct CliOptions
{
    enum class Command { Run, Protocols, Help, Version };
    Command command = Command::Help;
    TestPlan plan;
    QString jsonPath;
    QString csvPath;
    QString chartPath;
    QSize chartSize{1600, 1000};
    RateUnit unit = RateUnit::MBps;
    bool includeSamples = false;
    QString storePath;        ///< --store FILE; empty = the user's result store (the GUI's History)
    bool useStore = true;     ///< --no-store turns keeping results in the store off
    QString planPath;         ///< --plan FILE: the plan came from this file, the other options override parts of it
    QString savePlanPath;     ///< --save-plan FILE: write the plan about to run to FILE first
    QStringList notes;        ///< lines to print before running (what an option changed in the plan file's plan)
    bool skipCheck = false;   ///< --skip-check: no check of the hosts before the first run
    bool strictCheck = false; ///< --strict-check: run nothing when that check finds a problem
    QString scheduledEvery;   ///< --scheduled EVERY: the session is a scheduled run (ScheduleCommand's service)

    /// Parses arguments (without the program name). Returns false with a one-line reason on a usage error.
    static bool parse(const QStringList &arguments, CliOptions *options, QString *error);
    static QString helpText();
    static QString versionText();

    /// Writes `plan` to `path` as a plan file (PlanFile). `notes` gets one line per secret the file leaves out
    /// and how to give it when running the plan (Secrets::notes). False with a one-line reason.
    static bool savePlan(const QString &path, const TestPlan &plan, QStringList *notes, QString *error);

    /// "ADDR", "ADDR:PORT", "[IPv6]:PORT", "IPv6", optionally prefixed by "NAME=".
    static bool parseHost(const QString &text, Host *host, QString *error);
    /// "131072", "128K", "128KiB", "4M", "4MiB" (binary prefixes). Returns -1 on bad input.
    static qint64 parseSize(const QString &text);
};

} // namespace wb::cli
