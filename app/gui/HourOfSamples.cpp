#include "HourOfSamples.h"

#include "MainWindow.h"
#include "ResponsivenessProbe.h"
#include "charts/ThroughputChart.h"
#include "engine/Engine.h"
#include "protocols/ProtocolSets.h"
#include "settings/Config.h"

#include <QStringList>

#include <cmath>
#include <cstdio>
#include <numbers>

namespace wb {

bool HourOfSamples::start(MainWindow *window, ResponsivenessProbe *probe, const QString &spec, QString *why)
{
    const QStringList parts = spec.split(QLatin1Char(','));
    bool ok[3] = {true, true, true};
    const int lines = parts.value(0).toInt(&ok[0]);
    const int seconds = parts.value(1).toInt(&ok[1]);
    const int live = parts.size() > 2 ? parts.at(2).toInt(&ok[2]) : 10;
    if (parts.size() < 2 || parts.size() > 3 || !ok[0] || !ok[1] || !ok[2] || lines < 1 || lines > 20 || live < 1
        || seconds <= live || seconds > 24 * 3600) {
        *why = QStringLiteral("\"%1\" is not LINES,SECONDS[,LIVE] (1-20 lines, LIVE < SECONDS <= 86400), e.g. 5,3600")
                   .arg(spec);
        return false;
    }
    auto *filler = new HourOfSamples(window, probe, lines, seconds, live);
    filler->setParent(probe);
    QTimer::singleShot(500, filler, &HourOfSamples::fill);
    return true;
}

HourOfSamples::HourOfSamples(MainWindow *window, ResponsivenessProbe *probe, int lines, int seconds, int liveSeconds)
    : m_window(window)
    , m_probe(probe)
    , m_chart(window->throughputChart())
    , m_lines(lines)
    , m_samplesPerLine(int(std::lround(seconds / kIntervalSeconds)))
    , m_liveSamples(int(std::lround(liveSeconds / kIntervalSeconds)))
{
    m_liveTimer.setInterval(int(kIntervalSeconds * 1000));
    connect(&m_liveTimer, &QTimer::timeout, this, &HourOfSamples::liveTick);
}

RunSpec HourOfSamples::specOf(int repetition) const
{
    RunSpec spec;
    spec.index = repetition - 1;
    spec.repetition = repetition;
    spec.host = Config::loopbackHost();
    spec.protocol = ProtocolSets::cliDefault().value(0);
    spec.params.durationMs = int(std::lround(m_samplesPerLine * kIntervalSeconds * 1000));
    spec.params.sampleIntervalMs = int(kIntervalSeconds * 1000);
    return spec;
}

double HourOfSamples::bytesOf(int repetition, int k)
{
    const double t = k * kIntervalSeconds;
    // A cheap deterministic noise: the same picture on every run of the bench.
    const double noise = std::sin(k * 12.9898 + repetition * 78.233) * 43758.5453;
    const double jitter = (noise - std::floor(noise)) - 0.5; // -0.5 .. 0.5
    const double wander = std::sin(2 * std::numbers::pi * t / 600 + repetition);
    const double sinceDip = std::fmod(t + 37.0 * repetition, 600.0);
    const double dip = sinceDip >= 300 && sinceDip < 303 ? 0.35 : 1.0;
    const double rate = 117e6 * (1 - 0.004 * repetition) * (1 + 0.03 * jitter + 0.01 * wander) * dip;
    return rate * kIntervalSeconds;
}

void HourOfSamples::fill()
{
    // Through the engine's signals, as a run's samples come: every panel that follows the engine (the live graph,
    // the result tabs, the comparison chart, the run control) gets what it would get, not the live graph alone.
    Engine *engine = m_window->engine();
    emit engine->planStarted(m_lines);
    for (int rep = 1; rep <= m_lines; ++rep) {
        const RunSpec spec = specOf(rep);
        emit engine->runStarted(spec);
        const int count = rep < m_lines ? m_samplesPerLine : m_samplesPerLine - m_liveSamples;
        // In the batches the engine sends (one per 100 ms, here one per second of run).
        SampleList batch;
        SampleList all;
        for (int k = 0; k < count; ++k) {
            batch << sampleOf(spec.index, rep, k);
            if (batch.size() == 10 || k + 1 == count) {
                emit engine->samplesReady(batch);
                all << batch;
                batch.clear();
            }
        }
        if (rep < m_lines)
            emit engine->runFinished(resultOf(spec, all));
    }
    m_next = m_samplesPerLine - m_liveSamples;
    m_chart->replotNow();
    std::fprintf(stderr, "wirebench: probe: live graph filled with %d lines of %d samples; %d s live follow\n", m_lines,
                 m_samplesPerLine, int(m_liveSamples * kIntervalSeconds));
    // The bulk fill is no part of what a run costs: the span starts with the live part.
    QTimer::singleShot(200, this, [this] {
        m_probe->begin();
        m_liveTimer.start();
    });
}

Sample HourOfSamples::sampleOf(int runIndex, int repetition, int k)
{
    Sample s;
    s.runIndex = runIndex;
    s.endSeconds = (k + 1) * kIntervalSeconds;
    s.intervalSeconds = kIntervalSeconds;
    s.bytes = qint64(bytesOf(repetition, k));
    return s;
}

RunResult HourOfSamples::resultOf(const RunSpec &spec, const SampleList &samples)
{
    RunResult done;
    done.spec = spec;
    done.status = RunStatus::Ok;
    done.samples = samples;
    for (const Sample &s : samples) {
        done.bytes += s.bytes;
        done.seconds += s.intervalSeconds;
    }
    done.senderBytes = done.bytes;
    return done;
}

void HourOfSamples::liveTick()
{
    if (m_next >= m_samplesPerLine) {
        m_liveTimer.stop();
        m_probe->end();
        m_window->close();
        return;
    }
    const int k = m_next++;
    emit m_window->engine()->samplesReady({sampleOf(m_lines - 1, m_lines, k)});
}

} // namespace wb
