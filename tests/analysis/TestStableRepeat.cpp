#include "analysis/RepeatUntilStable.h"

#include <QTest>

using namespace wb;

class TestStableRepeat : public QObject
{
    Q_OBJECT
private slots:
    void decide_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<int>("minCount");
        QTest::addColumn<int>("maxCount");
        QTest::addColumn<double>("target"); // half-width, % of the mean
        QTest::addColumn<bool>("repeat");
        QTest::addColumn<bool>("reached");

        const double nan = qQNaN();
        QTest::newRow("nothing yet") << QList<double>{} << 3 << 10 << 2.5 << true << false;
        QTest::newRow("one value") << QList<double>{100} << 3 << 10 << 2.5 << true << false;
        QTest::newRow("steady but under the minimum") << QList<double>{100, 100} << 3 << 10 << 2.5 << true << true;
        QTest::newRow("steady at the minimum") << QList<double>{100, 100, 100} << 3 << 10 << 2.5 << false << true;
        // mean 100, s = 1, t(2) = 4.3027: half-width 2.484% of the mean
        QTest::newRow("just within +/-2.5%") << QList<double>{100, 101, 99} << 3 << 10 << 2.5 << false << true;
        // s = 2: half-width 4.97%
        QTest::newRow("too wide, keep going") << QList<double>{100, 102, 98} << 3 << 10 << 2.5 << true << false;
        QTest::newRow("too wide at the maximum")
            << QList<double>{100, 120, 80, 110, 90, 105, 95, 130, 70, 100} << 3 << 10 << 2.5 << false << false;
        QTest::newRow("rule off: exactly the maximum") << QList<double>{1, 2, 3} << 1 << 5 << 0.0 << true << false;
        QTest::newRow("rule off, at the maximum") << QList<double>{1, 2, 3, 4, 5} << 1 << 5 << 0.0 << false << false;
        QTest::newRow("max below min counts as min") << QList<double>{10, 50, 90} << 3 << 1 << 2.5 << false << false;
        QTest::newRow("min raised to two for an interval") << QList<double>{100} << 1 << 10 << 2.5 << true << false;
        QTest::newRow("all zero is stable") << QList<double>{0, 0, 0} << 3 << 10 << 2.5 << false << true;
        QTest::newRow("mean zero, spread: not computable")
            << QList<double>{-1, 1, 0} << 3 << 3 << 2.5 << false << false;
        QTest::newRow("NaN ignored") << QList<double>{100, nan, 100, 100} << 3 << 10 << 2.5 << false << true;
        // netperf -i 10,3 -I 95,5: half-width 2.5% of the mean
        QTest::newRow("netperf -i 10,3 -I 95,5, wide after 5")
            << QList<double>{4.8, 4.9, 5.2, 4.7, 5.3} << 3 << 10 << 2.5 << true << false;
    }
    void decide()
    {
        QFETCH(QList<double>, values);
        QFETCH(int, minCount);
        QFETCH(int, maxCount);
        QFETCH(double, target);
        QFETCH(bool, repeat);
        QFETCH(bool, reached);
        const StableDecision d = RepeatUntilStable::decide(values, minCount, maxCount, target);
        QCOMPARE(d.repeat, repeat);
        QCOMPARE(d.targetReached, reached);
        if (!d.repeat && target > 0)
            QVERIFY(!d.note.isEmpty());
        if (d.repeat)
            QVERIFY(d.note.isEmpty());
    }

    void figures()
    {
        const StableDecision d = RepeatUntilStable::decide({100, 101, 99}, 3, 10, 2.5);
        QCOMPARE(d.runs, 3);
        QCOMPARE(d.mean, 100.0);
        QVERIFY(qAbs(d.halfWidth - 4.3027 / std::sqrt(3.0)) < 1e-9);
        QVERIFY(qAbs(d.halfWidthPercent - 4.3027 / std::sqrt(3.0)) < 1e-9);
        QCOMPARE(d.note,
                 QStringLiteral("stable after 3 runs: 95% confidence interval +/-2.5% of the mean, within the "
                                "target of +/-2.5%"));

        const StableDecision wide
            = RepeatUntilStable::decide({100, 120, 80, 110, 90, 105, 95, 130, 70, 100}, 3, 10, 2.5);
        QVERIFY2(wide.note.startsWith(QStringLiteral("not stable after 10 runs (the maximum): 95% confidence interval "
                                                     "+/-13% of the mean, wider than the target of +/-2.5%")),
                 qPrintable(wide.note));
    }
};

QTEST_GUILESS_MAIN(TestStableRepeat)
#include "TestStableRepeat.moc"
