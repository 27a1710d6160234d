// copy-read and copy-write against a local folder standing in for a mounted share.
#include "FileServerFixture.h"
#include "SmallLocalDisk.h"

#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"
#include "support/TransferDriverChecks.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace wb;
using namespace wb::test;

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
    void readReadsForeignFileAsItIs();
    void readReplacesItsOwnTestFile();
    void fullLocalDiskKeepsNoPartialFile_data();
    void fullLocalDiskKeepsNoPartialFile();
    void writeKeepsForeignFile();

private:
    RunSpec spec(const QString &protocol, qint64 size, const QString &path) const;
    static RunResult runSpec(const RunSpec &s, TestObserver &observer) { return runDriver(s, observer); }
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
    // The local disk's own rate, measured after the transfer (TransferRun::noteLocalDisk): the source read again.
    QCOMPARE(wr.extra.value(QStringLiteral("local_disk_rate_op")).toString(), QStringLiteral("read"));
    QVERIFY(wr.extra.value(QStringLiteral("local_disk_rate_MBps")).toDouble() > 0);
    QCOMPARE(wr.extra.value(QStringLiteral("local_disk_rate_bytes")).toLongLong(), size);
    QCOMPARE(patternMismatchInFile(m_mount.filePath(QStringLiteral("wirebench-test.bin")), size), -1);

    RunSpec r = spec(QStringLiteral("copy-read"), size, m_mount.path());
    const QString sinkFile = m_mount.filePath(QStringLiteral("local-sink.bin"));
    r.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    r.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), sinkFile);
    const RunResult rr = runSpec(r, o);
    QVERIFY2(rr.ok(), qPrintable(rr.error));
    QVERIFY(rr.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
    // ... and a sample of the same size written beside the sink, then removed: only the download is left.
    QCOMPARE(rr.extra.value(QStringLiteral("local_disk_rate_op")).toString(), QStringLiteral("write"));
    QVERIFY(rr.extra.value(QStringLiteral("local_disk_rate_MBps")).toDouble() > 0);
    QCOMPARE(rr.extra.value(QStringLiteral("local_disk_rate_bytes")).toLongLong(), size);
    QVERIFY(QDir(m_mount.path())
                .entryList({QStringLiteral(".wirebench-disk-sample*")}, QDir::Files | QDir::Hidden)
                .isEmpty());
    QCOMPARE(patternMismatchInFile(sinkFile, size), -1);
}

void TestCopyDriver::missingFolder()
{
    TestObserver o;
    RunSpec w = spec(QStringLiteral("copy-write"), 1024 * 1024, m_mount.filePath(QStringLiteral("no/such/dir/x.bin")));
    const RunResult r = runSpec(w, o);
    WB_CHECK(failedWith(r, QStringLiteral("no_such_path")));
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
    WB_CHECK(failedWith(r, QStringLiteral("mismatch")));
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
    const RunSpec s
        = spec(QStringLiteral("copy-read"), 16LL * 1024 * 1024, m_mount.path() + QStringLiteral("/to-full.bin"));
    WB_CHECK(localDiskFullProblem(s, QStringLiteral("mounted-share (127.0.0.1): copy read: ")));
}

void TestCopyDriver::remoteDiskFull()
{
    // The "mounted share" is a 16 MiB tmpfs on a folder of our own, in the test's private mount namespace.
    SmallLocalDisk disk;
    QString why;
    WB_REQUIRE(disk.mount(m_mount.path() + QStringLiteral("/full"), 16LL * 1024 * 1024, &why), why);
    const QString full = disk.path();
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

void TestCopyDriver::readReadsForeignFileAsItIs()
{
    // Someone else's file of another size is read as it is and never written (issue 12).
    const QString path = m_mount.filePath(QStringLiteral("theirs/report.bin"));
    const qint64 found = 3 * 1024 * 1024 + 5;
    const QByteArray digest = makeForeignFile(path, found, QString());
    QVERIFY(!digest.isEmpty());
    const QDateTime modified = QFileInfo(path).lastModified();
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("copy-read"), 1024 * 1024, path), o);
    WB_CHECK(readAsFoundProblem(r, path, digest, modified, found));
    QVERIFY2(r.warnings.first().contains(QStringLiteral("holds %1 bytes, not the plan's 1048576").arg(found))
                 && r.warnings.first().contains(QStringLiteral("read as it is")),
             qPrintable(r.warnings.first()));
}

void TestCopyDriver::readReplacesItsOwnTestFile()
{
    const QString path = m_mount.filePath(QStringLiteral("wirebench-resize.bin"));
    QVERIFY(!makeTestPatternFile(path, 1024 * 1024, QString()).isEmpty());
    const qint64 size = 2 * 1024 * 1024 + 3;
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("copy-read"), size, path), o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, size);
    QCOMPARE(r.extra.value(QStringLiteral("replaced_test_file_bytes")).toLongLong(), 1024 * 1024);
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(path, size), -1);
}

void TestCopyDriver::fullLocalDiskKeepsNoPartialFile_data()
{
    QTest::addColumn<bool>("existed");
    QTest::newRow("a new local file") << false;
    QTest::newRow("a local file that was there") << true;
}

void TestCopyDriver::fullLocalDiskKeepsNoPartialFile()
{
    // Issue 12: a read that filled the local disk left its partial file, so the disk stayed full. The run removes
    // what it wrote: the file it created, or the content it wrote into the file it was given.
    QFETCH(bool, existed);
    SmallLocalDisk disk;
    QString why;
    WB_REQUIRE(disk.mount(m_mount.path() + QStringLiteral("/small-local"), 4LL * 1024 * 1024, &why), why);
    const qint64 size = 16LL * 1024 * 1024;
    const QString source = m_mount.filePath(QStringLiteral("wirebench-big-source.bin"));
    RunSpec s = spec(QStringLiteral("copy-read"), size, source);
    const QString local = disk.path() + QStringLiteral("/download.bin");
    if (existed)
        QVERIFY(!makeForeignFile(local, 1000, QString()).isEmpty());
    sinkToFile(s, local);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    const QString removed = existed ? QStringLiteral("; the partial download in it was removed (the file is empty)")
                                    : QStringLiteral("; the partial file was removed");
    const QString problem = faultProblem(
        r, QStringLiteral("local_disk_full"),
        QStringLiteral("mounted-share (127.0.0.1): copy read: the local disk is full while writing %1 (").arg(local),
        QStringLiteral("B received)") + removed + QStringLiteral(": free space on this computer"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(QFile::exists(local), existed);
    if (existed)
        QCOMPARE(QFileInfo(local).size(), 0);
    QVERIFY2(disk.usedBytes() < 64 * 1024, qPrintable(QString::number(disk.usedBytes())));
}

void TestCopyDriver::writeKeepsForeignFile()
{
    // A write does not overwrite a file that Wirebench did not write; it does overwrite its own.
    const QString path = m_mount.filePath(QStringLiteral("theirs/keep.bin"));
    const QByteArray digest = makeForeignFile(path, 12345, QString());
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("copy-write"), 1024 * 1024, path), o);
    WB_CHECK(failedWith(r, QStringLiteral("foreign_file")));
    QVERIFY2(
        r.error.contains(QStringLiteral("already exists on the server (12345 bytes) and is not a Wirebench test file")),
        qPrintable(r.error));
    QCOMPARE(fileDigest(path), digest);
    const QString own = m_mount.filePath(QStringLiteral("theirs/wirebench-own.bin"));
    QVERIFY(!makeTestPatternFile(own, 1000, QString()).isEmpty());
    const RunResult put = runSpec(spec(QStringLiteral("copy-write"), 1024 * 1024, own), o);
    QVERIFY2(put.ok(), qPrintable(put.error));
    QCOMPARE(patternMismatchInFile(own, 1024 * 1024), -1);
}

QTEST_GUILESS_MAIN(TestCopyDriver)
#include "TestCopyDriver.moc"
