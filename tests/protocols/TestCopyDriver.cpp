// copy-read and copy-write against a local folder standing in for a mounted share.
#include "FileServerFixture.h"

#include "protocols/DriverRegistry.h"
#include "protocols/copy/TransferData.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace wb;
using namespace wb::test;

namespace {

qint64 patternMismatchInFile(const QString &path, qint64 expectedSize)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() != expectedSize)
        return -2;
    const QByteArray all = f.readAll();
    return TestPattern::firstMismatch(all.constData(), 0, all.size());
}

} // namespace

class TestCopyDriver : public QObject
{
    Q_OBJECT

private slots:
    void writeThenReadByteExact_data();
    void writeThenReadByteExact();
    void fileSourceAndSinkReportDiskSpeed();
    void missingFolder();
    void corruptedFileIsCaught();
    void stopMidTransfer();
    void localDiskFull();
    void remoteDiskFull();

private:
    RunSpec spec(const QString &protocol, qint64 size, const QString &path) const;
    static RunResult runSpec(const RunSpec &s, TestObserver &observer)
    {
        return DriverRegistry::create(s.protocol)->run(s, observer);
    }
    QTemporaryDir m_mount;
};

RunSpec TestCopyDriver::spec(const QString &protocol, qint64 size, const QString &path) const
{
    RunSpec s;
    s.protocol = protocol;
    s.host.name = QStringLiteral("mounted-share");
    s.host.address = QStringLiteral("127.0.0.1");
    s.host.options.insert(QStringLiteral("copy.path"), path);
    s.params.fileSizeBytes = size;
    s.params.options.insert(QLatin1String(TransferSettings::VerifyKey), true);
    return s;
}

void TestCopyDriver::writeThenReadByteExact_data()
{
    QTest::addColumn<bool>("unbuffered");
    QTest::addColumn<qint64>("size");
    QTest::newRow("buffered") << false << qint64(5 * 1024 * 1024 + 3);
    QTest::newRow("O_DIRECT, unaligned tail") << true << qint64(5 * 1024 * 1024 + 3);
    QTest::newRow("O_DIRECT, aligned") << true << qint64(8 * 1024 * 1024);
}

void TestCopyDriver::writeThenReadByteExact()
{
    QFETCH(bool, unbuffered);
    QFETCH(qint64, size);
    QVERIFY(DriverRegistry::has(QStringLiteral("copy-read")) && DriverRegistry::has(QStringLiteral("copy-write")));
    const QString file = m_mount.filePath(QStringLiteral("copy-%1.bin").arg(size));
    RunSpec w = spec(QStringLiteral("copy-write"), size, file);
    w.params.options.insert(QLatin1String(TransferSettings::UnbufferedKey), unbuffered);
    TestObserver o;
    const RunResult wr = runSpec(w, o);
    QVERIFY2(wr.ok(), qPrintable(wr.error));
    QCOMPARE(wr.bytes, size);
    QVERIFY(wr.seconds > 0 && !wr.samples.isEmpty());
    QVERIFY(wr.extra.contains(QStringLiteral("verified")));
    QCOMPARE(patternMismatchInFile(file, size), -1);

    RunSpec r = w;
    r.protocol = QStringLiteral("copy-read");
    const RunResult rr = runSpec(r, o);
    QVERIFY2(rr.ok(), qPrintable(rr.error));
    QCOMPARE(rr.bytes, size);
    QVERIFY(!rr.extra.contains(QStringLiteral("seeded")));
}

void TestCopyDriver::fileSourceAndSinkReportDiskSpeed()
{
    const qint64 size = 6 * 1024 * 1024;
    const QString local = m_mount.filePath(QStringLiteral("local-source.bin"));
    RunSpec w = spec(QStringLiteral("copy-write"), size, m_mount.path() + QLatin1Char('/'));
    w.params.options.insert(QLatin1String(TransferSettings::SourceKey), QStringLiteral("file"));
    w.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), local);
    TestObserver o;
    const RunResult wr = runSpec(w, o);
    QVERIFY2(wr.ok(), qPrintable(wr.error));
    QVERIFY(wr.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
    QCOMPARE(patternMismatchInFile(m_mount.filePath(QStringLiteral("wirebench-test.bin")), size), -1);

    RunSpec r = spec(QStringLiteral("copy-read"), size, m_mount.path());
    const QString sinkFile = m_mount.filePath(QStringLiteral("local-sink.bin"));
    r.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    r.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), sinkFile);
    const RunResult rr = runSpec(r, o);
    QVERIFY2(rr.ok(), qPrintable(rr.error));
    QVERIFY(rr.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
    QCOMPARE(patternMismatchInFile(sinkFile, size), -1);
}

void TestCopyDriver::missingFolder()
{
    TestObserver o;
    RunSpec w = spec(QStringLiteral("copy-write"), 1024 * 1024, m_mount.filePath(QStringLiteral("no/such/dir/x.bin")));
    const RunResult r = runSpec(w, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_path"));
    QVERIFY(r.error.contains(QStringLiteral("mounted-share")) && r.error.contains(QStringLiteral("copy write")));

    RunSpec rd = spec(QStringLiteral("copy-read"), 1024 * 1024, m_mount.filePath(QStringLiteral("absent.bin")));
    rd.params.options.insert(QLatin1String(TransferSettings::CreateSeedKey), false);
    const RunResult rr = runSpec(rd, o);
    qInfo("%s", qPrintable(rr.error));
    QCOMPARE(rr.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_path"));
}

void TestCopyDriver::corruptedFileIsCaught()
{
    const qint64 size = 2 * 1024 * 1024;
    const QString file = m_mount.filePath(QStringLiteral("corrupt.bin"));
    TestObserver o;
    QVERIFY(runSpec(spec(QStringLiteral("copy-write"), size, file), o).ok());
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(1500000);
        f.write("X", 1);
    }
    const RunResult r = runSpec(spec(QStringLiteral("copy-read"), size, file), o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("mismatch"));
}

void TestCopyDriver::stopMidTransfer()
{
    RunSpec w = spec(QStringLiteral("copy-write"), 64LL * 1024 * 1024, m_mount.filePath(QStringLiteral("slow.bin")));
    w.params.options.insert(QLatin1String(TransferSettings::MaxRateKey), 8 * 1024 * 1024);
    TestObserver o;
    o.onSample = [&o](int n) {
        if (n == 3)
            o.stop.store(true);
    };
    const RunResult r = runSpec(w, o);
    QCOMPARE(r.status, RunStatus::Cancelled);
    QVERIFY(r.bytes > 0 && r.bytes < w.params.fileSizeBytes);
    QVERIFY(r.samples.size() >= 3);
}

void TestCopyDriver::localDiskFull()
{
    const qint64 size = 16LL * 1024 * 1024;
    RunSpec s = spec(QStringLiteral("copy-read"), size, m_mount.path() + QStringLiteral("/to-full.bin"));
    sinkToFile(s, QStringLiteral("/dev/full"));
    TestObserver o;
    const QString problem = faultProblem(runSpec(s, o), QStringLiteral("local_disk_full"),
                                         QStringLiteral("mounted-share (127.0.0.1): copy read: "),
                                         QStringLiteral("the local disk is full while writing /dev/full"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestCopyDriver::remoteDiskFull()
{
    // The "mounted share" is a 16 MiB tmpfs on a folder of our own, unmounted again at the end.
    const QString full = m_mount.path() + QStringLiteral("/full");
    QDir().mkpath(full);
    QString why;
    if (geteuid() != 0) {
        why = QStringLiteral("needs root to mount a small tmpfs");
    } else if (QProcess::execute(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                          QStringLiteral("size=16m"), QStringLiteral("wbtest-copy-full"), full})
               != 0) {
        why = QStringLiteral("mount -t tmpfs failed (needs CAP_SYS_ADMIN)");
    }
    WB_REQUIRE_SERVERS(why.isEmpty(), why);
    const auto unmount = qScopeGuard([&full] { QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), full}); });
    const qint64 size = 64LL * 1024 * 1024;
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("copy-write"), size, full + QStringLiteral("/big.bin")), o);
    const QString problem = faultProblem(r, QStringLiteral("remote_disk_full"),
                                         QStringLiteral("mounted-share (127.0.0.1): copy write: the disk behind the "
                                                        "mounted path is full: no space left on \"%1/big.bin\"")
                                             .arg(full),
                                         QStringLiteral("B written"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

QTEST_GUILESS_MAIN(TestCopyDriver)
#include "TestCopyDriver.moc"
