// Two or three Wirebenches that meet a store file at once (wirebench-cli run started twice): on a new file one creates
// its layout while the others wait for it, on a file of an older layout one updates it while the others wait, and
// every one keeps its session (issue 32 item 7: "cannot update its layout from schema 4 to 5 (table session_search
// already exists ...)", its results not kept). In threads (each its own connection, as a process has) many times over,
// and as two real wirebench-cli processes.
#include "storage/ResultStore.h"
#include "StoreTestData.h"
#include "support/CliTestSupport.h"

#include <QFile>
#include <QProcess>

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
    void olderStoreOpenedAtOnce_data();
    void olderStoreOpenedAtOnce();
    void twoCliRunsAtOnce_data();
    void twoCliRunsAtOnce();

private:
    /// `writers` stores open `path` at once, each keeps a session of one run; their session ids in *ids. Empty, or
    /// what went wrong.
    static QString openAtOnce(const QString &path, int writers, QSet<qint64> *ids);
};

QString TestStoreConcurrentOpen::openAtOnce(const QString &path, int writers, QSet<qint64> *ids)
{
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
    for (auto &t : threads) {
        if (!t->wait(60000))
            return QStringLiteral("a writer did not end within 60 s");
    }
    for (int i = 0; i < writers; ++i) {
        if (results[i].session <= 0)
            return QStringLiteral("writer %1: %2").arg(i).arg(results[i].error);
        ids->insert(results[i].session);
    }
    return ids->size() == writers ? QString() : QStringLiteral("two writers got one session id");
}

void TestStoreConcurrentOpen::olderStoreOpenedAtOnce_data()
{
    newStoreOpenedAtOnce_data();
}

void TestStoreConcurrentOpen::olderStoreOpenedAtOnce()
{
    // A store of schema version 1 (tests/data/store-v1.sqlite, as an old build left it), opened by two or three at
    // once: one updates it to the current layout, the others find it done, and the old sessions stay with the new.
    QFETCH(int, writers);
    const QString source = QStringLiteral(WIREBENCH_TEST_DATA "/store-v1.sqlite");
    QCOMPARE(ResultStore::fileSchemaVersion(source), 1);
    qsizetype before = -1;
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.sqlite"));
        QVERIFY(QFile::copy(source, path));
        QFile(path).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        ResultStore one;
        QString error;
        QVERIFY2(one.open(path, &error), qPrintable(error));
        before = one.sessions().size();
        QVERIFY(before > 0);
    }
    constexpr int kRounds = 10;
    for (int round = 0; round < kRounds; ++round) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("results.sqlite"));
        QVERIFY(QFile::copy(source, path));
        QFile(path).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QSet<qint64> ids;
        const QString failed = openAtOnce(path, writers, &ids);
        QVERIFY2(failed.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(failed)));
        // One copy of the older layout kept (by the one that updated it), no turn's lock left behind.
        QDir folder(dir.path());
        QVERIFY2(folder.entryList({QStringLiteral("*.bak")}).size() <= 1, qPrintable(folder.entryList().join(u' ')));
        QVERIFY(folder.entryList({QStringLiteral("*.open.lock")}).isEmpty());
        ResultStore check;
        QString error;
        QVERIFY2(check.open(path, &error), qPrintable(error));
        QCOMPARE(ResultStore::fileSchemaVersion(path), ResultStore::kSchemaVersion);
        QCOMPARE(check.sessions().size(), before + writers); // the old ones and every new one
    }
}

void TestStoreConcurrentOpen::twoCliRunsAtOnce_data()
{
    QTest::addColumn<bool>("existing");
    QTest::newRow("a new store") << false;
    QTest::newRow("an existing store") << true;
}

void TestStoreConcurrentOpen::twoCliRunsAtOnce()
{
    // The issue's own case: two wirebench-cli run started at once on one store file, against a real wirebenchd on
    // loopback, while the window holds the store open. Both runs kept, each in its session; on an existing store the
    // sessions before them too.
    QFETCH(bool, existing);
    clitest::Daemon daemon;
    QString why;
    QVERIFY2(daemon.start(&why), qPrintable(why));
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("results.sqlite"));
    const QStringList run{QStringLiteral("run"),
                          QStringLiteral("--host"),
                          QStringLiteral("lo=") + daemon.hostArgument(),
                          QStringLiteral("--protocol"),
                          QStringLiteral("tcp-send"),
                          QStringLiteral("--reps"),
                          QStringLiteral("1"),
                          QStringLiteral("--duration"),
                          QStringLiteral("0.3"),
                          QStringLiteral("--store"),
                          store};
    int before = 0;
    if (existing) {
        const clitest::Outcome first = clitest::runCli(run);
        QVERIFY2(first.exitCode == 0, qPrintable(first.out + first.err));
        before = 1;
    }
    // The window's own store open all along, as History holds it while a scheduled run writes.
    ResultStore window;
    QVERIFY2(window.open(store, &why), qPrintable(why));
    const QList<clitest::Outcome> both = clitest::runCliTogether(run, 2);
    const clitest::Outcome &oa = both.at(0);
    const clitest::Outcome &ob = both.at(1);
    // The server takes one test at a time: the second waits in its queue, and both run.
    QVERIFY2(oa.exitCode == 0, qPrintable(oa.out + oa.err));
    QVERIFY2(ob.exitCode == 0, qPrintable(ob.out + ob.err));
    const clitest::Outcome listed = clitest::runCli({QStringLiteral("sessions"), QStringLiteral("--store"), store});
    QVERIFY2(listed.exitCode == 0, qPrintable(listed.out + listed.err));
    ResultStore check;
    QVERIFY2(check.open(store, &why), qPrintable(why));
    const SessionInfoList sessions = check.sessions();
    QCOMPARE(sessions.size(), before + 2);
    QCOMPARE(window.sessions().size(), before + 2); // the window sees them without opening it again
    for (const SessionInfo &s : sessions) {
        QCOMPARE(s.state, SessionState::Finished);
        QCOMPARE(check.runs(s.id).size(), 1);
    }
}

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

        QSet<qint64> ids;
        const QString failed = openAtOnce(path, writers, &ids);
        QVERIFY2(failed.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(failed)));
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
