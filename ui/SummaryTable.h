#pragma once

#include "model/RunResult.h"
#include "stats/TestSummary.h"
#include "stats/Units.h"

#include <QTableWidget>

namespace wb {

/// One row per test (host x protocol x frame size) over its repetitions: how many ran, min, median, mean,
/// max, standard deviation and the 95% confidence interval of the mean (Student's t), the share of the
/// line-rate ceiling, CPU on both ends, service demand, the warnings and the one-sentence bottleneck
/// (RunAnalyzer::bottleneckFor). Filled in as runs end; every numeric header says its unit.
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
        Warnings,
        Bottleneck,
        ColumnCount
    };

    explicit SummaryTable(QWidget *parent = nullptr);

    const RunResultList &results() const { return m_results; }
    const QList<TestSummary> &summaries() const { return m_summaries; }
    RateUnit unit() const { return m_unit; }

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
    RateUnit m_unit = RateUnit::MBps;
};

} // namespace wb
