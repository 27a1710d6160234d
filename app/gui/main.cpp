#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "ResultsTable.h"
#include "settings/Config.h"
#include "storage/LegacyCliStore.h"
#include "storage/ResultStore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QScreen>
#include <QTimer>

#include <cstdio>

namespace {

QList<int> parseInts(const QString &text, bool *ok)
{
    QList<int> values;
    *ok = true;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool partOk = false;
        values << part.trimmed().toInt(&partOk);
        *ok = *ok && partOk;
    }
    return values;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Wirebench"));
    QApplication::setApplicationName(QStringLiteral("wirebench"));
    QApplication::setApplicationDisplayName(QStringLiteral("Wirebench"));
    QApplication::setApplicationVersion(QStringLiteral(WIREBENCH_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Wirebench: network throughput workbench (GUI)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption start(QStringLiteral("start"), QStringLiteral("Press Start once the window shows."));
    const QCommandLineOption quitWhenDone(QStringLiteral("quit-when-done"), QStringLiteral("Quit when the plan ends."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Grab the window to FILE (PNG) when the plan ends."), QStringLiteral("FILE"));
    const QCommandLineOption doneFile(QStringLiteral("done-file"),
                                      QStringLiteral("Write FILE when the plan ends (for scripts)."), QStringLiteral("FILE"));
    const QCommandLineOption linger(QStringLiteral("linger"),
                                    QStringLiteral("With --quit-when-done, wait SECONDS before quitting."), QStringLiteral("SECONDS"), QStringLiteral("0"));
    const QCommandLineOption settings(QStringLiteral("settings"),
                                      QStringLiteral("Use the settings file FILE (INI) instead of the user's."), QStringLiteral("FILE"));
    const QCommandLineOption reps(QStringLiteral("reps"), QStringLiteral("Repetitions of the plan."), QStringLiteral("N"));
    const QCommandLineOption duration(QStringLiteral("duration"), QStringLiteral("Seconds per run."), QStringLiteral("SECONDS"));
    const QCommandLineOption protocols(QStringLiteral("protocol"), QStringLiteral("Protocol ids, comma separated."), QStringLiteral("LIST"));
    const QCommandLineOption frames(QStringLiteral("frame"), QStringLiteral("Frame sizes in bytes, comma separated."), QStringLiteral("LIST"));
    const QCommandLineOption store(QStringLiteral("store"),
                                   QStringLiteral("Keep results in the SQLite file FILE instead of the user's result store."),
                                   QStringLiteral("FILE"));
    parser.addOptions({start, quitWhenDone, screenshot, doneFile, linger, settings, store, reps, duration, protocols, frames});
    parser.process(app);

    wb::Config config(parser.value(settings));
    // A store that cannot be opened is reported in the window; measuring works without it.
    wb::ResultStore results;
    results.open(parser.value(store));
    if (const QString note = wb::LegacyCliStore::adoptInto(results); !note.isEmpty())
        std::fprintf(stderr, "wirebench: %s\n", qPrintable(note));
    wb::MainWindow window(&config, &results);

    // Plan overrides for scripts and screenshots (also remembered as the last plan).
    wb::TestPlan plan = window.planEditor()->plan();
    bool ok = true;
    if (parser.isSet(reps))
        plan.repetitions = parser.value(reps).toInt(&ok);
    if (ok && parser.isSet(duration))
        plan.params.durationMs = int(parser.value(duration).toDouble(&ok) * 1000);
    if (ok && parser.isSet(protocols))
        plan.protocols = parser.value(protocols).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (ok && parser.isSet(frames))
        plan.frameSizes = parseInts(parser.value(frames), &ok);
    if (!ok) {
        std::fprintf(stderr, "wirebench: a plan option is not a number: check --reps, --duration and --frame\n");
        return 2;
    }
    window.planEditor()->setPlan(plan);

    window.show();
    if (QScreen *screen = window.screen(); screen && config.windowGeometry().isEmpty())
        window.move(screen->availableGeometry().topLeft());

    QObject::connect(&window, &wb::MainWindow::planDone, &app, [&](bool) {
        // Let the last replot land before anything grabs the screen.
        QTimer::singleShot(400, &app, [&] {
            if (parser.isSet(screenshot))
                window.grab().save(parser.value(screenshot));
            if (parser.isSet(doneFile)) {
                QFile f(parser.value(doneFile));
                if (f.open(QIODevice::WriteOnly))
                    f.write("done\n");
            }
            if (parser.isSet(quitWhenDone))
                QTimer::singleShot(int(parser.value(linger).toDouble() * 1000), &app, [&] { window.close(); });
        });
    });
    if (parser.isSet(start)) {
        QTimer::singleShot(300, &window, [&] {
            if (!window.startPlan() && parser.isSet(quitWhenDone))
                QApplication::exit(1);
        });
    }
    const int rc = app.exec();
    if (rc != 0)
        return rc;
    for (const wb::RunResult &r : window.resultsTable()->results()) {
        if (r.status == wb::RunStatus::Failed)
            return parser.isSet(quitWhenDone) ? 3 : 0;
    }
    return 0;
}
