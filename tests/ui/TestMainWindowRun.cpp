#include "ChartExporter.h"
#include "ComparisonChart.h"
#include "HostListPanel.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "ResultsTable.h"
#include "RunControlPanel.h"
#include "SummaryTable.h"
#include "ThroughputChart.h"
#include "settings/Config.h"
#include "stats/Statistics.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace wb;

class TestMainWindowRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void hintBeforeFirstRun();
    void runAgainstEmbeddedResponder();
    void stopKeepsFinishedRuns();
    void repeatUntilStable();
    void everyRunFailedSaysSo();

private:
    TestPlan shortPlan(int reps, int durationMs) const;
    void fillNextExportDialog(const QString &path, QSize size);

    QTemporaryDir m_dir;
};

void TestMainWindowRun::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

TestPlan TestMainWindowRun::shortPlan(int reps, int durationMs) const
{
    TestPlan plan;
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.frameSizes = {1500};
    plan.repetitions = reps;
    plan.params.durationMs = durationMs;
    return plan;
}

void TestMainWindowRun::fillNextExportDialog(const QString &path, QSize size)
{
    QTimer::singleShot(0, this, [=] {
        auto *dialog = qobject_cast<ExportDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(QStringLiteral("exportPathEdit"))->setText(path);
        dialog->findChild<QSpinBox *>(QStringLiteral("exportWidthSpin"))->setValue(size.width());
        dialog->findChild<QSpinBox *>(QStringLiteral("exportHeightSpin"))->setValue(size.height());
        dialog->accept();
    });
}

void TestMainWindowRun::repeatUntilStable()
{
    Config config(m_dir.filePath(QStringLiteral("stable.ini")));
    MainWindow window(&config);
    TestPlan plan = shortPlan(6, 300);
    plan.params.stableTargetPercent = 100; // wide: usually settled after the minimum, but either outcome is checked
    plan.params.minRepetitions = 2;
    plan.params.warmupMs = 200;
    window.planEditor()->setPlan(plan);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy done(&window, &MainWindow::planDone);
    QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("startButton")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);

    // Only the runs the rule asked for are in the table, and the summary says why the repetitions ended.
    const int runs = window.resultsTable()->rowCount();
    QVERIFY2(runs >= 2 && runs <= 6, qPrintable(QString::number(runs)));
    for (const RunResult &r : window.resultsTable()->results()) {
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.extra.value(QStringLiteral("warmup_ms")).toInt(), 200);
    }
    const QString verdict = window.summaryTable()->item(SummaryTable::verdictRow(0), 0)->text();
    if (runs < 6)
        QVERIFY2(verdict.contains(QStringLiteral("Repetitions: stable after %1 runs").arg(runs)), qPrintable(verdict));
    else
        QVERIFY2(verdict.contains(QStringLiteral("not stable after 6 runs"))
                     || verdict.contains(QStringLiteral("stable after 6 runs")),
                 qPrintable(verdict));
    qInfo("%d runs; %s", runs, qPrintable(verdict));
}

void TestMainWindowRun::hintBeforeFirstRun()
{
    Config config(m_dir.filePath(QStringLiteral("hint.ini")));
    MainWindow window(&config);
    auto hasHint = [](QCustomPlot *plot) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (text && text->visible() && text->text().startsWith(QStringLiteral("Press Start to measure")))
                return true;
        }
        return false;
    };
    QVERIFY(hasHint(window.throughputChart()->plot()));
    QVERIFY(hasHint(window.comparisonChart()->plot()));
    QVERIFY2(window.embeddedPort() > 0, "the embedded responder did not start on 127.0.0.1");
    QCOMPARE(window.hostList()->entries().size(), 1);
    QVERIFY(window.hostList()->entries().first().host.embedded);
}

void TestMainWindowRun::runAgainstEmbeddedResponder()
{
    Config config(m_dir.filePath(QStringLiteral("run.ini")));
    MainWindow window(&config);
    window.planEditor()->setPlan(shortPlan(2, 1000));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.embeddedPort() > 0, "the embedded responder did not start on 127.0.0.1");

    QSignalSpy done(&window, &MainWindow::planDone);
    QSignalSpy samples(window.engine(), &Engine::samplesReady);
    auto *start = window.findChild<QPushButton *>(QStringLiteral("startButton"));
    QVERIFY(start && start->isEnabled());
    QTest::mouseClick(start, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(window.runControl()->isRunning() || !done.isEmpty(), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    QCOMPARE(done.first().first().toBool(), false);
    QVERIFY(start->isEnabled());

    // The results table: one row per run, both ok, numbers with units in the header.
    ResultsTable *table = window.resultsTable();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->horizontalHeaderItem(ResultsTable::MBps)->text(), QStringLiteral("MB/s"));
    QList<double> tableMBps;
    for (int row = 0; row < 2; ++row) {
        const RunResult &r = table->results().at(row);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.bytes > 0 && r.seconds > 0);
        QCOMPARE(table->item(row, ResultsTable::Status)->text(), QStringLiteral("ok"));
        QCOMPARE(table->item(row, ResultsTable::HostName)->text(), QStringLiteral("This computer (loopback)"));
        bool ok = false;
        tableMBps << table->item(row, ResultsTable::MBps)->text().toDouble(&ok);
        QVERIFY(ok);
        qInfo("run %d: %.2f MB/s (%lld bytes in %.3f s), MSS %d B", row + 1, r.megabytesPerSecond(), r.bytes, r.seconds,
              r.mss);
    }

    // The live graph: one line per repetition, holding exactly the samples the engine delivered, one point each,
    // the run's last, shorter one included: the meter divides it by its own duration, so it is no spike and the
    // chart draws it as it is (TestThroughputChart::shortLastIntervalIsAPointOfItsOwn). The chart used to join a
    // last interval under half the sampling interval to the point before, whence 8 points for 9 samples in CI.
    ThroughputChart *live = window.throughputChart();
    QCOMPARE(live->lineCount(), 2);
    QHash<int, QList<Sample>> delivered;
    for (const QList<QVariant> &args : samples) {
        for (const Sample &s : args.first().value<SampleList>())
            delivered[s.runIndex] << s;
    }
    const double sampleSeconds = shortPlan(2, 1000).params.sampleIntervalMs / 1000.0;
    for (int rep = 1; rep <= 2; ++rep) {
        QCPGraph *graph = live->graphForRepetition(rep);
        QVERIFY(graph);
        QCOMPARE(graph->name(), QStringLiteral("rep %1").arg(rep));
        const QList<Sample> &runSamples = delivered.value(rep - 1);
        QVERIFY(!runSamples.isEmpty());
        QStringList intervals;
        qint64 deliveredBytes = 0;
        for (const Sample &s : runSamples) {
            intervals << QString::number(s.intervalSeconds * 1000, 'f', 1);
            deliveredBytes += s.bytes;
        }
        // The plan's interval, every sample but the last (ThroughputMeter).
        for (qsizetype i = 0; i + 1 < runSamples.size(); ++i)
            QCOMPARE(runSamples.at(i).intervalSeconds, sampleSeconds);
        qInfo("rep %d: %d samples, %d points; intervals (ms) %s", rep, int(runSamples.size()), graph->dataCount(),
              qPrintable(intervals.join(QLatin1Char(' '))));
        const QList<Sample> &points = runSamples;
        QCOMPARE(graph->dataCount(), int(points.size()));
        double graphMB = 0;
        for (int i = 0; i < graph->dataCount(); ++i) {
            QCOMPARE(graph->data()->at(i)->key, points.at(i).endSeconds);
            QCOMPARE(graph->data()->at(i)->value, points.at(i).bytesPerSecond() / 1e6);
            graphMB += graph->data()->at(i)->value * points.at(i).intervalSeconds;
        }
        // No byte lost on the way: the area under the line is every byte delivered.
        QVERIFY2(qAbs(graphMB - deliveredBytes / 1e6) < 1e-6 * (1 + deliveredBytes / 1e6),
                 qPrintable(QStringLiteral("graph %1 MB vs samples %2 MB").arg(graphMB).arg(deliveredBytes / 1e6)));
        // The area under the line is the data the run moved (MB); it agrees with the run's figure.
        const RunResult &r = table->results().at(rep - 1);
        const double resultMB = r.bytes / 1e6;
        qInfo("rep %d: live graph %.1f MB, result %.1f MB", rep, graphMB, resultMB);
        QVERIFY2(qAbs(graphMB - resultMB) <= 0.2 * resultMB,
                 qPrintable(QStringLiteral("graph %1 MB vs result %2 MB").arg(graphMB).arg(resultMB)));
    }
    QCOMPARE(live->plot()->yAxis->label(), QStringLiteral("Throughput (MB/s)"));
    QVERIFY2(live->hint().isEmpty(), qPrintable(live->hint())); // the lines are there: nothing over them
    if (const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(200); // the charts' queued replots
        window.grab().save(shots + QStringLiteral("/healthy-run.png"));
    }

    // The bar chart: the loopback host's bar is the median of the table's MB/s values.
    ComparisonChart *comparison = window.comparisonChart();
    QCPBars *bars = comparison->barsForHost(QStringLiteral("This computer (loopback)"));
    QVERIFY(bars);
    QCOMPARE(bars->dataCount(), 1);
    const double median = Statistics::summarize(tableMBps).median;
    QVERIFY2(qAbs(bars->data()->at(0)->value - median) < 0.011,
             qPrintable(QStringLiteral("bar %1 vs table median %2").arg(bars->data()->at(0)->value).arg(median)));
    QCPErrorBars *errors = comparison->errorBarsForHost(QStringLiteral("This computer (loopback)"));
    const double lo = std::min(tableMBps.at(0), tableMBps.at(1)), hi = std::max(tableMBps.at(0), tableMBps.at(1));
    QVERIFY(qAbs(bars->data()->at(0)->value - errors->data()->at(0).errorMinus - lo) < 0.011);
    QVERIFY(qAbs(bars->data()->at(0)->value + errors->data()->at(0).errorPlus - hi) < 0.011);
    QVERIFY(bars->name().startsWith(QStringLiteral("This computer (loopback) (")));

    // Unit switch reaches both charts.
    live->setUnit(RateUnit::Mbps);
    QCOMPARE(comparison->unit(), RateUnit::Mbps);
    QCPBars *barsMbps = comparison->barsForHost(QStringLiteral("This computer (loopback)"));
    QVERIFY(qAbs(barsMbps->data()->at(0)->value - median * 8) < 0.09);
    QCOMPARE(live->graphForRepetition(1)->data()->at(0)->value, delivered.value(0).first().bytesPerSecond() * 8 / 1e6);

    // Export from the File menu through the dialog, at a chosen size.
    const QString png = m_dir.filePath(QStringLiteral("comparison.png"));
    fillNextExportDialog(png, QSize(1000, 600));
    window.findChild<QAction *>(QStringLiteral("exportComparisonAction"))->trigger();
    QCOMPARE(QImage(png).size(), QSize(1000, 600));
    const QString livePng = m_dir.filePath(QStringLiteral("live.jpg"));
    fillNextExportDialog(livePng, QSize(900, 500));
    window.findChild<QAction *>(QStringLiteral("exportLiveAction"))->trigger();
    QCOMPARE(QImage(livePng).size(), QSize(900, 500));

    const QString pdf = m_dir.filePath(QStringLiteral("comparison.pdf"));
    QString error;
    QVERIFY2(ChartExporter::exportPlot(comparison->plot(), pdf, QSize(800, 500), &error), qPrintable(error));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.read(4), QByteArray("%PDF"));
    const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    if (!pdfinfo.isEmpty()) {
        QProcess info;
        info.start(pdfinfo, {pdf});
        QVERIFY(info.waitForFinished(30000));
        const QString out = QString::fromUtf8(info.readAllStandardOutput());
        const QRegularExpressionMatch m
            = QRegularExpression(QStringLiteral("Page size:\\s+([0-9.]+) x ([0-9.]+) pts")).match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out));
        QCOMPARE(qRound(m.captured(1).toDouble()), 800);
        QCOMPARE(qRound(m.captured(2).toDouble()), 500);
        QVERIFY2(QRegularExpression(QStringLiteral("Pages:\\s+1\\n")).match(out).hasMatch(), qPrintable(out));
    }
}

void TestMainWindowRun::stopKeepsFinishedRuns()
{
    Config config(m_dir.filePath(QStringLiteral("stop.ini")));
    MainWindow window(&config);
    window.planEditor()->setPlan(shortPlan(3, 1500));
    window.show();
    QVERIFY2(window.embeddedPort() > 0, "the embedded responder did not start on 127.0.0.1");
    QSignalSpy done(&window, &MainWindow::planDone);
    QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("startButton")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(window.resultsTable()->rowCount(), 1, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(window.throughputChart()->lineCount() == 2, 30000);
    auto *stop = window.findChild<QPushButton *>(QStringLiteral("stopButton"));
    QVERIFY(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);
    QCOMPARE(done.first().first().toBool(), true);
    // The finished run stays in the table and the chart; the cut run says so.
    QVERIFY(window.resultsTable()->rowCount() >= 1);
    const RunResult &first = window.resultsTable()->results().first();
    QVERIFY2(first.ok(), qPrintable(first.error));
    QVERIFY(window.comparisonChart()->barsForHost(QStringLiteral("This computer (loopback)")));
    QVERIFY(window.throughputChart()->graphForRepetition(1)->dataCount() > 0);
    QVERIFY(window.runControl()->statusText().startsWith(QStringLiteral("Stopped")));
}

void TestMainWindowRun::everyRunFailedSaysSo()
{
    // A port on loopback that nothing listens on: every run is refused.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 refusedPort = probe.serverPort();
    probe.close();
    Config config(m_dir.filePath(QStringLiteral("refused.ini")));
    MainWindow window(&config);
    Host host;
    host.name = QStringLiteral("nobody-home");
    host.address = QStringLiteral("127.0.0.1");
    host.port = refusedPort;
    host.osLabel = QStringLiteral("Linux");
    window.hostList()->addHost(host);
    window.hostList()->setSelected(0, false); // the built-in loopback host would succeed
    TestPlan plan = shortPlan(2, 1000);
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    window.planEditor()->setPlan(plan);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.hostList()->selectedHosts().size(), 1);
    QSignalSpy done(&window, &MainWindow::planDone);
    QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("startButton")), Qt::LeftButton);
    // The check before the first run lists the refused port first: keep the runs, to see what the chart says.
    auto *keep = window.findChild<QPushButton *>(QStringLiteral("runRestButton"));
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || keep->isVisible(), 30000);
    if (done.isEmpty())
        QTest::mouseClick(keep, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);

    // What the table holds, the chart says: no run was measured, and why there is no line. The runs are refused
    // (failed), or left out by the check before the first run or as "same cause as run k" (not run).
    int failed = 0, notRun = 0;
    for (const RunResult &r : window.resultsTable()->results()) {
        QVERIFY2(!r.ok(), qPrintable(r.spec.protocol));
        failed += r.status == RunStatus::Failed ? 1 : 0;
        notRun += r.status == RunStatus::NotRun ? 1 : 0;
    }
    QCOMPARE(failed + notRun, window.resultsTable()->rowCount());
    QVERIFY(window.resultsTable()->rowCount() >= 1);
    const QString hint = window.throughputChart()->hint();
    const QString seeTable = QStringLiteral("\nSee the results table for the reasons.");
    if (failed == 4)
        QCOMPARE(hint, QStringLiteral("No samples: all 4 runs failed.") + seeTable);
    else if (notRun == 4)
        QCOMPARE(hint, QStringLiteral("No samples: none of the 4 run(s) could run.") + seeTable);
    else if (failed > 0 && notRun > 0)
        QCOMPARE(hint,
                 QStringLiteral("No samples: of 4 run(s), %1 failed, %2 not run.").arg(failed).arg(notRun) + seeTable);
    else
        QCOMPARE(hint,
                 QStringLiteral("No samples: of 4 run(s), %1 %2.")
                         .arg(failed + notRun)
                         .arg(failed ? QStringLiteral("failed") : QStringLiteral("not run"))
                     + seeTable);
    QVERIFY2(!hint.contains(QStringLiteral("Waiting")), qPrintable(hint));
    const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        QTest::qWait(200); // the charts' queued replots
        window.grab().save(shots + QStringLiteral("/all-runs-failed.png"));
    }
}

QTEST_MAIN(TestMainWindowRun)
#include "TestMainWindowRun.moc"
