#include "ThroughputMeter.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace wb {

namespace {

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
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
    std::fill(m_streamTotal.begin(), m_streamTotal.end(), 0);
    std::fill(m_streamSpread.begin(), m_streamSpread.end(), 0.0);
    std::fill(m_streamEmitted.begin(), m_streamEmitted.end(), 0);
}

void ThroughputMeter::setStreams(int streams)
{
    const std::size_t n = streams > 1 ? std::size_t(streams) : 0;
    m_streamTotal.assign(n, 0);
    m_streamSpread.assign(n, 0.0);
    m_streamEmitted.assign(n, 0);
    m_shares.assign(n, 0.0);
}

void ThroughputMeter::add(qint64 bytes)
{
    if (m_startNs < 0)
        return;
    addSpan(bytes, m_startNs + m_coveredNs, m_clock());
}

void ThroughputMeter::add(qint64 bytes, int stream)
{
    if (m_startNs < 0)
        return;
    addSpan(bytes, m_startNs + m_coveredNs, m_clock(), stream);
}

void ThroughputMeter::setReceived(qint64 receivedBytes)
{
    if (receivedBytes >= m_total)
        add(receivedBytes - m_total);
}

void ThroughputMeter::setReceived(const std::vector<qint64> &streamCounts)
{
    if (m_startNs < 0)
        return;
    if (streamCounts.size() != m_streamTotal.size()) { // not set up for streams: the sum only
        qint64 sum = 0;
        for (qint64 c : streamCounts)
            sum += c;
        setReceived(sum);
        return;
    }
    // One span for all streams, so that each stream's share is split at the interval boundaries as the sum is.
    qint64 bytes = 0;
    for (std::size_t i = 0; i < streamCounts.size(); ++i) {
        const qint64 more = qMax<qint64>(0, streamCounts[i] - m_streamTotal[i]);
        m_shares[i] = double(more);
        bytes += more;
    }
    addShared(bytes, m_startNs + m_coveredNs, m_clock());
}

void ThroughputMeter::addSpan(qint64 bytes, qint64 fromNs, qint64 toNs)
{
    addSpan(bytes, fromNs, toNs, -1);
}

void ThroughputMeter::addSpan(qint64 bytes, qint64 fromNs, qint64 toNs, int stream)
{
    if (stream >= 0 && stream < int(m_shares.size()) && bytes > 0)
        m_shares[std::size_t(stream)] = double(bytes);
    addShared(bytes, fromNs, toNs);
}

void ThroughputMeter::addShared(qint64 bytes, qint64 fromNs, qint64 toNs)
{
    if (m_startNs >= 0 && m_finishedNs < 0 && bytes >= 0) {
        qint64 to = toNs - m_startNs;
        if (to < m_coveredNs) // told late about bytes of a time already reported: they arrived by now at the latest
            to = qMax(m_coveredNs, m_clock() - m_startNs);
        const qint64 from = qBound(m_coveredNs, fromNs - m_startNs, to);
        for (std::size_t i = 0; i < m_shares.size(); ++i)
            m_streamTotal[i] += std::llround(m_shares[i]);
        spread(0, m_coveredNs, from, false); // nothing arrived in a gap between two reports
        spread(double(bytes), from, to, true);
        m_total += bytes;
        if (bytes > 0)
            m_lastArrivalNs = qMax(m_lastArrivalNs, to);
    }
    std::fill(m_shares.begin(), m_shares.end(), 0.0);
}

void ThroughputMeter::spread(double bytes, qint64 from, qint64 to, bool withShares)
{
    // Invariant: m_coveredNs <= from and m_coveredNs < intervalEnd(). Bytes that arrived exactly at a boundary
    // belong to the interval that ends there ("arrived by then"). The streams' shares (m_shares) split as the sum.
    const bool shares = withShares && !m_shares.empty();
    while (to >= intervalEnd()) {
        const qint64 end = intervalEnd();
        const double fraction = to > from ? double(end - from) / double(to - from) : 1.0;
        const double part = bytes * fraction;
        m_spread += part;
        bytes -= part;
        for (std::size_t i = 0; shares && i < m_shares.size(); ++i) {
            const double share = m_shares[i] * fraction;
            m_streamSpread[i] += share;
            m_shares[i] -= share;
        }
        from = end;
        m_coveredNs = end;
        emitInterval(end);
    }
    m_spread += bytes;
    for (std::size_t i = 0; shares && i < m_shares.size(); ++i) {
        m_streamSpread[i] += m_shares[i];
        m_shares[i] = 0;
    }
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
    s.reverse = m_reverse;
    if (!m_streamSpread.empty()) {
        s.streamBytes.reserve(qsizetype(m_streamSpread.size()));
        for (std::size_t i = 0; i < m_streamSpread.size(); ++i) {
            const qint64 soFar = std::llround(m_streamSpread[i]);
            s.streamBytes.append(soFar - m_streamEmitted[i]);
            m_streamEmitted[i] = soFar;
        }
    }
    m_samples.append(s);
    m_observer.sample(s);
    m_emitted = spreadSoFar;
    ++m_index;
}

void ThroughputMeter::finish()
{
    if (m_startNs >= 0)
        stopAt(m_clock() - m_startNs);
}

void ThroughputMeter::finish(qint64 endNs)
{
    if (m_startNs < 0 || m_finishedNs >= 0)
        return;
    // Never before the last bytes' arrival: they were spread up to then. Reports after them that found nothing new
    // only say that the driver was still looking; where they closed intervals, those are taken back.
    const qint64 end = qMax(endNs - m_startNs, qMax<qint64>(m_lastArrivalNs, 1));
    if (end >= m_index * m_intervalNs || !takeBackAfter(end))
        stopAt(qMax(end, m_index * m_intervalNs + 1));
}

bool ThroughputMeter::takeBackAfter(qint64 endNs)
{
    // The interval that holds the end (bytes that arrived at a boundary belong to the interval that ends there), and
    // the emitted ones after it, which hold nothing: all bytes had arrived by the end.
    const qint64 last = (endNs + m_intervalNs - 1) / m_intervalNs - 1;
    if (last < 0 || last >= m_samples.size())
        return false;
    for (qsizetype i = last + 1; i < m_samples.size(); ++i) {
        if (m_samples[i].bytes != 0)
            return false;
    }
    m_samples.resize(last + 1);
    Sample &s = m_samples.last();
    s.endSeconds = endNs / 1e9;
    s.intervalSeconds = (endNs - last * m_intervalNs) / 1e9;
    s.bytes += m_total - m_emitted; // a rounding's remainder, if any: the samples add up to total()
    m_emitted = m_total;
    m_index = last + 1;
    m_finishedNs = endNs;
    return true;
}

void ThroughputMeter::stopAt(qint64 endNs)
{
    if (m_finishedNs >= 0)
        return;
    m_finishedNs = endNs;
    // A report after the end stamped its bytes with its own time; they had arrived by the end.
    m_lastArrivalNs = qMin(m_lastArrivalNs, m_finishedNs);
    // The last interval ends where its last byte arrived: the time after it (waiting for the far end's word,
    // closing the file) carried nothing. Without bytes of its own it is no sample.
    const qint64 begin = m_index * m_intervalNs;
    if (m_total > m_emitted) {
        m_spread = double(m_total);
        for (std::size_t i = 0; i < m_streamSpread.size(); ++i)
            m_streamSpread[i] = double(m_streamTotal[i]);
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
