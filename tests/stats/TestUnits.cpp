#include "stats/Units.h"

#include <QTest>

#include <cmath>

using namespace wb;

Q_DECLARE_METATYPE(wb::RateUnit)

class TestUnits : public QObject
{
    Q_OBJECT
private slots:
    void convert_data();
    void convert();
    void format_data();
    void format();
    void fromId_data();
    void fromId();
    void formatBytes_data();
    void formatBytes();
    void labels();
};

void TestUnits::convert_data()
{
    QTest::addColumn<double>("bytesPerSecond");
    QTest::addColumn<RateUnit>("unit");
    QTest::addColumn<double>("value");
    QTest::newRow("1e6 B/s in MB/s") << 1e6 << RateUnit::MBps << 1.0;
    QTest::newRow("1e6 B/s in MiB/s") << 1e6 << RateUnit::MiBps << 0.95367431640625;
    QTest::newRow("1e6 B/s in Mbit/s") << 1e6 << RateUnit::Mbps << 8.0;
    QTest::newRow("2^20 B/s in MiB/s") << 1048576.0 << RateUnit::MiBps << 1.0;
    QTest::newRow("gigabit in MB/s") << 125e6 << RateUnit::MBps << 125.0;
    QTest::newRow("gigabit in Mbit/s") << 125e6 << RateUnit::Mbps << 1000.0;
    QTest::newRow("gigabit in MiB/s") << 125e6 << RateUnit::MiBps << 119.20928955078125;
    // netperf -fM prints "MBytes/sec" in powers of two: its 4.86 is 5.096 MB/s, 40.77 Mbit/s.
    QTest::newRow("netperf 4.86 MiB/s in MB/s") << 4.86 * 1048576 << RateUnit::MBps << 5.09607936;
    QTest::newRow("netperf 4.86 MiB/s in Mbit/s") << 4.86 * 1048576 << RateUnit::Mbps << 40.76863488;
    QTest::newRow("zero") << 0.0 << RateUnit::Mbps << 0.0;
}

void TestUnits::convert()
{
    QFETCH(double, bytesPerSecond);
    QFETCH(RateUnit, unit);
    QFETCH(double, value);
    const double got = Units::fromBytesPerSecond(bytesPerSecond, unit);
    QVERIFY2(std::abs(got - value) <= 1e-9 * std::max(1.0, value), qPrintable(QString::number(got, 'g', 12)));
    // and back
    const double back = Units::toBytesPerSecond(value, unit);
    QVERIFY2(std::abs(back - bytesPerSecond) <= 1e-6 * std::max(1.0, bytesPerSecond),
             qPrintable(QString::number(back, 'g', 12)));
}

void TestUnits::format_data()
{
    QTest::addColumn<double>("bytesPerSecond");
    QTest::addColumn<RateUnit>("unit");
    QTest::addColumn<QString>("text");
    QTest::newRow("117.7 MB/s") << 117.7e6 << RateUnit::MBps << QStringLiteral("117.7 MB/s");
    QTest::newRow("two decimals under 100") << 5.09607936e6 << RateUnit::MBps << QStringLiteral("5.10 MB/s");
    QTest::newRow("three decimals under 1") << 0.5e6 << RateUnit::MBps << QStringLiteral("0.500 MB/s");
    QTest::newRow("MiB/s") << 4.86 * 1048576 << RateUnit::MiBps << QStringLiteral("4.86 MiB/s");
    QTest::newRow("Mbit/s") << 125e6 << RateUnit::Mbps << QStringLiteral("1000.0 Mbit/s");
    QTest::newRow("zero") << 0.0 << RateUnit::MBps << QStringLiteral("0.000 MB/s");
}

void TestUnits::format()
{
    QFETCH(double, bytesPerSecond);
    QFETCH(RateUnit, unit);
    QFETCH(QString, text);
    QCOMPARE(Units::format(bytesPerSecond, unit), text);
}

void TestUnits::fromId_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<RateUnit>("unit");
    QTest::newRow("MBps") << QStringLiteral("MBps") << true << RateUnit::MBps;
    QTest::newRow("MiBps") << QStringLiteral("MiBps") << true << RateUnit::MiBps;
    QTest::newRow("Mbps is bits, not bytes") << QStringLiteral("Mbps") << true << RateUnit::Mbps;
    QTest::newRow("label MB/s") << QStringLiteral("MB/s") << true << RateUnit::MBps;
    QTest::newRow("label MiB/s") << QStringLiteral("MiB/s") << true << RateUnit::MiBps;
    QTest::newRow("label Mbit/s") << QStringLiteral("Mbit/s") << true << RateUnit::Mbps;
    QTest::newRow("mbit/s any case") << QStringLiteral("mbit/s") << true << RateUnit::Mbps;
    QTest::newRow("mibps any case") << QStringLiteral("mibps") << true << RateUnit::MiBps;
    QTest::newRow("spaces") << QStringLiteral(" MBps ") << true << RateUnit::MBps;
    QTest::newRow("ambiguous mbps") << QStringLiteral("mbps") << false << RateUnit::MBps;
    QTest::newRow("empty") << QString() << false << RateUnit::MBps;
    QTest::newRow("junk") << QStringLiteral("furlongs") << false << RateUnit::MBps;
}

void TestUnits::fromId()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(RateUnit, unit);
    bool parsed = !ok;
    QCOMPARE(Units::fromId(text, &parsed), unit);
    QCOMPARE(parsed, ok);
    QCOMPARE(Units::fromId(text), unit); // ok pointer is optional
}

void TestUnits::formatBytes_data()
{
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("bytes") << qint64(1472) << QStringLiteral("1.4 KiB");
    QTest::newRow("small") << qint64(500) << QStringLiteral("500 B");
    QTest::newRow("128 KiB") << qint64(131072) << QStringLiteral("128 KiB");
    QTest::newRow("1.5 KiB") << qint64(1536) << QStringLiteral("1.5 KiB");
    QTest::newRow("256 MiB") << qint64(256) * 1024 * 1024 << QStringLiteral("256 MiB");
    QTest::newRow("zero") << qint64(0) << QStringLiteral("0 B");
}

void TestUnits::formatBytes()
{
    QFETCH(qint64, bytes);
    QFETCH(QString, text);
    QCOMPARE(Units::formatBytes(bytes), text);
}

void TestUnits::labels()
{
    for (RateUnit u : {RateUnit::MBps, RateUnit::MiBps, RateUnit::Mbps}) {
        bool ok = false;
        QCOMPARE(Units::fromId(Units::id(u), &ok), u);
        QVERIFY(ok);
        QCOMPARE(Units::fromId(Units::label(u), &ok), u);
        QVERIFY(ok);
    }
    QCOMPARE(Units::label(RateUnit::Mbps), QStringLiteral("Mbit/s"));
}

QTEST_GUILESS_MAIN(TestUnits)
#include "TestUnits.moc"
