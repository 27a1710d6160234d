#include "ComparisonChart.h"
#include "ResultsTable.h"
#include "SummaryTable.h"
#include "analysis/RunAnalyzer.h"
#include "formats/JsonExport.h"
#include "stats/TestSummary.h"
#include "formats/ReportGenerator.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace wb;

namespace {

/// smb-read at frames 1500 and 4000 over an MTU 4000 link, as the analyzer leaves them: libsmbclient cannot
/// clamp the MSS, so both ran with MSS 3948 (4000 B frames). Link speed 1 Gbit/s set for the host.
RunResultList smbOverMtu4000()
{
    RunResultList list;
    RunAnalyzer analyzer;
    for (const int frame : {1500, 4000}) {
        for (int rep = 1; rep <= 2; ++rep) {
            RunSpec spec;
            spec.host.name = QStringLiteral("fs");
            spec.host.address = QStringLiteral("127.0.0.1"); // the probe only asks the kernel for a route
            spec.host.linkSpeedMbps = 1000;
            spec.protocol = QStringLiteral("smb-read");
            spec.frameSize = frame;
            spec.repetition = rep;
            spec.index = int(list.size());
            analyzer.beforeRun(spec);
            RunResult r;
            r.spec = spec;
            r.status = RunStatus::Ok;
            r.bytes = 1190000000 + rep * 1000000; // 119.1 / 119.2 MB/s: above a 1500 B frame's 117.7, 97% of 4000's
            r.seconds = 10;
            r.mss = 3948;
            analyzer.afterRun(r);
            list << r;
        }
    }
    return list;
}

} // namespace

// Issue 12, item 2: everywhere a run is shown, its label names the frame it really used (its MSS tells) and
// the plan's beside it when they differ, and the ceiling is the one of that frame.
class TestFrameLabels : public QObject
{
    Q_OBJECT
private slots:
    void analyzerJudgedByTheFrameUsed()
    {
        for (const RunResult &r : smbOverMtu4000()) {
            QCOMPARE(r.extra.value(QStringLiteral("frame_used")).toInt(), 4000);
            for (const QString &w : r.warnings)
                QVERIFY2(!w.contains(QStringLiteral("line-rate ceiling")), qPrintable(w));
            QCOMPARE(r.warnings.size(), r.spec.frameSize == 1500 ? 1 : 0);
        }
    }

    void comparisonChartTicks()
    {
        ComparisonChart chart;
        chart.setResults(smbOverMtu4000());
        QCOMPARE(chart.tickLabels(),
                 (QStringList{QStringLiteral("smb-read\n4000 B frame\n(1500 B planned)\nMSS 3948 B"),
                              QStringLiteral("smb-read\n4000 B frame\nMSS 3948 B")}));
    }

    void resultsTableFrame()
    {
        ResultsTable table;
        for (const RunResult &r : smbOverMtu4000())
            table.addResult(r);
        QCOMPARE(table.item(0, ResultsTable::Frame)->text(), QStringLiteral("4000 (1500 planned)"));
        QCOMPARE(table.item(2, ResultsTable::Frame)->text(), QStringLiteral("4000"));
        QVERIFY2(table.item(0, ResultsTable::PercentOfCeiling)->toolTip().contains(QStringLiteral("at MTU 4000 B")),
                 qPrintable(table.item(0, ResultsTable::PercentOfCeiling)->toolTip()));
        QCOMPARE(table.item(0, ResultsTable::PercentOfCeiling)->text(), QStringLiteral("97.5"));
    }

    void summaryTableFrame()
    {
        SummaryTable table;
        table.setResults(smbOverMtu4000());
        QCOMPARE(table.item(SummaryTable::figuresRow(0), SummaryTable::Frame)->text(),
                 QStringLiteral("4000 (1500 planned)"));
        QCOMPARE(table.item(SummaryTable::figuresRow(1), SummaryTable::Frame)->text(), QStringLiteral("4000"));
    }

    void reportAndJson()
    {
        const RunResultList runs = smbOverMtu4000();
        ReportInput in;
        in.session.hosts = {runs.first().spec.host};
        in.runs = runs;
        const QString html = ReportGenerator::html(in);
        QVERIFY2(html.contains(QStringLiteral("4000\u00a0B (1500\u00a0B planned)")), "the report's frame column");
        QVERIFY2(!html.contains(QStringLiteral("above the line-rate ceiling")), "judged by a frame it did not use");

        const QList<TestSummary> tests = TestSummary::build(runs);
        QCOMPARE(tests.size(), 2);
        const QJsonObject planned1500 = JsonExport::summaryToJson(tests.first(), tests.first().runsOf(runs));
        QCOMPARE(planned1500.value(QStringLiteral("frame_size")).toInt(), 1500);
        QCOMPARE(planned1500.value(QStringLiteral("frames_used")).toArray(), QJsonArray{4000});
        QCOMPARE(qRound(planned1500.value(QStringLiteral("ceiling_MBps")).toDouble() * 1000),
                 122214); // 125e6 x 3948 / 4038 B/s
        QVERIFY2(planned1500.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("at line rate")),
                 qPrintable(planned1500.value(QStringLiteral("bottleneck")).toString()));
        const QJsonObject run = JsonExport::runToJson(runs.first());
        QCOMPARE(run.value(QStringLiteral("frame_used")).toInt(), 4000);
        QCOMPARE(run.value(QStringLiteral("ceiling_mtu")).toInt(), 4000);
    }
};

QTEST_MAIN(TestFrameLabels)
#include "TestFrameLabels.moc"
