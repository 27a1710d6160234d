#include "GuiCommandLine.h"

#include "plan/PlanOptions.h"

namespace wb {

GuiCommandLine::GuiCommandLine()
    : start(QStringLiteral("start"), QStringLiteral("Press Start once the window shows."))
    , quitWhenDone(QStringLiteral("quit-when-done"), QStringLiteral("Quit when the plan ends."))
    , screenshot(QStringLiteral("screenshot"), QStringLiteral("Grab the window to FILE (PNG) when the plan ends."),
                 QStringLiteral("FILE"))
    , doneFile(QStringLiteral("done-file"), QStringLiteral("Write FILE when the plan ends (for scripts)."),
               QStringLiteral("FILE"))
    , linger(QStringLiteral("linger"), QStringLiteral("With --quit-when-done, wait SECONDS before quitting."),
             QStringLiteral("SECONDS"), QStringLiteral("0"))
    , settings(QStringLiteral("settings"), QStringLiteral("Use the settings file FILE (INI) instead of the user's."),
               QStringLiteral("FILE"))
    , store(QStringLiteral("store"),
            QStringLiteral("Keep results in the SQLite file FILE, or on a server (postgresql://USER@HOST[:PORT]/DB), "
                           "instead of the user's result store."),
            QStringLiteral("FILE"))
{
    parser.setApplicationDescription(QStringLiteral("Wirebench: network throughput workbench (GUI)."));
    parser.addHelpOption();
    parser.addVersionOption();
    // The plan options' names are PlanOptions'; the help text is the GUI's (they override the editor's plan).
    const QCommandLineOption reps(QStringLiteral("reps"), QStringLiteral("Repetitions of the plan."),
                                  QStringLiteral("N"));
    const QCommandLineOption duration(QStringLiteral("duration"), QStringLiteral("Seconds per run."),
                                      QStringLiteral("SECONDS"));
    const QCommandLineOption streams(QStringLiteral("streams"), QStringLiteral("Parallel TCP streams (1 to 128)."),
                                     QStringLiteral("N"));
    const QCommandLineOption protocols(QStringLiteral("protocol"), QStringLiteral("Protocol ids, comma separated."),
                                       QStringLiteral("LIST"));
    const QCommandLineOption frames(QStringLiteral("frame"), QStringLiteral("Frame sizes in bytes, comma separated."),
                                    QStringLiteral("LIST"));
    parser.addOptions({start, quitWhenDone, screenshot, doneFile, linger, settings, store, reps, duration, streams,
                       protocols, frames});
}

bool GuiCommandLine::applyPlanOptions(TestPlan *plan, QString *why) const
{
    return PlanOptions(parser, plan).apply(why);
}

} // namespace wb
