// A store on a full disk: open() says the disk is full, where, how much room the store needs and to free space
// there; never that the healthy store is damaged, never to move it away (issue 32 item 8).
#include "storage/ResultStore.h"
#include "StoreTestData.h"
#include "support/CliTestSupport.h"
#include "protocols/SmallLocalDisk.h"
#include "support/CiRule.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

class TestStoreDiskFull : public QObject
{
    Q_OBJECT

private slots:
    void fullDiskIsNotDamage();
};

namespace {

/// Writes zeros into `path` until the filesystem refuses; the bytes written.
qint64 fill(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return -1;
    const QByteArray block(64 * 1024, '\0');
    qint64 total = 0;
    for (;;) {
        const qint64 n = f.write(block);
        if (n <= 0 || !f.flush())
            break;
        total += n;
    }
    // The last partial blocks: byte by byte until nothing more fits.
    while (f.write("x", 1) == 1 && f.flush())
        ++total;
    return total;
}

} // namespace

void TestStoreDiskFull::fullDiskIsNotDamage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    test::SmallLocalDisk disk;
    QString why;
    WB_REQUIRE(disk.mount(dir.filePath(QStringLiteral("small")), 2LL * 1024 * 1024, &why), why);
    const QString path = disk.path() + QStringLiteral("/results.sqlite");

    qint64 firstSession = 0;
    {
        ResultStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        const TestPlan plan = wbtest::plan();
        firstSession = store.beginSession(plan, &error);
        QVERIFY2(firstSession > 0, qPrintable(error));
        QVERIFY(store.addRun(firstSession, wbtest::run(plan.expand().at(0), 1000, 100), &error) > 0);
        QVERIFY(store.endSession(firstSession, SessionState::Finished, &error));
    }
    QVERIFY(!QFile::exists(path + QStringLiteral("-shm"))); // closed: the next open must make its -shm again

    const qint64 filled = fill(disk.path() + QStringLiteral("/filler"));
    QVERIFY(filled > 0);
    qInfo("filled %lld bytes; %lld bytes in use on the 2 MiB tmpfs", filled, disk.usedBytes());

    // The next run on that store: open and write a session.
    QString error;
    ResultStore store;
    const bool opened = store.open(path, &error);
    if (opened) {
        const TestPlan plan = wbtest::plan();
        const qint64 id = store.beginSession(plan, &error);
        if (id > 0)
            store.addRun(id, wbtest::run(plan.expand().at(0), 1000, 100), &error);
    }
    qInfo("%s", qPrintable(error));
    QVERIFY2(!error.isEmpty(), "a full disk was not reported");
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));            // which file
    QVERIFY2(error.contains(QStringLiteral("disk is full")), qPrintable(error));            // what failed
    QVERIFY2(error.contains(QDir::toNativeSeparators(disk.path())), qPrintable(error));     // which filesystem
    QVERIFY2(error.contains(QStringLiteral("KiB free")), qPrintable(error));                // how much is free
    QVERIFY2(error.contains(QStringLiteral("needs at least")), qPrintable(error));          // how much it needs
    QVERIFY2(error.contains(QStringLiteral("free space on that disk")), qPrintable(error)); // what to do
    QVERIFY2(!error.contains(QStringLiteral("is damaged")), qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("move the file away")), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));

    // The CLI on that store says the same, and its run goes ahead: the result is printed, not lost.
    clitest::Daemon daemon;
    QString started;
    QVERIFY2(daemon.start(&started), qPrintable(started));
    const clitest::Outcome cli = clitest::runCli(
        {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lo=") + daemon.hostArgument(),
         QStringLiteral("--protocol"), QStringLiteral("tcp-send"), QStringLiteral("--duration"), QStringLiteral("0.2"),
         QStringLiteral("--reps"), QStringLiteral("1"), QStringLiteral("--store"), path});
    qInfo("%s", qPrintable(cli.err.trimmed()));
    QCOMPARE(cli.exitCode, 0);
    QVERIFY2(cli.err.contains(QStringLiteral("disk is full")), qPrintable(cli.err));
    QVERIFY2(cli.err.contains(QStringLiteral("The runs go ahead and print their results here; --json FILE or --csv "
                                             "FILE keeps them in a file")),
             qPrintable(cli.err));
    QVERIFY2(!cli.err.contains(QStringLiteral("is damaged")), qPrintable(cli.err));
    QVERIFY2(cli.out.contains(QStringLiteral("tcp-send")) && cli.out.contains(QStringLiteral(" MB/s")),
             qPrintable(cli.out));

    // The store is healthy: with room again it opens and its session is there.
    store.close();
    QVERIFY(QFile::remove(disk.path() + QStringLiteral("/filler")));
    ResultStore again;
    QVERIFY2(again.open(path, &error), qPrintable(error));
    const SessionInfoList sessions = again.sessions();
    QCOMPARE(sessions.size(), 1);
    QCOMPARE(sessions.first().id, firstSession);
}

QTEST_GUILESS_MAIN(TestStoreDiskFull)
#include "TestStoreDiskFull.moc"
