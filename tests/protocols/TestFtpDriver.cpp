// FTP GET and PUT against a real vsftpd on 127.0.0.1.
#include "FileServerFixture.h"
#include "SmallLocalDisk.h"

#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"
#include "support/TransferDriverChecks.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>

using namespace wb;
using namespace wb::test;

namespace {

constexpr qint64 FourMiB = 4LL * 1024 * 1024;
constexpr qint64 SmallDiskBytes = 16LL * 1024 * 1024;

} // namespace

class TestFtpDriver : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void putThenGetByteExact();
    void getSeedsMissingFile();
    void getToLocalFile();
    void activeMode();
    void getMissingFileWithoutSeed();
    void putIntoMissingFolder();
    void wrongPassword();
    void unknownUser();
    void serverNotListening();
    void stopMidTransfer();
    void serverKilledMidTransfer();
    void ftpsPutThenGetByteExact();
    void ftpsAcceptAnyCertificate();
    void ftpsUntrustedCertificate();
    void ftpsMissingCaFile();
    void ftpsRequiredButServerHasNoTls();
    void remoteDiskFull();
    void ftpsRemoteDiskFull();
    void localDiskFull();
    void getReadsForeignFileAsItIs_data();
    void getReadsForeignFileAsItIs();
    void getReplacesItsOwnTestFile();
    void getOwnTestFileInReadOnlyFolder();
    void fullLocalDiskKeepsNoPartialFile();
    void writeKeepsForeignFile();
    void smbServerOnTheFtpPort();

private:
    RunSpec spec(const QString &protocol, qint64 size, const QString &path) const;
    /// The same against the FTPS server.
    RunSpec ftpsSpec(const QString &protocol, qint64 size, const QString &path) const;
    RunResult runSpec(const RunSpec &s, TestObserver &observer) const;

    std::unique_ptr<FileServerFixture> m_servers;
    bool m_ready = false;
    bool m_smallDisk = false;
    bool m_ftps = false;
    QString m_why;
    QString m_smallDiskWhy;
    QString m_ftpsWhy;
};

void TestFtpDriver::initTestCase()
{
    m_servers = std::make_unique<FileServerFixture>();
    m_ready = m_servers->prepare(&m_why);
    if (m_ready)
        m_smallDisk = m_servers->useSmallDisk(SmallDiskBytes, &m_smallDiskWhy);
    m_ready = m_ready && m_servers->startFtp(&m_why);
    if (!m_ready)
        qWarning("%s", qPrintable(m_why));
    m_ftps = m_ready && m_servers->startFtps(&m_ftpsWhy);
    if (!m_ready) {
        m_smallDiskWhy = m_why;
        m_ftpsWhy = m_why;
    }
    QVERIFY(DriverRegistry::has(QStringLiteral("ftp-get")));
    QVERIFY(DriverRegistry::has(QStringLiteral("ftp-put")));
}

void TestFtpDriver::cleanupTestCase()
{
    m_servers.reset();
}

RunSpec TestFtpDriver::spec(const QString &protocol, qint64 size, const QString &path) const
{
    return transferSpec(protocol, m_servers->ftpHost(), QStringLiteral("ftp.path"), path, size);
}

RunSpec TestFtpDriver::ftpsSpec(const QString &protocol, qint64 size, const QString &path) const
{
    return transferSpec(protocol, m_servers->ftpsHost(), QStringLiteral("ftp.path"), path, size);
}

RunResult TestFtpDriver::runSpec(const RunSpec &s, TestObserver &observer) const
{
    return runDriver(s, observer);
}

void TestFtpDriver::putThenGetByteExact()
{
    WB_REQUIRE(m_ready, m_why);
    TestObserver put;
    const RunResult up = runSpec(spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("put.bin")), put);
    QVERIFY2(up.ok(), qPrintable(up.error));
    QCOMPARE(up.bytes, FourMiB);      // the server's SIZE
    QCOMPARE(up.senderBytes, FourMiB);
    QVERIFY(up.seconds > 0);
    QVERIFY(!up.samples.isEmpty());
    QVERIFY(up.extra.contains(QStringLiteral("verified")));
    // What vsftpd stored, read independently of the driver.
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/put.bin"), FourMiB), -1);
    // Identity from the greeting and SYST.
    QVERIFY2(up.serverOs.contains(QStringLiteral("vsFTPd")), qPrintable(up.serverOs));
    QVERIFY2(up.serverOs.contains(QStringLiteral("UNIX")), qPrintable(up.serverOs));
    QVERIFY(up.extra.value(QStringLiteral("server_identity_source")).toString().contains(QStringLiteral("SYST")));
    QVERIFY2(up.mss > 0 && up.mss <= 1460, qPrintable(QString::number(up.mss)));

    const RunResult down = runDriver(spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("put.bin")));
    QVERIFY2(down.ok(), qPrintable(down.error));
    QCOMPARE(down.bytes, FourMiB);
    QVERIFY(down.seconds > 0);
    QVERIFY(!down.extra.contains(QStringLiteral("seeded")));
    QVERIFY(down.extra.contains(QStringLiteral("verified")));
    QVERIFY2(down.warnings.isEmpty(), qPrintable(down.warnings.join(QLatin1Char('|')))); // no "read as it is"
    QVERIFY(!down.extra.contains(QStringLiteral("read_as_found")));
    QCOMPARE(sampledBytes(down), FourMiB); // the live samples add up to the figure's bytes
    QVERIFY2(down.mss > 0 && down.mss <= 1460, qPrintable(QString::number(down.mss)));
}

void TestFtpDriver::getSeedsMissingFile()
{
    WB_REQUIRE(m_ready, m_why);
    TestObserver o;
    const qint64 size = 3 * 1024 * 1024 + 17; // not a multiple of anything
    const RunResult r = runSpec(spec(QStringLiteral("ftp-get"), size, QStringLiteral("seeded.bin")), o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, size);
    QCOMPARE(r.extra.value(QStringLiteral("seeded")).toBool(), true);
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/seeded.bin"), size), -1);
}

void TestFtpDriver::getToLocalFile()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("tofile.bin"));
    const QString local = m_servers->scratch() + QStringLiteral("/ftp-get-sink.bin");
    s.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), local);
    s.params.options.insert(QLatin1String(TransferSettings::UnbufferedKey), true);
    const RunResult r = runDriver(s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(patternMismatchInFile(local, FourMiB), -1);
    QVERIFY(r.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
}

void TestFtpDriver::activeMode()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("active.bin"));
    s.host.options.insert(QStringLiteral("ftp.active"), true);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/active.bin"), FourMiB), -1);
    s.protocol = QStringLiteral("ftp-get");
    const RunResult g = runSpec(s, o);
    QVERIFY2(g.ok(), qPrintable(g.error));
    QCOMPARE(g.bytes, FourMiB);
}

void TestFtpDriver::getMissingFileWithoutSeed()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("does-not-exist.bin"));
    s.params.options.insert(QLatin1String(TransferSettings::CreateSeedKey), false);
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("no_such_path")));
    QVERIFY2(r.error.contains(QStringLiteral("test-vsftpd")) && r.error.contains(QStringLiteral("FTP GET"))
                 && r.error.contains(QStringLiteral("does-not-exist.bin")),
             qPrintable(r.error));
    QVERIFY(!r.error.contains(QLatin1Char('\n')));
    QVERIFY(!QFile::exists(m_servers->ftpRoot() + QStringLiteral("/does-not-exist.bin")));
}

void TestFtpDriver::putIntoMissingFolder()
{
    WB_REQUIRE(m_ready, m_why);
    const RunResult r = runDriver(spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("no/such/dir/x.bin")));
    WB_CHECK(failedWith(r, QStringLiteral("no_such_path")));
    QVERIFY2(r.error.contains(QStringLiteral("check the path")), qPrintable(r.error));
}

void TestFtpDriver::wrongPassword()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("pw.bin"));
    s.host.options.insert(QStringLiteral("ftp.password"), QStringLiteral("not-the-password-42"));
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("login_refused")));
    QVERIFY2(r.error.contains(m_servers->user()) && r.error.contains(QStringLiteral("password")), qPrintable(r.error));
    QVERIFY(!r.error.contains(QStringLiteral("not-the-password-42")));
    for (const QVariant &v : r.extra)
        QVERIFY(!v.toString().contains(QStringLiteral("not-the-password-42")));
}

void TestFtpDriver::unknownUser()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("put.bin"));
    s.host.options.insert(QStringLiteral("ftp.user"), QStringLiteral("nobody-like-this"));
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("login_refused")));
    QVERIFY(!r.error.contains(m_servers->password()));
}

void TestFtpDriver::serverNotListening()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("x.bin"));
    const quint16 port = FileServerFixture::closedPort();
    s.host.options.insert(QStringLiteral("ftp.port"), port);
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("not_listening")));
    QVERIFY2(r.error.contains(QString::number(port)), qPrintable(r.error));
}

void TestFtpDriver::stopMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {QStringLiteral("ftp-put"), QStringLiteral("ftp-get")}) {
        RunSpec s = rateLimited(spec(protocol, 64LL * 1024 * 1024, QStringLiteral("slow.bin")));
        TestObserver o;
        o.onSample = [&o](int n) {
            if (n == 3)
                o.stop.store(true);
        };
        const RunResult r = runSpec(s, o);
        qInfo("%s: %s after %lld bytes", qPrintable(protocol), qPrintable(r.error), r.bytes);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QVERIFY(r.samples.size() >= 3); // what was measured is kept
        QVERIFY2(r.bytes > 0 && r.bytes < s.params.fileSizeBytes, qPrintable(QString::number(r.bytes)));
        QVERIFY(r.seconds > 0);
    }
}

void TestFtpDriver::serverKilledMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {QStringLiteral("ftp-get"), QStringLiteral("ftp-put")}) {
        RunSpec s = rateLimited(spec(protocol, 64LL * 1024 * 1024, QStringLiteral("slow.bin")));
        TestObserver o;
        int killed = 0;
        o.onSample = [&](int n) {
            if (n == 3)
                killed = m_servers->killSessions(true);
        };
        const RunResult r = runSpec(s, o);
        qInfo("%s", qPrintable(r.error));
        QVERIFY(killed > 0);
        WB_CHECK(failedWith(r, QStringLiteral("closed_mid_transfer")));
        QVERIFY2(r.error.contains(QStringLiteral("test-vsftpd")) && r.error.contains(QStringLiteral("closed")),
                 qPrintable(r.error));
        QVERIFY(!r.samples.isEmpty());
    }
}

void TestFtpDriver::ftpsPutThenGetByteExact()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    RunSpec s = ftpsSpec(QStringLiteral("ftp-put"), FourMiB + 777, QStringLiteral("tls.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("CA file"));
    s.host.options.insert(QStringLiteral("ftp.tls_ca_file"), m_servers->caFile());
    const RunResult up = runDriver(s);
    QVERIFY2(up.ok(), qPrintable(up.error));
    QCOMPARE(up.bytes, FourMiB + 777);
    QVERIFY(up.extra.contains(QStringLiteral("verified")));
    QCOMPARE(up.extra.value(QStringLiteral("tls_trust")).toString(), QStringLiteral("CA file ") + m_servers->caFile());
    QVERIFY(up.warnings.isEmpty());
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/tls.bin"), FourMiB + 777), -1);

    s.protocol = QStringLiteral("ftp-get");
    const RunResult down = runDriver(s);
    QVERIFY2(down.ok(), qPrintable(down.error));
    QCOMPARE(down.bytes, FourMiB + 777);
    QVERIFY(!down.extra.contains(QStringLiteral("seeded")));
    QVERIFY(down.extra.contains(QStringLiteral("verified"))); // every byte checked against the pattern
    QVERIFY2(down.serverOs.contains(QStringLiteral("vsFTPd")), qPrintable(down.serverOs));
    QVERIFY(down.mss > 0);

    // The same server refuses a login without TLS: so the runs above were encrypted.
    s.host.options.insert(QStringLiteral("ftp.tls"), false);
    const RunResult refused = runDriver(s);
    WB_CHECK(failedWith(refused, QStringLiteral("tls_required")));
    QVERIFY2(refused.error.contains(QStringLiteral("Explicit FTPS")), qPrintable(refused.error));
}

void TestFtpDriver::ftpsAcceptAnyCertificate()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    RunSpec s = ftpsSpec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("tls-any.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("accept any certificate (insecure)"));
    const RunResult r = runDriver(s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, FourMiB);
    QVERIFY2(r.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("not checked")), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/tls-any.bin"), FourMiB), -1);
}

void TestFtpDriver::ftpsUntrustedCertificate()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    for (const QString &protocol : {QStringLiteral("ftp-put"), QStringLiteral("ftp-get")}) {
        RunSpec s = ftpsSpec(protocol, FourMiB, QStringLiteral("untrusted.bin")); // system CAs: the test CA is not among them
        const RunResult r = runDriver(s);
        WB_CHECK(failedWith(r, QStringLiteral("tls_untrusted")));
        QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd-tls (127.0.0.1:%1): FTP ").arg(m_servers->ftpsPort())),
                 qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("certificate not trusted")) && r.error.contains(QStringLiteral("CA file")),
                 qPrintable(r.error));
        QVERIFY(!r.error.contains(QLatin1Char('\n')));
        QVERIFY(!r.error.contains(m_servers->password()));
        QVERIFY(!QFile::exists(m_servers->ftpRoot() + QStringLiteral("/untrusted.bin"))); // nothing was sent
    }
}

void TestFtpDriver::ftpsMissingCaFile()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("x.bin"));
    s.host = m_servers->ftpsHost();
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("CA file"));
    s.host.options.insert(QStringLiteral("ftp.tls_ca_file"), m_servers->path() + QStringLiteral("/no-such-ca.pem"));
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("tls_untrusted")));
    QVERIFY2(r.error.contains(QStringLiteral("no-such-ca.pem")), qPrintable(r.error));
}

void TestFtpDriver::ftpsRequiredButServerHasNoTls()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("plain-tls.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls"), true);
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("accept any certificate (insecure)"));
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("tls_not_offered")));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpPort())),
             qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("does not offer explicit FTPS")), qPrintable(r.error));
    QVERIFY(!QFile::exists(m_servers->ftpRoot() + QStringLiteral("/plain-tls.bin"))); // the password never went out in clear
}

void TestFtpDriver::remoteDiskFull()
{
    WB_REQUIRE(m_ready && m_smallDisk, m_smallDiskWhy);
    const qint64 size = 64LL * 1024 * 1024; // four times the server's 16 MiB tmpfs
    const RunResult r = runDriver(spec(QStringLiteral("ftp-put"), size, QStringLiteral("full/big.bin")));
    const QString problem = faultProblem(r, QStringLiteral("remote_disk_full"),
                                         QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpPort()),
                                         QStringLiteral("the server's disk is full"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestFtpDriver::ftpsRemoteDiskFull()
{
    WB_REQUIRE(m_ftps && m_smallDisk, m_ftps ? m_smallDiskWhy : m_ftpsWhy);
    const qint64 size = 64LL * 1024 * 1024;
    RunSpec s = ftpsSpec(QStringLiteral("ftp-put"), size, QStringLiteral("full/big-tls.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("CA file"));
    s.host.options.insert(QStringLiteral("ftp.tls_ca_file"), m_servers->caFile());
    TestObserver o;
    // vsftpd's "451 Failure writing to local file." is encrypted on the control connection libcurl drops:
    // the driver cannot prove a full disk here, and says so.
    const QString problem = faultProblem(runSpec(s, o), QStringLiteral("closed_mid_transfer"),
                                         QStringLiteral("test-vsftpd-tls (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpsPort()),
                                         QStringLiteral("a full disk on the server is a common one"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestFtpDriver::localDiskFull()
{
    WB_REQUIRE(m_ready, m_why);
    const RunSpec s = spec(QStringLiteral("ftp-get"), 16LL * 1024 * 1024, QStringLiteral("to-full.bin"));
    WB_CHECK(localDiskFullProblem(s, QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: ").arg(m_servers->ftpPort())));
}

void TestFtpDriver::getReadsForeignFileAsItIs_data()
{
    foreignFileRows();
}

void TestFtpDriver::getReadsForeignFileAsItIs()
{
    // Seen in issue 12: a GET on pub/big.bin with transfer.create_seed on replaced the file with a test file (and on
    // a read-only folder warned "replaced" after a 553). Someone else's file is read as it is and never touched.
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, path);
    QFETCH(bool, readOnly);
    WB_CHECK(readsForeignFileAsItIsProblem(
        [&](qint64 size, const QString &file) { return spec(QStringLiteral("ftp-get"), size, file); }, m_servers->ftpRoot(),
        m_servers->user(), path, readOnly, {QStringLiteral("left unchanged")}));
}

void TestFtpDriver::getReplacesItsOwnTestFile()
{
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("wirebench-resize.bin");
    RunResult small;
    RunResult big;
    WB_CHECK(replacesOwnTestFileProblem([&](qint64 size) { return spec(QStringLiteral("ftp-get"), size, path); },
                                        m_servers->ftpRoot() + QLatin1Char('/') + path, &small, &big));
    QVERIFY(!small.extra.contains(QStringLiteral("replaced_test_file_bytes")));
    QCOMPARE(big.extra.value(QStringLiteral("seeded")).toBool(), true);
}

void TestFtpDriver::getOwnTestFileInReadOnlyFolder()
{
    // Wirebench's own file may be replaced, but where the server refuses the upload the run says so, and nothing else.
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("ro/wirebench-ro.bin");
    const QString full = m_servers->ftpRoot() + QLatin1Char('/') + path;
    QVERIFY(makeReadOnlyFolder(QFileInfo(full).absolutePath()));
    const QByteArray digest = makeTestPatternFile(full, 1024 * 1024, QString());
    QVERIFY(!digest.isEmpty());
    const RunResult r = runDriver(spec(QStringLiteral("ftp-get"), 2 * 1024 * 1024, path));
    WB_CHECK(failedWith(r, QStringLiteral("permission_denied")));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: ").arg(m_servers->ftpPort()))
                 && r.error.contains(QStringLiteral("refused to store"))
                 && r.error.contains(QStringLiteral("while replacing Wirebench's 1048576-byte test file with a 2097152-byte one")),
             qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QVERIFY(!r.extra.contains(QStringLiteral("seeded")));
    QCOMPARE(fileDigest(full), digest);
}

void TestFtpDriver::fullLocalDiskKeepsNoPartialFile()
{
    // Seen in issue 12: a download that filled the local disk left its partial file, so the disk stayed full.
    WB_REQUIRE(m_ready, m_why);
    SmallLocalDisk disk;
    QString why;
    WB_REQUIRE(disk.mount(m_servers->scratch() + QStringLiteral("/small-ftp"), 4LL * 1024 * 1024, &why), why);
    const qint64 size = 16LL * 1024 * 1024;
    const RunSpec s = spec(QStringLiteral("ftp-get"), size, QStringLiteral("to-small-disk.bin"));
    WB_CHECK(fullLocalDiskProblem(s, disk, QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: ").arg(m_servers->ftpPort())));
}

void TestFtpDriver::writeKeepsForeignFile()
{
    // A PUT does not overwrite a file that Wirebench did not write; it does overwrite its own.
    WB_REQUIRE(m_ready, m_why);
    WB_CHECK(keepsForeignFileProblem([&](const QString &path) { return spec(QStringLiteral("ftp-put"), FourMiB, path); },
                                     m_servers->ftpRoot(), m_servers->user(),
                                     QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpPort())));
}

void TestFtpDriver::smbServerOnTheFtpPort()
{
    // Issue 12, the reverse of an FTP banner on the SMB port: libcurl waited 30 s for a greeting and said "no
    // progress for 30 s". The driver asks the silent port itself.
    WB_REQUIRE(m_ready, m_why);
    QString why;
    WB_REQUIRE(m_servers->smbPort() != 0 || m_servers->startSmb(&why), why);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("x.bin"));
    s.host.options.insert(QStringLiteral("ftp.port"), m_servers->smbPort());
    TestObserver o;
    QElapsedTimer clock;
    clock.start();
    const RunResult r = runSpec(s, o);
    qInfo("%s (after %.1f s)", qPrintable(r.error), clock.elapsed() / 1000.0);
    WB_CHECK(failedWith(r, QStringLiteral("wrong_service")));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: port %1 of 127.0.0.1 holds an SMB "
                                               "server, not FTP: it sent no greeting within 3 s and answered an SMB NEGOTIATE: "
                                               "check the port in the host's settings")
                                    .arg(m_servers->smbPort())),
             qPrintable(r.error));
}

QTEST_GUILESS_MAIN(TestFtpDriver)
#include "TestFtpDriver.moc"
