// The receiver's window with a warm-up left out (iperf3 -O): which bytes count, over which time.
#include "stats/ReceiveWindow.h"

#include <QTest>

using namespace wb;

namespace {
constexpr qint64 kMs = 1000000;
}

class TestReceiveWindow : public QObject
{
    Q_OBJECT
private slots:
    void window_data()
    {
        // Arrivals of 1000 B each at the given milliseconds.
        QTest::addColumn<qint64>("warmupMs");
        QTest::addColumn<QList<int>>("arrivalsMs");
        QTest::addColumn<qint64>("measuredBytes");
        QTest::addColumn<double>("measuredSeconds");
        QTest::addColumn<qint64>("totalBytes");
        QTest::newRow("no warm-up: first to last byte")
            << qint64(0) << QList<int>{0, 100, 200, 300} << qint64(4000) << 0.3 << qint64(4000);
        QTest::newRow("warm-up 150 ms") << qint64(150) << QList<int>{0, 100, 200, 300} << qint64(2000) << 0.2
                                        << qint64(4000);
        QTest::newRow("warm-up ends on an arrival")
            << qint64(200) << QList<int>{0, 100, 200, 300} << qint64(2000) << 0.2 << qint64(4000);
        QTest::newRow("warm-up longer than the test")
            << qint64(1000) << QList<int>{0, 100, 200, 300} << qint64(0) << 0.0 << qint64(4000);
        QTest::newRow("one arrival") << qint64(0) << QList<int>{50} << qint64(1000) << 0.0 << qint64(1000);
        QTest::newRow("nothing arrived") << qint64(100) << QList<int>{} << qint64(0) << 0.0 << qint64(0);
        QTest::newRow("first arrival late, warm-up from it")
            << qint64(100) << QList<int>{500, 550, 650, 700} << qint64(2000) << 0.15 << qint64(4000);
    }
    void window()
    {
        QFETCH(qint64, warmupMs);
        QFETCH(QList<int>, arrivalsMs);
        QFETCH(qint64, measuredBytes);
        QFETCH(double, measuredSeconds);
        QFETCH(qint64, totalBytes);
        ReceiveWindow w(warmupMs * kMs);
        for (int t : arrivalsMs)
            w.add(1000, t * kMs);
        QCOMPARE(w.measuredBytes(), measuredBytes);
        QCOMPARE(w.measuredSeconds(), measuredSeconds);
        QCOMPARE(w.totalBytes(), totalBytes);
        QCOMPARE(w.warmingUp(), measuredBytes == 0);
    }
};

QTEST_GUILESS_MAIN(TestReceiveWindow)
#include "TestReceiveWindow.moc"
