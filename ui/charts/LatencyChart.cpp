#include "LatencyChart.h"

#include "ChartStyle.h"
#include "analysis/Bufferbloat.h"
#include "engine/Engine.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

const QString kIdleHint = QObject::tr("The round trip to the host, before and during each run, appears here.");

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2.0;
}

} // namespace

LatencyChart::LatencyChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("latencyChart"));
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("latencyPlot"));
    m_plot->setMinimumSize(320, 120);
    m_title = ChartStyle::addTitle(m_plot, tr("Latency under load"));
    ChartStyle::styleAxes(m_plot);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_plot->xAxis->setLabel(tr("Time (s)"));
    m_plot->yAxis->setLabel(tr("Round trip (ms)"));
    m_plot->xAxis->setRange(0, 10);
    m_plot->yAxis->setRange(0, 1);
    m_plot->yAxis->ticker()->setTickCount(3); // a short graph: more ticks would overlap their labels
    m_hint = ChartStyle::addHint(m_plot, kIdleHint);
    m_hintText = kIdleHint;
    m_idleLine = new QCPItemStraightLine(m_plot);
    m_idleLine->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
    m_idleLine->setVisible(false);
    // The label sits in the top left corner, clear of the lines (the dashed line itself is near the bottom).
    m_idleText = new QCPItemText(m_plot);
    m_idleText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_idleText->position->setCoords(0.01, 0.02);
    m_idleText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_idleText->setColor(QColor(90, 90, 90));
    m_idleText->setVisible(false);
    m_plot->legend->setVisible(false); // the repetitions' colours are the throughput graph's, whose legend names them
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_replotTimer.setInterval(100);
    connect(&m_replotTimer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            replotNow();
    });
    m_replotTimer.start();
}

QCPGraph *LatencyChart::graphForRun(int runIndex) const
{
    const auto it = m_lines.constFind(runIndex);
    return it == m_lines.cend() ? nullptr : it->graph;
}

double LatencyChart::idleLineMs() const
{
    return m_idleLine->visible() ? m_idleLine->point1->coords().y() : -1;
}

QString LatencyChart::idleLabel() const
{
    return m_idleText->visible() ? m_idleText->text() : QString();
}

QString LatencyChart::hint() const
{
    return m_hint->visible() ? m_hint->text() : QString();
}

void LatencyChart::follow(const Engine *engine)
{
    connect(engine, &Engine::planStarted, this, &LatencyChart::onPlanStarted);
    connect(engine, &Engine::runStarted, this, &LatencyChart::onRunStarted);
    connect(engine, &Engine::latencyReady, this, &LatencyChart::addSamples);
    connect(engine, &Engine::runFinished, this, &LatencyChart::onRunFinished);
}

void LatencyChart::followTimeAxis(QCPAxis *axis)
{
    m_plot->xAxis->setRange(axis->range());
    connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &r) {
        m_plot->xAxis->setRange(r);
        m_dirty = true;
    });
}

void LatencyChart::clear()
{
    m_plot->clearGraphs();
    m_lines.clear();
    m_testKey.clear();
    m_idleLine->setVisible(false);
    m_idleText->setVisible(false);
    showHint(kIdleHint);
    m_plot->yAxis->setRange(0, 1);
    m_dirty = true;
}

void LatencyChart::showHint(const QString &text)
{
    m_hintText = text;
    m_hint->setText(ChartStyle::wrapText(text, m_hint->font(), qMax(120, m_plot->width() - 40)));
    m_hint->setVisible(true);
}

void LatencyChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The hint is wrapped to the plot's width: on a narrow screen it must not run past the panel's edge.
    if (m_hint->visible() && !m_hintText.isEmpty()) {
        showHint(m_hintText);
        m_dirty = true;
    }
}

void LatencyChart::onPlanStarted()
{
    clear();
}

void LatencyChart::onRunStarted(const RunSpec &spec)
{
    // The lines of one test side by side, as the throughput graph shows them.
    const QString key
        = spec.host.displayName() + QLatin1Char('|') + spec.host.address + QLatin1Char('|') + spec.testKey();
    if (key != m_testKey) {
        clear();
        m_testKey = key;
    }
    // One line: the graph is short, and a second title line would lie over its plot.
    m_title->setText(tr("Latency under load: %1 @ %2 B frame - %3")
                         .arg(spec.protocol)
                         .arg(spec.frameSize)
                         .arg(spec.host.displayName()));
    Line line;
    line.graph = m_plot->addGraph();
    line.graph->setName(tr("rep %1").arg(spec.repetition));
    line.graph->setPen(QPen(ChartStyle::seriesColor(spec.repetition - 1), 1.5));
    line.graph->setLineStyle(QCPGraph::lsLine);
    line.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
    m_lines.insert(spec.index, line);
    m_dirty = true;
}

void LatencyChart::add(Line &line, const LatencySample &s)
{
    if (!s.loaded) {
        // Before the load: off the time axis (negative times), summed up as the dashed idle line.
        if (!s.lost())
            line.idle.append(s.rttMs);
        return;
    }
    // A lost probe is a gap: QCustomPlot leaves NaN values out of the line.
    line.graph->addData(s.seconds, s.lost() ? std::numeric_limits<double>::quiet_NaN() : s.rttMs);
    if (!s.lost())
        line.maxMs = std::max(line.maxMs, s.rttMs);
}

void LatencyChart::addSamples(const LatencySampleList &samples)
{
    for (const LatencySample &s : samples) {
        auto it = m_lines.find(s.runIndex);
        if (it == m_lines.end())
            continue; // a run of another test
        add(*it, s);
        if (!it->idle.isEmpty())
            showIdle(median(it->idle));
    }
    m_dirty = true;
}

void LatencyChart::onRunFinished(const RunResult &result)
{
    auto it = m_lines.find(result.spec.index);
    if (it == m_lines.end())
        return;
    // The run's own record is complete (the answers that came after the last live batch too).
    it->graph->data()->clear();
    it->maxMs = 0;
    it->idle.clear();
    for (const LatencySample &s : result.latency.samples)
        add(*it, s);
    if (result.latency.idle.valid())
        showIdle(result.latency.idle.medianMs);
    if (it->graph->data()->isEmpty() && !result.latency.note.isEmpty()) {
        showHint(result.latency.note);
    }
    m_dirty = true;
}

void LatencyChart::showIdle(double medianMs)
{
    m_idleLine->point1->setCoords(0, medianMs);
    m_idleLine->point2->setCoords(1, medianMs);
    m_idleLine->setVisible(true);
    m_idleText->setText(tr("dashed: idle %1 (median before the load)").arg(Bufferbloat::ms(medianMs)));
    m_idleText->setVisible(true);
}

void LatencyChart::updateValueAxis()
{
    double top = std::max(0.0, idleLineMs());
    bool any = false;
    for (const Line &l : std::as_const(m_lines)) {
        top = std::max(top, l.maxMs);
        any = any || !l.graph->data()->isEmpty();
    }
    if (any)
        m_hint->setVisible(false);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void LatencyChart::replotNow()
{
    updateValueAxis();
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace wb
