#include "stats/Statistics.h"
#include "stats/TestSummary.h"

#include <QTest>

#include <cmath>

using namespace wb;

namespace {
bool near(double a, double b, double rel = 1e-6)
{
    return std::abs(a - b) <= rel * std::max(1.0, std::abs(b));
}
} // namespace

class TestStatistics : public QObject
{
    Q_OBJECT
private slots:
    void summarize_data();
    void summarize();
    void orderDoesNotMatter();
    void tCritical95_data();
    void tCritical95();
    void testSummaryGroups();
};

void TestStatistics::summarize_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("stddev");
    QTest::addColumn<double>("ci95");

    QTest::newRow("n=0") << QList<double>{} << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("n=1") << QList<double>{5} << 5.0 << 5.0 << 5.0 << 5.0 << 0.0 << 0.0;
    // n=2: s = 7.0711, t(1) = 12.7062, half-width = 12.7062 * s / sqrt(2)
    QTest::newRow("n=2") << QList<double>{20, 10} << 10.0 << 15.0 << 15.0 << 20.0 << 7.0710678 << 63.531;
    // odd count: the middle value; t(2) = 4.3027
    QTest::newRow("n=3 odd") << QList<double>{3, 1, 2} << 1.0 << 2.0 << 2.0 << 3.0 << 1.0 << 2.4841650;
    // even count: the mean of the two middle values; t(3) = 3.1824
    QTest::newRow("n=4 even") << QList<double>{4, 1, 3, 2} << 1.0 << 2.5 << 2.5 << 4.0 << 1.2909944 << 2.0542304;
    // population sd 2, sample sd sqrt(32/7); t(7) = 2.3646
    QTest::newRow("n=8") << QList<double>{2, 4, 4, 4, 5, 5, 7, 9} << 2.0 << 4.5 << 5.0 << 9.0 << 2.1380899 << 1.7874696;
    QTest::newRow("identical") << QList<double>{117.7, 117.7, 117.7} << 117.7 << 117.7 << 117.7 << 117.7 << 0.0 << 0.0;
    // t(4) = 2.7764
    QTest::newRow("n=5 around 4.86") << QList<double>{4.86, 4.9, 4.81, 4.88, 4.85} << 4.81 << 4.86 << 4.86 << 4.9
                                     << 0.0339116 << 0.0421062;
    QTest::newRow("negative and zero") << QList<double>{-1, 0, 1} << -1.0 << 0.0 << 0.0 << 1.0 << 1.0 << 2.4841650;
}

void TestStatistics::summarize()
{
    QFETCH(QList<double>, values);
    QFETCH(double, min);
    QFETCH(double, median);
    QFETCH(double, mean);
    QFETCH(double, max);
    QFETCH(double, stddev);
    QFETCH(double, ci95);
    const Summary s = Statistics::summarize(values);
    QCOMPARE(s.n, int(values.size()));
    QVERIFY2(near(s.min, min), qPrintable(QString::number(s.min)));
    QVERIFY2(near(s.median, median), qPrintable(QString::number(s.median)));
    QVERIFY2(near(s.mean, mean), qPrintable(QString::number(s.mean)));
    QVERIFY2(near(s.max, max), qPrintable(QString::number(s.max)));
    QVERIFY2(near(s.stddev, stddev, 1e-6), qPrintable(QString::number(s.stddev, 'g', 10)));
    QVERIFY2(near(s.ci95HalfWidth, ci95, 1e-6), qPrintable(QString::number(s.ci95HalfWidth, 'g', 10)));
    QVERIFY(near(s.ciLow(), mean - ci95, 1e-6));
    QVERIFY(near(s.ciHigh(), mean + ci95, 1e-6));
}

void TestStatistics::orderDoesNotMatter()
{
    const Summary a = Statistics::summarize({9, 1, 5, 3, 7, 2});
    const Summary b = Statistics::summarize({1, 2, 3, 5, 7, 9});
    QCOMPARE(a.median, b.median);
    QCOMPARE(a.median, 4.0);
    QVERIFY(near(a.stddev, b.stddev));
}

void TestStatistics::tCritical95_data()
{
    QTest::addColumn<int>("df");
    QTest::addColumn<double>("t");
    QTest::newRow("df=0") << 0 << 0.0;
    QTest::newRow("df=-3") << -3 << 0.0;
    QTest::newRow("df=1") << 1 << 12.7062;
    QTest::newRow("df=2") << 2 << 4.3027;
    QTest::newRow("df=4") << 4 << 2.7764;
    QTest::newRow("df=9") << 9 << 2.2622;
    QTest::newRow("df=30") << 30 << 2.0423;
    QTest::newRow("df=40") << 40 << 2.0211;
    QTest::newRow("df=60") << 60 << 2.0003;
    QTest::newRow("df=120") << 120 << 1.9799;
    QTest::newRow("df=10000") << 10000 << 1.96;
}

void TestStatistics::tCritical95()
{
    QFETCH(int, df);
    QFETCH(double, t);
    QVERIFY2(near(Statistics::tCritical95(df), t, 1e-4), qPrintable(QString::number(Statistics::tCritical95(df))));
}

void TestStatistics::testSummaryGroups()
{
    // Two responders on one address are two hosts; failed runs are counted, not averaged.
    auto run = [](quint16 port, const QString &protocol, int rep, RunStatus status, qint64 bytes) {
        RunResult r;
        r.spec.host.address = QStringLiteral("127.0.0.1");
        r.spec.host.port = port;
        r.spec.protocol = protocol;
        r.spec.frameSize = 1500;
        r.spec.repetition = rep;
        r.status = status;
        r.bytes = bytes;
        r.seconds = 1.0;
        r.mss = 1448;
        r.serverOs = QStringLiteral("Linux");
        if (status != RunStatus::Ok)
            r.error = QStringLiteral("127.0.0.1:%1: connection refused").arg(port);
        return r;
    };
    const RunResultList results{run(5301, QStringLiteral("tcp-send"), 1, RunStatus::Ok, 100'000'000),
                                run(5301, QStringLiteral("tcp-send"), 2, RunStatus::Ok, 120'000'000),
                                run(5302, QStringLiteral("tcp-send"), 1, RunStatus::Failed, 0),
                                run(5302, QStringLiteral("tcp-send"), 2, RunStatus::Failed, 0),
                                run(5301, QStringLiteral("tcp-recv"), 1, RunStatus::Ok, 90'000'000)};
    const QList<TestSummary> tests = TestSummary::build(results);
    QCOMPARE(tests.size(), 3);
    QCOMPARE(tests.at(0).host.port, quint16(5301));
    QCOMPARE(tests.at(0).okRuns, 2);
    QCOMPARE(tests.at(0).MBps.n, 2);
    QVERIFY(near(tests.at(0).MBps.median, 110.0));
    QCOMPARE(tests.at(0).mss, 1448);
    QCOMPARE(tests.at(0).host.osLabel, QStringLiteral("Linux"));
    QCOMPARE(tests.at(1).host.port, quint16(5302));
    QCOMPARE(tests.at(1).okRuns, 0);
    QCOMPARE(tests.at(1).failedRuns, 2);
    QCOMPARE(tests.at(1).MBps.n, 0);
    QCOMPARE(tests.at(1).errors.size(), 1); // distinct errors only
    QCOMPARE(tests.at(2).protocol, QStringLiteral("tcp-recv"));
    QVERIFY(near(tests.at(2).MBps.mean, 90.0));

    // runsOf gives each test its own runs, in order, and nothing else.
    QCOMPARE(tests.at(0).runsOf(results).size(), 2);
    QCOMPARE(tests.at(0).runsOf(results).at(1).spec.repetition, 2);
    QCOMPARE(tests.at(1).runsOf(results).size(), 2);
    QCOMPARE(tests.at(2).runsOf(results).size(), 1);
    QVERIFY(tests.at(0).matches(results.at(0)));
    QVERIFY(!tests.at(0).matches(results.at(2))); // other port
    QVERIFY(!tests.at(0).matches(results.at(4))); // other protocol
}

QTEST_GUILESS_MAIN(TestStatistics)
#include "TestStatistics.moc"
