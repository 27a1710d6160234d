#include "ChartLayoutCheck.h"
#include "ThroughputChart.h"
#include "ExportExtras.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QTemporaryDir>

#include <QTest>

#include <cmath>

using namespace wb;

namespace {

RunSpec spec(int index, int rep, const QString &protocol = QStringLiteral("tcp-send"), int frame = 1500)
{
    RunSpec s;
    s.index = index;
    s.repetition = rep;
    s.protocol = protocol;
    s.frameSize = frame;
    s.host.name = QStringLiteral("fs1");
    s.host.address = QStringLiteral("127.0.0.1");
    s.params.durationMs = 2000;
    return s;
}

// 0.1 s intervals: bytes = rate * 0.1
SampleList samples(int runIndex, const QList<double> &bytesPerSecond)
{
    SampleList list;
    for (int i = 0; i < bytesPerSecond.size(); ++i)
        list << Sample{runIndex, 0.1 * (i + 1), 0.1, qint64(bytesPerSecond.at(i) * 0.1)};
    return list;
}

RunResult finished(const RunSpec &spec, RunStatus status)
{
    RunResult r;
    r.spec = spec;
    r.status = status;
    if (status != RunStatus::Ok)
        r.error = QStringLiteral("fs1 (127.0.0.1:5301): connection refused: start wirebenchd there");
    return r;
}

} // namespace

class TestThroughputChart : public QObject
{
    Q_OBJECT
private slots:
    void labelsAndHint();
    void valuesInEachUnit_data();
    void valuesInEachUnit();
    void oneLinePerRepetition();
    void newTestClearsLines();
    void holdsAnHourOnFiveLines();
    void denseLinesDrawnThin();
    void decimatesLongRuns();
    void warmupShaded();
    void shortLastIntervalIsAPointOfItsOwn();
    void hintSaysWhatBecameOfTheRuns();
    void hintGoesWithTheFirstSample();
    void longHostNameStaysInside();
    void legendColumnsFollowTheWidth();
    void eachStreamOnRequest();
    void eachStreamFollowsDecimation();
    void bothWaysTwoLines();
};

namespace {

/// 0.1 s intervals of parallel streams: each stream's bytes per second; the sample's bytes are their sum.
SampleList streamSamples(int runIndex, int count, const QList<double> &perStreamBytesPerSecond, int first = 0)
{
    SampleList list;
    for (int i = first; i < first + count; ++i) {
        Sample s{runIndex, 0.1 * (i + 1), 0.1, 0};
        for (double rate : perStreamBytesPerSecond) {
            s.streamBytes << qint64(rate * 0.1);
            s.bytes += qint64(rate * 0.1);
        }
        list << s;
    }
    return list;
}

} // namespace

void TestThroughputChart::eachStreamOnRequest()
{
    ThroughputChart chart;
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.onPlanStarted(2);
    // One stream: nothing to offer.
    chart.onRunStarted(spec(0, 1));
    chart.addSamples(samples(0, {100e6, 100e6}));
    QVERIFY(!chart.eachStreamCheck()->isVisible());
    QVERIFY(!chart.streamGraph(1, 1));

    // Three streams of 30, 20 and 50 MB/s: the sum is drawn; the streams only once asked for.
    RunSpec three = spec(1, 1, QStringLiteral("tcp-recv"));
    three.params.streams = 3;
    chart.onRunStarted(three);
    chart.addSamples(streamSamples(1, 5, {30e6, 20e6, 50e6}));
    QVERIFY(chart.eachStreamCheck()->isVisible());
    QVERIFY(!chart.eachStreamCheck()->isChecked());
    QCOMPARE(chart.graphForRepetition(1)->data()->at(0)->value, 100.0);
    for (int k = 1; k <= 3; ++k) {
        QVERIFY(chart.streamGraph(1, k));
        QVERIFY(!chart.streamGraph(1, k)->visible());
    }
    QVERIFY(!chart.streamGraph(1, 4));
    QVERIFY(!chart.title().contains(QLatin1String("each of")));

    QTest::mouseClick(chart.eachStreamCheck(), Qt::LeftButton, {}, QPoint(8, chart.eachStreamCheck()->height() / 2));
    QVERIFY(chart.eachStreamShown());
    QCOMPARE(chart.streamGraph(1, 3)->name(), QStringLiteral("rep 1, stream 3"));
    const double expected[] = {30.0, 20.0, 50.0};
    for (int k = 1; k <= 3; ++k) {
        QCPGraph *g = chart.streamGraph(1, k);
        QVERIFY(g->visible());
        QCOMPARE(g->dataCount(), 5);
        QCOMPARE(g->data()->at(4)->value, expected[k - 1]);
        QCOMPARE(g->data()->at(4)->key, 0.5);
        QVERIFY(g->pen().widthF() < chart.graphForRepetition(1)->pen().widthF());
    }
    QVERIFY2(chart.title().contains(QLatin1String("thin lines: each of the 3 streams; thick: their sum")),
             qPrintable(chart.title()));
    // The legend keeps one entry per repetition, not one per stream.
    QCOMPARE(chart.plot()->legend->itemCount(), 1);
    if (const QString shots = qEnvironmentVariable("WIREBENCH_TEST_SHOTS"); !shots.isEmpty()) {
        chart.replotNow();
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(chart.grab().save(shots + QStringLiteral("/each-stream.png"))); // for a person to look at
    }

    // In another unit the streams' lines are converted with the sum: 50 MB/s = 400 Mbit/s.
    chart.setUnit(RateUnit::Mbps);
    QCOMPARE(chart.streamGraph(1, 3)->data()->at(0)->value, 400.0);
    QCOMPARE(chart.graphForRepetition(1)->data()->at(0)->value, 800.0);
    // Samples that come later join while shown.
    chart.addSamples(streamSamples(1, 1, {30e6, 20e6, 50e6}, 5));
    QCOMPARE(chart.streamGraph(1, 1)->dataCount(), 6);
    QCOMPARE(chart.streamGraph(1, 1)->data()->at(5)->value, 240.0);

    // Hidden again, and a new test starts without them.
    chart.setEachStreamShown(false);
    QVERIFY(!chart.streamGraph(1, 2)->visible());
    QVERIFY(!chart.eachStreamCheck()->isChecked());
    chart.onRunStarted(spec(2, 1, QStringLiteral("tcp-send"), 9000));
    QVERIFY(!chart.eachStreamCheck()->isVisible());
    chart.replotNow();
}

void TestThroughputChart::bothWaysTwoLines()
{
    // tcp-bidir: the samples of the second direction (server -> client) make a line of their own, dashed, beside
    // the first; both are named by their direction.
    ThroughputChart chart;
    chart.onPlanStarted(1);
    chart.onRunStarted(spec(0, 1, QStringLiteral("tcp-bidir")));
    SampleList batch = samples(0, {110e6, 112e6});
    for (Sample second : samples(0, {90e6, 95e6})) {
        second.reverse = true;
        batch << second;
    }
    chart.addSamples(batch);
    QCPGraph *send = chart.graphForRepetition(1);
    QCPGraph *receive = chart.reverseGraphForRepetition(1);
    QVERIFY(send && receive && send != receive);
    QCOMPARE(send->name(), QStringLiteral("rep 1 send"));
    QCOMPARE(receive->name(), QStringLiteral("rep 1 receive"));
    QCOMPARE(send->dataCount(), 2);
    QCOMPARE(receive->dataCount(), 2);
    QCOMPARE(send->data()->at(1)->value, 112.0);
    QCOMPARE(receive->data()->at(1)->value, 95.0);
    QCOMPARE(receive->pen().style(), Qt::DashLine);
    QCOMPARE(send->pen().style(), Qt::SolidLine);
    QCOMPARE(receive->pen().color(), send->pen().color()); // one repetition, one colour
    QCOMPARE(chart.plot()->legend->itemCount(), 2);
    // A reverse sample of a run never started is dropped, as any unknown run's.
    Sample stray{7, 0.1, 0.1, 1000};
    stray.reverse = true;
    chart.addSamples({stray});
    QCOMPARE(chart.lineCount(), 2);
    // One direction: one line, named as before.
    chart.onRunStarted(spec(1, 1));
    chart.addSamples(samples(1, {100e6}));
    QCOMPARE(chart.graphForRepetition(1)->name(), QStringLiteral("rep 1"));
    QVERIFY(!chart.reverseGraphForRepetition(1));
}

void TestThroughputChart::eachStreamFollowsDecimation()
{
    ThroughputChart chart;
    chart.onPlanStarted(1);
    chart.onRunStarted(spec(0, 1));
    chart.setEachStreamShown(true);
    // Past the four hours a line holds in full: merged in pairs, the streams' lines with it, point for point.
    const int total = ThroughputChart::kMaxPointsPerLine + 11;
    for (int i = 0; i < total; i += 1000)
        chart.addSamples(streamSamples(0, qMin(1000, total - i), {60e6, 40e6}, i));
    QCPGraph *sum = chart.graphForRepetition(1);
    QCPGraph *first = chart.streamGraph(0 + 1, 1);
    QCPGraph *second = chart.streamGraph(1, 2);
    QVERIFY(sum->dataCount() < ThroughputChart::kMaxPointsPerLine);
    QCOMPARE(first->dataCount(), sum->dataCount());
    QCOMPARE(second->dataCount(), sum->dataCount());
    for (int i = 0; i < sum->dataCount(); i += 911) {
        QCOMPARE(first->data()->at(i)->key, sum->data()->at(i)->key);
        QVERIFY(qAbs(first->data()->at(i)->value - 60.0) < 1e-6);
        QVERIFY(qAbs(second->data()->at(i)->value - 40.0) < 1e-6);
    }
}

void TestThroughputChart::legendColumnsFollowTheWidth()
{
    // Five repetitions: four side by side and one under them where there is room (empty cells in the legend's
    // grid), fewer columns as the chart narrows, every entry inside the chart.
    ThroughputChart chart;
    chart.resize(1000, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.onPlanStarted(5);
    for (int rep = 1; rep <= 5; ++rep) {
        chart.onRunStarted(spec(rep - 1, rep));
        chart.addSamples(samples(rep - 1, {100e6, 90e6}));
    }
    QCustomPlot *plot = chart.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(plot->legend->wrap(), 4);
    QCOMPARE(plot->legend->rowCount(), 2);
    QString outside = chartTextOutside(plot, plot->rect());
    QVERIFY2(outside.isEmpty(), qPrintable(outside));
    for (int width : {300, 200, 1000}) {
        chart.resize(width, 400);
        QApplication::processEvents();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        outside = chartTextOutside(plot, plot->rect());
        QVERIFY2(outside.isEmpty(), qPrintable(QStringLiteral("%1 px:\n").arg(width) + outside));
        QVERIFY(plot->legend->wrap() >= 1 && plot->legend->wrap() <= 4);
    }
    QCOMPARE(plot->legend->wrap(), 4);
    // A line removed (a new test clears them) leaves no hole: the next entries still fit.
    chart.onRunStarted(spec(5, 1, QStringLiteral("tcp-recv")));
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(plot->legend->itemCount(), 1);
}

void TestThroughputChart::hintSaysWhatBecameOfTheRuns()
{
    // Every run failed: after the plan the chart says so instead of waiting.
    ThroughputChart chart;
    chart.onPlanStarted(3);
    QCOMPARE(chart.hint(), QStringLiteral("Waiting for the first samples of 3 run(s)..."));
    for (int i = 0; i < 3; ++i) {
        chart.onRunStarted(spec(i, i + 1));
        chart.onRunFinished(finished(spec(i, i + 1), RunStatus::Failed));
    }
    QCOMPARE(chart.hint(),
             QStringLiteral("Waiting for the first samples of 3 run(s)...\nSo far: 3 failed.\n"
                            "See the results table for the reasons."));
    chart.onPlanFinished(false);
    QCOMPARE(chart.hint(), QStringLiteral("No samples: all 3 runs failed.\nSee the results table for the reasons."));

    // Failed and not run (a frame above the path MTU).
    chart.onPlanStarted(4);
    chart.onRunStarted(spec(0, 1));
    chart.onRunFinished(finished(spec(0, 1), RunStatus::Failed));
    for (int i = 1; i < 4; ++i)
        chart.onRunFinished(finished(spec(i, i + 1, QStringLiteral("tcp-send"), 9000), RunStatus::NotRun));
    chart.onPlanFinished(false);
    QCOMPARE(chart.hint(),
             QStringLiteral("No samples: of 4 run(s), 1 failed, 3 not run.\n"
                            "See the results table for the reasons."));

    // Stopped before anything came.
    chart.onPlanStarted(5);
    chart.onRunStarted(spec(0, 1));
    chart.onRunFinished(finished(spec(0, 1), RunStatus::Cancelled));
    chart.onPlanFinished(true);
    QCOMPARE(chart.hint(), QStringLiteral("Stopped before the first samples."));

    // An earlier test drew its lines; the last test (whose start cleared them) failed: said of that test.
    chart.onPlanStarted(2);
    chart.onRunStarted(spec(0, 1));
    chart.addSamples(samples(0, {100e6, 100e6}));
    chart.onRunFinished(finished(spec(0, 1), RunStatus::Ok));
    QVERIFY(chart.hint().isEmpty());
    chart.onRunStarted(spec(1, 1, QStringLiteral("tcp-recv")));
    chart.onRunFinished(finished(spec(1, 1, QStringLiteral("tcp-recv")), RunStatus::Failed));
    chart.onPlanFinished(false);
    QCOMPARE(chart.hint(),
             QStringLiteral("No samples from this test: 1 failed.\nSee the results table for the reasons."));
}

void TestThroughputChart::hintGoesWithTheFirstSample()
{
    // A healthy plan: the waiting text goes with the first point and nothing comes back at the end.
    ThroughputChart chart;
    chart.onPlanStarted(2);
    chart.onRunStarted(spec(0, 1));
    QVERIFY(chart.hint().startsWith(QStringLiteral("Waiting for the first samples of 2 run(s)")));
    chart.addSamples({});
    QVERIFY(!chart.hint().isEmpty());
    chart.addSamples(samples(0, {100e6}));
    QVERIFY(chart.hint().isEmpty());
    chart.onRunFinished(finished(spec(0, 1), RunStatus::Ok));
    chart.onRunStarted(spec(1, 2));
    chart.addSamples(samples(1, {100e6}));
    chart.onRunFinished(finished(spec(1, 2), RunStatus::Ok));
    chart.onPlanFinished(false);
    QVERIFY2(chart.hint().isEmpty(), qPrintable(chart.hint()));
    // One failed repetition among good ones: the lines are there, nothing to say over them.
    chart.onPlanStarted(2);
    chart.onRunStarted(spec(0, 1));
    chart.addSamples(samples(0, {100e6}));
    chart.onRunFinished(finished(spec(0, 1), RunStatus::Ok));
    chart.onRunStarted(spec(1, 2));
    chart.onRunFinished(finished(spec(1, 2), RunStatus::Failed));
    chart.onPlanFinished(false);
    QVERIFY2(chart.hint().isEmpty(), qPrintable(chart.hint()));
}

void TestThroughputChart::longHostNameStaysInside()
{
    // The title names the host; a long name without spaces and many repetitions in a narrow chart.
    ThroughputChart chart;
    chart.resize(380, 320);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.onPlanStarted(12);
    for (int rep = 1; rep <= 12; ++rep) {
        RunSpec s = spec(rep - 1, rep, QStringLiteral("smb-write"));
        s.host.name = QStringLiteral("fs-windows-02.storage.frankfurt-datacenter-east.example.com");
        s.host.osLabel = QStringLiteral("Windows Server 2022 Datacenter (NTLMSSP 10.0 build 20348)");
        chart.onRunStarted(s);
        chart.addSamples(samples(rep - 1, {100e6, 90e6 + rep * 1e6}));
    }
    chart.replotNow();
    QCustomPlot *plot = chart.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(chart.title().contains(QStringLiteral("example.com")));
    QCOMPARE(plot->legend->itemCount(), 12);
    const QString onScreen = chartTextOutside(plot, plot->rect());
    QVERIFY2(onScreen.isEmpty(), qPrintable(onScreen));
    const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        plot->grab().save(shots + QStringLiteral("/live-long-name.png"));

    QTemporaryDir dir;
    for (const auto &[file, size] : QList<std::pair<QString, QSize>>{{QStringLiteral("live.png"), QSize(480, 360)},
                                                                     {QStringLiteral("live.pdf"), QSize(800, 500)},
                                                                     {QStringLiteral("live.svg"), QSize(400, 400)}}) {
        ChartExportOptions options;
        options.size = size;
        options.footnote = chart.exportFootnote();
        QString error;
        const QString path = (shots.isEmpty() ? dir.path() : shots) + QStringLiteral("/live-") + file;
        QVERIFY2(ExportExtras::exportChart(plot, path, options, &error), qPrintable(error));
        const QString exported = chartTextOutside(plot, QRect(QPoint(0, 0), size));
        QVERIFY2(exported.isEmpty(), qPrintable(file + QStringLiteral(":\n") + exported));
    }
}

void TestThroughputChart::shortLastIntervalIsAPointOfItsOwn()
{
    // The meter's last sample covers the time up to the last byte (here 20 ms at the same rate): drawn as it
    // is, at its own rate, like every other sample the engine delivered.
    ThroughputChart chart;
    chart.onRunStarted(spec(0, 1));
    SampleList list = samples(0, {100e6, 100e6, 100e6});
    list << Sample{0, 0.32, 0.02, 2000000};
    chart.addSamples(list);
    QCPGraph *graph = chart.graphForRepetition(1);
    QCOMPARE(graph->dataCount(), 4);
    QVERIFY(qAbs((graph->data()->end() - 1)->value - 100.0) < 1e-6);
    QCOMPARE((graph->data()->end() - 1)->key, 0.32);
}

void TestThroughputChart::warmupShaded()
{
    ThroughputChart chart;
    chart.resize(800, 450);
    RunSpec s = spec(0, 1);
    s.params.warmupMs = 1500;
    chart.onRunStarted(s);
    QList<double> rates;
    for (int i = 0; i < 35; ++i)
        rates << (i < 15 ? 60e6 + i * 4e6 : 118e6); // slow start, then line rate
    chart.addSamples(samples(0, rates));
    chart.replotNow();
    QCOMPARE(chart.warmupShownSeconds(), 1.5);
    // An export from the chart's own menu names the host, the frame size and the date.
    const QString footnote = chart.exportFootnote();
    QVERIFY2(footnote.contains(QStringLiteral("fs1")) && footnote.contains(QStringLiteral("1500 B"))
                 && footnote.contains(QString::number(QDate::currentDate().year())),
             qPrintable(footnote));
    // The time axis covers warm-up and measurement.
    QVERIFY2(chart.plot()->xAxis->range().upper >= 3.5,
             qPrintable(QString::number(chart.plot()->xAxis->range().upper)));
    QString label;
    for (int i = 0; i < chart.plot()->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(chart.plot()->item(i));
        if (text && text->visible() && text->text().contains(QStringLiteral("warm-up")))
            label = text->text();
    }
    QVERIFY2(label.contains(QStringLiteral("1.5 s")) && label.contains(QStringLiteral("left out")), qPrintable(label));
    if (!qEnvironmentVariableIsEmpty("WIREBENCH_SCREENSHOT_DIR"))
        chart.plot()->savePng(qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR") + QStringLiteral("/warmup.png"), 800,
                              450);

    // A file transfer has no warm-up to shade, and the next test clears the band.
    RunSpec ftp = spec(1, 1, QStringLiteral("ftp-get"));
    ftp.params.warmupMs = 1500;
    chart.onRunStarted(ftp);
    QCOMPARE(chart.warmupShownSeconds(), 0.0);
}

void TestThroughputChart::labelsAndHint()
{
    ThroughputChart chart;
    QCOMPARE(chart.plot()->xAxis->label(), QStringLiteral("Time (s)"));
    QCOMPARE(chart.plot()->yAxis->label(), QStringLiteral("Throughput (MB/s)"));
    bool hintShown = false;
    for (int i = 0; i < chart.plot()->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(chart.plot()->item(i));
        if (text && text->visible() && text->text().startsWith(QStringLiteral("Press Start to measure")))
            hintShown = true;
    }
    QVERIFY(hintShown);
    chart.setUnit(RateUnit::Mbps);
    QCOMPARE(chart.plot()->yAxis->label(), QStringLiteral("Throughput (Mbit/s)"));
}

void TestThroughputChart::valuesInEachUnit_data()
{
    QTest::addColumn<int>("unit");
    QTest::addColumn<double>("expected"); // for 125,000,000 B/s
    QTest::newRow("MB/s") << int(RateUnit::MBps) << 125.0;
    QTest::newRow("MiB/s") << int(RateUnit::MiBps) << 125e6 / 1048576.0;
    QTest::newRow("Mbit/s") << int(RateUnit::Mbps) << 1000.0;
}

void TestThroughputChart::valuesInEachUnit()
{
    QFETCH(int, unit);
    QFETCH(double, expected);
    ThroughputChart chart;
    chart.onPlanStarted(1);
    chart.onRunStarted(spec(0, 1));
    chart.addSamples(samples(0, {125e6, 62.5e6}));
    QCPGraph *graph = chart.graphForRepetition(1);
    QVERIFY(graph);
    QCOMPARE(graph->dataCount(), 2);
    // Switching the unit after the data arrived converts what is on screen.
    chart.setUnit(RateUnit(unit));
    QCOMPARE(graph->data()->at(0)->key, 0.1);
    QCOMPARE(graph->data()->at(0)->value, expected);
    QCOMPARE(graph->data()->at(1)->value, expected / 2);
    // And data arriving later is in the new unit too.
    chart.addSamples({Sample{0, 0.3, 0.1, qint64(125e6 * 0.1)}});
    QCOMPARE(graph->data()->at(2)->value, expected);
    QVERIFY(chart.plot()->yAxis->label().contains(Units::label(RateUnit(unit))));
}

void TestThroughputChart::oneLinePerRepetition()
{
    ThroughputChart chart;
    chart.onPlanStarted(2);
    chart.onRunStarted(spec(0, 1));
    chart.addSamples(samples(0, {100e6, 100e6}));
    chart.onRunStarted(spec(1, 2));
    chart.addSamples(samples(1, {50e6}));
    QCOMPARE(chart.lineCount(), 2);
    QCOMPARE(chart.graphForRepetition(1)->name(), QStringLiteral("rep 1"));
    QCOMPARE(chart.graphForRepetition(2)->name(), QStringLiteral("rep 2"));
    QCOMPARE(chart.graphForRepetition(2)->data()->at(0)->value, 50.0);
    QVERIFY(chart.graphForRepetition(1)->pen().color() != chart.graphForRepetition(2)->pen().color());
    QVERIFY(chart.plot()->legend->visible());
    QVERIFY(chart.title().contains(QStringLiteral("tcp-send @ 1500 B")));
    // Samples of an unknown run are ignored, not a crash.
    chart.addSamples(samples(42, {1e6}));
    chart.replotNow();
}

void TestThroughputChart::newTestClearsLines()
{
    ThroughputChart chart;
    chart.onPlanStarted(2);
    chart.onRunStarted(spec(0, 1));
    chart.addSamples(samples(0, {100e6}));
    chart.onRunStarted(spec(1, 1, QStringLiteral("tcp-recv")));
    QCOMPARE(chart.lineCount(), 1);
    QCOMPARE(chart.graphForRepetition(1)->dataCount(), 0);
    QVERIFY(chart.title().contains(QStringLiteral("tcp-recv")));
}

void TestThroughputChart::holdsAnHourOnFiveLines()
{
    // One hour at 10 Hz on each of 5 lines (bench/gui_responsiveness.sh times the replot of this): every sample
    // is on its line, and the axes show all of it.
    constexpr int kSamples = 3600 * 10;
    constexpr int kLines = 5;
    const auto bytesOf = [](int rep, int k) {
        if (k == 18000 + rep)
            return qint64(1e6); // 10 MB/s for one sample in the middle: a display that averaged would hide it
        return qint64(std::lround((100e6 + rep * 1e6 + (k % 7) * 1e5) * 0.1));
    };
    ThroughputChart chart;
    chart.onPlanStarted(kLines);
    double sentBytes = 0;
    for (int rep = 1; rep <= kLines; ++rep) {
        RunSpec s = spec(rep - 1, rep);
        s.params.durationMs = 3600 * 1000;
        chart.onRunStarted(s);
        SampleList batch;
        for (int k = 0; k < kSamples; ++k) {
            batch << Sample{rep - 1, 0.1 * (k + 1), 0.1, bytesOf(rep, k)};
            sentBytes += double(batch.last().bytes);
            if (batch.size() == 10) {
                chart.addSamples(batch);
                batch.clear();
            }
        }
    }
    chart.replotNow();
    QCOMPARE(chart.lineCount(), kLines);
    double shownBytes = 0;
    for (int rep = 1; rep <= kLines; ++rep) {
        const QCPGraph *graph = chart.graphForRepetition(rep);
        QVERIFY(graph);
        QCOMPARE(graph->dataCount(), kSamples);
        QVERIFY(graph->adaptiveSampling());
        int wrong = 0;
        for (int k = 0; k < kSamples; ++k) {
            const auto d = graph->data()->at(k);
            wrong += qAbs(d->key - 0.1 * (k + 1)) > 1e-9 || qAbs(d->value - double(bytesOf(rep, k)) / 0.1 / 1e6) > 1e-9;
            shownBytes += d->value * 1e6 * 0.1;
        }
        QCOMPARE(wrong, 0);
        bool found = false;
        QCOMPARE(graph->getValueRange(found).lower, 10.0);
    }
    QVERIFY(qAbs(shownBytes - sentBytes) < 1e-3 * kLines * kSamples);
    // The whole hour on the time axis; the highest point (rep 5: 105.6 MB/s) with the chart's headroom.
    QCOMPARE(chart.plot()->xAxis->range().lower, 0.0);
    QCOMPARE(chart.plot()->xAxis->range().upper, 3600.0);
    QVERIFY(qAbs(chart.plot()->yAxis->range().upper - 105.6 * 1.12) < 1e-6 * 105.6);
    // Another unit converts every point, and the axis follows.
    chart.setUnit(RateUnit::Mbps);
    chart.replotNow();
    QCOMPARE(chart.graphForRepetition(3)->data()->at(18003)->value, 80.0);
    QVERIFY(qAbs(chart.plot()->yAxis->range().upper - 844.8 * 1.12) < 1e-6 * 844.8);
}

void TestThroughputChart::denseLinesDrawnThin()
{
    ThroughputChart chart;
    chart.onPlanStarted(1);
    chart.onRunStarted(spec(0, 1));
    QList<double> rates(ThroughputChart::kThinPenAbove, 100e6);
    chart.addSamples(samples(0, rates));
    QCPGraph *graph = chart.graphForRepetition(1);
    QCOMPARE(graph->pen().widthF(), 2.0);
    const QColor color = graph->pen().color();
    chart.addSamples({Sample{0, 0.1 * (ThroughputChart::kThinPenAbove + 1), 0.1, qint64(10e6)}});
    QCOMPARE(graph->pen().widthF(), 1.0);
    QCOMPARE(graph->pen().color(), color);
    // A timed test that will be dense (an hour at 10 Hz) is thin from the start: its lines look alike meanwhile.
    RunSpec hour = spec(1, 2);
    hour.params.durationMs = 3600 * 1000;
    chart.onRunStarted(hour);
    QCOMPARE(chart.graphForRepetition(2)->pen().widthF(), 1.0);
}

void TestThroughputChart::decimatesLongRuns()
{
    ThroughputChart chart;
    chart.onPlanStarted(1);
    chart.onRunStarted(spec(0, 1));
    // 5 hours of 100 ms samples at a constant 100 MB/s, in batches as the engine sends them: past the four
    // hours a line holds in full.
    const int total = 5 * 3600 * 10;
    SampleList batch;
    for (int i = 0; i < total; ++i) {
        batch << Sample{0, 0.1 * (i + 1), 0.1, qint64(10e6)};
        if (batch.size() == 10) {
            chart.addSamples(batch);
            batch.clear();
        }
    }
    QCPGraph *graph = chart.graphForRepetition(1);
    QVERIFY(graph->dataCount() <= ThroughputChart::kMaxPointsPerLine);
    QVERIFY(graph->dataCount() >= ThroughputChart::kMaxPointsPerLine / 2);
    // Merged points keep the rate: bytes over the merged intervals.
    for (int i = 0; i < graph->dataCount(); i += 97)
        QVERIFY(qAbs(graph->data()->at(i)->value - 100.0) < 1e-6);
    QVERIFY(graph->data()->at(graph->dataCount() - 1)->key <= total * 0.1 + 1e-6);
    QVERIFY(graph->data()->at(graph->dataCount() - 1)->key > total * 0.1 - 1000);
}

QTEST_MAIN(TestThroughputChart)
#include "TestThroughputChart.moc"
