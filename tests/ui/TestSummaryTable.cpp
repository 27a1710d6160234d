#include "SummaryTable.h"

#include "analysis/RunAnalyzer.h"
#include "plan/TestPlan.h"

#include <QHeaderView>
#include <QRegularExpression>
#include <QTest>

using namespace wb;

namespace {

RunResult run(const QString &host, int frame, int rep, double MBps, RunStatus status = RunStatus::Ok)
{
    RunResult r;
    r.spec.host.name = host;
    r.spec.host.address = QStringLiteral("10.0.0.5");
    r.spec.host.osLabel = QStringLiteral("Linux");
    r.spec.protocol = QStringLiteral("tcp-send");
    r.spec.frameSize = frame;
    r.spec.repetition = rep;
    r.status = status;
    r.seconds = 2.0;
    r.bytes = qint64(MBps * 1e6 * 2.0);
    r.mss = frame - 52;
    // What RunAnalyzer writes for a 1 Gbit/s link set on the host.
    r.extra.insert(QStringLiteral("link_speed_Mbps"), 1000.0);
    r.extra.insert(QStringLiteral("link_speed_source"), QStringLiteral("override"));
    r.extra.insert(QStringLiteral("ceiling_mtu"), frame);
    r.extra.insert(QStringLiteral("ceiling_MBps"), 117.685);
    r.extra.insert(QStringLiteral("percent_of_ceiling"), MBps / 117.685 * 100);
    r.extra.insert(QStringLiteral("cpu_local_percent"), 10.0 + rep);
    r.extra.insert(QStringLiteral("cpu_remote_percent"), 40.0);
    r.extra.insert(QStringLiteral("service_demand_us_per_KB"), 0.5);
    return r;
}

// 4 repetitions of 100, 110, 120, 130 MB/s.
RunResultList fourRuns()
{
    return {run(QStringLiteral("fs1"), 1500, 1, 100), run(QStringLiteral("fs1"), 1500, 2, 110),
            run(QStringLiteral("fs1"), 1500, 3, 120), run(QStringLiteral("fs1"), 1500, 4, 130)};
}

// Test i's figure in column.
QString cell(const SummaryTable &t, int test, int column)
{
    const QTableWidgetItem *item = t.item(SummaryTable::figuresRow(test), column);
    return item ? item->text() : QString();
}

} // namespace

class TestSummaryTable : public QObject
{
    Q_OBJECT
private slots:
    void statisticsCells();
    void headersSayUnits();
    void bottleneckAndWarnings();
    void latencyInVerdict();
    void notRunTest();
    void referenceStreamVerdict_data();
    void referenceStreamVerdict();
    void unitSwitch();
};

void TestSummaryTable::statisticsCells()
{
    SummaryTable table;
    for (const RunResult &r : fourRuns())
        table.addResult(r);        // as runs end
    QCOMPARE(table.rowCount(), 2); // figures and verdict
    QCOMPARE(cell(table, 0, SummaryTable::HostName), QStringLiteral("fs1"));
    QCOMPARE(cell(table, 0, SummaryTable::Os), QStringLiteral("Linux"));
    QCOMPARE(cell(table, 0, SummaryTable::Frame), QStringLiteral("1500"));
    QCOMPARE(cell(table, 0, SummaryTable::Mss), QStringLiteral("1448"));
    QCOMPARE(cell(table, 0, SummaryTable::RepsOk), QStringLiteral("4"));
    QCOMPARE(cell(table, 0, SummaryTable::RepsFailed), QStringLiteral("0"));
    QCOMPARE(cell(table, 0, SummaryTable::Min), QStringLiteral("100.00"));
    QCOMPARE(cell(table, 0, SummaryTable::Median), QStringLiteral("115.00"));
    QCOMPARE(cell(table, 0, SummaryTable::Mean), QStringLiteral("115.00"));
    QCOMPARE(cell(table, 0, SummaryTable::Max), QStringLiteral("130.00"));
    // Sample standard deviation sqrt(500/3) = 12.91; t(3) = 3.182 -> half-width 20.54 around 115.
    QCOMPARE(cell(table, 0, SummaryTable::StdDev), QStringLiteral("12.91"));
    QCOMPARE(cell(table, 0, SummaryTable::Ci95), QStringLiteral("94.46 - 135.54"));
    QVERIFY(table.item(SummaryTable::figuresRow(0), SummaryTable::Ci95)
                ->toolTip()
                .contains(QStringLiteral("+/- 20.54 MB/s")));
    // Median of 100/117.685 .. 130/117.685 -> 97.7 %; CPU means; service demand.
    QCOMPARE(cell(table, 0, SummaryTable::PercentOfCeiling), QStringLiteral("97.7"));
    QCOMPARE(cell(table, 0, SummaryTable::CpuLocal), QStringLiteral("12.5"));
    QCOMPARE(cell(table, 0, SummaryTable::CpuRemote), QStringLiteral("40.0"));
    QCOMPARE(cell(table, 0, SummaryTable::ServiceDemand), QStringLiteral("0.500"));

    // A second host adds a row; a failed repetition counts as failed and leaves the figures alone.
    table.addResult(run(QStringLiteral("fs2"), 1500, 1, 50));
    table.addResult(run(QStringLiteral("fs1"), 1500, 5, 0, RunStatus::Failed));
    QCOMPARE(table.rowCount(), 4);
    QCOMPARE(cell(table, 0, SummaryTable::RepsFailed), QStringLiteral("1"));
    QCOMPARE(cell(table, 0, SummaryTable::Mean), QStringLiteral("115.00"));
    // One repetition: no spread, no interval.
    QCOMPARE(cell(table, 1, SummaryTable::StdDev), QStringLiteral("-"));
    QCOMPARE(cell(table, 1, SummaryTable::Ci95), QStringLiteral("-"));
    table.clearResults();
    QCOMPARE(table.rowCount(), 0);
}

void TestSummaryTable::headersSayUnits()
{
    SummaryTable table;
    const QRegularExpression unit(QStringLiteral("\\n\\((B|MB/s|%|µs/KB)\\)$"));
    for (int c : {SummaryTable::Frame, SummaryTable::Mss, SummaryTable::Min, SummaryTable::Median, SummaryTable::Mean,
                  SummaryTable::Max, SummaryTable::StdDev, SummaryTable::Ci95, SummaryTable::CpuLocal,
                  SummaryTable::CpuRemote, SummaryTable::ServiceDemand}) {
        const QString header = table.horizontalHeaderItem(c)->text();
        QVERIFY2(unit.match(header).hasMatch(), qPrintable(header));
    }
    QCOMPARE(table.horizontalHeaderItem(SummaryTable::PercentOfCeiling)->text(), QStringLiteral("% of\nceiling"));
}

void TestSummaryTable::bottleneckAndWarnings()
{
    SummaryTable table;
    const RunResultList runs = fourRuns();
    table.setResults(runs);
    const QString sentence = table.bottleneck(0);
    QCOMPARE(sentence, RunAnalyzer::bottleneckFor(runs));
    QVERIFY2(sentence.contains(QStringLiteral("at line rate")), qPrintable(sentence));
    QVERIFY(table.warnings(0).isEmpty());
    // The verdict row under the figures spans the table and carries the sentence.
    const int vr = SummaryTable::verdictRow(0);
    QCOMPARE(table.columnSpan(vr, 0), int(SummaryTable::ColumnCount));
    QVERIFY(table.item(vr, 0)->text().contains(sentence));
    QVERIFY(table.item(vr, 0)->text().startsWith(QStringLiteral("Bottleneck: ")));
    QVERIFY(table.item(vr, 0)->icon().isNull());

    // A result far above the ceiling: the warning shows, with an icon, in the verdict row.
    RunResult above = run(QStringLiteral("fs1"), 1500, 5, 300);
    above.warnings << QStringLiteral("300 MB/s is above the line-rate ceiling of 1 Gbit/s at MTU 1500 (117.7 MB/s, "
                                     "255% of it): a cache, compression or a counting error");
    table.addResult(above);
    QCOMPARE(table.warnings(0), above.warnings);
    QTableWidgetItem *verdict = table.item(vr, 0);
    QVERIFY(verdict->text().contains(QStringLiteral("Warning: 300 MB/s is above the line-rate ceiling")));
    QVERIFY(!verdict->icon().isNull());
    QVERIFY(verdict->toolTip().contains(QStringLiteral("counting error")));
    QCOMPARE(table.bottleneck(0), RunAnalyzer::bottleneckFor(table.results()));
}

void TestSummaryTable::latencyInVerdict()
{
    // Two runs that timed round trips: idle 0.4 ms, loaded 12.4 and 14.4 ms: a note (5 to 30 ms), not a warning.
    RunResultList runs = fourRuns().mid(0, 2);
    for (int i = 0; i < runs.size(); ++i) {
        RunLatency &l = runs[i].latency;
        l.method = QStringLiteral("udp-echo");
        l.samples = {{0, -0.5, 0.4, false}, {0, 0.5, 12.4 + 2 * i, true}};
        l.summarize();
    }
    SummaryTable table;
    table.setResults(runs);
    const QString verdict = table.item(SummaryTable::verdictRow(0), 0)->text();
    QVERIFY2(verdict.contains(QStringLiteral("\nLatency: latency under load +13 ms over the idle 0.4 ms (loaded 13 ms; "
                                             "medians of 2 runs); the queue on the path adds 13 ms at full load; under "
                                             "5 ms is good")),
             qPrintable(verdict));
    QVERIFY(table.warnings(0).isEmpty());
    QVERIFY(table.item(SummaryTable::verdictRow(0), 0)->icon().isNull());
    // Without round trips (a local copy), no latency line.
    table.setResults(fourRuns());
    QVERIFY(!table.item(SummaryTable::verdictRow(0), 0)->text().contains(QStringLiteral("Latency")));
}

void TestSummaryTable::notRunTest()
{
    SummaryTable table;
    RunResult nr = run(QStringLiteral("fs1"), 9000, 1, 0, RunStatus::NotRun);
    nr.error = QStringLiteral("jumbo frames are not enabled end to end: path MTU to fs1 (10.0.0.5) is 1500 bytes");
    table.addResult(nr);
    QCOMPARE(table.rowCount(), 2); // figures and verdict
    QCOMPARE(cell(table, 0, SummaryTable::RepsOk), QStringLiteral("0"));
    QCOMPARE(cell(table, 0, SummaryTable::Mean), QStringLiteral("-"));
    QVERIFY(table.bottleneck(0).startsWith(QStringLiteral("not run: jumbo frames")));
    QVERIFY(table.item(SummaryTable::verdictRow(0), 0)->text().contains(QStringLiteral("not run: jumbo frames")));
}

void TestSummaryTable::referenceStreamVerdict_data()
{
    QTest::addColumn<int>("durationMs");
    QTest::addColumn<QString>("says");
    QTest::newRow("3 s (the default)") << 3000 << QStringLiteral("(3 s: the network's capacity to this host");
    QTest::newRow("0.3 s") << 300 << QStringLiteral("(0.3 s: the network's capacity to this host");
    QTest::newRow("12.5 s") << 12500 << QStringLiteral("(12.5 s: the network's capacity to this host");
}

void TestSummaryTable::referenceStreamVerdict()
{
    // A reference stream's verdict names it, and its real length (TestPlan::referenceMs, the plan's).
    QFETCH(int, durationMs);
    QFETCH(QString, says);
    RunResult r = run(QStringLiteral("fs1"), 1500, 1, 117);
    r.spec.params.durationMs = durationMs;
    r.spec.params.options.insert(QLatin1String(TestPlan::ReferenceKey), true);
    SummaryTable table;
    table.setResults({r});
    const QString sentence = table.bottleneck(0);
    QVERIFY2(sentence.startsWith(QStringLiteral("reference stream, not part of the comparison ") + says),
             qPrintable(sentence));
    QVERIFY2(sentence.endsWith(RunAnalyzer::bottleneckFor({r})), qPrintable(sentence));
    // An ordinary run of the same figures says only what limited it.
    r.spec.params.options.remove(QLatin1String(TestPlan::ReferenceKey));
    table.setResults({r});
    QCOMPARE(table.bottleneck(0), RunAnalyzer::bottleneckFor({r}));
}

void TestSummaryTable::unitSwitch()
{
    SummaryTable table;
    table.setResults(fourRuns());
    table.setUnit(RateUnit::Mbps);
    QCOMPARE(table.horizontalHeaderItem(SummaryTable::Mean)->text(), QStringLiteral("Mean\n(Mbit/s)"));
    QCOMPARE(cell(table, 0, SummaryTable::Mean), QStringLiteral("920.0"));
    QCOMPARE(cell(table, 0, SummaryTable::Min), QStringLiteral("800.0"));
}

QTEST_MAIN(TestSummaryTable)
#include "TestSummaryTable.moc"
