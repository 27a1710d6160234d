#include "ThroughputMeter.h"

#include <chrono>
#include <cmath>

namespace wb {

namespace {

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

ThroughputMeter::ThroughputMeter(int runIndex, int intervalMs, RunObserver &observer, Clock clock)
    : m_runIndex(runIndex)
    , m_intervalNs(qint64(qMax(10, intervalMs)) * 1000000)
    , m_observer(observer)
    , m_clock(clock ? std::move(clock) : Clock(&steadyNs))
{
}

void ThroughputMeter::start()
{
    m_startNs = m_clock();
    m_finishedNs = -1;
    m_coveredNs = 0;
    m_lastArrivalNs = 0;
    m_index = 0;
    m_spread = 0;
    m_total = 0;
    m_emitted = 0;
    m_samples.clear();
}

void ThroughputMeter::add(qint64 bytes)
{
    if (m_startNs < 0)
        return;
    addSpan(bytes, m_startNs + m_coveredNs, m_clock());
}

void ThroughputMeter::setReceived(qint64 receivedBytes)
{
    if (receivedBytes >= m_total)
        add(receivedBytes - m_total);
}

void ThroughputMeter::addSpan(qint64 bytes, qint64 fromNs, qint64 toNs)
{
    if (m_startNs < 0 || m_finishedNs >= 0 || bytes < 0)
        return;
    qint64 to = toNs - m_startNs;
    if (to < m_coveredNs) // told late about bytes of a time already reported: they arrived by now at the latest
        to = qMax(m_coveredNs, m_clock() - m_startNs);
    const qint64 from = qBound(m_coveredNs, fromNs - m_startNs, to);
    spread(0, m_coveredNs, from); // nothing arrived in a gap between two reports
    spread(double(bytes), from, to);
    m_total += bytes;
    if (bytes > 0)
        m_lastArrivalNs = qMax(m_lastArrivalNs, to);
}

void ThroughputMeter::spread(double bytes, qint64 from, qint64 to)
{
    // Invariant: m_coveredNs <= from and m_coveredNs < intervalEnd(). Bytes that arrived exactly at a boundary
    // belong to the interval that ends there ("arrived by then").
    while (to >= intervalEnd()) {
        const qint64 end = intervalEnd();
        const double part = to > from ? bytes * double(end - from) / double(to - from) : bytes;
        m_spread += part;
        bytes -= part;
        from = end;
        m_coveredNs = end;
        emitInterval(end);
    }
    m_spread += bytes;
    m_coveredNs = qMax(m_coveredNs, to);
}

void ThroughputMeter::emitInterval(qint64 endNs)
{
    // Whole bytes per sample, rounded from the running sum, so that the samples add up exactly.
    const qint64 spreadSoFar = std::llround(m_spread);
    Sample s;
    s.runIndex = m_runIndex;
    s.endSeconds = endNs / 1e9;
    s.intervalSeconds = (endNs - m_index * m_intervalNs) / 1e9;
    s.bytes = spreadSoFar - m_emitted;
    m_samples.append(s);
    m_observer.sample(s);
    m_emitted = spreadSoFar;
    ++m_index;
}

void ThroughputMeter::finish()
{
    if (m_startNs < 0 || m_finishedNs >= 0)
        return;
    m_finishedNs = m_clock() - m_startNs;
    // The last interval ends where its last byte arrived: the time after it (waiting for the far end's word,
    // closing the file) carried nothing. Without bytes of its own it is no sample.
    const qint64 begin = m_index * m_intervalNs;
    if (m_total > m_emitted) {
        m_spread = double(m_total);
        emitInterval(qMax(m_lastArrivalNs, begin + 1));
    }
}

double ThroughputMeter::elapsedSeconds() const
{
    if (m_startNs < 0)
        return 0;
    return (m_finishedNs >= 0 ? m_finishedNs : m_clock() - m_startNs) / 1e9;
}

} // namespace wb
