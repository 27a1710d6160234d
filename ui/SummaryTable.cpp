#include "SummaryTable.h"

#include "TableCell.h"
#include "model/Frame.h"
#include "analysis/Bufferbloat.h"
#include "analysis/RunAnalyzer.h"
#include "plan/TestPlan.h"

#include <QHeaderView>
#include <QStyle>

#include <algorithm>

namespace wb {

namespace {
const QColor kNotRunColor(130, 130, 130);
const QColor kFailedColor(190, 30, 30);

// Same grouping as TestSummary::build: host name, address and port, protocol, frame size.
RunResultList runsOf(const TestSummary &t, const RunResultList &results)
{
    RunResultList out;
    for (const RunResult &r : results) {
        if (t.host.displayName() == r.spec.host.displayName() && t.host.address == r.spec.host.address
            && t.host.port == r.spec.host.port && t.protocol == r.spec.protocol && t.frameSize == r.spec.frameSize)
            out.append(r);
    }
    return out;
}

/// Mean of extra[key] over the successful runs that report it; -1 when none does.
double meanExtra(const RunResultList &runs, const QString &key, bool useMedian = false)
{
    QList<double> values;
    for (const RunResult &r : runs) {
        bool ok = false;
        const double v = r.extra.value(key).toDouble(&ok);
        if (r.ok() && r.extra.contains(key) && ok)
            values << v;
    }
    if (values.isEmpty())
        return -1;
    if (useMedian) {
        std::sort(values.begin(), values.end());
        const qsizetype n = values.size();
        return n % 2 ? values.at(n / 2) : (values.at(n / 2 - 1) + values.at(n / 2)) / 2;
    }
    double sum = 0;
    for (double v : values)
        sum += v;
    return sum / double(values.size());
}
} // namespace

SummaryTable::SummaryTable(QWidget *parent)
    : QTableWidget(0, ColumnCount, parent)
{
    setObjectName(QStringLiteral("summaryTable"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(false);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    // Sized from the host names alone: the verdict rows span from this column and would widen it.
    horizontalHeader()->setSectionResizeMode(HostName, QHeaderView::Interactive);
    rebuild();
}

void SummaryTable::clearResults()
{
    m_results.clear();
    rebuild();
}

void SummaryTable::addResult(const RunResult &result)
{
    m_results.append(result);
    rebuild();
}

void SummaryTable::setResults(const RunResultList &results)
{
    m_results = results;
    rebuild();
}

void SummaryTable::setUnit(RateUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    rebuild();
}

void SummaryTable::rebuild()
{
    const QString u = Units::label(m_unit);
    // Two-line headers keep the figures narrow enough to fit beside each other.
    setHorizontalHeaderLabels({tr("Host"), tr("OS"), tr("Protocol"), tr("Frame\n(B)"), tr("MSS\n(B)"), tr("Reps\nok"),
                               tr("Reps\nfailed"), tr("Min\n(%1)").arg(u), tr("Median\n(%1)").arg(u),
                               tr("Mean\n(%1)").arg(u), tr("Max\n(%1)").arg(u), tr("Std dev\n(%1)").arg(u),
                               tr("95% CI of mean\n(%1)").arg(u), tr("% of\nceiling"), tr("CPU local\n(%)"),
                               tr("CPU remote\n(%)"), tr("Service demand\n(µs/KB)")});
    horizontalHeaderItem(Ci95)->setToolTip(tr("The interval that holds the true mean with 95% confidence "
                                              "(Student's t over the successful repetitions; needs 2 or more)"));
    horizontalHeaderItem(StdDev)->setToolTip(tr("Sample standard deviation (n - 1) of the successful repetitions"));
    horizontalHeaderItem(PercentOfCeiling)
        ->setToolTip(tr("Median over the repetitions of the result as a percentage of the TCP goodput the link "
                        "allows at this frame size (blank when the link speed is unknown: set it per host)"));
    horizontalHeaderItem(CpuLocal)->setToolTip(tr("This computer, whole system, average over all cores (0-100 %), "
                                                  "mean over the repetitions"));
    horizontalHeaderItem(CpuRemote)->setToolTip(tr("The server, as it reported it (100 % = one core)"));
    horizontalHeaderItem(ServiceDemand)
        ->setToolTip(tr("Microseconds of CPU on this computer (all cores) per KB (1024 bytes) moved, as netperf"));

    m_summaries = TestSummary::byDirection(TestSummary::build(m_results)); // both directions at once: a row each
    m_bottlenecks.clear();
    m_warnings.clear();
    clearSpans();
    setRowCount(int(m_summaries.size()) * 2);
    for (int test = 0; test < m_summaries.size(); ++test) {
        const int row = figuresRow(test);
        const TestSummary &t = m_summaries.at(test);
        const RunResultList runs = runsOf(t, m_results);
        auto set = [&](int column, const QString &text, bool number = false) {
            return TableCell::put(this, row, column, text, number);
        };
        auto rate = [&](double MBps) { return Units::fromBytesPerSecond(MBps * 1e6, m_unit); };
        const int decimals = m_unit == RateUnit::Mbps ? 1 : 2;
        auto setRate = [&](int column, double MBps) {
            set(column, t.okRuns > 0 ? QString::number(rate(MBps), 'f', decimals) : tr("-"), true);
        };
        auto setOptional = [&](int column, double value, int places) {
            set(column, value >= 0 ? QString::number(value, 'f', places) : tr("-"), true);
        };

        int notRun = 0;
        QStringList warnings;
        QString notRunReason;
        for (const RunResult &r : runs) {
            if (r.status == RunStatus::NotRun) {
                ++notRun;
                if (notRunReason.isEmpty())
                    notRunReason = r.error;
            }
            for (const QString &w : r.warnings) {
                if (!warnings.contains(w))
                    warnings << w;
            }
        }
        const bool allNotRun = notRun > 0 && notRun == runs.size();

        set(HostName, t.host.displayName());
        set(Os, t.host.osLabel);
        set(Protocol, t.label());
        set(Frame, runs.isEmpty() ? QString::number(t.frameSize) : Frame::frameText(runs), true);
        set(Mss, t.mss > 0 ? QString::number(t.mss) : tr("-"), true);
        set(RepsOk, QString::number(t.okRuns), true);
        QTableWidgetItem *failed = set(RepsFailed, QString::number(t.failedRuns), true);
        if (t.failedRuns > 0) {
            QStringList why = t.errors;
            failed->setToolTip(why.join(QLatin1Char('\n')));
            if (!allNotRun)
                failed->setForeground(kFailedColor);
        }
        setRate(Min, t.MBps.min);
        setRate(Median, t.MBps.median);
        setRate(Mean, t.MBps.mean);
        setRate(Max, t.MBps.max);
        set(StdDev, t.okRuns > 1 ? QString::number(rate(t.MBps.stddev), 'f', decimals) : tr("-"), true);
        QTableWidgetItem *ci = set(
            Ci95,
            t.okRuns > 1
                ? tr("%1 - %2").arg(rate(t.MBps.ciLow()), 0, 'f', decimals).arg(rate(t.MBps.ciHigh()), 0, 'f', decimals)
                : tr("-"),
            true);
        ci->setToolTip(t.okRuns > 1 ? tr("mean %1 +/- %2 %3 (95%, Student's t, %4 repetitions)")
                                          .arg(rate(t.MBps.mean), 0, 'f', decimals)
                                          .arg(rate(t.MBps.ci95HalfWidth), 0, 'f', decimals)
                                          .arg(u)
                                          .arg(t.okRuns)
                                    : tr("needs 2 or more successful repetitions"));
        setOptional(PercentOfCeiling, meanExtra(runs, t.percentKey(), true), 1);
        const double ceiling = meanExtra(runs, QStringLiteral("ceiling_MBps"), true);
        if (ceiling > 0)
            item(row, PercentOfCeiling)->setToolTip(tr("of a ceiling of %1 MB/s").arg(ceiling, 0, 'f', 1));
        setOptional(CpuLocal, meanExtra(runs, QStringLiteral("cpu_local_percent")), 1);
        setOptional(CpuRemote, meanExtra(runs, QStringLiteral("cpu_remote_percent")), 1);
        setOptional(ServiceDemand, meanExtra(runs, QStringLiteral("service_demand_us_per_KB")), 3);

        QString sentence;
        if (allNotRun)
            sentence = tr("not run: %1").arg(notRunReason);
        else if (t.okRuns == 0)
            sentence = tr("no successful run: %1").arg(t.errors.value(0));
        else if (TestPlan::isReference(runs.first().spec))
            sentence = tr("reference stream, not part of the comparison (%1 s: the network's capacity to this host, "
                          "that the findings judge its file transfers by); %2")
                           .arg(QString::number(runs.first().spec.params.durationMs / 1000.0, 'g', 3))
                           .arg(RunAnalyzer::bottleneckFor(runs));
        else
            sentence = RunAnalyzer::bottleneckFor(runs);
        m_bottlenecks << sentence;
        m_warnings << warnings;
        // The verdict row, across all columns.
        // The row above names the test: the sentence starts at once, so it fits without scrolling.
        QStringList lines{tr("Bottleneck: %1").arg(sentence)};
        // Round trips before and during the load; from 5 ms with the graded words (a warning from 30 ms is also
        // among the warnings).
        if (const QString latency = Bufferbloat::testFigures(t.idleLatencyMs, t.loadedLatencyMs); !latency.isEmpty())
            lines << tr("Latency: %1").arg(latency);
        for (const QString &w : std::as_const(warnings))
            lines << tr("Warning: %1").arg(w);
        for (const RunResult &r : std::as_const(runs)) { // "repeat until stable": why the repetitions ended
            const QString stability = r.extra.value(QStringLiteral("stability")).toString();
            if (!stability.isEmpty() && !warnings.contains(stability))
                lines << tr("Repetitions: %1").arg(stability);
        }
        auto *verdict = new QTableWidgetItem(lines.join(QLatin1Char('\n')));
        verdict->setToolTip(lines.join(QLatin1Char('\n')));
        verdict->setBackground(QColor(244, 244, 240));
        if (!warnings.isEmpty()) {
            verdict->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            verdict->setForeground(QColor(170, 20, 20));
        } else {
            verdict->setForeground(QColor(60, 60, 60));
        }
        setItem(verdictRow(test), 0, verdict);
        setSpan(verdictRow(test), 0, 1, ColumnCount);

        if (allNotRun) {
            for (int c = 0; c < ColumnCount; ++c) {
                if (QTableWidgetItem *it = item(row, c))
                    it->setForeground(kNotRunColor);
            }
            verdict->setForeground(kNotRunColor);
        }
    }
    resizeRowsToContents();
    int hostWidth = horizontalHeader()->sectionSizeHint(HostName);
    for (const TestSummary &t : std::as_const(m_summaries))
        hostWidth = std::max(hostWidth, fontMetrics().horizontalAdvance(t.host.displayName()) + 16);
    setColumnWidth(HostName, std::min(hostWidth, 260));
}

} // namespace wb
