// FTP GET and PUT against a real vsftpd on 127.0.0.1.
#include "FileServerFixture.h"
#include "SmallLocalDisk.h"

#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"
#include "support/TransferDriverChecks.h"
#include "support/TransferDriverSuite.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>

using namespace wb;
using namespace wb::test;

// The cases every file-transfer driver passes run first (TransferDriverSuite: stop and server lost mid-transfer,
// full disks, someone else's files, Wirebench's own test file, the SMB server on the FTP port); then FTP's own.
class TestFtpDriver : public TransferDriverSuite
{
    Q_OBJECT

public:
    TestFtpDriver()
        : TransferDriverSuite({true,
                               QStringLiteral("ftp-get"),
                               QStringLiteral("ftp-put"),
                               QStringLiteral("test-vsftpd"),
                               QStringLiteral("FTP GET"),
                               QStringLiteral("FTP PUT"),
                               QStringLiteral("slow.bin"),
                               true,
                               {QStringLiteral("left unchanged")}})
    {
    }

private slots:
    void initTestCase();
    void putThenGetByteExact();
    void getSeedsMissingFile();
    void activeMode();
    void getMissingFileWithoutSeed();
    void putIntoMissingFolder();
    void wrongPassword();
    void unknownUser();
    void serverNotListening();
    void ftpsPutThenGetByteExact();
    void ftpsAcceptAnyCertificate();
    void ftpsUntrustedCertificate();
    void ftpsMissingCaFile();
    void ftpsRequiredButServerHasNoTls();
    void ftpsRemoteDiskFull();

private:
    /// spec() against the FTPS server.
    RunSpec ftpsSpec(const QString &protocol, qint64 size, const QString &path) const;
    void checkEndedMidTransfer(const RunResult &r, bool killed) const override;
    void checkReplaced(const RunResult &small, const RunResult &big) const override;
    void checkRefusedToReplace(const RunResult &r) const override;
    void checkWrongService(const RunResult &r) const override;

    bool m_ftps = false;
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

RunSpec TestFtpDriver::ftpsSpec(const QString &protocol, qint64 size, const QString &path) const
{
    return transferSpec(protocol, m_servers->ftpsHost(), QStringLiteral("ftp.path"), path, size);
}

void TestFtpDriver::checkEndedMidTransfer(const RunResult &r, bool killed) const
{
    if (killed)
        QVERIFY2(r.error.contains(QStringLiteral("test-vsftpd")) && r.error.contains(QStringLiteral("closed")),
                 qPrintable(r.error));
    else
        QVERIFY(r.seconds > 0);
}

void TestFtpDriver::checkReplaced(const RunResult &small, const RunResult &big) const
{
    QVERIFY(!small.extra.contains(QStringLiteral("replaced_test_file_bytes")));
    QCOMPARE(big.extra.value(QStringLiteral("seeded")).toBool(), true);
}

void TestFtpDriver::checkRefusedToReplace(const RunResult &r) const
{
    QVERIFY2(r.error.startsWith(errorStart(true)) && r.error.contains(QStringLiteral("refused to store")),
             qPrintable(r.error));
    QVERIFY(!r.extra.contains(QStringLiteral("seeded")));
}

void TestFtpDriver::checkWrongService(const RunResult &r) const
{
    QVERIFY2(r.error.startsWith(
                 QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: port %1 of 127.0.0.1 holds an SMB "
                                "server, not FTP: it sent no greeting within 3 s and answered an SMB NEGOTIATE: "
                                "check the port in the host's settings")
                     .arg(m_servers->smbPort())),
             qPrintable(r.error));
}

void TestFtpDriver::putThenGetByteExact()
{
    WB_REQUIRE(m_ready, m_why);
    TestObserver put;
    const RunResult up = runDriver(spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("put.bin")), put);
    QVERIFY2(up.ok(), qPrintable(up.error));
    QCOMPARE(up.bytes, FourMiB); // the server's SIZE
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
    const RunResult r = runDriver(spec(QStringLiteral("ftp-get"), size, QStringLiteral("seeded.bin")), o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, size);
    QCOMPARE(r.extra.value(QStringLiteral("seeded")).toBool(), true);
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/seeded.bin"), size), -1);
}

void TestFtpDriver::activeMode()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("active.bin"));
    s.host.options.insert(QStringLiteral("ftp.active"), true);
    TestObserver o;
    const RunResult r = runDriver(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/active.bin"), FourMiB), -1);
    s.protocol = QStringLiteral("ftp-get");
    const RunResult g = runDriver(s, o);
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
    QVERIFY2(r.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("not checked")),
             qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/tls-any.bin"), FourMiB), -1);
}

void TestFtpDriver::ftpsUntrustedCertificate()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    for (const QString &protocol : {QStringLiteral("ftp-put"), QStringLiteral("ftp-get")}) {
        RunSpec s
            = ftpsSpec(protocol, FourMiB, QStringLiteral("untrusted.bin")); // system CAs: the test CA is not among them
        const RunResult r = runDriver(s);
        WB_CHECK(failedWith(r, QStringLiteral("tls_untrusted")));
        QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd-tls (127.0.0.1:%1): FTP ").arg(m_servers->ftpsPort())),
                 qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("certificate not trusted"))
                     && r.error.contains(QStringLiteral("CA file")),
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
    QVERIFY(!QFile::exists(m_servers->ftpRoot()
                           + QStringLiteral("/plain-tls.bin"))); // the password never went out in clear
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
    const QString problem
        = faultProblem(runDriver(s, o), QStringLiteral("closed_mid_transfer"),
                       QStringLiteral("test-vsftpd-tls (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpsPort()),
                       QStringLiteral("a full disk on the server is a common one"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

QTEST_GUILESS_MAIN(TestFtpDriver)
#include "TestFtpDriver.moc"
