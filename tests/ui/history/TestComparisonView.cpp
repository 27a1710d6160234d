// The comparison view: runs of several stored sessions, regrouped by the user; the bars must hold the figures.
#include "ComparisonView.h"
#include "FindingsPanel.h"
#include "HistoryTestData.h"
#include "RunOverlayChart.h"
#include "stats/Statistics.h"

#include <qcustomplot.h>

#include <QLabel>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace wb;

namespace {

/// The height of the bar of `barKey` in group `group` (1-based key), or NaN.
double barValue(const ComparisonView &view, const QString &barKey, const QString &group)
{
    QCPBars *bars = view.barsFor(barKey);
    const int g = int(view.groupKeys().indexOf(group));
    if (!bars || g < 0)
        return qQNaN();
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        if (qAbs(it->key - (g + 1)) < 0.45)
            return it->value;
    }
    return qQNaN();
}

} // namespace

class TestComparisonView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void testByHostThenByOs();
    void frameSizeGroupsMixProtocols();
    void linuxVersusWindowsPerTestAt1500And9000();
    void confidenceIntervalAndCeiling();
    void sessionsSideBySide();
    void overlayHoldsSelectedRuns();
    void coloursStablePerHost();
    void bothWaysAreTwoBars();
    void latencyInLabels();
    void listsTheNewestSessionsAndTakesOlderOnes();
    void namesTheComputerOfEachSession();

private:
    QTemporaryDir m_dir;
    ResultStore m_store;
    qint64 m_a = 0; // linux + windows, 1500 and 9000
    qint64 m_b = 0; // linux, 1500 (a week later)
};

void TestComparisonView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(m_store.open(m_dir.filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));
    const QDateTime t0(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC);
    m_a = histtest::addSession(m_store, histtest::plan({histtest::linuxHost(), histtest::windowsHost()}, {1500, 9000}),
                               t0);
    m_b = histtest::addSession(m_store, histtest::plan({histtest::linuxHost()}, {1500}), t0.addDays(7));
    QVERIFY(m_a > 0 && m_b > 0);
}

void TestComparisonView::testByHostThenByOs()
{
    ComparisonView view(&m_store);
    view.resize(1200, 800);
    QSignalSpy selection(&view, &ComparisonView::selectionChanged);
    view.addSession(m_a);
    view.rebuildNow();
    QCOMPARE(view.selectedRuns().size(), 24);
    QVERIFY(selection.count() >= 1);
    // Default: groups = test, bars = host. Tests ordered by frame size.
    QCOMPARE(view.groupKeys(),
             QStringList({QStringLiteral("tcp-send @ 1500"), QStringLiteral("tcp-recv @ 1500"),
                          QStringLiteral("tcp-send @ 9000"), QStringLiteral("tcp-recv @ 9000")}));
    QCOMPARE(view.barKeys(), QStringList({QStringLiteral("linux-fs"), QStringLiteral("win-fs")}));
    QCOMPARE(barValue(view, QStringLiteral("linux-fs"), QStringLiteral("tcp-send @ 1500")), 102.0); // MB/s, median
    QCOMPARE(barValue(view, QStringLiteral("win-fs"), QStringLiteral("tcp-send @ 9000")), 92.0);    // 60*1.5 + 2
    QCOMPARE(barValue(view, QStringLiteral("win-fs"), QStringLiteral("tcp-recv @ 1500")), 56.0);    // 60*.9 + 2
    // Min-max error bars around the median: 101..103.
    QCPErrorBars *errors = view.errorBarsFor(QStringLiteral("linux-fs"));
    QVERIFY(errors);
    QCOMPARE(errors->data()->at(0).errorMinus, 1.0);
    QCOMPARE(errors->data()->at(0).errorPlus, 1.0);
    QVERIFY(view.valueLabels().contains(QStringLiteral("102.0 MB/s")));
    QCOMPARE(view.barPlot()->legend->itemCount(), 2);
    QCOMPARE(view.barPlot()->plottable(0)->name(), QStringLiteral("linux-fs (Linux)"));

    // The user switches the bars to OS with the combo box.
    auto *barCombo = view.findChild<QComboBox *>(QStringLiteral("barCombo"));
    QVERIFY(barCombo);
    barCombo->setCurrentIndex(barCombo->findData(int(CompareDimension::Os)));
    QTRY_COMPARE(view.barKeys(), QStringList({QStringLiteral("Linux"), QStringLiteral("Windows Server 2003")}));
    QCOMPARE(barValue(view, QStringLiteral("Linux"), QStringLiteral("tcp-recv @ 9000")), 137.0); // 100*1.5*.9 + 2
    QVERIFY(!view.barsFor(QStringLiteral("linux-fs")));
    QVERIFY(view.title().startsWith(QStringLiteral("OS per test")));
}

void TestComparisonView::frameSizeGroupsMixProtocols()
{
    ComparisonView view(&m_store);
    view.addSession(m_a);
    view.setGrouping(CompareDimension::FrameSize, CompareDimension::Os);
    QCOMPARE(view.groupKeys(), QStringList({QStringLiteral("1500 B"), QStringLiteral("9000 B")}));
    // Linux @ 1500: send 101..103 and recv 91..93 MB/s: the median of six is (93 + 101) / 2.
    QCOMPARE(barValue(view, QStringLiteral("Linux"), QStringLiteral("1500 B")), 97.0);
    QCPErrorBars *errors = view.errorBarsFor(QStringLiteral("Linux"));
    QCOMPARE(errors->data()->at(0).errorMinus, 6.0); // down to 91
    QCOMPARE(errors->data()->at(0).errorPlus, 6.0);  // up to 103
    QCOMPARE(view.barPlot()->xAxis->label(), QStringLiteral("Frame size"));

    // Unit switch: Mbit/s = 8 x MB/s.
    view.setUnit(RateUnit::Mbps);
    QCOMPARE(barValue(view, QStringLiteral("Linux"), QStringLiteral("1500 B")), 776.0);
    QVERIFY(view.valueLabels().first().endsWith(QStringLiteral("Mbit/s")));
    QCOMPARE(view.barPlot()->yAxis->label(), QStringLiteral("Throughput (Mbit/s)"));
}

void TestComparisonView::linuxVersusWindowsPerTestAt1500And9000()
{
    // The original table as one chart: groups = test (protocol @ frame), bars = OS.
    ComparisonView view(&m_store);
    view.addSession(m_a);
    view.setGrouping(CompareDimension::Test, CompareDimension::Os);
    QCOMPARE(view.groupKeys().size(), 4);
    QCOMPARE(view.barKeys().size(), 2);
    QCOMPARE(view.barsFor(QStringLiteral("Linux"))->data()->size(), 4);
    QCOMPARE(view.barsFor(QStringLiteral("Windows Server 2003"))->data()->size(), 4);
    QCOMPARE(view.valueLabels().size(), 8);
    for (const QString &label : view.valueLabels())
        QVERIFY2(label.endsWith(QStringLiteral(" MB/s")), qPrintable(label));
    // Groups as protocol, bars as frame size: tcp-send 1500 vs 9000.
    view.setGrouping(CompareDimension::Protocol, CompareDimension::FrameSize);
    QCOMPARE(view.groupKeys(), QStringList({QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    QCOMPARE(view.barKeys(), QStringList({QStringLiteral("1500 B"), QStringLiteral("9000 B")}));
    // tcp-send @ 9000 over both hosts: 151..153 and 91..93 -> median (93 + 151) / 2 = 122.
    QCOMPARE(barValue(view, QStringLiteral("9000 B"), QStringLiteral("tcp-send")), 122.0);
    // Under the chart, what these runs show together: the two hosts per test and each host's two frames, each
    // sentence the SessionFindings of exactly the compared runs.
    const FindingsPanel *findings = view.findingsPanel();
    QVERIFY(findings);
    QVERIFY(!findings->findings().isEmpty());
    QVERIFY2(findings->text().contains(QStringLiteral("tcp-send: 9000 B frames against 1500 B: throughput ")),
             qPrintable(findings->text()));
    QVERIFY2(findings->text().contains(QStringLiteral("tcp-send @ 9000 B: ")), qPrintable(findings->text()));
    const QLabel *label = findings->findChild<QLabel *>(QStringLiteral("findingsLabel"));
    QVERIFY(label && label->text().contains(QStringLiteral("What the compared runs show together")));
}

void TestComparisonView::confidenceIntervalAndCeiling()
{
    ComparisonView view(&m_store);
    view.addSession(m_a);
    view.setGrouping(CompareDimension::Test, CompareDimension::Host);
    view.setErrorBarMode(ErrorBarMode::Ci95);
    // 101, 102, 103: mean 102, half width t(2) * s / sqrt(3) = 4.303 * 1 / 1.732.
    const Summary s = Statistics::summarize({101, 102, 103});
    QCOMPARE(barValue(view, QStringLiteral("linux-fs"), QStringLiteral("tcp-send @ 1500")), 102.0);
    QCPErrorBars *errors = view.errorBarsFor(QStringLiteral("linux-fs"));
    QVERIFY(qAbs(errors->data()->at(0).errorPlus - s.ci95HalfWidth) < 1e-9);
    QVERIFY(s.ci95HalfWidth > 2.4 && s.ci95HalfWidth < 2.5);
    QVERIFY(view.title().contains(QStringLiteral("95%")));

    view.setShowPercentOfCeiling(true);
    // percent_of_ceiling of linux tcp-send @ 1500 reps: (101..103) / 118.75 -> median 85.9%.
    const QString first = view.valueLabels().first();
    QVERIFY2(first.contains(QStringLiteral("86% of line rate")), qPrintable(first));
    view.setErrorBarMode(ErrorBarMode::None);
    QVERIFY(!view.errorBarsFor(QStringLiteral("linux-fs"))->visible());
}

void TestComparisonView::sessionsSideBySide()
{
    ComparisonView view(&m_store);
    view.resize(1200, 800);
    view.show();
    // Tick both sessions in the tree, as the user does.
    QTreeWidget *tree = view.findChild<QTreeWidget *>(QStringLiteral("comparisonRunTree"));
    QVERIFY(tree);
    QCOMPARE(tree->topLevelItemCount(), 2);
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        tree->topLevelItem(i)->setCheckState(0, Qt::Checked);
    QTRY_COMPARE(view.selectedRuns().size(), 24 + 6);
    view.setGrouping(CompareDimension::Test, CompareDimension::Session);
    QCOMPARE(view.barKeys().size(), 2);
    // Only linux in session B, so at 9000 only session A has a bar.
    QCPBars *b = view.barsFor(view.barKeys().first());
    QVERIFY(b);
    // Untick one run of session B: the selection follows.
    QTreeWidgetItem *sessionB = nullptr;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        if (tree->topLevelItem(i)->childCount() == 6)
            sessionB = tree->topLevelItem(i);
    }
    QVERIFY(sessionB);
    sessionB->child(0)->setCheckState(0, Qt::Unchecked);
    QTRY_COMPARE(view.selectedRuns().size(), 24 + 5);
    QCOMPARE(sessionB->checkState(0), Qt::PartiallyChecked);

    // WIREBENCH_SCREENSHOT_DIR=folder: keep pictures of the view for a look by eye (and the docs).
    const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        tree->expandAll();
        view.setGrouping(CompareDimension::Test, CompareDimension::Os);
        view.setShowPercentOfCeiling(true);
        QTest::qWait(50);
        view.grab().save(QDir(shots).filePath(QStringLiteral("comparison-view-bars.png")));
        view.findChild<QTabWidget *>(QStringLiteral("comparisonTabs"))->setCurrentIndex(1);
        QTest::qWait(50);
        view.grab().save(QDir(shots).filePath(QStringLiteral("comparison-view-overlay.png")));
    }
}

void TestComparisonView::overlayHoldsSelectedRuns()
{
    ComparisonView view(&m_store);
    view.addSession(m_b);
    view.rebuildNow();
    RunOverlayChart *overlay = view.overlayChart();
    QCOMPARE(overlay->lineCount(), 6);
    // One time axis: each line starts at 0.1 s and holds its run's throughput (MB/s).
    QCOMPARE(overlay->graph(0)->data()->size(), 10);
    QCOMPARE(overlay->graph(0)->data()->at(0)->key, 0.1);
    QVERIFY(qAbs(overlay->graph(0)->data()->at(0)->value - 101.0) < 1e-6);
    QVERIFY(overlay->title().contains(QStringLiteral("6 run")));
}

void TestComparisonView::coloursStablePerHost()
{
    ComparisonView one(&m_store);
    one.addSession(m_a);
    one.setGrouping(CompareDimension::Test, CompareDimension::Host);
    ComparisonView other(&m_store);
    other.addSession(m_b);
    other.setGrouping(CompareDimension::FrameSize, CompareDimension::Host);
    QCOMPARE(one.barsFor(QStringLiteral("linux-fs"))->brush().color(),
             other.barsFor(QStringLiteral("linux-fs"))->brush().color());
    QVERIFY(one.barsFor(QStringLiteral("linux-fs"))->brush().color()
            != one.barsFor(QStringLiteral("win-fs"))->brush().color());
    // The overlay uses the host's colour too.
    QCOMPARE(other.overlayChart()->graph(0)->pen().color(), other.barsFor(QStringLiteral("linux-fs"))->brush().color());
}

void TestComparisonView::latencyInLabels()
{
    // Two hosts' tcp-send: one timed round trips (0.4 ms idle, 23.4 ms loaded), the other did not.
    QList<ComparedRun> runs;
    for (const QString &host : {QStringLiteral("bloated"), QStringLiteral("plain")}) {
        ComparedRun c;
        c.sessionId = 1;
        c.run.spec.host.name = host;
        c.run.spec.host.address = QStringLiteral("10.0.0.2");
        c.run.spec.protocol = QStringLiteral("tcp-send");
        c.run.status = RunStatus::Ok;
        c.run.bytes = 100000000;
        c.run.seconds = 1;
        if (host == QLatin1String("bloated")) {
            c.run.latency.method = QStringLiteral("udp-echo");
            c.run.latency.samples = {{0, -0.5, 0.4, false}, {0, 0.5, 23.4, true}};
            c.run.latency.summarize();
        }
        runs << c;
    }
    ComparisonView view(nullptr);
    view.resize(1200, 800);
    view.show();
    view.setRuns(runs);
    view.setGrouping(CompareDimension::Test, CompareDimension::Host);
    view.rebuildNow();
    for (const QString &label : view.valueLabels())
        QVERIFY2(!label.contains(QStringLiteral("latency")), qPrintable(label));
    auto *check = view.findChild<QCheckBox *>(QStringLiteral("latencyCheck"));
    QVERIFY(check);
    QTest::mouseClick(check, Qt::LeftButton, {}, QPoint(8, check->height() / 2));
    QVERIFY(check->isChecked());
    view.rebuildNow();
    const QStringList labels = view.valueLabels();
    QCOMPARE(labels.size(), 2);
    QCOMPARE(labels.filter(QStringLiteral("latency +23 ms (idle 0.4 ms)")).size(), 1); // the plain one has none
}

// Last: it adds 310 sessions. The tree lists the newest 300 and counts the rest; an older
// session handed over from History (addSession) joins it and stays on reload.
// A team's store holds sessions of many computers: each session says which one ran it.
void TestComparisonView::namesTheComputerOfEachSession()
{
    ComparisonView view(&m_store);
    QTreeWidget *tree = view.findChild<QTreeWidget *>(QStringLiteral("comparisonRunTree"));
    QVERIFY(tree);
    QCOMPARE(tree->headerItem()->text(2), QStringLiteral("Computer"));
    QVERIFY(tree->topLevelItemCount() >= 2);
    for (int i = 0; i < 2; ++i)
        QCOMPARE(tree->topLevelItem(i)->text(2), QSysInfo::machineHostName());
}

void TestComparisonView::bothWaysAreTwoBars()
{
    // A stored run of both directions at once stands as two bars: its send and its receive figure.
    QList<ComparedRun> runs;
    for (auto [rep, send, receive] : QList<std::tuple<int, qint64, qint64>>{
             {1, 11400000, 11300000}, {2, 11420000, 11200000}, {3, 11380000, 11350000}}) {
        ComparedRun c;
        c.sessionId = 1;
        c.run.status = RunStatus::Ok;
        c.run.spec.host.name = QStringLiteral("lab");
        c.run.spec.protocol = QStringLiteral("tcp-bidir");
        c.run.spec.frameSize = 1500;
        c.run.spec.repetition = rep;
        c.run.bytes = send;
        c.run.seconds = 1;
        c.run.reverse = RunResult::Reverse{receive, 1.0, 0, {}};
        c.run.extra.insert(QStringLiteral("percent_of_ceiling"), send / 114340.0);
        c.run.extra.insert(QStringLiteral("reverse_percent_of_ceiling"), receive / 114340.0);
        runs << c;
    }
    QStringList groups, bars;
    const QList<ComparisonView::BarValue> values = ComparisonView::computeBars(
        runs, CompareDimension::Test, CompareDimension::Host, ErrorBarMode::MinMax, &groups, &bars);
    QCOMPARE(groups,
             QStringList({QStringLiteral("tcp-bidir send @ 1500"), QStringLiteral("tcp-bidir receive @ 1500")}));
    QCOMPARE(values.size(), 2);
    QCOMPARE(values.at(0).value, 11.4e6);
    QCOMPARE(values.at(1).value, 11.3e6);
    QCOMPARE(values.at(1).low, 11.2e6);
    QCOMPARE(values.at(1).high, 11.35e6);
    QCOMPARE(qRound(values.at(1).percentOfCeiling), 99);
}

void TestComparisonView::listsTheNewestSessionsAndTakesOlderOnes()
{
    const QDateTime t0(QDate(2025, 12, 1), QTime(9, 0), Qt::UTC);
    qint64 oldest = 0; // of these: sessions start when beginSession runs, so the first one added
    for (int i = 0; i < 310; ++i) {
        const qint64 id = histtest::addSession(m_store, histtest::plan({histtest::linuxHost()}, {1500}, 1), t0);
        QVERIFY(id > 0);
        if (oldest == 0)
            oldest = id;
    }
    ComparisonView view(&m_store);
    QTreeWidget *tree = view.findChild<QTreeWidget *>(QStringLiteral("comparisonRunTree"));
    QVERIFY(tree);
    QCOMPARE(tree->topLevelItemCount(), 301);
    QTreeWidgetItem *last = tree->topLevelItem(300);
    QCOMPARE(last->text(0), QStringLiteral("12 older sessions: pick them in History and press Compare"));
    QCOMPARE(last->flags(), Qt::NoItemFlags);

    view.addSession(oldest);
    QCOMPARE(tree->topLevelItemCount(), 302);
    QCOMPARE(tree->topLevelItem(300)->data(0, Qt::UserRole + 1).toLongLong(), oldest);
    QCOMPARE(tree->topLevelItem(301)->text(0), last->text(0));
    QTRY_COMPARE(view.selectedRuns().size(), 2);
    QCOMPARE(view.selectedRuns().first().sessionId, oldest);
    view.reload();
    QCOMPARE(tree->topLevelItemCount(), 302);
    QCOMPARE(view.selectedRuns().size(), 2);
}

QTEST_MAIN(TestComparisonView)
#include "TestComparisonView.moc"
