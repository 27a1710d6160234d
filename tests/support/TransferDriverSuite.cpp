#include "TransferDriverSuite.h"

#include "protocols/FileServerFixture.h"
#include "protocols/SmallLocalDisk.h"
#include "protocols/transfer/TransferSettings.h"
#include "support/TransferDriverChecks.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtTest>

#include <utility>

namespace wb::test {

TransferDriverSuite::TransferDriverSuite(Family family)
    : m_family(std::move(family))
{
}

TransferDriverSuite::~TransferDriverSuite() = default;

RunSpec TransferDriverSuite::spec(const QString &protocol, qint64 size, const QString &path) const
{
    return transferSpec(protocol, m_family.ftp ? m_servers->ftpHost() : m_servers->smbHost(),
                        m_family.ftp ? QStringLiteral("ftp.path") : QStringLiteral("smb.path"), path, size);
}

RunSpec TransferDriverSuite::slowSpec(const QString &protocol, const QString &path) const
{
    return rateLimited(spec(protocol, 64LL * 1024 * 1024, path));
}

RunSpec TransferDriverSuite::localDiskSpec(const QString &path) const
{
    return spec(m_family.read, 16LL * 1024 * 1024, path);
}

void TransferDriverSuite::checkEndedMidTransfer(const RunResult &, bool) const { }

void TransferDriverSuite::checkLocalDiskFull(const RunResult &) const { }

void TransferDriverSuite::checkReplaced(const RunResult &, const RunResult &) const { }

QString TransferDriverSuite::root() const
{
    return m_family.ftp ? m_servers->ftpRoot() : m_servers->smbRoot();
}

QString TransferDriverSuite::errorStart(bool reading) const
{
    return QStringLiteral("%1 (127.0.0.1:%2): %3: ")
        .arg(m_family.server)
        .arg(m_family.ftp ? m_servers->ftpPort() : m_servers->smbPort())
        .arg(reading ? m_family.readWords : m_family.writeWords);
}

void TransferDriverSuite::cleanupTestCase()
{
    m_servers.reset();
}

void TransferDriverSuite::readToLocalFile()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(m_family.read, FourMiB, QStringLiteral("tofile.bin"));
    const QString local = m_servers->scratch() + QLatin1Char('/') + m_family.read + QStringLiteral("-sink.bin");
    s.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), local);
    if (m_family.unbufferedSink)
        s.params.options.insert(QLatin1String(TransferSettings::UnbufferedKey), true);
    const RunResult r = runDriver(s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(patternMismatchInFile(local, FourMiB), -1);
    QVERIFY(r.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
}

void TransferDriverSuite::stopMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {m_family.write, m_family.read}) {
        const RunSpec s = slowSpec(protocol, QStringLiteral("slow.bin"));
        TestObserver o;
        o.onSample = [&o](int n) {
            if (n == 3)
                o.stop.store(true);
        };
        const RunResult r = runDriver(s, o);
        qInfo("%s: %s after %lld bytes", qPrintable(protocol), qPrintable(r.error), r.bytes);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QVERIFY(r.samples.size() >= 3); // what was measured is kept
        QVERIFY2(r.bytes > 0 && r.bytes < s.params.fileSizeBytes, qPrintable(QString::number(r.bytes)));
        checkEndedMidTransfer(r, false);
        if (QTest::currentTestFailed())
            return;
    }
}

void TransferDriverSuite::serverKilledMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {m_family.read, m_family.write}) {
        const RunSpec s = slowSpec(protocol, m_family.killedPath);
        TestObserver o;
        int killed = 0;
        o.onSample = [&](int n) {
            if (n == 3)
                killed = m_servers->killSessions(m_family.ftp);
        };
        const RunResult r = runDriver(s, o);
        qInfo("%s", qPrintable(r.error));
        QVERIFY(killed > 0);
        WB_CHECK(failedWith(r, QStringLiteral("closed_mid_transfer")));
        checkEndedMidTransfer(r, true);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!r.samples.isEmpty());
    }
}

void TransferDriverSuite::remoteDiskFull()
{
    WB_REQUIRE(m_ready && m_smallDisk, m_smallDiskWhy);
    const qint64 size = 64LL * 1024 * 1024; // four times the server's 16 MiB tmpfs
    const RunResult r = runDriver(spec(m_family.write, size, QStringLiteral("full/big.bin")));
    WB_CHECK(faultProblem(r, QStringLiteral("remote_disk_full"), errorStart(false),
                          QStringLiteral("the server's disk is full"), size));
}

void TransferDriverSuite::localDiskFull()
{
    WB_REQUIRE(m_ready, m_why);
    const RunSpec s = localDiskSpec(QStringLiteral("to-full.bin"));
    RunResult r;
    WB_CHECK(localDiskFullProblem(s, errorStart(true), &r));
    checkLocalDiskFull(r);
}

void TransferDriverSuite::readsForeignFileAsItIs_data()
{
    foreignFileRows();
}

void TransferDriverSuite::readsForeignFileAsItIs()
{
    // Seen in issue 12: a GET on pub/big.bin with transfer.create_seed on replaced the file with a test file (and on
    // a read-only folder warned "replaced" after a 553). Someone else's file of another size is read as it is and
    // never touched.
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, path);
    QFETCH(bool, readOnly);
    WB_CHECK(
        readsForeignFileAsItIsProblem([&](qint64 size, const QString &file) { return spec(m_family.read, size, file); },
                                      root(), m_servers->user(), path, readOnly, m_family.foreignAlsoSays));
}

void TransferDriverSuite::readReplacesItsOwnTestFile()
{
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("wirebench-resize.bin");
    RunResult small;
    RunResult big;
    WB_CHECK(replacesOwnTestFileProblem([&](qint64 size) { return spec(m_family.read, size, path); },
                                        root() + QLatin1Char('/') + path, &small, &big));
    checkReplaced(small, big);
}

void TransferDriverSuite::readOwnTestFileInReadOnlyFolder()
{
    // Wirebench's own file may be replaced, but where the server refuses the upload the run says so, and nothing else.
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("ro/wirebench-ro.bin");
    const QString full = root() + QLatin1Char('/') + path;
    QVERIFY(makeReadOnlyFolder(QFileInfo(full).absolutePath()));
    const QByteArray digest = makeTestPatternFile(full, 1024 * 1024, QString());
    QVERIFY(!digest.isEmpty());
    const RunResult r = runDriver(spec(m_family.read, 2 * 1024 * 1024, path));
    WB_CHECK(failedWith(r, QStringLiteral("permission_denied")));
    QVERIFY2(
        r.error.contains(QStringLiteral("while replacing Wirebench's 1048576-byte test file with a 2097152-byte one")),
        qPrintable(r.error));
    checkRefusedToReplace(r);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(fileDigest(full), digest);
}

void TransferDriverSuite::fullLocalDiskKeepsNoPartialFile()
{
    // Seen in issue 12: a download that filled the local disk left its partial file, so the disk stayed full.
    WB_REQUIRE(m_ready, m_why);
    SmallLocalDisk disk;
    QString why;
    const QString mountPoint
        = m_servers->scratch() + (m_family.ftp ? QStringLiteral("/small-ftp") : QStringLiteral("/small-smb"));
    WB_REQUIRE(disk.mount(mountPoint, 4LL * 1024 * 1024, &why), why);
    const RunSpec s = localDiskSpec(QStringLiteral("to-small-disk.bin"));
    RunResult r;
    WB_CHECK(fullLocalDiskProblem(s, disk, errorStart(true), &r));
    checkLocalDiskFull(r);
}

void TransferDriverSuite::writeKeepsForeignFile()
{
    // A write does not overwrite a file that Wirebench did not write; it does overwrite its own.
    WB_REQUIRE(m_ready, m_why);
    WB_CHECK(keepsForeignFileProblem([&](const QString &path) { return spec(m_family.write, FourMiB, path); }, root(),
                                     m_servers->user(), errorStart(false)));
}

void TransferDriverSuite::otherFileServerOnThePort()
{
    // Issue 12: an SMB server on the FTP port made libcurl wait 30 s for a greeting and say "no progress for 30 s";
    // an FTP server on the SMB port took 23 s and "the server stopped answering". Each driver asks the port itself.
    WB_REQUIRE(m_ready, m_why);
    QString why;
    const bool otherUp = m_family.ftp ? (m_servers->smbPort() != 0 || m_servers->startSmb(&why))
                                      : (m_servers->ftpPort() != 0 || m_servers->startFtp(&why));
    WB_REQUIRE(otherUp, why);
    RunSpec s = spec(m_family.read, FourMiB, QStringLiteral("x.bin"));
    s.host.options.insert(m_family.ftp ? QStringLiteral("ftp.port") : QStringLiteral("smb.port"),
                          m_family.ftp ? m_servers->smbPort() : m_servers->ftpPort());
    TestObserver o;
    QElapsedTimer clock;
    clock.start();
    const RunResult r = runDriver(s, o);
    qInfo("%s (after %.1f s)", qPrintable(r.error), clock.elapsed() / 1000.0);
    WB_CHECK(failedWith(r, QStringLiteral("wrong_service")));
    checkWrongService(r);
}

} // namespace wb::test
