#include "ThroughputMeter.h"

namespace wb {

ThroughputMeter::ThroughputMeter(int runIndex, int intervalMs, RunObserver &observer)
    : m_runIndex(runIndex)
    , m_intervalNs(qint64(qMax(10, intervalMs)) * 1000000)
    , m_observer(observer)
{
}

void ThroughputMeter::start()
{
    m_clock.start();
    m_total = 0;
    m_pending = 0;
    m_lastEmitNs = 0;
    m_finishedNs = -1;
    m_samples.clear();
}

void ThroughputMeter::add(qint64 bytes)
{
    m_total += bytes;
    m_pending += bytes;
    const qint64 now = m_clock.nsecsElapsed();
    if (now - m_lastEmitNs >= m_intervalNs)
        emitUntil(now, false);
}

void ThroughputMeter::finish()
{
    if (m_finishedNs >= 0)
        return;
    m_finishedNs = m_clock.nsecsElapsed();
    emitUntil(m_finishedNs, true);
}

double ThroughputMeter::elapsedSeconds() const
{
    if (!m_clock.isValid())
        return 0;
    return (m_finishedNs >= 0 ? m_finishedNs : m_clock.nsecsElapsed()) / 1e9;
}

void ThroughputMeter::emitUntil(qint64 nowNs, bool final)
{
    // One sample for the whole time since the last one: a stall of several intervals shows as one
    // longer interval with the right average rather than a spike.
    const qint64 span = nowNs - m_lastEmitNs;
    if (span <= 0 || (!final && span < m_intervalNs))
        return;
    if (final && span < m_intervalNs / 20 && m_pending == 0)
        return; // nothing worth a point
    Sample s;
    s.runIndex = m_runIndex;
    s.endSeconds = nowNs / 1e9;
    s.intervalSeconds = span / 1e9;
    s.bytes = m_pending;
    m_samples.append(s);
    m_observer.sample(s);
    m_pending = 0;
    m_lastEmitNs = nowNs;
}

} // namespace wb
