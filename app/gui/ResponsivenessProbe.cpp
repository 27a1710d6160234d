#include "ResponsivenessProbe.h"

#include "HourOfSamples.h"
#include "MainWindow.h"
#include "charts/ThroughputChart.h"

#include <qcustomplot.h>

#include <QFile>

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
    // PreciseTimer: the tick is due every 5 ms to the millisecond, so its lateness is the loop's blocked time.
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &ResponsivenessProbe::onTick);
    m_timer.start();
    connect(m_livePlot, &QCustomPlot::beforeReplot, this, [this] {
        m_replotStartNs = m_clock.nsecsElapsed();
        m_replotStartCpu = threadCpuMs();
    });
    connect(m_livePlot, &QCustomPlot::afterReplot, this, [this] {
        if (!m_measuring)
            return;
        m_replotMs.push_back(double(m_clock.nsecsElapsed() - m_replotStartNs) / 1e6);
        m_replotCpuMs.push_back(threadCpuMs() - m_replotStartCpu);
    });
}

ResponsivenessProbe::~ResponsivenessProbe()
{
    write();
}

void ResponsivenessProbe::begin()
{
    m_lateMs.clear();
    m_worst.clear();
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
    const double cpu = threadCpuMs();
    const qint64 last = std::exchange(m_lastTickNs, now);
    const double lastCpu = std::exchange(m_lastTickCpu, cpu);
    if (!m_measuring || last < 0)
        return;
    const double late = std::max(0.0, double(now - last) / 1e6 - kTickMs);
    m_lateMs.push_back(late);
    m_worst.push_back({double(now - m_beginNs) / 1e9, late, cpu - lastCpu});
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
        worst << QStringLiteral("%1 ms at %2 s (CPU %3 ms)").arg(ms(w.lateMs), QString::number(w.at, 'f', 1), ms(w.cpuMs));
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
          << QStringLiteral("worst_stalls=%1").arg(worst.join(QStringLiteral("; ")))
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
