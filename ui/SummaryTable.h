#pragma once

#include "model/RunResult.h"
#include "stats/TestSummary.h"
#include "stats/Units.h"

#include <QTableWidget>

namespace wb {

/// Two rows per test (host x protocol x frame size) over its repetitions. The figures row: how many ran,
/// min, median, mean, max, standard deviation and the 95% confidence interval of the mean (Student's t),
/// the share of the line-rate ceiling, CPU on both ends, service demand; every numeric header says its
/// unit. Under it a row across the whole table: the one-sentence bottleneck (RunAnalyzer::bottleneckFor)
/// and the warnings, readable without scrolling sideways. Filled in as runs end.
class SummaryTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column {
        HostName,
        Os,
        Protocol,
        Frame,
        Mss,
        RepsOk,
        RepsFailed,
        Min,
        Median,
        Mean,
        Max,
        StdDev,
        Ci95,
        PercentOfCeiling,
        CpuLocal,
        CpuRemote,
        ServiceDemand,
        ColumnCount
    };

    explicit SummaryTable(QWidget *parent = nullptr);

    const RunResultList &results() const { return m_results; }
    const QList<TestSummary> &summaries() const { return m_summaries; }
    RateUnit unit() const { return m_unit; }
    /// The table row of test i's figures; the row under it holds its verdict.
    static int figuresRow(int test) { return 2 * test; }
    static int verdictRow(int test) { return 2 * test + 1; }
    /// Test i's bottleneck sentence and its distinct warnings, as shown.
    QString bottleneck(int test) const { return m_bottlenecks.value(test); }
    QStringList warnings(int test) const { return m_warnings.value(test); }

public slots:
    void clearResults();
    void addResult(const wb::RunResult &result);
    void setResults(const wb::RunResultList &results);
    /// Throughput columns in this unit (their headers follow).
    void setUnit(wb::RateUnit unit);

private:
    void rebuild();

    RunResultList m_results;
    QList<TestSummary> m_summaries;
    QStringList m_bottlenecks;
    QList<QStringList> m_warnings;
    RateUnit m_unit = RateUnit::MBps;
};

} // namespace wb
