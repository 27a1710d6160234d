#include "analysis/CpuMeter.h"

#include <QTest>

#include <cstdint>

using namespace wb;

namespace {
// A bounded amount of work the optimiser cannot drop: roughly 0.1-1 s of one core.
std::uint64_t burn()
{
    volatile std::uint64_t sink = 0;
    std::uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200000000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if ((i & 0xffff) == 0)
            sink = sink + x;
    }
    return sink + x;
}
} // namespace

class TestCpuMeter : public QObject
{
    Q_OBJECT
private slots:
    void measuresBurntCpu()
    {
        CpuMeter meter;
        meter.start();
        QVERIFY(burn() != 0);
        const CpuUsage u = meter.stop();
        QVERIFY(u.valid);
        QVERIFY(u.wallSeconds > 0);
        QVERIFY2(u.processCpuSeconds > 0, qPrintable(QString::number(u.processCpuSeconds)));
        QVERIFY(u.processPercent > 0);
        QVERIFY2(u.threadCpuSeconds > 0, "RUSAGE_THREAD saw the burning thread");
        QVERIFY(u.threadPercent > 0 && u.threadPercent <= 100);
#ifdef Q_OS_LINUX
        QVERIFY(u.cores >= 1);
        QCOMPARE(u.perCorePercent.size(), u.cores);
        // The burning thread keeps at least one core busy part of the time; all figures stay in range.
        QVERIFY2(u.systemPercent > 0 && u.systemPercent <= 100, qPrintable(QString::number(u.systemPercent)));
        QVERIFY(u.systemPercent * u.cores <= 100.0 * u.cores);
        for (double p : u.perCorePercent)
            QVERIFY(p >= 0 && p <= 100);
        QVERIFY(u.busiestCorePercent >= u.systemPercent - 1e-9);
        QVERIFY(u.systemBusyCpuSeconds > 0);
        QVERIFY(u.systemBusyCpuSeconds <= u.cores * u.wallSeconds + 1e-9);
#endif
        // The process never uses more than all cores for the wall time (small slack for clock granularity).
        QVERIFY(u.processCpuSeconds <= u.wallSeconds * qMax(1, u.cores) + 0.05);
    }

    void stopWithoutStart()
    {
        CpuMeter meter;
        QVERIFY(!meter.stop().valid);
    }

    void serviceDemand_data()
    {
        QTest::addColumn<double>("cpuSeconds");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<double>("expected"); // microseconds of CPU per KB (1024 bytes)
        QTest::newRow("1 s per 1000 KB") << 1.0 << qint64(1024 * 1000) << 1000.0;
        QTest::newRow("0.5 s for 1 GiB") << 0.5 << qint64(1) * 1024 * 1024 * 1024 << 0.5e6 / (1024.0 * 1024.0);
        QTest::newRow("2 cores x 10 s for 1.177 GB") << 20.0 << qint64(1176853055) << 20e6 / (1176853055 / 1024.0);
        QTest::newRow("no bytes") << 1.0 << qint64(0) << -1.0;
        QTest::newRow("unknown CPU") << -1.0 << qint64(1024) << -1.0;
    }
    void serviceDemand()
    {
        QFETCH(double, cpuSeconds);
        QFETCH(qint64, bytes);
        QFETCH(double, expected);
        QVERIFY(qAbs(CpuMeter::serviceDemandUsPerKB(cpuSeconds, bytes) - expected) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestCpuMeter)
#include "TestCpuMeter.moc"
