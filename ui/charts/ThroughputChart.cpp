#include "ThroughputChart.h"

#include "ExportExtras.h"

#include "ChartExporter.h"
#include "ChartStyle.h"
#include "engine/Engine.h"
#include "protocols/DriverRegistry.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

namespace {
const QString kIdleHint = QObject::tr("Press Start to measure.\nThe throughput of each repetition appears here live.");
}

ThroughputChart::ThroughputChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("throughputChart"));
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("throughputPlot"));
    m_plot->setMinimumSize(320, 170); // 170 px: the window must fit a 1280x720 screen
    m_title = ChartStyle::addTitle(m_plot, tr("Live throughput"));
    ChartStyle::styleAxes(m_plot);
    // One polyline per graph rather than a line per segment (QCustomPlot draws segments one by one otherwise).
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_plot->xAxis->setLabel(tr("Time (s)"));
    m_plot->xAxis->setRange(0, 10);
    m_plot->yAxis->setRange(0, 100);
    ChartStyle::placeLegendBelow(m_plot);
    m_hint = ChartStyle::addHint(m_plot, kIdleHint);
    // The warm-up: x in seconds, y across the whole axis rect, under the lines (grid layer).
    m_warmupBand = new QCPItemRect(m_plot);
    m_warmupBand->setLayer(QStringLiteral("grid"));
    m_warmupBand->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    m_warmupBand->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_warmupBand->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
    m_warmupBand->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_warmupBand->setPen(Qt::NoPen);
    m_warmupBand->setBrush(QColor(120, 120, 120, 40));
    m_warmupBand->setVisible(false);
    m_warmupLabel = new QCPItemText(m_plot);
    m_warmupLabel->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_warmupLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_warmupLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_warmupLabel->setColor(QColor(90, 90, 90));
    m_warmupLabel->setVisible(false);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ThroughputChart::showContextMenu);

    m_unitCombo = new UnitComboBox(this);
    connect(m_unitCombo, &UnitComboBox::unitChanged, this, &ThroughputChart::setUnit);

    m_eachStreamCheck = new QCheckBox(tr("Each stream"), this);
    m_eachStreamCheck->setObjectName(QStringLiteral("eachStreamCheck"));
    m_eachStreamCheck->setToolTip(tr("Draw each parallel stream's throughput as a thin line under the sum of all "
                                     "streams (the sum is the figure)"));
    m_eachStreamCheck->setVisible(false);
    connect(m_eachStreamCheck, &QCheckBox::toggled, this, &ThroughputChart::setEachStreamShown);

    auto *header = new QHBoxLayout;
    header->addStretch(1);
    header->addWidget(m_eachStreamCheck);
    ChartStyle::stackUnderHeader(this, header, m_unitCombo, m_plot);

    m_replotTimer.setInterval(100);
    connect(&m_replotTimer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            replotNow();
    });
    m_replotTimer.start();
    setUnit(m_unit);
    m_plot->legend->setVisible(false);
}

QString ThroughputChart::title() const
{
    return m_title->text();
}

QString ThroughputChart::hint() const
{
    return m_hint->visible() ? m_hint->text() : QString();
}

void ThroughputChart::follow(const Engine *engine)
{
    connect(engine, &Engine::planStarted, this, &ThroughputChart::onPlanStarted);
    connect(engine, &Engine::runStarted, this, &ThroughputChart::onRunStarted);
    connect(engine, &Engine::samplesReady, this, &ThroughputChart::addSamples);
    connect(engine, &Engine::runFinished, this, &ThroughputChart::onRunFinished);
    connect(engine, &Engine::planFinished, this, &ThroughputChart::onPlanFinished);
}

QCPGraph *ThroughputChart::graphForRepetition(int rep) const
{
    for (const Series &s : m_series) {
        if (s.repetition == rep && !s.reverse)
            return s.graph;
    }
    return nullptr;
}

QCPGraph *ThroughputChart::reverseGraphForRepetition(int rep) const
{
    for (const Series &s : m_series) {
        if (s.repetition == rep && s.reverse)
            return s.graph;
    }
    return nullptr;
}

int ThroughputChart::seriesFor(const Sample &sample)
{
    const int key = sample.reverse ? -1 - sample.runIndex : sample.runIndex;
    if (const auto it = m_seriesByRun.constFind(key); it != m_seriesByRun.constEnd())
        return *it;
    const auto forward = m_seriesByRun.constFind(sample.runIndex);
    if (!sample.reverse || forward == m_seriesByRun.constEnd())
        return -1; // a sample of a run whose start we did not see (or of a cleared test)
    // Both ways at once: the second direction's line beside the first, in its colour, dashed.
    Series &first = m_series[*forward];
    first.graph->setName(tr("rep %1 send").arg(first.repetition));
    Series second;
    second.runIndex = first.runIndex;
    second.repetition = first.repetition;
    second.reverse = true;
    second.graph = m_plot->addGraph();
    second.graph->setName(tr("rep %1 receive").arg(first.repetition));
    setLinePen(second, first.thinPen);
    second.graph->setLineStyle(QCPGraph::lsLine);
    if (m_pointsShown)
        second.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    second.graph->setAdaptiveSampling(true);
    m_seriesByRun.insert(key, int(m_series.size()));
    m_series.append(second);
    return int(m_series.size()) - 1;
}

QCPGraph *ThroughputChart::streamGraph(int rep, int stream) const
{
    for (const Series &s : m_series) {
        if (s.repetition == rep && !s.reverse)
            return s.streams.graph(stream - 1);
    }
    return nullptr;
}

void ThroughputChart::setEachStreamShown(bool shown)
{
    m_eachStream = shown;
    m_eachStreamCheck->setChecked(shown);
    for (Series &s : m_series)
        s.streams.setVisible(shown);
    updateStreamsNote();
    m_dirty = true;
}

void ThroughputChart::updateStreamsNote()
{
    int streams = 0;
    for (const Series &s : m_series)
        streams = qMax(streams, s.streams.streams());
    m_eachStreamCheck->setVisible(streams > 1);
    const QString note = m_eachStream && streams > 1
        ? tr("\nthin lines: each of the %1 streams; thick: their sum").arg(streams)
        : QString();
    if (!m_testLabel.isEmpty())
        m_title->setText(tr("Live throughput\n%1").arg(m_testLabel) + note);
}

double ThroughputChart::warmupShownSeconds() const
{
    return m_warmupBand->visible() ? m_warmupBand->bottomRight->coords().x() : 0.0;
}

QString ThroughputChart::exportFootnote() const
{
    return ExportExtras::footnoteFor(m_shownRuns);
}

double ThroughputChart::valueOf(double bytes, double interval) const
{
    return interval > 0 ? Units::fromBytesPerSecond(bytes / interval, m_unit) : 0.0;
}

void ThroughputChart::setUnit(RateUnit unit)
{
    const bool changed = unit != m_unit;
    m_unit = unit;
    m_unitCombo->setUnit(unit);
    m_plot->yAxis->setLabel(tr("Throughput (%1)").arg(Units::label(unit)));
    for (Series &s : m_series)
        rebuildGraph(s);
    if (changed) {
        updateAxes();
        emit unitChanged(unit);
    }
    m_dirty = true;
}

void ThroughputChart::clear()
{
    m_plot->clearGraphs();
    m_series.clear();
    m_eachStreamCheck->setVisible(false);
    m_seriesByRun.clear();
    m_shownRuns.clear();
    m_testKey.clear();
    m_testCounts = {};
    m_plot->legend->setVisible(false);
    m_warmupBand->setVisible(false);
    m_warmupLabel->setVisible(false);
    m_dirty = true;
}

void ThroughputChart::onPlanStarted(int runCount)
{
    clear();
    m_planRuns = runCount;
    m_planHadPoints = false;
    m_planCounts = {};
    m_title->setText(tr("Live throughput"));
    m_hint->setText(tr("Waiting for the first samples of %n run(s)...", nullptr, runCount));
    m_hint->setVisible(true);
    replotNow();
}

void ThroughputChart::onRunStarted(const RunSpec &spec)
{
    const QString key
        = spec.host.displayName() + QLatin1Char('|') + spec.host.address + QLatin1Char('|') + spec.testKey();
    if (key != m_testKey) {
        clear();
        m_testKey = key;
    }
    const double warmup = qMax(0, spec.params.warmupMs) / 1000.0;
    const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
    const bool timed = !info || info->timed; // file transfers have no warm-up
    // A file transfer lasts as long as the file takes: the time axis follows the samples.
    m_durationSeconds = timed ? spec.params.durationMs / 1000.0 + warmup : 0;
    m_pointsShown = !timed; // a short transfer has a few samples; a line alone would hide a single one
    m_warmupBand->setVisible(timed && warmup > 0);
    m_warmupLabel->setVisible(timed && warmup > 0);
    if (timed && warmup > 0) {
        m_warmupBand->topLeft->setCoords(0, 0);
        m_warmupBand->bottomRight->setCoords(warmup, 1);
        m_warmupLabel->position->setCoords(0, 0.02);
        m_warmupLabel->setText(tr(" warm-up %1 s,\n left out of the figure").arg(warmup, 0, 'g', 3));
    }
    m_testLabel = tr("%1 @ %2 B frame - %3").arg(spec.protocol).arg(spec.frameSize).arg(spec.host.displayName());
    m_title->setText(tr("Live throughput\n%1").arg(m_testLabel));
    updateStreamsNote();

    Series s;
    s.runIndex = spec.index;
    s.repetition = spec.repetition;
    s.graph = m_plot->addGraph();
    s.graph->setName(tr("rep %1").arg(spec.repetition));
    // A test that will be dense is thin from its first point, so its lines look alike while it runs.
    const double interval = qMax(1, spec.params.sampleIntervalMs) / 1000.0;
    setLinePen(s, m_durationSeconds / interval > kThinPenAbove);
    s.graph->setLineStyle(QCPGraph::lsLine);
    if (m_pointsShown)
        s.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    s.graph->setAdaptiveSampling(true);
    m_seriesByRun.insert(spec.index, int(m_series.size()));
    m_series.append(s);
    RunResult shown;
    shown.spec = spec;
    shown.startedAt = QDateTime::currentDateTime();
    m_shownRuns.append(shown);
    m_plot->legend->setVisible(true);
    updateAxes();
    m_dirty = true;
}

void ThroughputChart::addSamples(const SampleList &samples)
{
    for (const Sample &sample : samples) {
        const int at = seriesFor(sample);
        if (at < 0)
            continue;
        Series &s = m_series[at];
        const bool firstStreams = s.streams.streams() == 0 && sample.streamBytes.size() > 1;
        appendPoint(s, sample);
        if (firstStreams) {
            s.streams.setVisible(m_eachStream);
            updateStreamsNote();
        }
    }
    if (hasPoints()) {
        m_planHadPoints = true;
        m_hint->setVisible(false);
        m_dirty = true;
    }
}

void ThroughputChart::onRunFinished(const RunResult &result)
{
    m_planCounts.add(result.status);
    m_testCounts.add(result.status);
    if (!hasPoints()) {
        m_hint->setText(noSamplesText(false, false));
        m_hint->setVisible(true);
        m_dirty = true;
    }
}

void ThroughputChart::onPlanFinished(bool cancelled)
{
    if (!hasPoints()) {
        m_hint->setText(noSamplesText(true, cancelled));
        m_hint->setVisible(true);
    }
    replotNow();
}

void ThroughputChart::RunCounts::add(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok:
        ++ok;
        break;
    case RunStatus::Failed:
        ++failed;
        break;
    case RunStatus::NotRun:
        ++notRun;
        break;
    case RunStatus::Cancelled:
        ++cancelled;
        break;
    }
}

bool ThroughputChart::hasPoints() const
{
    return std::any_of(m_series.cbegin(), m_series.cend(), [](const Series &s) { return !s.end.isEmpty(); });
}

QString ThroughputChart::noSamplesText(bool planEnded, bool cancelled) const
{
    // The plan's runs while none has drawn a point; once one has, the runs of the (new) test on screen.
    const bool wholePlan = !m_planHadPoints;
    const RunCounts &c = wholePlan ? m_planCounts : m_testCounts;
    const auto describe = [&c](bool withStopped) {
        QStringList parts;
        if (c.failed)
            parts << tr("%n failed", nullptr, c.failed);
        if (c.notRun)
            parts << tr("%n not run", nullptr, c.notRun);
        if (c.cancelled && withStopped)
            parts << tr("%n stopped", nullptr, c.cancelled);
        if (c.ok)
            parts << tr("%n ended before a first sample", nullptr, c.ok);
        return parts.join(QLatin1String(", "));
    };
    const QString parts = describe(true);
    const QString seeTable = c.failed || c.notRun ? tr("\nSee the results table for the reasons.") : QString();
    if (!planEnded) {
        const QString waiting = wholePlan ? tr("Waiting for the first samples of %n run(s)...", nullptr, m_planRuns)
                                          : tr("Waiting for the first samples of this test...");
        return parts.isEmpty() ? waiting : waiting + tr("\nSo far: %1.").arg(parts) + seeTable;
    }
    if (cancelled) {
        const QString before = describe(false);
        return (before.isEmpty() ? tr("Stopped before the first samples.")
                                 : tr("Stopped before the first samples: %1.").arg(before))
            + seeTable;
    }
    if (wholePlan && c.failed == m_planRuns && c.total() == m_planRuns)
        return (m_planRuns == 1 ? tr("No samples: the run failed.")
                                : tr("No samples: all %1 runs failed.").arg(m_planRuns))
            + seeTable;
    if (wholePlan && c.notRun == m_planRuns && c.total() == m_planRuns)
        return tr("No samples: none of the %n run(s) could run.", nullptr, m_planRuns) + seeTable;
    const QString of
        = wholePlan ? tr("No samples: of %n run(s), ", nullptr, m_planRuns) : tr("No samples from this test: ");
    return of + (parts.isEmpty() ? tr("none ended") : parts) + QLatin1Char('.') + seeTable;
}

void ThroughputChart::setLinePen(Series &s, bool thin) const
{
    QPen pen(ChartStyle::seriesColor(s.repetition - 1));
    pen.setWidthF(thin ? 1 : 2);
    if (s.reverse)
        pen.setStyle(Qt::DashLine); // the second direction of a run both ways at once
    s.graph->setPen(pen);
    s.thinPen = thin;
}

void ThroughputChart::appendPoint(Series &s, const Sample &sample)
{
    // A run's last, shorter interval is a point of its own: the meter computes it over its own duration, up
    // to the last byte's arrival (ThroughputMeter), so it is the rate of that time and no spike.
    const double end = sample.endSeconds;
    s.pendingBytes += double(sample.bytes);
    s.pendingInterval += sample.intervalSeconds;
    s.streams.addPending(m_plot, sample.streamBytes, s.repetition, s.reverse);
    if (++s.pendingCount < s.stride)
        return;
    s.end.append(end);
    s.bytes.append(s.pendingBytes);
    s.interval.append(s.pendingInterval);
    s.streams.commit(end, s.pendingInterval, [this](double b, double i) { return valueOf(b, i); });
    const double value = valueOf(s.pendingBytes, s.pendingInterval);
    s.graph->addData(end, value); // at the end of the sorted data: no re-sort
    s.maxValue = std::max(s.maxValue, value);
    s.pendingBytes = 0;
    s.pendingInterval = 0;
    s.pendingCount = 0;
    if (!s.thinPen && s.end.size() > kThinPenAbove)
        setLinePen(s, true);
    if (s.end.size() > kMaxPointsPerLine)
        decimate(s);
}

void ThroughputChart::decimate(Series &s)
{
    // Merge neighbours: the merged point is the byte-weighted rate over both intervals.
    QVector<double> end, bytes, interval;
    const qsizetype n = s.end.size();
    for (qsizetype i = 0; i + 1 < n; i += 2) {
        end.append(s.end.at(i + 1));
        bytes.append(s.bytes.at(i) + s.bytes.at(i + 1));
        interval.append(s.interval.at(i) + s.interval.at(i + 1));
    }
    if (n % 2) {
        // An odd last point becomes the start of the next merged point.
        s.pendingBytes = s.bytes.last();
        s.pendingInterval = s.interval.last();
        s.pendingCount = s.stride;
    }
    s.streams.mergePairs(n % 2);
    s.end = end;
    s.bytes = bytes;
    s.interval = interval;
    s.stride *= 2;
    rebuildGraph(s);
}

void ThroughputChart::rebuildGraph(Series &s)
{
    QVector<double> values(s.end.size());
    s.maxValue = 0;
    for (qsizetype i = 0; i < s.end.size(); ++i) {
        values[i] = valueOf(s.bytes.at(i), s.interval.at(i));
        s.maxValue = std::max(s.maxValue, values.at(i));
    }
    s.graph->setData(s.end, values, true);
    s.streams.rebuild(s.end, s.interval, [this](double b, double i) { return valueOf(b, i); });
}

void ThroughputChart::updateAxes()
{
    double tMax = m_durationSeconds;
    double yMax = 0;
    for (const Series &s : m_series) {
        if (!s.end.isEmpty())
            tMax = std::max(tMax, s.end.last());
        yMax = std::max(yMax, s.maxValue);
    }
    m_plot->xAxis->setRange(0, tMax > 0 ? tMax * (m_pointsShown ? 1.05 : 1.0) : 10); // room for the last dot
    if (yMax > 0)
        m_plot->yAxis->setRange(0, yMax * 1.12);
}

void ThroughputChart::replotNow()
{
    updateAxes();
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ThroughputChart::showContextMenu(const QPoint &pos)
{
    QMenu menu(this);
    if (m_eachStreamCheck->isVisible()) {
        QAction *each = menu.addAction(tr("Each stream"), this, &ThroughputChart::setEachStreamShown);
        each->setCheckable(true);
        each->setChecked(m_eachStream);
    }
    menu.addAction(tr("Export live graph..."), this, [this] {
        ExportExtras::exportWithDialog(this, m_plot, QStringLiteral("wirebench-live-graph"), exportFootnote());
    });
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace wb
