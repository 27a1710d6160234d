#include "ChartExporter.h"
#include "ChartLayoutCheck.h"
#include "ComparisonChart.h"
#include "ExportExtras.h"
#include "stats/TestSummary.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

RunResult result(const QString &host, const QString &os, const QString &protocol, int frame, int rep, double MBps,
                 RunStatus status = RunStatus::Ok)
{
    RunResult r;
    r.spec.host.name = host;
    r.spec.host.address = host + QStringLiteral(".lan");
    r.spec.host.osLabel = os;
    r.spec.protocol = protocol;
    r.spec.frameSize = frame;
    r.spec.repetition = rep;
    r.status = status;
    r.seconds = 2.0;
    r.bytes = qint64(MBps * 1e6 * 2.0);
    if (status != RunStatus::Ok)
        r.error = host + QStringLiteral(": connection refused: start wirebenchd");
    return r;
}

// 2 hosts x 2 tests (tcp-send @ 1500, tcp-send @ 9000), 3 repetitions each.
RunResultList sampleResults()
{
    RunResultList list;
    const QString send = QStringLiteral("tcp-send");
    const QString lin = QStringLiteral("linux-box"), win = QStringLiteral("win-box");
    for (auto [rep, a, b, c, d] : QList<std::tuple<int, double, double, double, double>>{
             {1, 110, 90, 118, 70}, {2, 112, 80, 117, 75}, {3, 100, 95, 119, 60}}) {
        list << result(lin, QStringLiteral("Linux"), send, 1500, rep, a);
        list << result(win, QStringLiteral("Windows Server 2003"), send, 1500, rep, b);
        list << result(lin, QStringLiteral("Linux"), send, 9000, rep, c);
        list << result(win, QStringLiteral("Windows Server 2003"), send, 9000, rep, d);
    }
    return list;
}

} // namespace

class TestComparisonChart : public QObject
{
    Q_OBJECT
private slots:
    void barsAreMedians();
    void unitSwitch();
    void failedTestsShown();
    void hostColoursStable();
    void renderWithoutWindow();
    void ci95ErrorBars();
    void warningMarker();
    void notRunGap();
    void ticksSayFrameAndMss();
    void percentOfCeilingLabels();
    void oneRepetitionHasNoErrorBar();
    void longNamesAndWarningsStayInside();
    void bothWaysAreTwoBars();
};

void TestComparisonChart::barsAreMedians()
{
    ComparisonChart chart;
    for (const RunResult &r : sampleResults())
        chart.addResult(r); // as runs end
    QCOMPARE(chart.testKeys(), (QStringList{QStringLiteral("tcp-send @ 1500"), QStringLiteral("tcp-send @ 9000")}));

    QCPBars *lin = chart.barsForHost(QStringLiteral("linux-box"));
    QCPBars *win = chart.barsForHost(QStringLiteral("win-box"));
    QVERIFY(lin && win);
    QCOMPARE(lin->dataCount(), 2);
    QCOMPARE(win->dataCount(), 2);
    // Medians: linux 110 and 118, windows 90 and 70 (MB/s).
    QCOMPARE(lin->data()->at(0)->value, 110.0);
    QCOMPARE(lin->data()->at(1)->value, 118.0);
    QCOMPARE(win->data()->at(0)->value, 90.0);
    QCOMPARE(win->data()->at(1)->value, 70.0);
    // The groups: test 1 at key 1, test 2 at key 2, the hosts side by side.
    QVERIFY(lin->data()->at(0)->key < 1.0 && win->data()->at(0)->key > 1.0);
    QVERIFY(lin->data()->at(1)->key < 2.0 && win->data()->at(1)->key > 2.0);

    // Error bars from min to max.
    QCPErrorBars *err = chart.errorBarsForHost(QStringLiteral("win-box"));
    QVERIFY(err);
    QCOMPARE(err->dataCount(), 2);
    QCOMPARE(err->data()->at(0).errorMinus, 90.0 - 80.0);
    QCOMPARE(err->data()->at(0).errorPlus, 95.0 - 90.0);
    QCOMPARE(err->data()->at(1).errorMinus, 70.0 - 60.0);
    QCOMPARE(err->data()->at(1).errorPlus, 75.0 - 70.0);
    QCOMPARE(err->dataPlottable(), win);

    // Legend "host name (OS label)"; error bars are not in the legend.
    QCOMPARE(lin->name(), QStringLiteral("linux-box (Linux)"));
    QCOMPARE(win->name(), QStringLiteral("win-box (Windows Server 2003)"));
    QCOMPARE(chart.plot()->legend->itemCount(), 2);
    QVERIFY(chart.plot()->legend->visible());

    // Value labels with their unit, axis label with its unit.
    QVERIFY(chart.valueLabels().contains(QStringLiteral("110.0 MB/s")));
    QVERIFY(chart.valueLabels().contains(QStringLiteral("70.00 MB/s")));
    QCOMPARE(chart.plot()->yAxis->label(), QStringLiteral("Throughput (MB/s)"));
    QVERIFY(chart.title().contains(QStringLiteral("median of 3 repetitions")));
}

void TestComparisonChart::unitSwitch()
{
    ComparisonChart chart;
    chart.setResults(sampleResults());
    chart.setUnit(RateUnit::Mbps);
    QCOMPARE(chart.barsForHost(QStringLiteral("linux-box"))->data()->at(0)->value, 880.0);
    QCOMPARE(chart.errorBarsForHost(QStringLiteral("linux-box"))->data()->at(0).errorPlus, (112.0 - 110.0) * 8);
    QCOMPARE(chart.plot()->yAxis->label(), QStringLiteral("Throughput (Mbit/s)"));
    QVERIFY(chart.valueLabels().contains(QStringLiteral("880.0 Mbit/s")));
    chart.setUnit(RateUnit::MiBps);
    QCOMPARE(chart.barsForHost(QStringLiteral("win-box"))->data()->at(1)->value, 70e6 / 1048576.0);
}

void TestComparisonChart::failedTestsShown()
{
    ComparisonChart chart;
    RunResultList list = sampleResults();
    list << result(QStringLiteral("dead-box"), QStringLiteral("Linux"), QStringLiteral("tcp-send"), 1500, 1, 0,
                   RunStatus::Failed);
    chart.setResults(list);
    QCPBars *dead = chart.barsForHost(QStringLiteral("dead-box"));
    QVERIFY(dead);
    QCOMPARE(dead->dataCount(), 0); // no fake zero bar
    QVERIFY(chart.valueLabels().contains(QStringLiteral("failed")));
    chart.clear();
    QVERIFY(chart.testKeys().isEmpty());
    QVERIFY(!chart.plot()->legend->visible());
}

void TestComparisonChart::hostColoursStable()
{
    ComparisonChart a, b;
    a.setResults(sampleResults());
    RunResultList reversed = sampleResults();
    std::reverse(reversed.begin(), reversed.end());
    b.setResults(reversed);
    for (const QString &host : {QStringLiteral("linux-box"), QStringLiteral("win-box")})
        QCOMPARE(a.barsForHost(host)->brush().color(), b.barsForHost(host)->brush().color());
    QVERIFY(a.barsForHost(QStringLiteral("linux-box"))->brush().color()
            != a.barsForHost(QStringLiteral("win-box"))->brush().color());
}

void TestComparisonChart::renderWithoutWindow()
{
    QTemporaryDir dir;
    QString error;
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    QVERIFY2(ChartExporter::renderComparison(sampleResults(), RateUnit::MBps, png, QSize(1200, 700), &error),
             qPrintable(error));
    QCOMPARE(QImage(png).size(), QSize(1200, 700));
    const QString pdf = dir.filePath(QStringLiteral("chart.pdf"));
    QVERIFY2(ChartExporter::renderComparison(sampleResults(), RateUnit::Mbps, pdf, QSize(800, 500), &error),
             qPrintable(error));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(4) == "%PDF");
    // Bad input: a reason, no crash.
    QVERIFY(!ChartExporter::renderComparison(sampleResults(), RateUnit::MBps, dir.filePath(QStringLiteral("x.bmp")),
                                             QSize(800, 500), &error));
    QVERIFY(error.contains(QStringLiteral(".png")));
    QVERIFY(!ChartExporter::renderComparison(sampleResults(), RateUnit::MBps,
                                             dir.filePath(QStringLiteral("missing/x.png")), QSize(800, 500), &error));
    QVERIFY(error.contains(QStringLiteral("does not exist")));
    QVERIFY(!ChartExporter::renderComparison({}, RateUnit::MBps, png, QSize(0, 0), &error));
}

void TestComparisonChart::ci95ErrorBars()
{
    ComparisonChart chart;
    chart.setResults(sampleResults());
    // The combo on the chart switches to the mean with its 95% interval; the title says so.
    auto *combo = chart.findChild<QComboBox *>(QStringLiteral("errorBarCombo"));
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findData(int(ComparisonChart::ErrorBars::Ci95)));
    QCOMPARE(chart.errorBars(), ComparisonChart::ErrorBars::Ci95);
    QVERIFY2(chart.title().contains(QStringLiteral("95% confidence interval of the mean")), qPrintable(chart.title()));
    QVERIFY(chart.title().contains(QStringLiteral("mean of 3 repetitions")));

    const QList<TestSummary> summaries = TestSummary::build(sampleResults());
    int checked = 0;
    for (const TestSummary &t : summaries) {
        QCPBars *bars = chart.barsForHost(t.host.displayName());
        QCPErrorBars *err = chart.errorBarsForHost(t.host.displayName());
        QVERIFY(bars && err);
        const int i = t.frameSize == 1500 ? 0 : 1;
        QCOMPARE(bars->data()->at(i)->value, t.MBps.mean);
        QVERIFY(t.MBps.ci95HalfWidth > 0);
        QCOMPARE(err->data()->at(i).errorMinus, t.MBps.ci95HalfWidth);
        QCOMPARE(err->data()->at(i).errorPlus, t.MBps.ci95HalfWidth);
        // The ends of the drawn bar are mean -/+ the half-width.
        QCOMPARE(bars->data()->at(i)->value - err->data()->at(i).errorMinus, t.MBps.ciLow());
        QCOMPARE(bars->data()->at(i)->value + err->data()->at(i).errorPlus, t.MBps.ciHigh());
        ++checked;
    }
    QCOMPARE(checked, 4);
    // linux-box @ 1500: 110, 112, 100 -> mean 107.33: the label shows the mean.
    QVERIFY(chart.valueLabels().contains(QStringLiteral("107.3 MB/s")));

    chart.setErrorBars(ComparisonChart::ErrorBars::MinMax);
    QCOMPARE(combo->currentData().toInt(), int(ComparisonChart::ErrorBars::MinMax));
    QCOMPARE(chart.barsForHost(QStringLiteral("linux-box"))->data()->at(0)->value, 110.0);
    QVERIFY(chart.title().contains(QStringLiteral("error bars from min to max")));
}

void TestComparisonChart::warningMarker()
{
    ComparisonChart chart;
    RunResultList list = sampleResults();
    const QString text = QStringLiteral("119 MB/s is above the line-rate ceiling of 1 Gbit/s at MTU 9000 "
                                        "(123.8 MB/s, 96% of it): a cache, compression or a counting error");
    list[10].warnings << text; // linux-box tcp-send @ 9000, repetition 3
    QCOMPARE(list.at(10).spec.host.name, QStringLiteral("linux-box"));
    QCOMPARE(list.at(10).spec.frameSize, 9000);
    chart.setResults(list);

    const QList<ComparisonChart::Marker> markers = chart.markers();
    QCOMPARE(markers.size(), 1);
    QCOMPARE(markers.first().host, QStringLiteral("linux-box"));
    QCOMPARE(markers.first().test, QStringLiteral("tcp-send @ 9000"));
    QVERIFY(!markers.first().notRun);
    QCOMPARE(markers.first().text, text);
    // Red outline around that bar, "!" in its label, the warning in the note under the legend and the tooltip.
    QCOMPARE(chart.warningOutlines().size(), 1);
    QCPItemRect *outline = chart.warningOutlines().first();
    QCPBars *lin = chart.barsForHost(QStringLiteral("linux-box"));
    QCOMPARE(outline->topLeft->coords().y(), lin->data()->at(1)->value);
    QVERIFY(outline->topLeft->coords().x() < lin->data()->at(1)->key);
    QVERIFY(outline->bottomRight->coords().x() > lin->data()->at(1)->key);
    QVERIFY(outline->pen().color().red() > 150);
    QVERIFY(chart.valueLabels().contains(QStringLiteral("! 118.0 MB/s")));
    QVERIFY(chart.warningNote().contains(QStringLiteral("linux-box")));
    QVERIFY(chart.warningNote().contains(QStringLiteral("above the line-rate ceiling")));
    QVERIFY(chart.toolTipAt(lin->data()->at(1)->key, 50).contains(QStringLiteral("counting error")));
    QVERIFY(chart.toolTipAt(lin->data()->at(0)->key, 50).isEmpty());

    // Without warnings: no marker, no note.
    chart.setResults(sampleResults());
    QVERIFY(chart.markers().isEmpty());
    QVERIFY(chart.warningOutlines().isEmpty());
    QVERIFY(chart.warningNote().isEmpty());
}

void TestComparisonChart::notRunGap()
{
    ComparisonChart chart;
    RunResultList list = sampleResults();
    const QString reason
        = QStringLiteral("jumbo frames are not enabled end to end: path MTU to far (far.lan) is 1500 bytes");
    for (int rep = 1; rep <= 3; ++rep) {
        RunResult r = result(QStringLiteral("far"), QStringLiteral("Linux"), QStringLiteral("tcp-send"), 9000, rep, 0,
                             RunStatus::NotRun);
        r.error = reason;
        list << r;
    }
    chart.setResults(list);
    QCPBars *far = chart.barsForHost(QStringLiteral("far"));
    QVERIFY(far);
    QCOMPARE(far->dataCount(), 0); // a gap, not a zero bar
    QVERIFY(chart.valueLabels().contains(QStringLiteral("not run")));
    QVERIFY(!chart.valueLabels().contains(QStringLiteral("failed")));
    bool found = false;
    for (const ComparisonChart::Marker &m : chart.markers()) {
        if (m.notRun && m.host == QStringLiteral("far") && m.test == QStringLiteral("tcp-send @ 9000")) {
            found = true;
            QCOMPARE(m.text, reason);
            QVERIFY(chart.toolTipAt(m.area.center().x(), 1).contains(QStringLiteral("not run")));
        }
    }
    QVERIFY(found);
    // The other hosts' bars in that group are untouched.
    QCOMPARE(chart.barsForHost(QStringLiteral("linux-box"))->data()->at(1)->value, 118.0);
}

void TestComparisonChart::ticksSayFrameAndMss()
{
    ComparisonChart chart;
    RunResultList list = sampleResults();
    for (RunResult &r : list)
        r.mss = r.spec.frameSize - 52;
    chart.setResults(list);
    QCOMPARE(chart.tickLabels(),
             (QStringList{QStringLiteral("tcp-send\n1500 B frame\nMSS 1448 B"),
                          QStringLiteral("tcp-send\n9000 B frame\nMSS 8948 B")}));
    // Unknown MSS: the frame alone.
    chart.setResults(sampleResults());
    QCOMPARE(chart.tickLabels().first(), QStringLiteral("tcp-send\n1500 B frame"));
}

void TestComparisonChart::percentOfCeilingLabels()
{
    ComparisonChart chart;
    RunResultList list = sampleResults();
    for (RunResult &r : list)
        r.extra.insert(QStringLiteral("percent_of_ceiling"), r.megabytesPerSecond() / 117.685 * 100);
    chart.setResults(list);
    QVERIFY(chart.valueLabels().contains(QStringLiteral("110.0 MB/s")));
    auto *check = chart.findChild<QCheckBox *>(QStringLiteral("percentOfCeilingCheck"));
    QVERIFY(check);
    check->setChecked(true);
    QVERIFY(chart.showsPercentOfCeiling());
    // linux-box @ 1500: median 110 MB/s = 93% of 117.685 MB/s.
    QVERIFY2(chart.valueLabels().contains(QStringLiteral("110.0 MB/s\n93% of ceiling")),
             qPrintable(chart.valueLabels().join(QLatin1Char('|'))));
}

// Both directions at once: one run, two figures, two bars side by side ("tcp-bidir send", "tcp-bidir receive"), each
// the median of its direction, each labelled with its own share of the per-direction ceiling.
void TestComparisonChart::bothWaysAreTwoBars()
{
    RunResultList list;
    for (auto [rep, send, receive] :
         QList<std::tuple<int, double, double>>{{1, 11.40, 11.30}, {2, 11.42, 11.20}, {3, 11.38, 11.35}}) {
        RunResult r
            = result(QStringLiteral("lab"), QStringLiteral("Linux"), QStringLiteral("tcp-bidir"), 1500, rep, send);
        r.reverse = RunResult::Reverse{qRound64(receive * 1e6 * 2.0), 2.0, qRound64(receive * 1e6 * 2.0), {}};
        r.extra.insert(QStringLiteral("percent_of_ceiling"), send / 11.434 * 100);
        r.extra.insert(QStringLiteral("reverse_percent_of_ceiling"), receive / 11.434 * 100);
        list << r;
    }
    list << result(QStringLiteral("lab"), QStringLiteral("Linux"), QStringLiteral("tcp-send"), 1500, 1, 11.7);
    ComparisonChart chart;
    chart.setResults(list);
    QCOMPARE(chart.testKeys(),
             (QStringList{QStringLiteral("tcp-bidir send @ 1500"), QStringLiteral("tcp-bidir receive @ 1500"),
                          QStringLiteral("tcp-send @ 1500")}));
    QCPBars *bars = chart.barsForHost(QStringLiteral("lab"));
    QVERIFY(bars);
    QCOMPARE(bars->dataCount(), 3);
    QCOMPARE(bars->data()->at(0)->value, 11.40); // the send medians
    QCOMPARE(bars->data()->at(1)->value, 11.30); // the receive medians
    QCOMPARE(bars->data()->at(2)->value, 11.7);
    QVERIFY(bars->data()->at(0)->key < bars->data()->at(1)->key);
    QCPErrorBars *err = chart.errorBarsForHost(QStringLiteral("lab"));
    QVERIFY(err);
    QCOMPARE(err->data()->at(1).errorMinus, 11.30 - 11.20);
    QCOMPARE(err->data()->at(1).errorPlus, 11.35 - 11.30);
    chart.findChild<QCheckBox *>(QStringLiteral("percentOfCeilingCheck"))->setChecked(true);
    const QStringList labels = chart.valueLabels();
    QVERIFY2(labels.contains(QStringLiteral("11.40 MB/s\n100% of ceiling")), qPrintable(labels.join(QLatin1Char('|'))));
    QVERIFY2(labels.contains(QStringLiteral("11.30 MB/s\n99% of ceiling")), qPrintable(labels.join(QLatin1Char('|'))));
    qInfo("bars: %s", qPrintable(labels.join(QLatin1String(" | ")).replace(QLatin1Char('\n'), QLatin1Char(' '))));
}

QTEST_MAIN(TestComparisonChart)
// One repetition has no spread: the bar stands alone, without a flat error bar that would read as "no variation";
// a test with two repetitions beside it keeps its bar from min to max.
void TestComparisonChart::oneRepetitionHasNoErrorBar()
{
    ComparisonChart chart;
    const QString send = QStringLiteral("tcp-send");
    chart.addResult(result(QStringLiteral("linux-box"), QStringLiteral("Linux"), send, 1500, 1, 110));
    chart.addResult(result(QStringLiteral("linux-box"), QStringLiteral("Linux"), send, 9000, 1, 118));
    chart.addResult(result(QStringLiteral("linux-box"), QStringLiteral("Linux"), send, 9000, 2, 120));
    QCPErrorBars *err = chart.errorBarsForHost(QStringLiteral("linux-box"));
    QVERIFY(err);
    QCOMPARE(err->dataCount(), 2);
    QVERIFY(qIsNaN(err->data()->at(0).errorMinus));
    QVERIFY(qIsNaN(err->data()->at(0).errorPlus));
    QCOMPARE(err->data()->at(1).errorMinus, 119.0 - 118.0);
    QCOMPARE(err->data()->at(1).errorPlus, 120.0 - 119.0);
    QCOMPARE(chart.barsForHost(QStringLiteral("linux-box"))->data()->at(0)->value, 110.0);
    QVERIFY(chart.valueLabels().contains(QStringLiteral("110.0 MB/s")));
    // It still renders, NaN and all.
    const QImage image = chart.plot()->toPixmap(400, 300).toImage();
    QVERIFY(!image.isNull());
}

#include "TestComparisonChart.moc"

void TestComparisonChart::longNamesAndWarningsStayInside()
{
    // Host names without a space to break at, OS labels as Detect writes them, and a warning of two lines' worth.
    const QString a = QStringLiteral("fs-linux-01.storage.frankfurt-datacenter-east.example.com");
    const QString b = QStringLiteral("fs-windows-02.storage.frankfurt-datacenter-east.example.com");
    const QString c = QStringLiteral("This computer (loopback)");
    const QString osA = QStringLiteral("Samba 4.17.12-Debian (NTLMSSP 6.1 build 0) on Debian GNU/Linux 12 bookworm");
    const QString osB = QStringLiteral("Windows Server 2022 Datacenter (NTLMSSP 10.0 build 20348) with SMB 3.1.1");
    RunResultList list;
    for (int rep = 1; rep <= 2; ++rep) {
        list << result(a, osA, QStringLiteral("smb-read"), 1500, rep, 110 + rep);
        list << result(b, osB, QStringLiteral("smb-read"), 1500, rep, 90 + rep);
        list << result(c, QStringLiteral("Linux"), QStringLiteral("smb-read"), 1500, rep, 400 + rep);
    }
    const QString warning = QStringLiteral(
        "2230.4 MB/s is above the line-rate ceiling of 10 Gbit/s at MTU 1500 (1186.9 MB/s): a cache, compression or "
        "a counting error, or a link faster than the speed given for this host; set the link speed in the host's "
        "settings or check the interface the traffic really took");
    list[0].warnings << warning;
    list[1].warnings << QStringLiteral("not stable: the repetitions differ by 41% (more than 10%): "
                                       "look for other traffic on the link or a busy host");

    ComparisonChart chart;
    chart.resize(700, 450);
    chart.setResults(list);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCustomPlot *plot = chart.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(plot->legend->itemCount(), 3);
    const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        plot->grab().save(shots + QStringLiteral("/comparison-long-names.png"));
    const QString onScreen = chartTextOutside(plot, plot->rect());
    QVERIFY2(onScreen.isEmpty(), qPrintable(onScreen));
    // The note under the legend holds the whole warning, not its first 110 characters.
    QVERIFY(chart.warningNote().contains(QStringLiteral("check the interface the traffic really took")));

    // Exports lay the chart out again at their own size, with the footnote naming every host and OS label.
    QTemporaryDir dir;
    const QString footnote = ExportExtras::footnoteFor(list);
    for (const auto &[file, size] : QList<std::pair<QString, QSize>>{{QStringLiteral("small.png"), QSize(640, 480)},
                                                                     {QStringLiteral("wide.png"), QSize(1600, 1000)},
                                                                     {QStringLiteral("chart.pdf"), QSize(800, 500)},
                                                                     {QStringLiteral("chart.svg"), QSize(640, 480)}}) {
        ChartExportOptions options;
        options.size = size;
        options.footnote = footnote;
        QString error;
        const QString path = (shots.isEmpty() ? dir.path() : shots) + QStringLiteral("/comparison-") + file;
        QVERIFY2(ExportExtras::exportChart(plot, path, options, &error), qPrintable(error));
        // The export's layout is still in place until the chart is drawn again.
        const QString exported = chartTextOutside(plot, QRect(QPoint(0, 0), size));
        QVERIFY2(exported.isEmpty(), qPrintable(file + QStringLiteral(":\n") + exported));
        if (file.endsWith(QStringLiteral(".png")))
            QCOMPARE(QImage(path).size(), size);
    }
}
