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
    m_observer.timedPartStarts(); // first: its counter reads are not the run's time
    m_startNs = m_clock();
    m_finishedNs = -1;
    m_coveredNs = 0;
    m_lastArrivalNs = 0;
    m_index = 0;
    m_spread = 0;
    m_total = 0;
    m_emitted = 0;
    m_samples.clear();
    m_drawn.clear();
    m_released = 0;
    m_heldMerged = false;
    m_fastestFull = 0;
    std::fill(m_streamTotal.begin(), m_streamTotal.end(), 0);
    std::fill(m_streamSpread.begin(), m_streamSpread.end(), 0.0);
    std::fill(m_streamEmitted.begin(), m_streamEmitted.end(), 0);
}

void ThroughputMeter::setLine(double linkSpeedMbps, int frameBytes)
{
    // Ethernet's 38 bytes a frame on the wire: preamble, header, FCS and the gap between frames.
    constexpr double kEthernetOverheadBytes = 38;
    m_lineBps = linkSpeedMbps > 0 && frameBytes > 0
        ? linkSpeedMbps * 1e6 / 8 * double(frameBytes) / (double(frameBytes) + kEthernetOverheadBytes)
        : 0;
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

void ThroughputMeter::emitInterval(qint64 endNs, bool last)
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
    m_emitted = spreadSoFar;
    ++m_index;
    draw(s, last);
}

namespace {

/// n bytes of `from` go to `to`; each stream's share in proportion to what it holds in `from`.
void moveBytes(Sample &to, Sample &from, qint64 n)
{
    n = qBound<qint64>(0, n, from.bytes);
    if (!from.streamBytes.isEmpty() && from.streamBytes.size() == to.streamBytes.size() && from.bytes > 0) {
        qint64 left = n;
        for (qsizetype j = 0; j < from.streamBytes.size(); ++j) {
            const bool lastStream = j == from.streamBytes.size() - 1;
            const qint64 share = qMin(from.streamBytes[j],
                                      lastStream ? left : std::llround(double(n) * from.streamBytes[j] / from.bytes));
            from.streamBytes[j] -= share;
            to.streamBytes[j] += share;
            left -= share;
        }
    }
    from.bytes -= n;
    to.bytes += n;
}

/// `next` drawn with `into`: one sample over both intervals.
void merge(Sample &into, const Sample &next)
{
    into.bytes += next.bytes;
    into.endSeconds = next.endSeconds;
    into.intervalSeconds += next.intervalSeconds;
    for (qsizetype j = 0; j < into.streamBytes.size() && j < next.streamBytes.size(); ++j)
        into.streamBytes[j] += next.streamBytes[j];
}

} // namespace

void ThroughputMeter::draw(const Sample &made, bool last)
{
    Sample s = made;
    const double full = m_intervalNs / 1e9;
    const bool isFull = std::abs(s.intervalSeconds - full) < 1e-9;
    const bool held = m_drawn.size() > m_released;
    bool merged = false;
    if (held && m_lineBps > 0 && !m_heldMerged
        && double(m_drawn.last().bytes) > m_lineBps * m_drawn.last().intervalSeconds) {
        // The held one is above the line with none before it to take the excess (the first: a shaper's bucket let
        // through at once, or bytes that had arrived before the clock started): drawn with this one.
        merge(m_drawn.last(), s);
        m_heldMerged = true;
        if (isFull)
            m_fastestFull = std::max(m_fastestFull, s.bytesPerSecond());
        release(last ? m_drawn.size() : m_drawn.size() - 1);
        return;
    }
    if (held) {
        Sample &h = m_drawn.last();
        const double over = m_lineBps > 0 ? double(s.bytes) - m_lineBps * s.intervalSeconds : 0;
        // The last, shorter sample faster than any full interval: what a buffer held, read at the end.
        const bool fastTail = last && !isFull && m_fastestFull > 0 && s.bytesPerSecond() > m_fastestFull * 1.05;
        if (fastTail || over > 0) {
            const double room = m_lineBps * h.intervalSeconds - double(h.bytes);
            if (!fastTail && room >= over) {
                moveBytes(h, s, qint64(std::ceil(over)));
            } else if (fastTail || !m_heldMerged) {
                merge(h, s);
                merged = true;
            }
        }
    }
    if (isFull)
        m_fastestFull = std::max(m_fastestFull, s.bytesPerSecond());
    if (!merged)
        m_drawn.append(s);
    m_heldMerged = merged;
    release(last ? m_drawn.size() : m_drawn.size() - 1);
}

void ThroughputMeter::release(qsizetype upTo)
{
    for (; m_released < upTo; ++m_released) {
        if (!m_quiet)
            m_observer.sample(m_drawn.at(m_released));
    }
}

void ThroughputMeter::redraw(bool last)
{
    const qsizetype released = m_released;
    m_drawn.clear();
    m_released = 0;
    m_heldMerged = false;
    m_fastestFull = 0;
    m_quiet = true;
    for (qsizetype k = 0; k < m_samples.size(); ++k)
        draw(m_samples.at(k), last && k == m_samples.size() - 1);
    m_quiet = false;
    m_released = qMin(m_released, released);
    release(last ? m_drawn.size() : m_drawn.size() - 1);
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
    m_observer.timedPartEnds();
    redraw(true);
    return true;
}

void ThroughputMeter::stopAt(qint64 endNs)
{
    if (m_finishedNs >= 0)
        return;
    m_finishedNs = endNs;
    m_observer.timedPartEnds();
    // A report after the end stamped its bytes with its own time; they had arrived by the end.
    m_lastArrivalNs = qMin(m_lastArrivalNs, m_finishedNs);
    // The last interval ends where its last byte arrived: the time after it (waiting for the far end's word,
    // closing the file) carried nothing. Without bytes of its own it is no sample.
    const qint64 begin = m_index * m_intervalNs;
    if (m_total > m_emitted) {
        m_spread = double(m_total);
        for (std::size_t i = 0; i < m_streamSpread.size(); ++i)
            m_streamSpread[i] = double(m_streamTotal[i]);
        emitInterval(qMax(m_lastArrivalNs, begin + 1), true);
    }
    release(m_drawn.size()); // the one held, when the last interval had no bytes of its own
}

double ThroughputMeter::elapsedSeconds() const
{
    if (m_startNs < 0)
        return 0;
    return (m_finishedNs >= 0 ? m_finishedNs : m_clock() - m_startNs) / 1e9;
}

} // namespace wb
