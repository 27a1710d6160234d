// "The local disk was the bottleneck" (issue 14): a real copy-read (the driver's own run, as the engine makes it)
// from a fast folder into a local file on a deliberately slow disk - ext4 on a loop device whose writes the
// kernel's block throttle holds to 8 MB/s (ThrottledDisk) - is named so, with the disk's own write rate that
// TransferRun measured beside the file after the transfer, and the rate a TCP stream (tcp-recv against the
// in-process responder, the same host) carried. The same download onto a fast disk (tmpfs) is not. Needs root;
// under CI=true it fails when the disk cannot be made.
#include "SmallLocalDisk.h"
#include "ThrottledDisk.h"

#include "analysis/SessionFindings.h"
#include "protocols/transfer/TransferSettings.h"
#include "support/CiRule.h"
#include "support/LoopbackResponder.h"
#include "support/TransferDriverChecks.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace wb;
using namespace wb::test;

class TestLocalDiskBottleneck : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void slowDiskIsTheBottleneck();
    void fastDiskIsNot();

private:
    Host host() const;
    /// copy-read of kSize bytes from the share folder into `sinkFile`, O_DIRECT as the plan editor offers it.
    RunResult download(const QString &sinkFile) const;
    static QStringList diskSentences(const RunResultList &runs);

    static constexpr qint64 kSize = 24LL * 1024 * 1024;
    static constexpr qint64 kRate = 8 * 1000 * 1000; // B/s
    std::unique_ptr<Responder> m_responder;
    RunResult m_tcp;
    QTemporaryDir m_share{QStringLiteral("/dev/shm/wbtest-share-XXXXXX")};
    ThrottledDisk m_slow;
};

Host TestLocalDiskBottleneck::host() const
{
    Host h;
    h.name = QStringLiteral("this-computer");
    h.address = QStringLiteral("127.0.0.1");
    h.port = m_responder->port();
    h.options.insert(QStringLiteral("copy.path"), m_share.filePath(QStringLiteral("wirebench-test.bin")));
    return h;
}

void TestLocalDiskBottleneck::initTestCase()
{
    QString why;
    const bool made = m_slow.create(QStringLiteral("localdisk"), 96LL * 1024 * 1024, kRate, &why);
    WB_REQUIRE(made, QStringLiteral("no slow local disk: %1").arg(why));
    qInfo("slow disk: %s", qPrintable(m_slow.how()));
    QVERIFY(m_share.isValid());
    m_responder = loopbackResponder();
    QVERIFY(m_responder->start());
    // The network to this host: a TCP stream the way the copy comes (from the server to this computer).
    RunSpec tcp;
    tcp.host = host();
    tcp.protocol = QStringLiteral("tcp-recv");
    tcp.params.durationMs = 1000;
    m_tcp = runDriver(tcp);
    QVERIFY2(m_tcp.ok(), qPrintable(m_tcp.error));
    qInfo("tcp-recv: %.1f MB/s", m_tcp.megabytesPerSecond());
}

RunResult TestLocalDiskBottleneck::download(const QString &sinkFile) const
{
    RunSpec s;
    s.host = host();
    s.protocol = QStringLiteral("copy-read");
    s.params.fileSizeBytes = kSize;
    s.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    s.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), sinkFile);
    s.params.options.insert(QLatin1String(TransferSettings::UnbufferedKey), true);
    return runDriver(s);
}

QStringList TestLocalDiskBottleneck::diskSentences(const RunResultList &runs)
{
    QStringList out;
    for (const Finding &f : SessionFindings::of(runs))
        if (f.kind == Finding::Kind::LocalDisk)
            out << f.sentence;
    return out;
}

void TestLocalDiskBottleneck::slowDiskIsTheBottleneck()
{
    const QString sink = m_slow.path() + QStringLiteral("/download.bin");
    const RunResult r = download(sink);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const double disk = r.extra.value(QStringLiteral("local_disk_rate_MBps")).toDouble();
    qInfo("copy-read %.2f MB/s, the disk alone %.2f MB/s (%s)", r.megabytesPerSecond(), disk,
          qPrintable(r.extra.value(QStringLiteral("local_disk_rate_unbuffered")).toBool()
                         ? QStringLiteral("O_DIRECT")
                         : QStringLiteral("buffered")));
    QCOMPARE(r.extra.value(QStringLiteral("local_disk_rate_op")).toString(), QStringLiteral("write"));
    // The throttle holds both to at most about 8 MB/s (its first slice may let a little more through).
    QVERIFY2(disk > 0 && disk < 12, qPrintable(QString::number(disk)));
    QVERIFY2(r.megabytesPerSecond() < 12, qPrintable(QString::number(r.megabytesPerSecond())));
    // Only the sample was removed: the download stays, and nothing else is in the folder.
    QCOMPARE(QFileInfo(sink).size(), kSize);
    QCOMPARE(QDir(m_slow.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("download.bin")});
    const QStringList said = diskSentences({m_tcp, r});
    QCOMPARE(said.size(), 1);
    const QString expected
        = QStringLiteral("copy-read @ 1500 B %1 MB/s: the local disk was the bottleneck (writes %2 MB/s "
                         "on its own; the network carried %3 MB/s to this host in this session).")
              .arg(r.megabytesPerSecond(), 0, 'f', 1)
              .arg(disk, 0, 'f', 1)
              .arg(m_tcp.megabytesPerSecond(), 0, 'f', 1);
    QCOMPARE(said.first(), expected);
}

void TestLocalDiskBottleneck::fastDiskIsNot()
{
    QTemporaryDir fast(QStringLiteral("/dev/shm/wbtest-fast-XXXXXX"));
    const QString sink = fast.filePath(QStringLiteral("download.bin"));
    const RunResult r = download(sink);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const double disk = r.extra.value(QStringLiteral("local_disk_rate_MBps")).toDouble();
    qInfo("copy-read %.2f MB/s, tmpfs alone %.2f MB/s", r.megabytesPerSecond(), disk);
    QVERIFY(disk > 0);
    QCOMPARE(QDir(fast.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("download.bin")});
    QVERIFY2(diskSentences({m_tcp, r}).isEmpty(), qPrintable(diskSentences({m_tcp, r}).join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestLocalDiskBottleneck)
#include "TestLocalDiskBottleneck.moc"
