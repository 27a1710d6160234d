// SMB read and write against a real smbd on 127.0.0.1.
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
#include <QThread>
#include <QtTest>

#include <algorithm>

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

class TestSmbDriver : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void writeThenReadByteExact();
    void readSeedsMissingFile();
    void readToLocalFile();
    void warmUpIsUntimedAndRecorded_data();
    void warmUpIsUntimedAndRecorded();
    void writeFromLocalFileByteExact();
    void mssIsTheDataSegmentSize();
    void wrongPassword();
    void unknownUser();
    void missingShare();
    void missingPath();
    void serverNotListening();
    void stopMidTransfer();
    void serverKilledMidTransfer();
    void remoteDiskFull();
    void localDiskFull();
    void readReadsForeignFileAsItIs_data();
    void readReadsForeignFileAsItIs();
    void readReplacesItsOwnTestFile();
    void readOwnTestFileInReadOnlyFolder();
    void fullLocalDiskKeepsNoPartialFile();
    void writeKeepsForeignFile();
    void smb1OnlyServer();
    void ftpServerOnTheSmbPort();

private:
    RunSpec spec(const QString &protocol, qint64 size, const QString &path) const;
    static RunResult runSpec(const RunSpec &s, TestObserver &observer);

    std::unique_ptr<FileServerFixture> m_servers;
    bool m_ready = false;
    bool m_smallDisk = false;
    QString m_why;
    QString m_smallDiskWhy;
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

void TestSmbDriver::cleanupTestCase()
{
    m_servers.reset();
}

RunSpec TestSmbDriver::spec(const QString &protocol, qint64 size, const QString &path) const
{
    RunSpec s;
    s.protocol = protocol;
    s.host = m_servers->smbHost();
    s.host.options.insert(QStringLiteral("smb.path"), path);
    s.frameSize = 1500;
    s.params.fileSizeBytes = size;
    s.params.options.insert(QLatin1String(TransferSettings::VerifyKey), true);
    return s;
}

RunResult TestSmbDriver::runSpec(const RunSpec &s, TestObserver &observer)
{
    auto driver = DriverRegistry::create(s.protocol);
    Q_ASSERT(driver);
    return driver->run(s, observer);
}

void TestSmbDriver::writeThenReadByteExact()
{
    WB_REQUIRE(m_ready, m_why);
    TestObserver w;
    const qint64 size = FourMiB + 12345;
    const RunResult up = runSpec(spec(QStringLiteral("smb-write"), size, QStringLiteral("write.bin")), w);
    QVERIFY2(up.ok(), qPrintable(up.error));
    QCOMPARE(up.bytes, size);
    QCOMPARE(up.senderBytes, size);
    QVERIFY(up.seconds > 0);
    QVERIFY(!up.samples.isEmpty());
    QVERIFY(up.extra.contains(QStringLiteral("verified")));
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QStringLiteral("/write.bin"), size), -1);
    QVERIFY2(up.mss > 0, "the MSS of libsmbclient's connection was not found");

    TestObserver r;
    const RunResult down = runSpec(spec(QStringLiteral("smb-read"), size, QStringLiteral("write.bin")), r);
    QVERIFY2(down.ok(), qPrintable(down.error));
    QCOMPARE(down.bytes, size);
    QVERIFY(!down.extra.contains(QStringLiteral("seeded")));
    // A healthy run: no fault, no warning (a foreign file, SMB1 or another service would give one).
    QVERIFY2(up.warnings.isEmpty() && down.warnings.isEmpty(), qPrintable(up.warnings.join(QLatin1Char('|')) + down.warnings.join(QLatin1Char('|'))));
    QVERIFY(!down.extra.contains(QStringLiteral("fault")) && !down.extra.contains(QStringLiteral("read_as_found")));
    qint64 sampled = 0;
    for (const Sample &s : down.samples)
        sampled += s.bytes;
    QCOMPARE(sampled, size);
}

void TestSmbDriver::readSeedsMissingFile()
{
    WB_REQUIRE(m_ready, m_why);
    QDir(m_servers->smbRoot()).mkpath(QStringLiteral("sub"));
    QProcess::execute(QStringLiteral("chown"), {m_servers->user(), m_servers->smbRoot() + QStringLiteral("/sub")});
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("sub/seeded.bin")), o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, FourMiB);
    QCOMPARE(r.extra.value(QStringLiteral("seeded")).toBool(), true);
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QStringLiteral("/sub/seeded.bin"), FourMiB), -1);
}

void TestSmbDriver::readToLocalFile()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("tofile.bin"));
    const QString local = m_servers->scratch() + QStringLiteral("/smb-read-sink.bin");
    s.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), local);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(patternMismatchInFile(local, FourMiB), -1);
    QVERIFY(r.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
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
        TestObserver w;
        const RunResult seeded = runSpec(spec(QStringLiteral("smb-write"), size, path), w);
        QVERIFY2(seeded.ok(), qPrintable(seeded.error));
    }
    RunSpec s = spec(protocol, size, path); // verify on: the write reads the file back, the read checks the pattern
    s.host.options.insert(QStringLiteral("smb.io_size"), io);
    s.host.options.insert(QStringLiteral("smb.warm_up"), warmUp);
    TestObserver o;
    QThread *const caller = QThread::currentThread();
    bool samplesOnCaller = true;
    o.onSample = [&](int) { samplesOnCaller = samplesOnCaller && QThread::currentThread() == caller; };
    const RunResult r = runSpec(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QCOMPARE(r.extra.value(QStringLiteral("smb_warmup_bytes")).toLongLong(), warmUp ? 3 * io : 0);
    QCOMPARE(r.bytes, size);
    qint64 sampled = 0;
    for (const Sample &x : r.samples)
        sampled += x.bytes;
    QCOMPARE(sampled, size);
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
    s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), m_servers->scratch() + QStringLiteral("/smb-source.bin"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.bytes, size);
    QCOMPARE(r.senderBytes, size);
    QVERIFY(r.extra.contains(QStringLiteral("verified")));
    QVERIFY(r.extra.value(QStringLiteral("disk_MBps")).toDouble() > 0);
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QStringLiteral("/fromfile.bin"), size), -1);
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
        TestObserver o;
        const RunResult r = runSpec(spec(protocol, 16LL * 1024 * 1024, QStringLiteral("mss.bin")), o);
        QVERIFY2(r.ok(), qPrintable(r.error));
        qInfo("%s: MSS %d bytes", qPrintable(protocol), r.mss);
        QCOMPARE(r.mss, 65535 - 40 - (timestamps ? 12 : 0));
    }
}

void TestSmbDriver::wrongPassword()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-write"), FourMiB, QStringLiteral("pw.bin"));
    s.host.options.insert(QStringLiteral("smb.password"), QStringLiteral("not-the-password-42"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("login_refused"));
    QVERIFY(r.error.contains(QStringLiteral("test-samba")) && r.error.contains(QStringLiteral("SMB write")));
    QVERIFY(!r.error.contains(QStringLiteral("not-the-password-42")));
    QVERIFY(!QFile::exists(m_servers->smbRoot() + QStringLiteral("/pw.bin")));
}

void TestSmbDriver::unknownUser()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("write.bin"));
    s.host.options.insert(QStringLiteral("smb.user"), QStringLiteral("nobody-like-this"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("login_refused"));
    QVERIFY(!r.error.contains(m_servers->password()));
}

void TestSmbDriver::missingShare()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("write.bin"));
    s.host.options.insert(QStringLiteral("smb.share"), QStringLiteral("nosuchshare"));
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_share"));
    QVERIFY(r.error.contains(QStringLiteral("nosuchshare")));
}

void TestSmbDriver::missingPath()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("no-such-file.bin"));
    s.params.options.insert(QLatin1String(TransferSettings::CreateSeedKey), false);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_path"));

    RunSpec w = spec(QStringLiteral("smb-write"), FourMiB, QStringLiteral("no/such/dir/x.bin"));
    const RunResult rw = runSpec(w, o);
    qInfo("%s", qPrintable(rw.error));
    QCOMPARE(rw.status, RunStatus::Failed);
    QCOMPARE(rw.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("no_such_path"));
}

void TestSmbDriver::serverNotListening()
{
    WB_REQUIRE(m_ready, m_why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("write.bin"));
    s.host.options.insert(QStringLiteral("smb.port"), FileServerFixture::closedPort());
    TestObserver o;
    const RunResult r = runSpec(s, o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("not_listening"));
}

void TestSmbDriver::stopMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {QStringLiteral("smb-write"), QStringLiteral("smb-read")}) {
        RunSpec s = spec(protocol, 64LL * 1024 * 1024, QStringLiteral("slow.bin"));
        s.params.options.insert(QLatin1String(TransferSettings::MaxRateKey), 4 * 1024 * 1024);
        s.host.options.insert(QStringLiteral("smb.io_size"), 256 * 1024);
        TestObserver o;
        o.onSample = [&o](int n) {
            if (n == 3)
                o.stop.store(true);
        };
        const RunResult r = runSpec(s, o);
        qInfo("%s: %s after %lld bytes", qPrintable(protocol), qPrintable(r.error), r.bytes);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QVERIFY(r.samples.size() >= 3);
        QVERIFY(r.bytes > 0 && r.bytes < s.params.fileSizeBytes);
    }
}

void TestSmbDriver::serverKilledMidTransfer()
{
    WB_REQUIRE(m_ready, m_why);
    for (const QString &protocol : {QStringLiteral("smb-read"), QStringLiteral("smb-write")}) {
        RunSpec s = spec(protocol, 64LL * 1024 * 1024, QStringLiteral("slow2.bin"));
        s.params.options.insert(QLatin1String(TransferSettings::MaxRateKey), 4 * 1024 * 1024);
        s.host.options.insert(QStringLiteral("smb.io_size"), 256 * 1024);
        TestObserver o;
        int killed = 0;
        o.onSample = [&](int n) {
            if (n == 3)
                killed = m_servers->killSessions(false);
        };
        const RunResult r = runSpec(s, o);
        qInfo("%s", qPrintable(r.error));
        QVERIFY(killed > 0);
        QCOMPARE(r.status, RunStatus::Failed);
        QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("closed_mid_transfer"));
        QVERIFY(!r.samples.isEmpty());
    }
}

void TestSmbDriver::remoteDiskFull()
{
    WB_REQUIRE(m_ready && m_smallDisk, m_smallDiskWhy);
    const qint64 size = 64LL * 1024 * 1024; // four times the server's 16 MiB tmpfs
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("smb-write"), size, QStringLiteral("full/big.bin")), o);
    const QString problem = faultProblem(r, QStringLiteral("remote_disk_full"),
                                         QStringLiteral("test-samba (127.0.0.1:%1): SMB write: ").arg(m_servers->smbPort()),
                                         QStringLiteral("the server's disk is full"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestSmbDriver::localDiskFull()
{
    WB_REQUIRE(m_ready, m_why);
    const qint64 size = 16LL * 1024 * 1024;
    RunSpec s = spec(QStringLiteral("smb-read"), size, QStringLiteral("to-full.bin"));
    sinkToFile(s, QStringLiteral("/dev/full"));
    TestObserver o;
    const QString problem = faultProblem(runSpec(s, o), QStringLiteral("local_disk_full"),
                                         QStringLiteral("test-samba (127.0.0.1:%1): SMB read: ").arg(m_servers->smbPort()),
                                         QStringLiteral("the local disk is full while writing /dev/full"), size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestSmbDriver::readReadsForeignFileAsItIs_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("readOnly");
    QTest::newRow("writable folder") << QStringLiteral("theirs/foreign.bin") << false;
    QTest::newRow("read-only folder") << QStringLiteral("pub/big.bin") << true;
    QTest::newRow("Wirebench's name, someone's content") << QStringLiteral("theirs/wirebench-lookalike.bin") << false;
}

void TestSmbDriver::readReadsForeignFileAsItIs()
{
    // Someone else's file of another size is read as it is and never written (issue 12).
    WB_REQUIRE(m_ready, m_why);
    QFETCH(QString, path);
    QFETCH(bool, readOnly);
    const QString full = m_servers->smbRoot() + QLatin1Char('/') + path;
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
    const RunResult r = runSpec(spec(QStringLiteral("smb-read"), planned, path), o); // transfer.verify on
    qInfo("%s", qPrintable(r.warnings.join(QLatin1Char('|'))));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(fileDigest(full), digest);
    QCOMPARE(QFileInfo(full).lastModified(), modified);
    QCOMPARE(r.bytes, found);
    QCOMPARE(r.senderBytes, found);
    QVERIFY(!r.extra.contains(QStringLiteral("seeded")));
    QVERIFY(!r.extra.contains(QStringLiteral("verified")));
    QCOMPARE(r.extra.value(QStringLiteral("read_as_found")).toBool(), true);
    QCOMPARE(r.warnings.size(), 1);
    const QString w = r.warnings.first();
    QVERIFY2(w.contains(QStringLiteral("\"%1\" on the server holds %2 bytes, not the plan's %3").arg(path).arg(found).arg(planned))
                 && w.contains(QStringLiteral("not a Wirebench test file")) && w.contains(QStringLiteral("read as it is"))
                 && w.contains(QStringLiteral("not verified")),
             qPrintable(w));
    QVERIFY(!w.contains(QStringLiteral("replaced")));
}

void TestSmbDriver::readReplacesItsOwnTestFile()
{
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("wirebench-resize.bin");
    TestObserver first;
    const RunResult small = runSpec(spec(QStringLiteral("smb-read"), 1024 * 1024, path), first);
    QVERIFY2(small.ok(), qPrintable(small.error));
    QCOMPARE(small.extra.value(QStringLiteral("seeded")).toBool(), true);

    const qint64 size = 2 * 1024 * 1024 + 3;
    TestObserver second;
    const RunResult big = runSpec(spec(QStringLiteral("smb-read"), size, path), second);
    QVERIFY2(big.ok(), qPrintable(big.error));
    QCOMPARE(big.bytes, size);
    QCOMPARE(big.extra.value(QStringLiteral("replaced_test_file_bytes")).toLongLong(), 1024 * 1024);
    QVERIFY(big.extra.contains(QStringLiteral("verified")));
    QVERIFY2(big.warnings.isEmpty(), qPrintable(big.warnings.join(QLatin1Char('|'))));
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QLatin1Char('/') + path, size), -1);
}

void TestSmbDriver::readOwnTestFileInReadOnlyFolder()
{
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("ro/wirebench-ro.bin");
    const QString full = m_servers->smbRoot() + QLatin1Char('/') + path;
    QVERIFY(makeReadOnlyFolder(QFileInfo(full).absolutePath()));
    const QByteArray digest = makeTestPatternFile(full, 1024 * 1024, QString());
    QVERIFY(!digest.isEmpty());
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("smb-read"), 2 * 1024 * 1024, path), o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("permission_denied"));
    QVERIFY2(r.error.contains(QStringLiteral("access denied"))
                 && r.error.contains(QStringLiteral("while replacing Wirebench's 1048576-byte test file with a 2097152-byte one")),
             qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('|'))));
    QCOMPARE(fileDigest(full), digest);
}

void TestSmbDriver::fullLocalDiskKeepsNoPartialFile()
{
    // Issue 12: a read that filled the local disk left its partial file, so the disk stayed full.
    WB_REQUIRE(m_ready, m_why);
    SmallLocalDisk disk;
    QString why;
    WB_REQUIRE(disk.mount(m_servers->scratch() + QStringLiteral("/small-smb"), 4LL * 1024 * 1024, &why), why);
    const qint64 size = 16LL * 1024 * 1024;
    RunSpec s = spec(QStringLiteral("smb-read"), size, QStringLiteral("to-small-disk.bin"));
    const QString local = disk.path() + QStringLiteral("/download.bin");
    sinkToFile(s, local);
    TestObserver o;
    const RunResult r = runSpec(s, o);
    const QString problem = faultProblem(r, QStringLiteral("local_disk_full"),
                                         QStringLiteral("test-samba (127.0.0.1:%1): SMB read: the local disk is full while writing %2 (")
                                             .arg(m_servers->smbPort())
                                             .arg(local),
                                         QStringLiteral("B received); the partial file was removed: free space on this computer"),
                                         size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(!QFile::exists(local));
    QVERIFY2(disk.usedBytes() < 64 * 1024, qPrintable(QString::number(disk.usedBytes())));
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
    const RunResult refused = runSpec(s, o);
    qInfo("%s", qPrintable(refused.error));
    QCOMPARE(refused.status, RunStatus::Failed);
    QCOMPARE(refused.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("smb1_only"));
    QVERIFY2(refused.error.startsWith(QStringLiteral("test-samba (127.0.0.1:%1): SMB read: the server speaks only SMB1 (NT1)")
                                          .arg(smb1.smbPort()))
                 && refused.error.contains(QStringLiteral("\"Allow SMB1 (NT1)\""))
                 && refused.error.contains(QStringLiteral("--set smb.allow_smb1=yes")),
             qPrintable(refused.error));
    QVERIFY(!refused.error.contains(QStringLiteral("connection broke")));
    QVERIFY(!QFile::exists(smb1.smbRoot() + QStringLiteral("/smb1.bin")));

    s.host.options.insert(QStringLiteral("smb.allow_smb1"), true);
    const RunResult allowed = runSpec(s, o);
    QVERIFY2(allowed.ok(), qPrintable(allowed.error));
    QCOMPARE(allowed.bytes, FourMiB);
    QVERIFY(!allowed.extra.contains(QStringLiteral("fault")));
    QVERIFY(allowed.extra.contains(QStringLiteral("verified")));
}

void TestSmbDriver::ftpServerOnTheSmbPort()
{
    // Issue 12: an FTP server on the SMB port took 23 s and said "the server stopped answering".
    WB_REQUIRE(m_ready, m_why);
    QString why;
    WB_REQUIRE(m_servers->ftpPort() != 0 || m_servers->startFtp(&why), why);
    RunSpec s = spec(QStringLiteral("smb-read"), FourMiB, QStringLiteral("x.bin"));
    s.host.options.insert(QStringLiteral("smb.port"), m_servers->ftpPort());
    TestObserver o;
    QElapsedTimer clock;
    clock.start();
    const RunResult r = runSpec(s, o);
    qInfo("%s (after %.1f s)", qPrintable(r.error), clock.elapsed() / 1000.0);
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("wrong_service"));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-samba (127.0.0.1:%1): SMB read: port %1 of 127.0.0.1 answered with "
                                               "an FTP banner \"220 (vsFTPd ")
                                    .arg(m_servers->ftpPort()))
                 && r.error.contains(QStringLiteral("not SMB: check the port in the host's settings")),
             qPrintable(r.error));
    QVERIFY(!r.error.contains(QStringLiteral("stopped answering")));
}

void TestSmbDriver::writeKeepsForeignFile()
{
    // A write does not overwrite a file that Wirebench did not write; it does overwrite its own.
    WB_REQUIRE(m_ready, m_why);
    const QString path = QStringLiteral("theirs/keep.bin");
    const QString full = m_servers->smbRoot() + QLatin1Char('/') + path;
    QVERIFY(QDir().mkpath(QFileInfo(full).absolutePath()));
    QCOMPARE(QProcess::execute(QStringLiteral("chown"), {m_servers->user(), QFileInfo(full).absolutePath()}), 0);
    const QByteArray digest = makeForeignFile(full, 12345, m_servers->user());
    TestObserver o;
    const RunResult r = runSpec(spec(QStringLiteral("smb-write"), FourMiB, path), o);
    qInfo("%s", qPrintable(r.error));
    QCOMPARE(r.status, RunStatus::Failed);
    QCOMPARE(r.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("foreign_file"));
    QVERIFY2(r.error.startsWith(QStringLiteral("test-samba (127.0.0.1:%1): SMB write: \"theirs/keep.bin\" already exists on "
                                               "the server (12345 bytes) and is not a Wirebench test file")
                                    .arg(m_servers->smbPort()))
                 && r.error.contains(QStringLiteral("Wirebench does not overwrite it: choose another file name")),
             qPrintable(r.error));
    QCOMPARE(fileDigest(full), digest);

    const QString own = QStringLiteral("theirs/wirebench-own.bin");
    QVERIFY(!makeTestPatternFile(m_servers->smbRoot() + QLatin1Char('/') + own, 1000, m_servers->user()).isEmpty());
    const RunResult put = runSpec(spec(QStringLiteral("smb-write"), FourMiB, own), o);
    QVERIFY2(put.ok(), qPrintable(put.error));
    QCOMPARE(patternMismatchInFile(m_servers->smbRoot() + QLatin1Char('/') + own, FourMiB), -1);
}

QTEST_GUILESS_MAIN(TestSmbDriver)
#include "TestSmbDriver.moc"
