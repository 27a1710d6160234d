#include "ResponsivenessProbe.h"

#include "HourOfSamples.h"
#include "MainWindow.h"
#include "charts/ThroughputChart.h"
#include "platform/ActivityMarker.h"
#include "platform/CpuTimes.h"
#include "platform/Platform.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QEvent>
#include <QFile>
#include <QPaintEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <utility>

namespace wb {

namespace {

constexpr std::size_t kWorstKept = 5;

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto rank = std::size_t(std::max(1.0, std::ceil(p * double(values.size()))));
    return values.at(std::min(rank, values.size()) - 1);
}

// The GUI thread's CPU time to the nanosecond (POSIX; getrusage counts in scheduler ticks, too coarse for a replot).
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

QString ms(double v)
{
    return QString::number(v, 'f', 2);
}

} // namespace

std::unique_ptr<ResponsivenessProbe> ResponsivenessProbe::fromEnvironment(MainWindow *window)
{
    const QString file = qEnvironmentVariable("WIREBENCH_GUI_PROBE");
    if (file.isEmpty())
        return nullptr;
    auto probe = std::make_unique<ResponsivenessProbe>(window, file);
    const QString fill = qEnvironmentVariable("WIREBENCH_GUI_PROBE_FILL");
    if (!fill.isEmpty()) {
        QString why;
        if (!HourOfSamples::start(window, probe.get(), fill, &why)) {
            std::fprintf(stderr, "wirebench: WIREBENCH_GUI_PROBE_FILL: %s\n", qPrintable(why));
            return nullptr;
        }
    } else {
        connect(window->engine(), &Engine::planStarted, probe.get(), &ResponsivenessProbe::begin);
        connect(window->engine(), &Engine::planFinished, probe.get(), &ResponsivenessProbe::end);
    }
    return probe;
}

ResponsivenessProbe::ResponsivenessProbe(MainWindow *window, const QString &file)
    : m_window(window)
    , m_livePlot(window->throughputChart()->plot())
    , m_file(file)
{
    m_clock.start();
    m_lastTickSched = sched();
    ActivityMarker::setSink([](void *context, const char *name,
                               std::int64_t ns) { static_cast<ResponsivenessProbe *>(context)->onActivity(name, ns); },
                            this);
    // PreciseTimer: the tick is due every 5 ms to the millisecond, so its lateness is the loop's blocked time.
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &ResponsivenessProbe::onTick);
    m_timer.start();
    qApp->installEventFilter(this);
    connect(m_livePlot, &QCustomPlot::beforeReplot, this, [this] {
        m_replotStartNs = m_clock.nsecsElapsed();
        m_replotStartCpu = threadCpuMs();
    });
    connect(m_livePlot, &QCustomPlot::afterReplot, this, [this] {
        if (!m_measuring)
            return;
        const qint64 ns = m_clock.nsecsElapsed() - m_replotStartNs;
        onActivity("live graph: replot", ns);
        m_replotMs.push_back(double(ns) / 1e6);
        m_replotCpuMs.push_back(threadCpuMs() - m_replotStartCpu);
    });
}

ResponsivenessProbe::~ResponsivenessProbe()
{
    write();
    ActivityMarker::setSink(nullptr, nullptr);
}

ResponsivenessProbe::Sched ResponsivenessProbe::sched() const
{
    Sched s;
    if (const auto t = platform::Platform::cpuTimes().threadSchedule()) {
        s.runMs = t->runMs;
        s.waitMs = t->waitMs;
        s.voluntary = t->voluntarySwitches;
        s.involuntary = t->involuntarySwitches;
    } else {
        s.runMs = threadCpuMs(); // CPU only, no wait
    }
    return s;
}

void ResponsivenessProbe::onActivity(const char *name, std::int64_t durationNs)
{
    const double ms = double(durationNs) / 1e6;
    if (ms > m_tickActivityMs) {
        m_tickActivityMs = ms;
        m_tickActivity = name;
    }
    if (m_measuring) {
        ActivityTotal &t = m_activities[name];
        ++t.count;
        t.totalMs += ms;
        t.maxMs = std::max(t.maxMs, ms);
    }
}

namespace {

// "Class#objectName"; an unnamed part (a scroll area's bar or viewport) also names its first named ancestor and
// its size, so that "QScrollBar# in resultsTable 1110x14" says which bar it was.
QString widgetName(const QObject *widget)
{
    QString name = QString::fromLatin1(widget->metaObject()->className()) + QLatin1Char('#') + widget->objectName();
    if (!widget->objectName().isEmpty())
        return name;
    for (const QObject *o = widget->parent(); o; o = o->parent())
        if (!o->objectName().isEmpty() && !o->objectName().startsWith(QLatin1String("qt_"))) {
            const auto *w = static_cast<const QWidget *>(widget);
            return name + QStringLiteral(" in %1 %2x%3").arg(o->objectName()).arg(w->width()).arg(w->height());
        }
    return name;
}

} // namespace

bool ResponsivenessProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_measuring || !watched->isWidgetType())
        return false;
    if (event->type() == QEvent::Paint) {
        const QRect r = static_cast<QPaintEvent *>(event)->rect(); // the bounding rect of the painted region
        const double mpx = double(r.width()) * r.height() / 1e6;
        const QString name = widgetName(watched);
        PaintTotal &t = m_paints[name];
        ++t.count;
        t.megapixels += mpx;
        m_tickPaints[name] += mpx;
    } else if (event->type() == QEvent::LayoutRequest) {
        ++m_tickLayoutRequests[widgetName(watched)];
    }
    return false;
}

void ResponsivenessProbe::begin()
{
    m_paints.clear();
    m_lateMs.clear();
    m_worst.clear();
    m_activities.clear();
    m_replotMs.clear();
    m_replotCpuMs.clear();
    m_beginNs = m_clock.nsecsElapsed();
    m_beginCpu = threadCpuMs();
    m_lastTickNs = -1; // the first tick of the span starts the count
    m_measuring = true;
}

void ResponsivenessProbe::end()
{
    if (!m_measuring)
        return;
    m_measuring = false;
    m_endNs = m_clock.nsecsElapsed();
    m_endCpu = threadCpuMs();
}

void ResponsivenessProbe::onTick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 last = std::exchange(m_lastTickNs, now);
    const Sched s = sched();
    const Sched lastSched = std::exchange(m_lastTickSched, s);
    const std::string activity = std::exchange(m_tickActivity, std::string());
    const double activityMs = std::exchange(m_tickActivityMs, 0.0);
    const std::map<QString, double> tickPaints = std::exchange(m_tickPaints, {});
    const std::map<QString, int> tickLayouts = std::exchange(m_tickLayoutRequests, {});
    if (!m_measuring || last < 0)
        return;
    const double intervalMs = double(now - last) / 1e6;
    const double late = std::max(0.0, intervalMs - kTickMs);
    m_lateMs.push_back(late);
    const double runMs = s.runMs - lastSched.runMs;
    const double waitMs = s.waitMs - lastSched.waitMs;
    // Off the CPU and not runnable, beyond the 5 ms the loop sleeps for the tick itself: blocked in the kernel.
    const double blockedMs = std::max(0.0, intervalMs - runMs - waitMs - kTickMs);
    timespec mono{};
    clock_gettime(CLOCK_MONOTONIC, &mono);
    // Only a stall that makes the worst few is kept; its repaints and layout requests are named then.
    if (m_worst.size() >= kWorstKept && late <= m_worst.back().lateMs)
        return;
    std::vector<std::pair<QString, double>> byArea(tickPaints.cbegin(), tickPaints.cend());
    std::sort(byArea.begin(), byArea.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    QStringList names;
    for (std::size_t i = 0; i < std::min<std::size_t>(byArea.size(), 8); ++i)
        names << QStringLiteral("%1 %2").arg(byArea[i].first).arg(byArea[i].second, 0, 'f', 2);
    QStringList layouts;
    for (const auto &[name, count] : tickLayouts)
        layouts << name;
    m_worst.push_back({double(now - m_beginNs) / 1e9, double(mono.tv_sec) + double(mono.tv_nsec) / 1e9, late, runMs,
                       waitMs, blockedMs, s.voluntary - lastSched.voluntary, s.involuntary - lastSched.involuntary,
                       activity, activityMs,
                       names.isEmpty() ? QStringLiteral("nothing") : names.join(QStringLiteral(", ")),
                       layouts.isEmpty() ? QStringLiteral("none") : layouts.join(QStringLiteral(", "))});
    std::sort(m_worst.begin(), m_worst.end(), [](const Stall &a, const Stall &b) { return a.lateMs > b.lateMs; });
    if (m_worst.size() > kWorstKept)
        m_worst.pop_back();
}

QString ResponsivenessProbe::figures() const
{
    const double seconds = double((m_measuring ? m_clock.nsecsElapsed() : m_endNs) - m_beginNs) / 1e9;
    const double cpuMs = (m_measuring ? threadCpuMs() : m_endCpu) - m_beginCpu;
    const auto countOver = [this](double limit) {
        return std::count_if(m_lateMs.cbegin(), m_lateMs.cend(), [limit](double v) { return v > limit; });
    };
    QStringList worst;
    for (const Stall &w : m_worst)
        // Time neither run nor waited for with no voluntary switch was not slept: the hypervisor took the vCPU
        // (steal time, which the guest's scheduler counts as neither).
        worst << QStringLiteral(
                     "%1 ms at %2 s (monotonic %10 s; CPU %3, waiting for a core %4, %5 %6 ms, %7 voluntary, "
                     "%8 involuntary switches, longest marked: %9)")
                     .arg(ms(w.lateMs), QString::number(w.at, 'f', 1), ms(w.cpuMs), ms(w.waitMs),
                          w.voluntary > 0 ? QStringLiteral("blocked or stolen") : QStringLiteral("stolen (not asleep)"),
                          ms(w.blockedMs))
                     .arg(w.voluntary)
                     .arg(w.involuntary)
                     .arg(w.activity.empty()
                              ? QStringLiteral("none")
                              : QStringLiteral("%1 %2 ms").arg(QString::fromStdString(w.activity), ms(w.activityMs)))
                     .arg(w.monotonicS, 0, 'f', 3)
                + QStringLiteral("; repainted (Mpx): %1; layout requests: %2").arg(w.painted, w.layoutRequests);
    QStringList activities;
    for (const auto &[name, t] : m_activities)
        activities << QStringLiteral("%1 %2 x, total %3, max %4 ms")
                          .arg(QString::fromStdString(name))
                          .arg(t.count)
                          .arg(ms(t.totalMs), ms(t.maxMs));
    std::vector<std::pair<QString, PaintTotal>> paints(m_paints.cbegin(), m_paints.cend());
    std::sort(paints.begin(), paints.end(),
              [](const auto &a, const auto &b) { return a.second.count > b.second.count; });
    QStringList painted;
    for (std::size_t i = 0; i < std::min<std::size_t>(paints.size(), 12); ++i)
        painted << QStringLiteral("%1 %2 x, %3 Mpx")
                       .arg(paints[i].first)
                       .arg(paints[i].second.count)
                       .arg(paints[i].second.megapixels, 0, 'f', 2);
    int points = 0;
    for (int i = 0; i < m_livePlot->graphCount(); ++i)
        points += m_livePlot->graph(i)->dataCount();
    QStringList lines;
    lines << QStringLiteral("span_s=%1").arg(seconds, 0, 'f', 1) << QStringLiteral("tick_ms=%1").arg(kTickMs)
          << QStringLiteral("gui_thread_cpu_percent=%1").arg(seconds > 0 ? cpuMs / seconds / 10 : 0, 0, 'f', 1)
          << QStringLiteral("ticks=%1").arg(m_lateMs.size())
          << QStringLiteral("stall_p50_ms=%1").arg(ms(percentile(m_lateMs, 0.50)))
          << QStringLiteral("stall_p99_ms=%1").arg(ms(percentile(m_lateMs, 0.99)))
          << QStringLiteral("stall_max_ms=%1").arg(ms(percentile(m_lateMs, 1.0)))
          << QStringLiteral("stalls_over_16ms=%1").arg(countOver(16))
          << QStringLiteral("stalls_over_50ms=%1").arg(countOver(50))
          << QStringLiteral("worst_stalls=%1").arg(worst.join(QStringLiteral(" | ")))
          << QStringLiteral("activities=%1").arg(activities.join(QStringLiteral(" | ")))
          << QStringLiteral("paints=%1").arg(painted.join(QStringLiteral(" | ")))
          << QStringLiteral("replots=%1").arg(m_replotMs.size())
          << QStringLiteral("replot_p50_ms=%1").arg(ms(percentile(m_replotMs, 0.50)))
          << QStringLiteral("replot_p99_ms=%1").arg(ms(percentile(m_replotMs, 0.99)))
          << QStringLiteral("replot_max_ms=%1").arg(ms(percentile(m_replotMs, 1.0)))
          << QStringLiteral("replot_cpu_p50_ms=%1").arg(ms(percentile(m_replotCpuMs, 0.50)))
          << QStringLiteral("replot_cpu_p99_ms=%1").arg(ms(percentile(m_replotCpuMs, 0.99)))
          << QStringLiteral("live_lines=%1").arg(m_livePlot->graphCount())
          << QStringLiteral("live_points=%1").arg(points)
          << QStringLiteral("plot_px=%1x%2").arg(m_livePlot->width()).arg(m_livePlot->height());
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void ResponsivenessProbe::write()
{
    if (m_written)
        return;
    m_written = true;
    QFile f(m_file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(stderr, "wirebench: cannot write the probe's figures to %s\n", qPrintable(m_file));
        return;
    }
    f.write(figures().toUtf8());
}

} // namespace wb
