// SMB read and write against an SMB server that is not Samba: impacket's smbserver (python3-impacket), started here
// on 127.0.0.7 with a share folder of its own. It answers a write past the end of a file as done and stores nothing,
// so the driver's several write connections would lose chunks: the write goes over one connection and says so.
// And a Samba that takes one connection to the share (max connections = 1): the same write goes over one.
#include "FileServerFixture.h"

#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TestPattern.h"
#include "support/CiRule.h"
#include "support/FreePort.h"
#include "support/TransferDriverChecks.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace wb;
using namespace wb::test;

namespace {

const QString ServerAddress = QStringLiteral("127.0.0.7");
const QString Python = QStringLiteral("/usr/bin/python3");
constexpr qint64 SixteenMiB = 16 * 1024 * 1024;

// impacket's own example (examples/smbserver.py) in a few lines, so that the test does not depend on /usr/share/doc.
const char *ServerScript = R"(import sys
from impacket import smbserver
from impacket.ntlm import compute_lmhash, compute_nthash
address, port, share, user, password = sys.argv[1:6]
server = smbserver.SimpleSMBServer(listenAddress=address, listenPort=int(port))
server.addShare('WB', share, '')
server.setSMB2Support(True)
server.addCredential(user, 0, compute_lmhash(password), compute_nthash(password))
server.setSMBChallenge('')
server.setLogFile('')
server.start()
)";

QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return hash.result();
}

} // namespace

class TestSmbOtherServer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void checkBeforeTheFirstRunPasses();
    void writeGoesOverOneConnectionAndSaysSo();
    void laterWriteRemembers();
    void oneConnectionAskedSaysNothing();
    void readOverConnections();
    void foreignFileUntouched();
    void secondConnectionRefused();

private:
    RunSpec spec(const QString &protocol, const QString &path, qint64 size) const;

    std::unique_ptr<QTemporaryDir> m_share;
    QProcess m_server;
    quint16 m_port = 0;
    bool m_ready = false;
    QString m_why;
};

void TestSmbOtherServer::initTestCase()
{
    QProcess probe;
    probe.start(Python, {QStringLiteral("-c"), QStringLiteral("import impacket.smbserver")});
    const bool hasImpacket
        = probe.waitForFinished(30000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
    if (!hasImpacket) {
        m_why = QStringLiteral("needs impacket's SMB server for %1 (apt-get install -y python3-impacket)").arg(Python);
        return;
    }
    m_share = std::make_unique<QTemporaryDir>();
    m_port = freeLoopbackPort();
    if (!m_share->isValid() || m_port == 0) {
        m_why = QStringLiteral("no share folder or free port for impacket's SMB server");
        return;
    }
    m_server.setProcessChannelMode(QProcess::MergedChannels);
    m_server.start(Python,
                   {QStringLiteral("-c"), QString::fromUtf8(ServerScript), ServerAddress, QString::number(m_port),
                    m_share->path(), QStringLiteral("wb"), QStringLiteral("pw")});
    if (!m_server.waitForStarted(10000)) {
        m_why = QStringLiteral("impacket's SMB server did not start: %1").arg(m_server.errorString());
        return;
    }
    // Listening once it takes a connection (the import takes a second or two).
    QElapsedTimer waited;
    waited.start();
    while (!m_ready && waited.elapsed() < 30000 && m_server.state() == QProcess::Running) {
        QTcpSocket socket;
        socket.connectToHost(ServerAddress, m_port);
        m_ready = socket.waitForConnected(500);
        if (!m_ready)
            QTest::qWait(100);
    }
    if (!m_ready)
        m_why = QStringLiteral("impacket's SMB server does not listen on %1:%2: %3")
                    .arg(ServerAddress)
                    .arg(m_port)
                    .arg(QString::fromLocal8Bit(m_server.readAll()));
}

void TestSmbOtherServer::cleanupTestCase()
{
    if (m_server.state() != QProcess::NotRunning) {
        m_server.terminate();
        if (!m_server.waitForFinished(5000)) {
            m_server.kill();
            m_server.waitForFinished(5000);
        }
    }
}

RunSpec TestSmbOtherServer::spec(const QString &protocol, const QString &path, qint64 size) const
{
    Host host;
    host.name = QStringLiteral("test-impacket");
    host.address = ServerAddress;
    host.options.insert(QStringLiteral("smb.share"), QStringLiteral("WB"));
    host.options.insert(QStringLiteral("smb.user"), QStringLiteral("wb"));
    host.options.insert(QStringLiteral("smb.password"), QStringLiteral("pw"));
    host.options.insert(QStringLiteral("smb.port"), int(m_port));
    return transferSpec(protocol, host, QStringLiteral("smb.path"), path, size);
}

void TestSmbOtherServer::checkBeforeTheFirstRunPasses()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {QStringLiteral("smb-write"), QStringLiteral("smb-read")}) {
        std::unique_ptr<ProtocolDriver> driver = DriverRegistry::create(protocol);
        const PreflightProblemList problems
            = driver->check(spec(protocol, QStringLiteral("checked.bin"), SixteenMiB), 5000);
        QVERIFY2(problems.isEmpty(), qPrintable(protocol + QStringLiteral(": ") + problems.value(0).message));
    }
    QVERIFY2(QDir(m_share->path()).isEmpty(), "the check wrote on the server");
}

void TestSmbOtherServer::writeGoesOverOneConnectionAndSaysSo()
{
    WB_REQUIRE(m_ready, m_why);
    // The host asks for nothing: the default several write connections.
    const RunResult r = runDriver(spec(QStringLiteral("smb-write"), QStringLiteral("write.bin"), SixteenMiB));
    qInfo("smb-write to impacket: %s, %lld B in %.3f s, %.2f MB/s, %d connection(s); %s", qPrintable(r.error), r.bytes,
          r.seconds, r.megabytesPerSecond(), r.extra.value(QStringLiteral("smb_write_connections")).toInt(),
          qPrintable(r.warnings.join(QStringLiteral(" | "))));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, SixteenMiB);
    QCOMPARE(r.senderBytes, SixteenMiB);
    QCOMPARE(r.extra.value(QStringLiteral("smb_write_connections")).toInt(), 1);
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QCOMPARE(sampledBytes(r), SixteenMiB);
    QCOMPARE(patternMismatchInFile(m_share->path() + QStringLiteral("/write.bin"), SixteenMiB), -1);
    const QString said = QStringLiteral("wrote over one connection: test-impacket (%1:%2) did not keep writes from "
                                        "several connections to one file (another connection's write of 65536 bytes "
                                        "at byte ")
                             .arg(ServerAddress)
                             .arg(m_port);
    QCOMPARE(r.warnings.size(), 1);
    QVERIFY2(r.warnings.first().startsWith(said), qPrintable(r.warnings.first()));
    QVERIFY2(r.warnings.first().contains(QStringLiteral("was answered but not stored")),
             qPrintable(r.warnings.first()));
}

void TestSmbOtherServer::laterWriteRemembers()
{
    WB_REQUIRE(m_ready, m_why);
    const RunResult r = runDriver(spec(QStringLiteral("smb-write"), QStringLiteral("again.bin"), SixteenMiB));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, SixteenMiB);
    QCOMPARE(r.extra.value(QStringLiteral("smb_write_connections")).toInt(), 1);
    QCOMPARE(patternMismatchInFile(m_share->path() + QStringLiteral("/again.bin"), SixteenMiB), -1);
    QCOMPARE(r.warnings.size(), 1);
    QVERIFY2(r.warnings.first().startsWith(QStringLiteral("wrote over one connection: test-impacket (")),
             qPrintable(r.warnings.first()));
    QVERIFY2(r.warnings.first().contains(QStringLiteral("was answered but not stored: the file had ")),
             qPrintable(r.warnings.first()));
    QVERIFY2(r.warnings.first().contains(QStringLiteral(", found on an earlier write)")),
             qPrintable(r.warnings.first()));
}

void TestSmbOtherServer::oneConnectionAskedSaysNothing()
{
    WB_REQUIRE(m_ready, m_why);
    const RunResult r
        = runDriver(withHostOption(spec(QStringLiteral("smb-write"), QStringLiteral("one.bin"), SixteenMiB),
                                   QStringLiteral("smb.write_connections"), 1));
    qInfo("smb-write to impacket, smb.write_connections 1: %.2f MB/s", r.megabytesPerSecond());
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, SixteenMiB);
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QStringLiteral(" | "))));
}

void TestSmbOtherServer::readOverConnections()
{
    WB_REQUIRE(m_ready, m_why);
    // The file the write left, read over the default two connections; then one the read seeds itself.
    const RunResult r = runDriver(spec(QStringLiteral("smb-read"), QStringLiteral("write.bin"), SixteenMiB));
    qInfo("smb-read from impacket: %.2f MB/s over %d connection(s)", r.megabytesPerSecond(),
          r.extra.value(QStringLiteral("smb_read_connections")).toInt());
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, SixteenMiB);
    QCOMPARE(r.extra.value(QStringLiteral("smb_read_connections")).toInt(), 2);
    QVERIFY(!r.extra.contains(QStringLiteral("seeded")));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QStringLiteral(" | "))));
    QCOMPARE(sampledBytes(r), SixteenMiB);

    const RunResult seeded = runDriver(spec(QStringLiteral("smb-read"), QStringLiteral("seeded.bin"), SixteenMiB));
    QVERIFY2(seeded.ok(), qPrintable(seeded.error));
    QCOMPARE(seeded.bytes, SixteenMiB);
    QCOMPARE(seeded.extra.value(QStringLiteral("seeded")).toBool(), true);
    QCOMPARE(patternMismatchInFile(m_share->path() + QStringLiteral("/seeded.bin"), SixteenMiB), -1);
}

void TestSmbOtherServer::foreignFileUntouched()
{
    WB_REQUIRE(m_ready, m_why);
    const QString full = m_share->path() + QStringLiteral("/theirs.bin");
    {
        QFile f(full);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray theirs(3 * 1024 * 1024 + 5, 'x');
        QCOMPARE(f.write(theirs), theirs.size());
    }
    const QByteArray digest = sha256Of(full);
    const QDateTime modified = QFileInfo(full).lastModified();
    const RunResult r = runDriver(spec(QStringLiteral("smb-write"), QStringLiteral("theirs.bin"), SixteenMiB));
    QVERIFY2(failedWith(r, QStringLiteral("foreign_file")).isEmpty(), qPrintable(r.error));
    QCOMPARE(sha256Of(full), digest);
    QCOMPARE(QFileInfo(full).size(), 3 * 1024 * 1024 + 5);
    QCOMPARE(QFileInfo(full).lastModified(), modified);
}

void TestSmbOtherServer::secondConnectionRefused()
{
    FileServerFixture samba;
    samba.setExtraSmbConf({QStringLiteral("max connections = 1")});
    QString why;
    const bool ready = samba.prepare(&why) && samba.startSmb(&why);
    WB_REQUIRE(ready, why);
    const RunSpec s = transferSpec(QStringLiteral("smb-write"), samba.smbHost(), QStringLiteral("smb.path"),
                                   QStringLiteral("one.bin"), SixteenMiB);
    for (int run = 1; run <= 2; ++run) {
        const RunResult r = runDriver(s);
        qInfo("smb-write to Samba with max connections = 1, run %d: %.2f MB/s; %s", run, r.megabytesPerSecond(),
              qPrintable(r.warnings.join(QStringLiteral(" | "))));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.bytes, SixteenMiB);
        QCOMPARE(r.extra.value(QStringLiteral("smb_write_connections")).toInt(), 1);
        QCOMPARE(patternMismatchInFile(samba.smbRoot() + QStringLiteral("/one.bin"), SixteenMiB), -1);
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY2(
            r.warnings.first().startsWith(QStringLiteral("wrote over one connection: test-samba (127.0.0.1:%1) did "
                                                         "not take several connections to one file (while opening "
                                                         "the file on write connection ")
                                              .arg(samba.smbPort())),
            qPrintable(r.warnings.first()));
        // A refusal may be of the moment: not remembered, each write looks again.
        QVERIFY2(r.warnings.first().endsWith(
                     QStringLiteral("); smb.write_connections 1 for this host writes over one from the start")),
                 qPrintable(r.warnings.first()));
    }
}

QTEST_GUILESS_MAIN(TestSmbOtherServer)
#include "TestSmbOtherServer.moc"
