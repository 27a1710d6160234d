// A plan through wb::Engine whose first run meets a full server disk: the failure is recorded with its reason,
// what it measured is kept, and the plan goes on, or stops when the plan says so. Real vsftpd on 127.0.0.1.
#include "FileServerFixture.h"

#include "engine/Engine.h"
#include "protocols/transfer/TransferSettings.h"

#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

using namespace wb;
using namespace wb::test;

namespace {
constexpr qint64 SmallDiskBytes = 16LL * 1024 * 1024;
constexpr qint64 FileBytes = 32LL * 1024 * 1024; // twice the server's small disk
} // namespace

class TestTransferFaultPlan : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void planGoesOnAfterDiskFull();
    void stopOnErrorEndsThePlan();

private:
    TestPlan plan() const;

    std::unique_ptr<FileServerFixture> m_servers;
    bool m_ready = false;
    QString m_why;
};

void TestTransferFaultPlan::initTestCase()
{
    m_servers = std::make_unique<FileServerFixture>();
    m_ready
        = m_servers->prepare(&m_why) && m_servers->useSmallDisk(SmallDiskBytes, &m_why) && m_servers->startFtp(&m_why);
    if (!m_ready)
        qWarning("%s", qPrintable(m_why));
}

void TestTransferFaultPlan::cleanupTestCase()
{
    m_servers.reset();
}

TestPlan TestTransferFaultPlan::plan() const
{
    // Two hosts on the same vsftpd: the first writes into the 16 MiB tmpfs, the second into the roomy home.
    Host full = m_servers->ftpHost();
    full.name = QStringLiteral("vsftpd-small-disk");
    full.options.insert(QStringLiteral("ftp.path"), QStringLiteral("full/plan.bin"));
    Host roomy = m_servers->ftpHost();
    roomy.name = QStringLiteral("vsftpd-roomy");
    roomy.options.insert(QStringLiteral("ftp.path"), QStringLiteral("plan.bin"));
    TestPlan p;
    p.hosts = {full, roomy};
    p.protocols = {QStringLiteral("ftp-put")};
    p.frameSizes = {1500};
    p.repetitions = 1;
    p.params.fileSizeBytes = FileBytes;
    p.params.options.insert(QLatin1String(TransferSettings::VerifyKey), true);
    return p;
}

void TestTransferFaultPlan::planGoesOnAfterDiskFull()
{
    WB_REQUIRE(m_ready, m_why);
    Engine engine;
    QSignalSpy runs(&engine, &Engine::runFinished);
    QSignalSpy samples(&engine, &Engine::samplesReady);
    QSignalSpy finished(&engine, &Engine::planFinished);
    // The GUI thread keeps turning while the engine's thread blocks in the driver.
    int ticks = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, this, [&ticks] { ++ticks; });
    tick.start(20);
    const TestPlan p = plan();
    QVERIFY(p.validate().isEmpty());
    QVERIFY(engine.start(p));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
    QCOMPARE(finished.first().first().toBool(), false); // not cancelled
    QCOMPARE(runs.size(), 2);
    QVERIFY(ticks > 0);

    const RunResult failed = runs.at(0).first().value<RunResult>();
    qInfo("run 0: %s (%lld B, %.3f s, %lld samples)", qPrintable(failed.error), failed.bytes, failed.seconds,
          qint64(failed.samples.size()));
    QCOMPARE(failed.spec.host.name, QStringLiteral("vsftpd-small-disk"));
    QCOMPARE(failed.status, RunStatus::Failed);
    QCOMPARE(failed.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("remote_disk_full"));
    QVERIFY2(
        failed.error.startsWith(QStringLiteral("vsftpd-small-disk (127.0.0.1:%1): FTP PUT: the server's disk is full")
                                    .arg(m_servers->ftpPort())),
        qPrintable(failed.error));
    QVERIFY(failed.bytes > 0 && failed.bytes < FileBytes); // what moved before the disk filled up is kept
    QVERIFY(failed.seconds > 0);
    QVERIFY(!failed.samples.isEmpty());

    const RunResult ok = runs.at(1).first().value<RunResult>();
    QCOMPARE(ok.spec.host.name, QStringLiteral("vsftpd-roomy"));
    QVERIFY2(ok.ok(), qPrintable(ok.error));
    QCOMPARE(ok.bytes, FileBytes);
    QVERIFY(ok.extra.contains(QStringLiteral("verified")));

    // The live samples of both runs reached the GUI side.
    QHash<int, qint64> sampled;
    for (const QList<QVariant> &batch : std::as_const(samples)) {
        for (const Sample &s : batch.first().value<SampleList>())
            sampled[s.runIndex] += s.bytes;
    }
    QVERIFY(sampled.value(failed.spec.index) > 0);
    QCOMPARE(sampled.value(ok.spec.index), FileBytes);
}

void TestTransferFaultPlan::stopOnErrorEndsThePlan()
{
    WB_REQUIRE(m_ready, m_why);
    Engine engine;
    QSignalSpy runs(&engine, &Engine::runFinished);
    QSignalSpy status(&engine, &Engine::statusChanged);
    QSignalSpy finished(&engine, &Engine::planFinished);
    TestPlan p = plan();
    p.params.stopOnError = true;
    p.hosts[1].options.insert(QStringLiteral("ftp.path"), QStringLiteral("never-written.bin"));
    QVERIFY(engine.start(p));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
    QCOMPARE(runs.size(), 1);
    const RunResult failed = runs.at(0).first().value<RunResult>();
    qInfo("run 0: %s", qPrintable(failed.error));
    QCOMPARE(failed.status, RunStatus::Failed);
    QCOMPARE(failed.extra.value(QStringLiteral("fault")).toString(), QStringLiteral("remote_disk_full"));
    QVERIFY(failed.bytes > 0);
    QStringList lines;
    for (const QList<QVariant> &args : std::as_const(status))
        lines << args.first().toString();
    QVERIFY2(lines.contains(QStringLiteral("Stopped after a failed run, as the plan asks.")),
             qPrintable(lines.join(QLatin1Char('|'))));
    QVERIFY(!QFile::exists(m_servers->ftpRoot() + QStringLiteral("/never-written.bin")));
}

QTEST_GUILESS_MAIN(TestTransferFaultPlan)
#include "TestTransferFaultPlan.moc"
