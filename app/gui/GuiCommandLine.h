#pragma once

#include "plan/TestPlan.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace wb {

/// The GUI's command line: the window's own options for scripts and screenshots (--start, --quit-when-done, ...)
/// and the plan overrides it reads as wirebench-cli does (PlanOptions: --reps, --duration, --protocol, --frame).
struct GuiCommandLine
{

    GuiCommandLine();

    QCommandLineParser parser;
    const QCommandLineOption start;
    const QCommandLineOption quitWhenDone;
    const QCommandLineOption screenshot;
    const QCommandLineOption doneFile;
    const QCommandLineOption linger;
    const QCommandLineOption settings;
    const QCommandLineOption store;

    /// The plan options given, applied to `plan` (the editor's); false with the one-line reason.
    bool applyPlanOptions(TestPlan *plan, QString *why) const;
};

} // namespace wb
