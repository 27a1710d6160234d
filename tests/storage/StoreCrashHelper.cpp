// Runs a plan into a result store as fast as it can, printing "committed N" after each stored run, until the
// test kills it with SIGKILL. Stands in for the app being killed in the middle of a plan.
#include "storage/ResultStore.h"
#include "StoreTestData.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: StoreCrashHelper DATABASE\n");
        return 2;
    }
    wb::ResultStore store;
    QString error;
    if (!store.open(QString::fromLocal8Bit(argv[1]), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const wb::TestPlan plan = wbtest::plan();
    const qint64 session = store.beginSession(plan, &error);
    if (session <= 0) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("session %lld\n", static_cast<long long>(session));
    std::fflush(stdout);
    const QList<wb::RunSpec> specs = plan.expand();
    // Bounded so that a helper the test forgot to kill still ends.
    for (int n = 1; n <= 20000; ++n) {
        wb::RunSpec spec = specs.at((n - 1) % specs.size());
        spec.index = n - 1;
        const wb::RunResult run = wbtest::run(spec, 1000 + n, 200 + n % 50);
        if (store.addRun(session, run, &error) <= 0) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        std::printf("committed %d\n", n);
        std::fflush(stdout);
    }
    return 3;
}
