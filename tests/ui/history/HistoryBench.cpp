// bench/store_scale.sh's look at the window: the History panel and the comparison view on a store, timed from
// construction (their first list) and through searches, as a user opens the tab and types. Not a test.
#include "ComparisonView.h"
#include "HistoryPanel.h"
#include "storage/ResultStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QTableWidget>

#include <cstdio>
#include <memory>

#include <sys/resource.h>

using namespace wb;

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: wirebench-history-bench STORE [SEARCH...]\n");
        return 2;
    }
    QElapsedTimer t;
    t.start();
    ResultStore store;
    QString error;
    if (!store.open(QString::fromLocal8Bit(argv[1]), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const double openMs = t.nsecsElapsed() / 1e6;
    t.restart();
    HistoryPanel panel(&store);
    std::printf("history: store open %.0f ms; tab listed %d sessions in %.0f ms\n", openMs,
                panel.sessionTable()->rowCount(), t.nsecsElapsed() / 1e6);
    for (int i = 2; i < argc; ++i) {
        panel.searchEdit()->blockSignals(true);
        panel.searchEdit()->setText(QString::fromLocal8Bit(argv[i]));
        panel.searchEdit()->blockSignals(false);
        t.restart();
        panel.refresh();
        std::printf("history: search \"%s\": %d sessions listed in %.0f ms\n", argv[i],
                    panel.sessionTable()->rowCount(), t.nsecsElapsed() / 1e6);
    }
    t.restart();
    const auto view = std::make_unique<ComparisonView>(&store);
    std::printf("comparison view: its tree in %.0f ms\n", t.nsecsElapsed() / 1e6);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("history: peak resident memory %.1f MiB\n", usage.ru_maxrss / 1024.0); // ru_maxrss: KiB on Linux
    return 0;
}
