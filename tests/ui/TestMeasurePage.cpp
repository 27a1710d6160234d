#include "ComparisonChart.h"
#include "HostListPanel.h"
#include "LatencyChart.h"
#include "MeasurePage.h"
#include "PlanEditorPanel.h"
#include "ResultTabs.h"
#include "RunControlPanel.h"
#include "ThroughputChart.h"
#include "settings/Config.h"

#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

// The Measure page's layout: where each panel sits, and the user's splitter positions kept across a restart
// (the latency graph's splitter among them).
class TestMeasurePage : public QObject
{
    Q_OBJECT
private slots:
    void panelsWhereTheUserLooks();
    void splittersComeBack();
};

void TestMeasurePage::panelsWhereTheUserLooks()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    MeasurePage page(&config);
    auto *live = page.findChild<QSplitter *>(QStringLiteral("liveSplitter"));
    QVERIFY(live);
    QCOMPARE(live->orientation(), Qt::Vertical);
    QCOMPARE(live->widget(0), static_cast<QWidget *>(page.live()));    // throughput on top
    QCOMPARE(live->widget(1), static_cast<QWidget *>(page.latency())); // latency under it
    auto *charts = page.findChild<QSplitter *>(QStringLiteral("chartSplitter"));
    QVERIFY(charts);
    QCOMPARE(charts->widget(0), static_cast<QWidget *>(live));
    QCOMPARE(charts->widget(1), static_cast<QWidget *>(page.comparison()));
    auto *right = page.findChild<QSplitter *>(QStringLiteral("rightSplitter"));
    QVERIFY(right);
    QCOMPARE(right->widget(1), static_cast<QWidget *>(page.tabs()));
    QVERIFY(page.isAncestorOf(page.run()));
    QVERIFY(page.isAncestorOf(page.hosts()));
    QVERIFY(page.isAncestorOf(page.plan()));
}

void TestMeasurePage::splittersComeBack()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    QList<int> liveSizes;
    QList<int> chartSizes;
    {
        Config config(file);
        MeasurePage page(&config);
        page.resize(1900, 900); // wide: the live graph and the comparison chart side by side
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *live = page.findChild<QSplitter *>(QStringLiteral("liveSplitter"));
        auto *charts = page.findChild<QSplitter *>(QStringLiteral("chartSplitter"));
        live->setSizes({200, 400}); // the user gives the latency graph more room
        charts->setSizes({900, 300});
        liveSizes = live->sizes();
        chartSizes = charts->sizes();
        QVERIFY(liveSizes.at(1) > liveSizes.at(0));
        page.saveLayout(config);
        config.sync();
    }
    Config config(file);
    MeasurePage page(&config);
    page.resize(1900, 900); // wide: the live graph and the comparison chart side by side
    page.restoreLayout(config);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QCOMPARE(page.findChild<QSplitter *>(QStringLiteral("liveSplitter"))->sizes(), liveSizes);
    QCOMPARE(page.findChild<QSplitter *>(QStringLiteral("chartSplitter"))->sizes(), chartSizes);
}

QTEST_MAIN(TestMeasurePage)
#include "TestMeasurePage.moc"
