// FTP GET and PUT against a real vsftpd on 127.0.0.1.
#include "FileServerFixture.h"
#include "SmallLocalDisk.h"

#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"

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

qint64 patternMismatchInFile(const QString &path, qint64 expectedSize)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() != expectedSize)
        return -2;
    const QByteArray all = f.readAll();
    return TestPattern::firstMismatch(all.constData(), 0, all.size());
}

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
    RunSpec s;
    s.protocol = protocol;
    s.host = m_servers->ftpHost();
    s.host.options.insert(QStringLiteral("ftp.path"), path);
    s.frameSize = 1500;
    s.params.fileSizeBytes = size;
    s.params.options.insert(QLatin1String(TransferSettings::VerifyKey), true);
    return s;
}

RunResult TestFtpDriver::runSpec(const RunSpec &s, TestObserver &observer) const
{
    auto driver = DriverRegistry::create(s.protocol);
    Q_ASSERT(driver);
    return driver->run(s, observer);
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

    TestObserver get;
    const RunResult down = runSpec(spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("put.bin")), get);
    QVERIFY2(down.ok(), qPrintable(down.error));
    QCOMPARE(down.bytes, FourMiB);
    QVERIFY(down.seconds > 0);
    QVERIFY(!down.extra.contains(QStringLiteral("seeded")));
    QVERIFY(down.extra.contains(QStringLiteral("verified")));
    QVERIFY2(down.warnings.isEmpty(), qPrintable(down.warnings.join(QLatin1Char('|')))); // no "read as it is"
    QVERIFY(!down.extra.contains(QStringLiteral("read_as_found")));
    qint64 sampled = 0;
    for (const Sample &s : down.samples)
        sampled += s.bytes;
    QCOMPARE(sampled, FourMiB); // the live samples add up to the figure's bytes
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
    TestObserver o;
    const RunResult r = runSpec(s, o);
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
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_path"));
    QVERIFY2(r.error.contains(QStringLiteral("test-vsftpd")) && r.error.contains(QStringLiteral("FTP GET"))
                 && r.error.contains(QStringLiteral("does-not-exist.bin")),
             qPrintable(r.error));
    QVERIFY(!r.error.contains(QLatin1Char('\n')));
    QVERIFY(!QFile::exists(m_servers->ftpRoot() + QStringLiteral("/does-not-exist.bin")));
}

void TestFtpDriver::putIntoMissingFolder()
{
    WB_REQUIRE(m_ready, m_why);
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("no/such/dir/x.bin")), o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_path"));
    QVERIFY2(r.error.contains(QStringLiteral("check the path")), qPrintable(r.error));
}

void TestFtpDriver::wrongPassword()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("pw.bin"));
    s.host.options.insert(QStringLiteral("ftp.password"), QStringLiteral("not-the-password-42"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("login_refused"));
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
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("login_refused"));
    QVERIFY(!r.error.contains(m_servers->password()));
}

void TestFtpDriver::serverNotListening()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("x.bin"));
    const quint16 port = FileServerFixture::closedPort();
    s.host.options.insert(QStringLiteral("ftp.port"), port);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("not_listening"));
    QVERIFY2(r.error.contains(QString::number(port)), qPrintable(r.error));
}

void TestFtpDriver::stopMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {QStringLiteral("ftp-put"), QStringLiteral("ftp-get")}) {
        RunSpec s = spec(protocol, 64LL * 1024 * 1024, QStringLiteral("slow.bin"));
        s.params.options.insert(QLatin1String(TransferSettings::MaxRateKey), 4 * 1024 * 1024);
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
        RunSpec s = spec(protocol, 64LL * 1024 * 1024, QStringLiteral("slow.bin"));
        s.params.options.insert(QLatin1String(TransferSettings::MaxRateKey), 4 * 1024 * 1024);
        TestObserver o;
        int killed = 0;
        o.onSample = [&](int n) {
            if (n == 3)
                killed = m_servers->killSessions(true);
        };
        const RunResult r = runSpec(s, o);
        qInfo("%s", qPrintable(r.error));
        QVERIFY(killed > 0);
        QCOMPARE(r.status, RunStatus::Failed);
        QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("closed_mid_transfer"));
        QVERIFY2(r.error.contains(QStringLiteral("test-vsftpd")) && r.error.contains(QStringLiteral("closed")),
                 qPrintable(r.error));
        QVERIFY(!r.samples.isEmpty());
    }
}

void TestFtpDriver::ftpsPutThenGetByteExact()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB + 777, QStringLiteral("tls.bin"));
    s.host = m_servers->ftpsHost();
    s.host.options.insert(QStringLiteral("ftp.path"), QStringLiteral("tls.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("CA file"));
    s.host.options.insert(QStringLiteral("ftp.tls_ca_file"), m_servers->caFile());
    TestObserver put;
    const RunResult up = runSpec(s, put);
    QVERIFY2(up.ok(), qPrintable(up.error));
    QCOMPARE(up.bytes, FourMiB + 777);
    QVERIFY(up.extra.contains(QStringLiteral("verified")));
    QCOMPARE(up.extra.value(QStringLiteral("tls_trust")).toString(), QStringLiteral("CA file ") + m_servers->caFile());
    QVERIFY(up.warnings.isEmpty());
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/tls.bin"), FourMiB + 777), -1);

    s.protocol = QStringLiteral("ftp-get");
    TestObserver get;
    const RunResult down = runSpec(s, get);
    QVERIFY2(down.ok(), qPrintable(down.error));
    QCOMPARE(down.bytes, FourMiB + 777);
    QVERIFY(!down.extra.contains(QStringLiteral("seeded")));
    QVERIFY(down.extra.contains(QStringLiteral("verified"))); // every byte checked against the pattern
    QVERIFY2(down.serverOs.contains(QStringLiteral("vsFTPd")), qPrintable(down.serverOs));
    QVERIFY(down.mss > 0);

    // The same server refuses a login without TLS: so the runs above were encrypted.
    s.host.options.insert(QStringLiteral("ftp.tls"), false);
    TestObserver plain;
    const RunResult refused = runSpec(s, plain);
    qInfo("%s", qPrintable(refused.error));
    QCOMPARE(refused.status, RunStatus::Failed);
    QCOMPARE(refused.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("tls_required"));
    QVERIFY2(refused.error.contains(QStringLiteral("Explicit FTPS")), qPrintable(refused.error));
}

void TestFtpDriver::ftpsAcceptAnyCertificate()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    RunSpec s = spec(QStringLiteral("ftp-get"), FourMiB, QStringLiteral("tls-any.bin"));
    s.host = m_servers->ftpsHost();
    s.host.options.insert(QStringLiteral("ftp.path"), QStringLiteral("tls-any.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("accept any certificate (insecure)"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, FourMiB);
    QVERIFY2(r.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("not checked")), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QStringLiteral("/tls-any.bin"), FourMiB), -1);
}

void TestFtpDriver::ftpsUntrustedCertificate()
{
    WB_REQUIRE(m_ftps, m_ftpsWhy);
    for (const QString &protocol : {QStringLiteral("ftp-put"), QStringLiteral("ftp-get")}) {
        RunSpec s = spec(protocol, FourMiB, QStringLiteral("untrusted.bin"));
        s.host = m_servers->ftpsHost(); // system CAs: the test CA is not among them
        s.host.options.insert(QStringLiteral("ftp.path"), QStringLiteral("untrusted.bin"));
        TestObserver o;
        const RunResult r = runSpec(s, o);
        qInfo("%s", qPrintable(r.error));
        QCOMPARE(r.status, RunStatus::Failed);
        QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("tls_untrusted"));
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
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("tls_untrusted"));
    QVERIFY2(r.error.contains(QStringLiteral("no-such-ca.pem")), qPrintable(r.error));
}

void TestFtpDriver::ftpsRequiredButServerHasNoTls()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("ftp-put"), FourMiB, QStringLiteral("plain-tls.bin"));
    s.host.options.insert(QStringLiteral("ftp.tls"), true);
    s.host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("accept any certificate (insecure)"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("tls_not_offered"));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpPort())),
             qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("does not offer explicit FTPS")), qPrintable(r.error));
    QVERIFY(!QFile::exists(m_servers->ftpRoot() + QStringLiteral("/plain-tls.bin"))); // the password never went out in clear
}

void TestFtpDriver::remoteDiskFull()
{
    WB_REQUIRE(m_ready && m_smallDisk, m_smallDiskWhy);
    const qint64 size = 64LL * 1024 * 1024; // four times the server's 16 MiB tmpfs
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("ftp-put"), size, QStringLiteral("full/big.bin")), o);
    const QString problem = faultProblem(r, QStringLiteral("remote_disk_full"),
                                         QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP PUT: ").arg(m_servers->ftpPort()),
                                         QStringLiteral("the server's disk is full"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestFtpDriver::ftpsRemoteDiskFull()
{
    WB_REQUIRE(m_ftps && m_smallDisk, m_ftps ? m_smallDiskWhy : m_ftpsWhy);
    const qint64 size = 64LL * 1024 * 1024;
    RunSpec s = spec(QStringLiteral("ftp-put"), size, QStringLiteral("full/big-tls.bin"));
    s.host = m_servers->ftpsHost();
    s.host.options.insert(QStringLiteral("ftp.path"), QStringLiteral("full/big-tls.bin"));
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
    const qint64 size = 16LL * 1024 * 1024;
    RunSpec s = spec(QStringLiteral("ftp-get"), size, QStringLiteral("to-full.bin"));
    sinkToFile(s, QStringLiteral("/dev/full"));
    TestObserver o;
    const QString problem = faultProblem(runSpec(s, o), QStringLiteral("local_disk_full"),
                                         QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: ").arg(m_servers->ftpPort()),
                                         QStringLiteral("the local disk is full while writing /dev/full"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestFtpDriver::getReadsForeignFileAsItIs_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("readOnly");
    QTest::newRow("writable folder") << QStringLiteral("theirs/foreign.bin") << false;
    QTest::newRow("read-only folder") << QStringLiteral("pub/big.bin") << true;
    QTest::newRow("Wirebench's name, someone's content") << QStringLiteral("theirs/wirebench-lookalike.bin") << false;
}

void TestFtpDriver::getReadsForeignFileAsItIs()
{
    // Seen in issue 12: a GET on pub/big.bin with transfer.create_seed on replaced the file with a test file (and on
    // a read-only folder warned "replaced" after a 553). Someone else's file is read as it is and never touched.
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, path);
    QFETCH(bool, readOnly);
    const QString full = m_servers->ftpRoot() + QLatin1Char('/') + path;
    const QString folder = QFileInfo(full).absolutePath();
    QVERIFY(readOnly ? makeReadOnlyFolder(folder) : QDir().mkpath(folder));
    if (!readOnly)
        QCOMPARE(QProcess::execute(QStringLiteral("chown"), {m_servers->user(), folder}), 0);
    const qint64 found = 3 * 1024 * 1024 + 5;
    const qint64 planned = 1024 * 1024;
    const QByteArray digest = makeForeignFile(full, found, readOnly ? QString() : m_servers->user());
    QVERIFY(!digest.isEmpty());
    const QDateTime modified = QFileInfo(full).lastModified();

    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("ftp-get"), planned, path), o); // transfer.verify on
    qInfo("%s", qPrintable(r.warnings.join(QLatin1Char('|'))));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(fileDigest(full), digest); // byte-identical
    QCOMPARE(QFileInfo(full).lastModified(), modified);
    QCOMPARE(r.bytes, found); // the file's real size is the transfer's
    QCOMPARE(r.senderBytes, found);
    QVERIFY(!r.extra.contains(QStringLiteral("seeded")));
    QVERIFY(!r.extra.contains(QStringLiteral("verified")));
    QCOMPARE(r.extra.value(QStringLiteral("read_as_found")).toBool(), true);
    QCOMPARE(r.warnings.size(), 1);
    const QString w = r.warnings.first();
    QVERIFY2(w.contains(QStringLiteral("\"%1\" on the server holds %2 bytes, not the plan's %3").arg(path).arg(found).arg(planned))
                 && w.contains(QStringLiteral("not a Wirebench test file")) && w.contains(QStringLiteral("read as it is"))
                 && w.contains(QStringLiteral("left unchanged")) && w.contains(QStringLiteral("not verified")),
             qPrintable(w));
    QVERIFY(!w.contains(QStringLiteral("replaced")));
}

void TestFtpDriver::getReplacesItsOwnTestFile()
{
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("wirebench-resize.bin");
    TestObserver first;
    const RunResult small = runSpec(spec(QStringLiteral("ftp-get"), 1024 * 1024, path), first);
    QVERIFY2(small.ok(), qPrintable(small.error));
    QCOMPARE(small.extra.value(QStringLiteral("seeded")).toBool(), true);
    QVERIFY(!small.extra.contains(QStringLiteral("replaced_test_file_bytes")));

    const qint64 size = 2 * 1024 * 1024 + 3;
    TestObserver second;
    const RunResult big = runSpec(spec(QStringLiteral("ftp-get"), size, path), second);
    QVERIFY2(big.ok(), qPrintable(big.error));
    QCOMPARE(big.bytes, size);
    QCOMPARE(big.extra.value(QStringLiteral("seeded")).toBool(), true);
    QCOMPARE(big.extra.value(QStringLiteral("replaced_test_file_bytes")).toLongLong(), 1024 * 1024);
    QVERIFY(big.extra.contains(QStringLiteral("verified")));
    QVERIFY2(big.warnings.isEmpty(), qPrintable(big.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QLatin1Char('/') + path, size), -1);
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
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("ftp-get"), 2 * 1024 * 1024, path), o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("permission_denied"));
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
    RunSpec s = spec(QStringLiteral("ftp-get"), size, QStringLiteral("to-small-disk.bin"));
    const QString local = disk.path() + QStringLiteral("/download.bin");
    sinkToFile(s, local);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    const QString problem = faultProblem(r, QStringLiteral("local_disk_full"),
                                         QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: the local disk is full while writing %2 (")
                                             .arg(m_servers->ftpPort())
                                             .arg(local),
                                         QStringLiteral("B received); the partial file was removed: free space on this computer"),
                                         size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(!QFile::exists(local));
    QVERIFY2(disk.usedBytes() < 64 * 1024, qPrintable(QString::number(disk.usedBytes())));
}

void TestFtpDriver::writeKeepsForeignFile()
{
    // A PUT does not overwrite a file that Wirebench did not write; it does overwrite its own.
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("theirs/keep.bin");
    const QString full = m_servers->ftpRoot() + QLatin1Char('/') + path;
    QVERIFY(QDir().mkpath(QFileInfo(full).absolutePath()));
    QCOMPARE(QProcess::execute(QStringLiteral("chown"), {m_servers->user(), QFileInfo(full).absolutePath()}), 0);
    const QByteArray digest = makeForeignFile(full, 12345, m_servers->user());
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("ftp-put"), FourMiB, path), o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("foreign_file"));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP PUT: \"theirs/keep.bin\" already exists on "
                                               "the server (12345 bytes) and is not a Wirebench test file")
                                    .arg(m_servers->ftpPort()))
                 && r.error.contains(QStringLiteral("Wirebench does not overwrite it: choose another file name")),
             qPrintable(r.error));
    QCOMPARE(fileDigest(full), digest);

    const QString own = QStringLiteral("theirs/wirebench-own.bin");
    QVERIFY(!makeTestPatternFile(m_servers->ftpRoot() + QLatin1Char('/') + own, 1000, m_servers->user()).isEmpty());
    const RunResult put = runSpec(spec(QStringLiteral("ftp-put"), FourMiB, own), o);
    QVERIFY2(put.ok(), qPrintable(put.error));
    QCOMPARE(patternMismatchInFile(m_servers->ftpRoot() + QLatin1Char('/') + own, FourMiB), -1);
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
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("wrong_service"));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-vsftpd (127.0.0.1:%1): FTP GET: port %1 of 127.0.0.1 holds an SMB "
                                               "server, not FTP: it sent no greeting within 3 s and answered an SMB NEGOTIATE: "
                                               "check the port in the host's settings")
                                    .arg(m_servers->smbPort())),
             qPrintable(r.error));
}

QTEST_GUILESS_MAIN(TestFtpDriver)
#include "TestFtpDriver.moc"
