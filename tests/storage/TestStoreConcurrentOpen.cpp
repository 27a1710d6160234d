// Two or three Wirebenches that meet a new store file at once (wirebench-cli run started twice): one creates its
// layout while the others wait for it, and every one keeps its session (issue 32 item 7).
#include "storage/ResultStore.h"
#include "StoreTestData.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <latch>
#include <memory>
#include <vector>

using namespace wb;

class TestStoreConcurrentOpen : public QObject
{
    Q_OBJECT

private slots:
    void newStoreOpenedAtOnce_data();
    void newStoreOpenedAtOnce();
};

void TestStoreConcurrentOpen::newStoreOpenedAtOnce_data()
{
    QTest::addColumn<int>("writers");
    QTest::newRow("two") << 2;
    QTest::newRow("three") << 3;
}

void TestStoreConcurrentOpen::newStoreOpenedAtOnce()
{
    QFETCH(int, writers);
    // Each round a new file: the race is at its first open, so it is tried a number of times.
    constexpr int kRounds = 25;
    for (int round = 0; round < kRounds; ++round) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("results.sqlite"));

        struct Writer
        {
            QString error;
            qint64 session = 0;
        };
        std::vector<Writer> results(writers);
        std::latch start(writers);
        std::vector<std::unique_ptr<QThread>> threads;
        for (int i = 0; i < writers; ++i) {
            // Each thread its own ResultStore, hence its own SQLite connection, as a second process would have.
            threads.emplace_back(QThread::create([&, i] {
                Writer &w = results[i];
                ResultStore store;
                start.arrive_and_wait();
                if (!store.open(path, &w.error))
                    return;
                const TestPlan plan = wbtest::plan();
                const qint64 id = store.beginSession(plan, &w.error);
                if (id <= 0 || store.addRun(id, wbtest::run(plan.expand().at(0), 1000, 100), &w.error) <= 0
                    || !store.endSession(id, SessionState::Finished, &w.error))
                    return;
                w.session = id;
            }));
            threads.back()->start();
        }
        for (auto &t : threads)
            QVERIFY(t->wait(60000));

        QSet<qint64> ids;
        for (int i = 0; i < writers; ++i) {
            QVERIFY2(results[i].session > 0,
                     qPrintable(QStringLiteral("round %1, writer %2: %3").arg(round).arg(i).arg(results[i].error)));
            ids.insert(results[i].session);
        }
        QCOMPARE(ids.size(), writers);
        // A new file has no older layout to keep: a writer that read it while another was updating it would have
        // kept a needless results.sqlite.vN.bak. No turn's lock is left behind either.
        const QStringList left = QDir(dir.path()).entryList({QStringLiteral("*.bak"), QStringLiteral("*.open.lock")});
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(left.join(u' '))));

        ResultStore check;
        QString error;
        QVERIFY2(check.open(path, &error), qPrintable(error));
        const SessionInfoList sessions = check.sessions();
        QCOMPARE(sessions.size(), writers); // every session kept
        for (const SessionInfo &s : sessions) {
            QVERIFY(ids.contains(s.id));
            QCOMPARE(s.state, SessionState::Finished);
        }
    }
}

QTEST_GUILESS_MAIN(TestStoreConcurrentOpen)
#include "TestStoreConcurrentOpen.moc"
