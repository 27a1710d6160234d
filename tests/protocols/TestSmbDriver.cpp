// SMB read and write against a real smbd on 127.0.0.1.
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
#include <QRegularExpression>
#include <QThread>
#include <QtTest>

#include <algorithm>

#include <csignal>
#include <unistd.h>

using namespace wb;
using namespace wb::test;

namespace {

// What SmbDriver uses when the host sets no smb.write_connections or smb.read_connections.
constexpr int DefaultWriteConnections = 4;
constexpr int DefaultReadConnections = 2;

/// The write or read lanes of this process (SmbLanes forks them): children running this very program.
QList<pid_t> ownLaneProcesses()
{
    QList<pid_t> found;
    const QString self = QFileInfo(QStringLiteral("/proc/self/exe")).symLinkTarget();
    const QString me = QString::number(::getpid());
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const pid_t pid = pid_t(entry.toInt(&number));
        if (!number)
            continue;
        QFile status(QStringLiteral("/proc/%1/status").arg(entry));
        if (!status.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = status.readAll();
        const bool child = text.contains("\nPPid:\t" + me.toLatin1() + '\n');
        if (child && QFileInfo(QStringLiteral("/proc/%1/exe").arg(entry)).symLinkTarget() == self)
            found << pid;
    }
    return found;
}

} // namespace

// The cases every file-transfer driver passes run first (TransferDriverSuite: stop and server lost mid-transfer,
// full disks, someone else's files, Wirebench's own test file, the FTP server on the SMB port); then SMB's own.
class TestSmbDriver : public TransferDriverSuite
{
    Q_OBJECT

public:
    TestSmbDriver()
        : TransferDriverSuite({false,
                               QStringLiteral("smb-read"),
                               QStringLiteral("smb-write"),
                               QStringLiteral("test-samba"),
                               QStringLiteral("SMB read"),
                               QStringLiteral("SMB write"),
                               QStringLiteral("slow2.bin"),
                               false,
                               {}})
    {
    }

private slots:
    void initTestCase();
    void writeThenReadByteExact();
    void readSeedsMissingFile();
    void warmUpIsUntimedAndRecorded_data();
    void warmUpIsUntimedAndRecorded();
    void writeFromLocalFileByteExact();
    void overConnectionsByteExact_data();
    void overConnectionsByteExact();
    void connectionKilled_data();
    void connectionKilled();
    void mssIsTheDataSegmentSize();
    void wrongPassword();
    void unknownUser();
    void missingShare();
    void missingPath();
    void serverNotListening();
    void smb1OnlyServer();

private:
    /// Small calls (smb.io_size 256 KiB), so that a run stopped or cut off mid-transfer has made several.
    RunSpec slowSpec(const QString &protocol, const QString &path) const override;
    /// 1 MiB chunks: the default two read connections hold at most four of them ahead of the sink, so a run that fills
    /// the local disk has not received the whole 16 MiB (with 4 MiB chunks, loopback brings it all at once).
    RunSpec localDiskSpec(const QString &path) const override;
    void checkRefusedToReplace(const RunResult &r) const override;
    /// A write or read stopped, cut off mid-transfer or failed on the local disk went over the default
    /// connections, whose processes are gone.
    void checkEndedMidTransfer(const RunResult &r, bool killed) const override;
    void checkLocalDiskFull(const RunResult &r) const override { checkEndedMidTransfer(r, false); }
    void checkWrongService(const RunResult &r) const override;
};

void TestSmbDriver::initTestCase()
{
    m_servers = std::make_unique<FileServerFixture>();
    m_ready = m_servers->prepare(&m_why);
    if (m_ready)
        m_smallDisk = m_servers->useSmallDisk(SmallDiskBytes, &m_smallDiskWhy);
    m_ready = m_ready && m_servers->startSmb(&m_why);
    if (!m_ready) {
        qWarning("%s", qPrintable(m_why));
        m_smallDiskWhy = m_why;
    }
    QVERIFY(DriverRegistry::has(QStringLiteral("smb-read")));
    QVERIFY(DriverRegistry::has(QStringLiteral("smb-write")));
}

RunSpec TestSmbDriver::slowSpec(const QString &protocol, const QString &path) const
{
    RunSpec s = TransferDriverSuite::slowSpec(protocol, path);
    s.host.options.insert(QStringLiteral("smb.io_size"), 256 * 1024);
    return s;
}

RunSpec TestSmbDriver::localDiskSpec(const QString &path) const
{
    return withHostOption(TransferDriverSuite::localDiskSpec(path), QStringLiteral("smb.io_size"), 1024 * 1024);
}

void TestSmbDriver::checkEndedMidTransfer(const RunResult &r, bool) const
{
    const bool write = r.spec.protocol == QLatin1String("smb-write");
    QCOMPARE(
        r.extra.value(write ? QStringLiteral("smb_write_connections") : QStringLiteral("smb_read_connections")).toInt(),
        write ? DefaultWriteConnections : DefaultReadConnections);
    QVERIFY(ownLaneProcesses().isEmpty());
}

void TestSmbDriver::checkRefusedToReplace(const RunResult &r) const
{
    QVERIFY2(r.error.contains(QStringLiteral("access denied")), qPrintable(r.error));
}

void TestSmbDriver::checkWrongService(const RunResult &r) const
{
    QVERIFY2(
        r.error.startsWith(QStringLiteral("test-samba (127.0.0.1:%1): SMB read: port %1 of 127.0.0.1 answered with "
                                          "an FTP banner \"220 (vsFTPd ")
                               .arg(m_servers->ftpPort()))
            && r.error.contains(QStringLiteral("not SMB: check the port in the host's settings")),
        qPrintable(r.error));
    QVERIFY(!r.error.contains(QStringLiteral("stopped answering")));
}

void TestSmbDriver::writeThenReadByteExact()
{
    WB_REQUIRE(m_ready, m_why);
    TestObserver w;
    const qint64 size = FourMiB + 12345;
    const RunResult up = runDriver(spec(QStringLiteral("smb-write"), size, QStringLiteral("write.bin")), w);
    QVERIFY2(up.ok(), qPrintable(up.error));
    QCOMPARE(up.bytes, size);
    QCOMPARE(up.senderBytes, size);
    QVERIFY(up.seconds > 0);
    QVERIFY(!up.samples.isEmpty());
    QVERIFY(up.extra.contains(QStringLiteral("verified")));
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QStringLiteral("/write.bin"), size), -1);
    QVERIFY2(up.mss > 0, "the MSS of libsmbclient's connection was not found");

    const RunResult down = runDriver(spec(QStringLiteral("smb-read"), size, QStringLiteral("write.bin")));
    QVERIFY2(down.ok(), qPrintable(down.error));
    QCOMPARE(down.bytes, size);
    QVERIFY(!down.extra.contains(QStringLiteral("seeded")));
    // A healthy run: no fault, no warning (a foreign file, SMB1 or another service would give one).
    QVERIFY2(up.warnings.isEmpty() && down.warnings.isEmpty(),
             qPrintable(up.warnings.join(QLatin1Char('|')) + down.warnings.join(QLatin1Char('|'))));
    QVERIFY(!down.extra.contains(QStringLiteral("fault")) && !down.extra.contains(QStringLiteral("read_as_found")));
    QCOMPARE(sampledBytes(down), size);
}

void TestSmbDriver::readSeedsMissingFile()
{
    WB_REQUIRE(m_ready, m_why);
    QDir(m_servers->smbRoot()).mkpath(QStringLiteral("sub"));
    QProcess::execute(QStringLiteral("chown"), {m_servers->user(), m_servers->smbRoot() + QStringLiteral("/sub")});
    const RunResult r = runDriver(spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("sub/seeded.bin")));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, FourMiB);
    QCOMPARE(r.extra.value(QStringLiteral("seeded")).toBool(), true);
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QStringLiteral("/sub/seeded.bin"), FourMiB), -1);
}

void TestSmbDriver::warmUpIsUntimedAndRecorded_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<bool>("warmUp");
    QTest::newRow("write, warm-up on") << QStringLiteral("smb-write") << true;
    QTest::newRow("write, warm-up off") << QStringLiteral("smb-write") << false;
    QTest::newRow("read, warm-up on") << QStringLiteral("smb-read") << true;
    QTest::newRow("read, warm-up off") << QStringLiteral("smb-read") << false;
}

void TestSmbDriver::warmUpIsUntimedAndRecorded()
{
    // The untimed first calls (three of the I/O size, from offset 0) are recorded, counted nowhere else, and
    // leave the file exact: a write stores offset 0 onwards twice with the same bytes, a read seeks back.
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, protocol);
    QFETCH(bool, warmUp);
    const qint64 io = 1024 * 1024;
    const qint64 size = 9 * io + 4321;
    const QString path = QStringLiteral("warm.bin");
    if (protocol == QLatin1String("smb-read")) {
        const RunResult seeded = runDriver(spec(QStringLiteral("smb-write"), size, path));
        QVERIFY2(seeded.ok(), qPrintable(seeded.error));
    }
    RunSpec s = spec(protocol, size, path); // verify on: the write reads the file back, the read checks the pattern
    s.host.options.insert(QStringLiteral("smb.io_size"), io);
    s.host.options.insert(QStringLiteral("smb.warm_up"), warmUp);
    TestObserver o;
    QThread *const caller = QThread::currentThread();
    bool samplesOnCaller = true;
    o.onSample = [&](int) { samplesOnCaller = samplesOnCaller && QThread::currentThread() == caller; };
    const RunResult r = runDriver(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QCOMPARE(r.extra.value(QStringLiteral("smb_warmup_bytes")).toLongLong(), warmUp ? 3 * io : 0);
    QCOMPARE(r.bytes, size);
    QCOMPARE(sampledBytes(r), size);
    // The I/O calls run on a thread of their own; the observer still hears from the driver's (calling) thread.
    QVERIFY(!o.samples.isEmpty());
    QVERIFY(samplesOnCaller);
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QLatin1Char('/') + path, size), -1);
    QVERIFY(std::any_of(o.statuses.cbegin(), o.statuses.cend(),
                        [](const QString &t) { return t.contains(QStringLiteral("warming up")); })
            == warmUp);
}

void TestSmbDriver::writeFromLocalFileByteExact()
{
    // The next chunk is read from the local file on a second thread while the current one is written:
    // small calls, an odd size, and the server's copy read back byte for byte.
    WB_REQUIRE(m_ready, m_why);
    const qint64 size = 5 * 1024 * 1024 + 777;
    RunSpec s = spec(QStringLiteral("smb-write"), size, QStringLiteral("fromfile.bin"));
    s.host.options.insert(QStringLiteral("smb.io_size"), 256 * 1024);
    s.params.options.insert(QLatin1String(TransferSettings::SourceKey), QStringLiteral("file"));
    s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey),
                            m_servers->scratch() + QStringLiteral("/smb-source.bin"));
    const RunResult r = runDriver(s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, size);
    QCOMPARE(r.senderBytes, size);
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QVERIFY(r.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QStringLiteral("/fromfile.bin"), size), -1);
}

void TestSmbDriver::overConnectionsByteExact_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<int>("connections");
    QTest::addColumn<int>("used");
    for (const char *protocol : {"smb-write", "smb-read"}) {
        const int byDefault = qstrcmp(protocol, "smb-write") == 0 ? DefaultWriteConnections : DefaultReadConnections;
        QTest::addRow("%s, one", protocol) << QString::fromLatin1(protocol) << 1 << 1;
        QTest::addRow("%s, two", protocol) << QString::fromLatin1(protocol) << 2 << 2;
        QTest::addRow("%s, the default (%d)", protocol, byDefault) << QString::fromLatin1(protocol) << 0 << byDefault;
        QTest::addRow("%s, three", protocol) << QString::fromLatin1(protocol) << 3 << 3;
        QTest::addRow("%s, nine, at most eight", protocol) << QString::fromLatin1(protocol) << 9 << 8;
    }
}

void TestSmbDriver::overConnectionsByteExact()
{
    // Each connection takes the next 1 MiB chunk of one file; together they write it byte for byte, or read it
    // into a local file byte for byte (and checked against the pattern as it arrives, in the file's order), and
    // the samples add up to it.
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, protocol);
    QFETCH(int, connections);
    QFETCH(int, used);
    const bool write = protocol == QLatin1String("smb-write");
    const QString key = write ? QStringLiteral("smb.write_connections") : QStringLiteral("smb.read_connections");
    const qint64 size = 13 * 1024 * 1024 + 12345;
    const QString path = QStringLiteral("lanes-%1.bin").arg(protocol);
    RunSpec s = withHostOption(spec(protocol, size, path), QStringLiteral("smb.io_size"), 1024 * 1024);
    if (connections > 0)
        s.host.options.insert(key, connections);
    const QString local = m_servers->scratch() + QStringLiteral("/lanes-sink.bin");
    if (!write) {
        QFile::remove(local);
        s.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
        s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), local);
    }
    const RunResult r = runDriver(s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(
        r.extra.value(write ? QStringLiteral("smb_write_connections") : QStringLiteral("smb_read_connections")).toInt(),
        used);
    // The live samples of several connections: the receiver's count on them (sock_diag).
    if (used > 1)
        QCOMPARE(r.extra.value(QStringLiteral("samples_from")).toString(),
                 write ? QStringLiteral("tcp_bytes_acked") : QStringLiteral("tcp_bytes_received"));
    QCOMPARE(r.bytes, size);
    QCOMPARE(r.senderBytes, size);
    QCOMPARE(sampledBytes(r), size);
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QLatin1Char('/') + path, size), -1);
    if (!write)
        QCOMPARE(patternMismatchInFile(local, size), -1);
    QVERIFY(ownLaneProcesses().isEmpty());
}

void TestSmbDriver::connectionKilled_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::newRow("write") << QStringLiteral("smb-write");
    QTest::newRow("read") << QStringLiteral("smb-read");
}

void TestSmbDriver::connectionKilled()
{
    // One connection's process killed from outside: the run fails and says which and how; the others end.
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, protocol);
    RunSpec s = rateLimited(spec(protocol, 64LL * 1024 * 1024, QStringLiteral("lanekill.bin")));
    s.host.options.insert(QStringLiteral("smb.io_size"), 256 * 1024);
    TestObserver o;
    QList<pid_t> lanes;
    o.onSample = [&](int n) {
        if (n != 3)
            return;
        lanes = ownLaneProcesses();
        if (!lanes.isEmpty())
            ::kill(lanes.last(), SIGKILL);
    };
    const RunResult r = runDriver(s, o);
    qInfo("%s", qPrintable(r.error));
    const int connections = protocol == QLatin1String("smb-write") ? DefaultWriteConnections : DefaultReadConnections;
    QCOMPARE(lanes.size(), connections);
    WB_CHECK(failedWith(r, QStringLiteral("closed_mid_transfer")));
    const QString verb = protocol == QLatin1String("smb-write") ? QStringLiteral("write") : QStringLiteral("read");
    QVERIFY2(
        QRegularExpression(QStringLiteral("%1 connection [1-%2] of %2 ended by signal 9 ").arg(verb).arg(connections))
            .match(r.error)
            .hasMatch(),
        qPrintable(r.error));
    QVERIFY(!r.samples.isEmpty());
    QVERIFY(ownLaneProcesses().isEmpty());
}

void TestSmbDriver::mssIsTheDataSegmentSize()
{
    // Read at the end of the transfer as the larger of the send and receive MSS: on loopback the path's MSS,
    // min(65536, 65535) - 40 - 12 with timestamps = 65483, both ways. The send MSS alone (or read right after
    // the open) is 32768 here: Linux bounds it by half the peer's largest window (docs/FRAMES.md).
    WB_REQUIRE(m_ready, m_why);
    QFile ts(QStringLiteral("/proc/sys/net/ipv4/tcp_timestamps"));
    const bool timestamps = ts.open(QIODevice::ReadOnly) && ts.readAll().trimmed() != "0";
    for (const QString &protocol : {QStringLiteral("smb-write"), QStringLiteral("smb-read")}) {
        const RunResult r = runDriver(spec(protocol, 16LL * 1024 * 1024, QStringLiteral("mss.bin")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        qInfo("%s: MSS %d bytes", qPrintable(protocol), r.mss);
        QCOMPARE(r.mss, 65535 - 40 - (timestamps ? 12 : 0));
    }
}

void TestSmbDriver::wrongPassword()
{
    WB_REQUIRE(m_ready, m_why);
    const RunResult r
        = runDriver(withHostOption(spec(QStringLiteral("smb-write"), FourMiB, QStringLiteral("pw.bin")),
                                   QStringLiteral("smb.password"), QStringLiteral("not-the-password-42")));
    WB_CHECK(failedWith(r, QStringLiteral("login_refused")));
    QVERIFY(r.error.contains(QStringLiteral("test-samba")) && r.error.contains(QStringLiteral("SMB write")));
    QVERIFY(!r.error.contains(QStringLiteral("not-the-password-42")));
    QVERIFY(!QFile::exists(m_servers->smbRoot() + QStringLiteral("/pw.bin")));
}

void TestSmbDriver::unknownUser()
{
    WB_REQUIRE(m_ready, m_why);
    const RunResult r = runDriver(withHostOption(spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("write.bin")),
                                                 QStringLiteral("smb.user"), QStringLiteral("nobody-like-this")));
    WB_CHECK(failedWith(r, QStringLiteral("login_refused")));
    QVERIFY(!r.error.contains(m_servers->password()));
}

void TestSmbDriver::missingShare()
{
    WB_REQUIRE(m_ready, m_why);
    const RunResult r = runDriver(withHostOption(spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("write.bin")),
                                                 QStringLiteral("smb.share"), QStringLiteral("nosuchshare")));
    WB_CHECK(failedWith(r, QStringLiteral("no_such_share")));
    QVERIFY(r.error.contains(QStringLiteral("nosuchshare")));
}

void TestSmbDriver::missingPath()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("no-such-file.bin"));
    s.params.options.insert(QLatin1String(TransferSettings::CreateSeedKey), false);
    TestObserver o;
    const RunResult r = runDriver(s, o);
    WB_CHECK(failedWith(r, QStringLiteral("no_such_path")));

    RunSpec w = spec(QStringLiteral("smb-write"), FourMiB, QStringLiteral("no/such/dir/x.bin"));
    const RunResult rw = runDriver(w, o);
    WB_CHECK(failedWith(rw, QStringLiteral("no_such_path")));
}

void TestSmbDriver::serverNotListening()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("write.bin"));
    s.host.options.insert(QStringLiteral("smb.port"), FileServerFixture::closedPort());
    const RunResult r = runDriver(s);
    WB_CHECK(failedWith(r, QStringLiteral("not_listening")));
}

void TestSmbDriver::smb1OnlyServer()
{
    // Issue 12: an SMB1-only server got "the connection broke after 0 bytes while opening the file".
    WB_REQUIRE(m_ready, m_why);
    FileServerFixture smb1;
    smb1.setExtraSmbConf({QStringLiteral("server min protocol = NT1"), QStringLiteral("server max protocol = NT1")});
    QString why;
    WB_REQUIRE(smb1.prepare(&why) && smb1.startSmb(&why), why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("smb1.bin"));
    s.host = smb1.smbHost();
    s.host.options.insert(QStringLiteral("smb.path"), QStringLiteral("smb1.bin"));
    TestObserver o;
    const RunResult refused = runDriver(s, o);
    WB_CHECK(failedWith(refused, QStringLiteral("smb1_only")));
    QVERIFY2(refused.error.startsWith(
                 QStringLiteral("test-samba (127.0.0.1:%1): SMB read: the server speaks only SMB1 (NT1)")
                     .arg(smb1.smbPort()))
                 && refused.error.contains(QStringLiteral("\"Allow SMB1 (NT1)\""))
                 && refused.error.contains(QStringLiteral("--set smb.allow_smb1=yes")),
             qPrintable(refused.error));
    QVERIFY(!refused.error.contains(QStringLiteral("connection broke")));
    QVERIFY(!QFile::exists(smb1.smbRoot() + QStringLiteral("/smb1.bin")));

    s.host.options.insert(QStringLiteral("smb.allow_smb1"), true);
    const RunResult allowed = runDriver(s, o);
    QVERIFY2(allowed.ok(), qPrintable(allowed.error));
    QCOMPARE(allowed.bytes, FourMiB);
    QVERIFY(!allowed.extra.contains(QStringLiteral("fault")));
    QVERIFY(allowed.extra.contains(QStringLiteral("verified")));
}

QTEST_GUILESS_MAIN(TestSmbDriver)
#include "TestSmbDriver.moc"
