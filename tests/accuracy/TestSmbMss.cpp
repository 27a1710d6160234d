#include "../protocols/FileServerFixture.h"
#include "engine/Engine.h"
#include "plan/TestPlan.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace wb;

// libsmbclient opens its own socket, so the engine observes that connection's MSS through sock_diag
// while the run goes on (RunAnalyzer::duringRun). Real smbd on 127.0.0.1 (the protocols fixture).
class TestSmbMss : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_servers = std::make_unique<test::FileServerFixture>();
        QString why;
        const bool ok = m_servers->prepare(&why) && m_servers->startSmb(&why);
        WB_REQUIRE(ok, why);
    }

    void observedThroughEngine_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::newRow("smb-write") << QStringLiteral("smb-write");
        QTest::newRow("smb-read") << QStringLiteral("smb-read");
    }
    void observedThroughEngine()
    {
        QFETCH(QString, protocol);
        TestPlan plan;
        Host h = m_servers->smbHost();
        h.options.insert(QStringLiteral("smb.path"), QStringLiteral("mss.bin"));
        plan.hosts = {h};
        plan.protocols = {protocol};
        plan.frameSizes = {1500};
        plan.repetitions = 1;
        plan.params.fileSizeBytes = 64LL * 1024 * 1024;
        Engine engine;
        QSignalSpy finished(&engine, &Engine::runFinished);
        QSignalSpy done(&engine, &Engine::planFinished);
        QVERIFY(engine.start(plan));
        QVERIFY(done.wait(120000));
        QCOMPARE(finished.size(), 1);
        const RunResult r = finished.first().first().value<RunResult>();
        QVERIFY2(r.ok(), qPrintable(r.error));
        const int observed = r.extra.value(QStringLiteral("mss_observed")).toInt();
        qInfo("%s: driver's MSS %d bytes (%s), observed through sock_diag %d bytes", qPrintable(protocol), r.mss,
              qPrintable(r.extra.value(QStringLiteral("mss_source")).toString()), observed);
        QVERIFY2(observed > 0, qPrintable(r.extra.value(QStringLiteral("mss_note")).toString()));
        QVERIFY(r.mss > 0);
        // The data goes in segments of the path's MSS: on loopback min(MTU, 65535) - 40 - 12 (timestamps) =
        // 65483, in both directions. The driver reads its own figure at the end of the transfer as
        // max(tcpi_snd_mss, tcpi_rcv_mss): early on, Linux bounds the send MSS by half the largest window the
        // peer has announced (32768 against smbd's first 64 KiB), and on smb-read the client only sends
        // requests. Both figures agree; see docs/FRAMES.md.
        const int pathMtu = r.extra.value(QStringLiteral("path_mtu")).toInt();
        QVERIFY2(pathMtu > 0, "no path_mtu in the result");
        QFile ts(QStringLiteral("/proc/sys/net/ipv4/tcp_timestamps"));
        const bool timestamps = ts.open(QIODevice::ReadOnly) && ts.readAll().trimmed() != "0";
        QCOMPARE(observed, qMin(pathMtu, 65535) - 40 - (timestamps ? 12 : 0));
        QCOMPARE(r.mss, observed);
    }

private:
    std::unique_ptr<test::FileServerFixture> m_servers;
};

QTEST_GUILESS_MAIN(TestSmbMss)
#include "TestSmbMss.moc"
