#include "LatencyRecorder.h"

#include "net/Socket.h"
#include "plan/TestPlan.h"
#include "protocols/DriverRegistry.h"

#include <QThread>

namespace wb {

OptionSpec LatencyRecorder::planOption()
{
    return {idleOption(),
            QStringLiteral("Latency probe: idle lead (ms)"),
            OptionSpec::Type::Integer,
            kDefaultIdleMs,
            {},
            QStringLiteral("Before each run with a far host, time the idle round trip for this long (ms), then go on "
                           "timing it through the load (latency under load); 0 turns the probe off, at most 60000")};
}

int LatencyRecorder::idleMsOf(const TestParams &params, const QString &protocol)
{
    const ProtocolInfo *info = DriverRegistry::find(protocol);
    if (!info || info->latencyProbe == ProtocolInfo::LatencyProbe::None)
        return 0;
    // A shoot-out's reference stream measures the network's capacity, not the queue: a lead would double its length.
    if (params.options.value(QLatin1String(TestPlan::ReferenceKey)).toBool())
        return 0;
    bool ok = false;
    const int ms = params.options.value(idleOption()).toInt(&ok);
    return ok ? qBound(0, ms, 60000) : kDefaultIdleMs;
}

void LatencyRecorder::begin(const RunSpec &spec, const std::function<bool()> &stop)
{
    m_spec = spec;
    m_rounds.clear();
    m_shown = 0;
    m_originNs = -1;
    m_loaded = false;
    m_probe.reset();
    const int idleMs = idleMsOf(spec);
    if (idleMs <= 0)
        return;
    m_target = LatencyTarget::forSpec(spec, kTargetTimeoutMs);
    if (m_target.method == LatencyTarget::Method::None)
        return;
    m_probe = std::make_unique<LatencyProbe>(m_target);
    m_probe->start();
    // The worker's own thread waits here, never the GUI's; the probe runs on its own.
    const std::int64_t until = net::nowNs() + std::int64_t(idleMs) * 1000000;
    while (net::nowNs() < until && !stop())
        QThread::msleep(20);
}

void LatencyRecorder::driverStarts()
{
    m_driverStartNs = net::nowNs();
    if (m_probe)
        m_probe->setPhase(LatencyProbe::Phase::Paused);
}

void LatencyRecorder::sampled(const Sample &sample)
{
    if (!m_probe)
        return;
    // A sample reaches us at its interval's end or later, never before: the earliest estimate is the best one.
    const std::int64_t origin = net::nowNs() - std::int64_t(sample.endSeconds * 1e9);
    if (m_originNs < 0 || origin < m_originNs)
        m_originNs = std::max(origin, m_driverStartNs);
    if (!m_loaded && sample.bytes > 0) {
        m_loaded = true;
        m_probe->setPhase(LatencyProbe::Phase::Loaded);
    }
}

void LatencyRecorder::collect()
{
    if (m_probe)
        m_rounds.append(m_probe->take());
}

LatencySample LatencyRecorder::onRunClock(const LatencyProbe::Round &round) const
{
    LatencySample s;
    s.runIndex = m_spec.index;
    const std::int64_t origin = m_originNs >= 0 ? m_originNs : m_driverStartNs;
    s.seconds = double(round.sentNs - origin) / 1e9;
    s.rttMs = round.rttMs;
    s.loaded = round.loaded;
    return s;
}

LatencySampleList LatencyRecorder::takeLive()
{
    LatencySampleList out;
    if (m_originNs < 0)
        return out;
    collect();
    for (; m_shown < m_rounds.size(); ++m_shown)
        out.append(onRunClock(m_rounds.at(m_shown)));
    return out;
}

RunLatency LatencyRecorder::finish()
{
    RunLatency l;
    l.note = m_target.note;
    if (!m_probe)
        return l;
    m_probe->stop();
    collect();
    m_probe.reset();
    l.method = m_target.methodName();
    l.target = m_target.text;
    l.rateHz = m_target.rateHz();
    std::sort(m_rounds.begin(), m_rounds.end(), [](const auto &a, const auto &b) { return a.sentNs < b.sentNs; });
    for (const LatencyProbe::Round &r : std::as_const(m_rounds))
        l.samples.append(onRunClock(r));
    l.summarize();
    return l;
}

} // namespace wb
