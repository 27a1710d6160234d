#include "../lab/FileServerLab.h"
#include "../lab/LabFileServers.h"
#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "../protocols/FileServerFixture.h"
#include "analysis/Ceiling.h"
#include "model/Frame.h"
#include "engine/Engine.h"
#include "support/PeerTools.h"
#include "plan/TestPlan.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <sys/vfs.h>
#include <unistd.h>

#include <vector>

using namespace wb;

// FTP GET/PUT and SMB read/write through the two-namespace lab (tests/lab/lab.sh): real vsftpd and smbd
// serve in the server namespace, this process's main thread joins the client namespace with setns(2) (the
// engine thread it starts afterwards inherits it), and each result is compared with the theoretical TCP
// goodput of the emulated Ethernet line, R*(M-52)/(M+38)/8 bytes/s (docs/FRAMES.md).
//
// Neither disk may limit: the client uses the memory source and sink; the servers' folders are on a tmpfs
// (/dev/shm), so the files smbd and vsftpd read are page cache by construction (and are read once more
// before the runs) and what they store goes to memory. The files to read are made here, of the exact size,
// so that no driver uploads a seed file through the shaped line.
//
// What is compared: the whole result of every row (bytes over the driver's time), FTP and SMB alike. The SMB
// driver leaves its first three I/O calls untimed (smb.warm_up, recorded as smb_warmup_bytes: a fresh
// connection's first calls ramp up, as iperf3 -O leaves its first seconds out) and runs its I/O calls on a
// thread of their own, so that nothing the engine does between two synchronous calls idles the line.
//
// Tolerance: at most 3% below the theory; above it at most 1% (nothing gets through faster than the line).
// Best of up to 3 attempts: a shared 2-core machine can only lose throughput. One explicit exception, for a
// machine too loaded for the lab: when the best attempt is still more than 3% low, the protocol's peer tool
// (curl for FTP, smbclient for SMB) moves the same file through the same lab and the same server right after.
// Only when the peer tool also misses the 1% target is the row compared with it instead (within 3 points of
// it), and the test says so ("overloaded:"). When the peer tool meets its target, the row fails. iperf3 is
// no reference for a file server: on a busy machine smbd runs out of CPU long before iperf3 does (seen with
// load 8 on 2 cores: smb-write 80% of the theory at 1 Gbit/s while iperf3 reached 98.7%; on loopback at the
// same time bench/fileservers.sh gave smbclient put 97-139 MB/s, Wirebench 166-216 MB/s). Every figure is
// printed as a "row:" line (bench/lab_accuracy.sh shows those).
//
// WIREBENCH_FS_MB_1G and WIREBENCH_FS_MB_100M (MB = 10^6 bytes) change the file sizes (default 300 and 30:
// about 2.5 s per run; the whole test took 44-65 s, the longer the busier the machine);
// WIREBENCH_SMB_IO_SIZE (bytes) the SMB driver's I/O size (smb.io_size, default 4 MiB), WIREBENCH_SMB_WRITE_CONNECTIONS
// its smb.write_connections.
class TestFileServerAccuracy : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void goodputMatchesTheory_data();
    void goodputMatchesTheory();
    void smbFrameBelowInterfaceMtu();

private:
    Host labHost(const QString &protocol, qint64 size) const;
    RunResult runOnce(const QString &protocol, int frame, qint64 size);
    static qint64 sizeFor(double rateBps);
    double peerRatio(const QString &protocol, qint64 size, double theory, QString *why) const;
    QString uploadFile(qint64 size) const;

    test::FileServerLab m_rig;
};

namespace {

const QString ServerAddress = test::LabSession::serverAddress();

QString fileName(const QString &kind, qint64 size)
{
    return QStringLiteral("%1-%2.bin").arg(kind).arg(size);
}

/// One line for the report: the same columns as bench/lab_accuracy.sh's TCP lines, SMB with its untimed warm-up.
QString rowLine(const QString &protocol, double rateBps, int mtu, const RunResult &r, double theory, int attempt)
{
    QString line
        = QStringLiteral("row: wirebench      %1 %2 Mbit/s MTU %3: %4 MB/s  theory %5 MB/s  ratio %6  MSS %7 bytes")
              .arg(protocol, -9)
              .arg(rateBps / 1e6, 6, 'f', 0)
              .arg(mtu, 5)
              .arg(r.megabytesPerSecond(), 9, 'f', 3)
              .arg(theory / 1e6, 8, 'f', 3)
              .arg(r.bytesPerSecond() / theory, 7, 'f', 4)
              .arg(r.mss);
    if (protocol.startsWith(QLatin1String("smb")))
        line += QStringLiteral("  (untimed warm-up %1 bytes)")
                    .arg(r.extra.value(QStringLiteral("smb_warmup_bytes")).toLongLong());
    for (const QString &key : {QStringLiteral("smb_write_connections"), QStringLiteral("smb_read_connections")}) {
        if (r.extra.contains(key))
            line += QStringLiteral("  (%1 connections)").arg(r.extra.value(key).toInt());
    }
    if (attempt > 1)
        line += QStringLiteral("  [attempt %1]").arg(attempt);
    return line;
}

} // namespace

qint64 TestFileServerAccuracy::sizeFor(double rateBps)
{
    const bool gigabit = rateBps >= 1e9;
    const int mb = qEnvironmentVariableIntValue(gigabit ? "WIREBENCH_FS_MB_1G" : "WIREBENCH_FS_MB_100M");
    return qint64(mb > 0 ? mb : (gigabit ? 300 : 30)) * 1000 * 1000;
}

void TestFileServerAccuracy::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString missing = test::LabBench::missing({}, {QStringLiteral("curl"), QStringLiteral("smbclient")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));

    // The servers' folders on a tmpfs.
    QString why;
    WB_REQUIRE(m_rig.prepare(&why), QStringLiteral("file servers for the lab: ") + why);
    struct statfs fs = {};
    QVERIFY2(::statfs(QFile::encodeName(m_rig.fixture().path()).constData(), &fs) == 0 && fs.f_type == 0x01021994,
             qPrintable(m_rig.fixture().path() + QStringLiteral(" is not on a tmpfs: the servers' disk could limit")));
    // Cannot build the lab as root: a failure (also without CI), as in TestFrameAccuracy.
    QVERIFY2(m_rig.up(QStringLiteral("fs"), QStringLiteral("1gbit"), &why), qPrintable(why));
    why = m_rig.serve({});
    QVERIFY2(why.isEmpty(), qPrintable(why));

    // The files to read, of every size the rows ask for; read once more so that every page is resident.
    const QList<qint64> sizes{sizeFor(1e9), sizeFor(1e8)};
    QVERIFY2(m_rig.makeReadFiles(sizes, fileName, &why), qPrintable(why));
    // What curl and smbclient upload when they are the reference (on the tmpfs, as the servers' folders).
    for (const qint64 size : sizes)
        QVERIFY2(m_rig.servers().makeServerFile(uploadFile(size), size, &why), qPrintable(why));

    QVERIFY2(m_rig.lab().enterClient(&why), qPrintable(why));
}

void TestFileServerAccuracy::cleanupTestCase()
{
    m_rig.tearDown();
}

Host TestFileServerAccuracy::labHost(const QString &protocol, qint64 size) const
{
    // Reads use the file made in initTestCase; writes a file of their own (removed after each run).
    Host h = m_rig.fileHost(protocol, size, fileName);
    if (!protocol.startsWith(QLatin1String("ftp"))) {
        if (const int io = qEnvironmentVariableIntValue("WIREBENCH_SMB_IO_SIZE"); io > 0)
            h.options.insert(QStringLiteral("smb.io_size"), io);
        if (const int n = qEnvironmentVariableIntValue("WIREBENCH_SMB_WRITE_CONNECTIONS"); n > 0)
            h.options.insert(QStringLiteral("smb.write_connections"), n);
    }
    return h;
}

QString TestFileServerAccuracy::uploadFile(qint64 size) const
{
    return m_rig.fixture().path() + QLatin1Char('/') + fileName(QStringLiteral("upload"), size);
}

double TestFileServerAccuracy::peerRatio(const QString &protocol, qint64 size, double theory, QString *why) const
{
    const bool ftp = protocol.startsWith(QLatin1String("ftp"));
    const bool reading = protocol == QLatin1String("ftp-get") || protocol == QLatin1String("smb-read");
    test::PeerTransfer peer;
    peer.address = ServerAddress;
    peer.share = test::LabFileServers::share();
    peer.user = m_rig.fixture().user();
    peer.password = m_rig.fixture().password();
    peer.remoteName = reading ? fileName(ftp ? QStringLiteral("get") : QStringLiteral("read"), size)
                              : fileName(QStringLiteral("peer"), size);
    peer.localFile = uploadFile(size);
    const double mbps = test::PeerTools::transfer(protocol, peer, why);
    if (!reading)
        QFile::remove((ftp ? m_rig.fixture().ftpRoot() : m_rig.fixture().smbRoot()) + QLatin1Char('/')
                      + peer.remoteName);
    return mbps * 1e6 / theory;
}

RunResult TestFileServerAccuracy::runOnce(const QString &protocol, int frame, qint64 size)
{
    // The client's disk is out of it: generated data, discarded data.
    const TestPlan plan = test::LabFileServers::memoryPlan({labHost(protocol, size)}, {protocol}, frame, size);
    return m_rig.servers().runOne(plan, fileName(QStringLiteral("put"), size));
}

void TestFileServerAccuracy::goodputMatchesTheory_data()
{
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<int>("mtu");
    QTest::addColumn<QString>("rate");
    QTest::addColumn<double>("rateBps");
    // Grouped by line so that the lab is re-shaped only twice.
    const struct
    {
        int mtu;
        const char *rate;
        double bps;
        const char *label;
    } lines[] = {{1500, "1gbit", 1e9, "1 Gbit/s MTU 1500"},
                 {9000, "1gbit", 1e9, "1 Gbit/s MTU 9000"},
                 {1500, "100mbit", 1e8, "100 Mbit/s MTU 1500"}};
    for (const auto &line : lines) {
        for (const char *proto : {"ftp-get", "ftp-put", "smb-read", "smb-write"})
            QTest::addRow("%s %s", proto, line.label)
                << QString::fromLatin1(proto) << line.mtu << QString::fromLatin1(line.rate) << line.bps;
    }
}

void TestFileServerAccuracy::goodputMatchesTheory()
{
    QFETCH(QString, protocol);
    QFETCH(int, mtu);
    QFETCH(QString, rate);
    QFETCH(double, rateBps);
    QString why;
    QVERIFY2(m_rig.lab().setLine(mtu, rate, &why), qPrintable(why));
    const double theory = Ceiling::tcpGoodputBytesPerSecond(rateBps / 1e6, mtu);
    QCOMPARE(qRound(theory), qRound(rateBps * (mtu - 52) / (mtu + 38) / 8));
    const qint64 size = sizeFor(rateBps);
    const bool smb = protocol.startsWith(QLatin1String("smb"));
    // Only an overloaded machine excuses a miss, and it must show: the peer tool through the same lab and
    // server, same direction, misses the 1% target too. It runs right after each missed attempt, so both
    // see the same minutes of load (one reference after all the attempts met a different machine: on
    // 2 shared cores, Wirebench's three attempts read 45-87% while smbclient a minute later read 97.5%).
    const QString tool
        = protocol.startsWith(QLatin1String("ftp")) ? QStringLiteral("curl") : QStringLiteral("smbclient");
    RunResult best;
    double ratio = 0;
    double reference = 0;
    for (int attempt = 1; attempt <= 4 && ratio < 0.97; ++attempt) {
        const RunResult got = runOnce(protocol, mtu, size);
        QVERIFY2(got.ok(), qPrintable(got.error));
        QCOMPARE(got.bytes, size);
        qInfo("%s attempt %d: %lld bytes in %.4f s; MSS %d bytes (%s), observed %s bytes; untimed warm-up %s bytes; "
              "CPU busy during the run: %.0f%% of the machine (%d cores), this process %.0f%% of one core",
              qPrintable(protocol), attempt, got.bytes, got.seconds, got.mss,
              qPrintable(got.extra.value(QStringLiteral("mss_source")).toString()),
              qPrintable(got.extra.value(QStringLiteral("mss_observed"), QStringLiteral("-")).toString()),
              qPrintable(got.extra.value(QStringLiteral("smb_warmup_bytes"), QStringLiteral("-")).toString()),
              got.extra.value(QStringLiteral("cpu_local_percent"), -1).toDouble(),
              got.extra.value(QStringLiteral("cpu_local_cores"), 0).toInt(),
              got.extra.value(QStringLiteral("cpu_process_percent"), -1).toDouble());
        qInfo("%s", qPrintable(rowLine(protocol, rateBps, mtu, got, theory, attempt)));
        // Nothing gets through faster than the line.
        QVERIFY2(got.bytesPerSecond() <= 1.01 * theory,
                 qPrintable(QStringLiteral("%1 MB/s is above the theoretical %2 MB/s of the line")
                                .arg(got.megabytesPerSecond(), 0, 'f', 3)
                                .arg(theory / 1e6, 0, 'f', 3)));
        if (got.bytesPerSecond() / theory > ratio) {
            ratio = got.bytesPerSecond() / theory;
            best = got;
        }
        if (got.bytesPerSecond() / theory >= 0.97)
            break;
        const double peer = peerRatio(protocol, size, theory, &why);
        qInfo("reference after attempt %d: %s through the same lab: ratio %.4f of the theory", attempt,
              qPrintable(tool), peer);
        QVERIFY2(peer > 0,
                 qPrintable(tool
                            + QStringLiteral(" (the reference when the machine is too busy for the lab's "
                                             "theory) did not run: ")
                            + why));
        reference = qMax(reference, peer);
    }
    // The MSS the run used: MTU - 52 with TCP timestamps (1448, 8948). libsmbclient's socket is not the
    // driver's own: the driver reads it at the end of the transfer, and the engine observes it through
    // sock_diag as well.
    QCOMPARE(best.mss, mtu - 52);
    if (smb) {
        QVERIFY2(best.extra.value(QStringLiteral("mss_observed")).toInt() == mtu - 52,
                 qPrintable(QStringLiteral("observed %1, not %2: %3")
                                .arg(best.extra.value(QStringLiteral("mss_observed")).toInt())
                                .arg(mtu - 52)
                                .arg(best.extra.value(QStringLiteral("mss_observed_note")).toString())));
        QVERIFY(best.extra.value(QStringLiteral("smb_warmup_bytes")).toLongLong() > 0);
    }
    QCOMPARE(best.extra.value(QStringLiteral("path_mtu")).toInt(), mtu);
    if (ratio >= 0.97)
        return;
    // The best of each: the same number of tries, in the same minutes.
    qInfo("reference: the best of %s's runs, each right after an attempt: ratio %.4f of the theory", qPrintable(tool),
          reference);
    QVERIFY2(
        reference < 0.99,
        qPrintable(QStringLiteral(
                       "best of 4: %1 MB/s is %2% from the theoretical %3 MB/s (tolerance 3%), while "
                       "%5 through the same lab in the same minutes reached %4% of it: the machine is not the cause")
                       .arg(best.megabytesPerSecond(), 0, 'f', 3)
                       .arg((ratio - 1) * 100, 0, 'f', 2)
                       .arg(theory / 1e6, 0, 'f', 3)
                       .arg(reference * 100, 0, 'f', 2)
                       .arg(tool)));
    qInfo("overloaded: %s missed its 1%% target too (%.2f%% of the theory): %s is compared with it instead "
          "(%.2f%%, within 3 points required)",
          qPrintable(tool), reference * 100, qPrintable(protocol), ratio * 100);
    QVERIFY2(ratio >= reference - 0.03,
             qPrintable(QStringLiteral(
                            "best of 4: %1 MB/s is %2% of the theoretical %3 MB/s, more than 3 points below "
                            "the best of %5 through the same lab in the same minutes on this overloaded machine (%4%)")
                            .arg(best.megabytesPerSecond(), 0, 'f', 3)
                            .arg(ratio * 100, 0, 'f', 2)
                            .arg(theory / 1e6, 0, 'f', 3)
                            .arg(reference * 100, 0, 'f', 2)
                            .arg(tool)));
}

// Issue 12, item 2: on a link whose MTU (4000) is above the plan's frame (1500), smb-read cannot apply the
// frame (libsmbclient owns its socket, and Linux applies TCP_MAXSEG at connect time only), so it runs with
// MSS 3948. It must be labelled and judged by the 4000 B frames it used, with a warning naming both: never
// "above the line-rate ceiling" of a 1500 B frame, which a healthy read at 100 Mbit/s exceeds (12.2 MB/s
// of goodput at MTU 4000 against 11.77 at 1500).
void TestFileServerAccuracy::smbFrameBelowInterfaceMtu()
{
    QString why;
    QVERIFY2(m_rig.lab().setLine(4000, QStringLiteral("100mbit"), &why), qPrintable(why));
    const qint64 size = sizeFor(1e8);
    const double ceiling4000 = Ceiling::tcpGoodputForMss(100, 3948, false, true);
    for (const int frame : {1500, 4000}) {
        RunResult best;
        // Up to 4 attempts: on a loaded machine smbd may read below 97% of the line once or twice (the CI of 12e0553
        // met 11.749 MB/s), and the 1500 B case needs a run above what 1500 B frames carry to show the old alarm.
        // Enough: 97% of the line, and for the 1500 B case also what the assertion below needs to show the alarm
        // (above 1.01 x the 1500 B ceiling = 97.3% of the 4000 B one; the CI of 35e2587 stopped at 11.873 MB/s,
        // between).
        const double enough = frame == 1500
            ? qMax(0.97 * ceiling4000, 1.01 * Ceiling::tcpGoodputBytesPerSecond(100, 1500))
            : 0.97 * ceiling4000;
        for (int attempt = 1; attempt <= 4 && !(best.ok() && best.bytesPerSecond() > enough); ++attempt) {
            const RunResult got = runOnce(QStringLiteral("smb-read"), frame, size);
            QVERIFY2(got.ok(), qPrintable(got.error));
            if (!best.ok() || got.bytesPerSecond() > best.bytesPerSecond())
                best = got;
        }
        const QVariantMap &x = best.extra;
        qInfo("smb-read @ %d B frame over MTU 4000: %.3f MB/s, MSS %d B, frame_used %d B, ceiling %.3f MB/s (%.1f%%); "
              "warnings: %s; bottleneck: %s",
              frame, best.megabytesPerSecond(), best.mss, x.value(QStringLiteral("frame_used")).toInt(),
              x.value(QStringLiteral("ceiling_MBps")).toDouble(),
              x.value(QStringLiteral("percent_of_ceiling")).toDouble(),
              qPrintable(best.warnings.join(QStringLiteral(" | "))),
              qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
        QCOMPARE(best.mss, 3948);
        QCOMPARE(x.value(QStringLiteral("frame_used")).toInt(), 4000);
        QCOMPARE(x.value(QStringLiteral("ceiling_mtu")).toInt(), 4000);
        QVERIFY(qAbs(x.value(QStringLiteral("ceiling_MBps")).toDouble() - ceiling4000 / 1e6) < 1e-9);
        for (const QString &w : best.warnings)
            QVERIFY2(!w.contains(QStringLiteral("line-rate ceiling")), qPrintable(w));
        QVERIFY2(!x.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("above")),
                 qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
        if (frame == 4000) {
            QVERIFY2(best.warnings.isEmpty(), qPrintable(best.warnings.join(QLatin1Char('\n'))));
            QCOMPARE(Frame::frameText(best), QStringLiteral("4000"));
            continue;
        }
        // The healthy read is above what 1500 B frames could carry: judged by those, it was "impossible". On a machine
        // too busy for that (the CI of stop 27: 11.258 MB/s at best of 4, in minutes where curl put 0.93 of a 1 Gbit/s
        // line), smbclient reads the same file through the same lab right after: only when it cannot get above either
        // is the alarm out of this run's reach, and the label and warning below are still checked.
        const double alarmLine = 1.01 * Ceiling::tcpGoodputBytesPerSecond(100, 1500);
        if (best.bytesPerSecond() <= alarmLine) {
            const double peer = peerRatio(QStringLiteral("smb-read"), size, ceiling4000, &why) * ceiling4000;
            qInfo("smb-read @ 1500 B frame: %.3f MB/s at best, not above 1.01 x the 1500 B ceiling (%.3f MB/s); "
                  "smbclient "
                  "through the same lab right after: %.3f MB/s",
                  best.megabytesPerSecond(), alarmLine / 1e6, peer / 1e6);
            QVERIFY2(peer > 0,
                     qPrintable(QStringLiteral("smbclient (the reference on a busy machine) did not run: ") + why));
            QVERIFY2(peer <= alarmLine,
                     qPrintable(QStringLiteral(
                                    "%1 MB/s does not show the old false alarm, while smbclient read %2 MB/s through "
                                    "the same lab right after: the machine is not the cause")
                                    .arg(best.megabytesPerSecond(), 0, 'f', 3)
                                    .arg(peer / 1e6, 0, 'f', 3)));
            qInfo("the machine could not carry more than 1500 B frames do right now (smbclient neither): the old alarm "
                  "is out of reach of this run; its label and warning are checked");
        }
        QCOMPARE(best.warnings.size(), 1);
        QVERIFY2(best.warnings.first().startsWith(
                     QStringLiteral("smb-read @ 1500 B frame ran with 4000 B frames (MSS 3948 B), "
                                    "so it is labelled and judged by 4000 B: libsmbclient "
                                    "cannot clamp the MSS")),
                 qPrintable(best.warnings.first()));
        QVERIFY2(best.warnings.first().contains(
                     QStringLiteral("'ip link set dev %1 mtu 1500'").arg(m_rig.lab().clientInterface())),
                 qPrintable(best.warnings.first()));
        QCOMPARE(Frame::frameText(best), QStringLiteral("4000 (1500 planned)"));
    }
    m_rig.lab().forgetMtu();
}

QTEST_GUILESS_MAIN(TestFileServerAccuracy)
#include "TestFileServerAccuracy.moc"
