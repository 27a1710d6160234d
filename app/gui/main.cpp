#include "GuiCommandLine.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "ResponsivenessProbe.h"
#include "ResultsTable.h"
#include "WheelGuard.h"
#include "settings/Config.h"
#include "storage/LegacyCliStore.h"
#include "storage/ResultStore.h"

#include <QApplication>
#include <QFile>
#include <QScreen>
#include <QTimer>

#include <cstdio>
#include <memory>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Wirebench"));
    QApplication::setApplicationName(QStringLiteral("wirebench"));
    QApplication::setApplicationDisplayName(QStringLiteral("Wirebench"));
    QApplication::setApplicationVersion(QStringLiteral(WIREBENCH_VERSION));

    wb::WheelGuard wheelGuard; // the wheel scrolls the plan editor, not the values it passes over
    app.installEventFilter(&wheelGuard);

    wb::GuiCommandLine commandLine;
    QCommandLineParser &parser = commandLine.parser;
    parser.process(app);

    wb::Config config(parser.value(commandLine.settings));
    // A store that cannot be opened is reported in the window; measuring works without it.
    wb::ResultStore results;
    results.open(parser.value(commandLine.store));
    if (const QString note = wb::LegacyCliStore::adoptInto(results); !note.isEmpty())
        std::fprintf(stderr, "wirebench: %s\n", qPrintable(note));
    wb::MainWindow window(&config, &results);
    // A team's server from the Settings, unless --store named a store: this computer's store until it answers.
    if (!parser.isSet(commandLine.store))
        window.useConfiguredStore();

    // Plan overrides for scripts and screenshots (also remembered as the last plan).
    wb::TestPlan plan = window.planEditor()->plan();
    if (QString why; !commandLine.applyPlanOptions(&plan, &why)) {
        std::fprintf(stderr, "wirebench: %s\n", qPrintable(why));
        return 2;
    }
    window.planEditor()->setPlan(plan);

    window.show();
    if (QScreen *screen = window.screen(); screen && config.windowGeometry().isEmpty())
        window.move(screen->availableGeometry().topLeft());
    // bench/gui_responsiveness.sh's measurement; nullptr unless WIREBENCH_GUI_PROBE is set.
    const std::unique_ptr<wb::ResponsivenessProbe> probe = wb::ResponsivenessProbe::fromEnvironment(&window);

    QObject::connect(&window, &wb::MainWindow::planDone, &app, [&](bool) {
        // Let the last replot land before anything grabs the screen.
        QTimer::singleShot(400, &app, [&] {
            if (parser.isSet(commandLine.screenshot))
                window.grab().save(parser.value(commandLine.screenshot));
            if (parser.isSet(commandLine.doneFile)) {
                QFile f(parser.value(commandLine.doneFile));
                if (f.open(QIODevice::WriteOnly))
                    f.write("done\n");
            }
            if (parser.isSet(commandLine.quitWhenDone))
                QTimer::singleShot(int(parser.value(commandLine.linger).toDouble() * 1000), &app,
                                   [&] { window.close(); });
        });
    });
    if (parser.isSet(commandLine.start)) {
        QTimer::singleShot(300, &window, [&] {
            if (!window.startPlan() && parser.isSet(commandLine.quitWhenDone))
                QApplication::exit(1);
        });
    }
    const int rc = app.exec();
    if (rc != 0)
        return rc;
    for (const wb::RunResult &r : window.resultsTable()->results()) {
        if (r.status == wb::RunStatus::Failed)
            return parser.isSet(commandLine.quitWhenDone) ? 3 : 0;
    }
    return 0;
}
