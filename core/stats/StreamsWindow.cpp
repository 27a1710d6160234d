#include "StreamsWindow.h"

#include <algorithm>

namespace wb {

StreamsWindow::StreamsWindow(int streams, std::int64_t warmupNs)
    : m_streams(std::max(1, streams))
    , m_warmupNs(std::max<std::int64_t>(0, warmupNs))
    , m_single(m_warmupNs)
{
    if (m_streams > 1) {
        m_counts.assign(std::size_t(m_streams), 0);
        m_lastNs.assign(std::size_t(m_streams), -1);
        m_atLast.assign(std::size_t(m_streams), {});
    }
}

void StreamsWindow::add(int stream, std::int64_t n, std::int64_t nowNs)
{
    if (m_streams == 1) {
        m_single.add(n, nowNs);
        return;
    }
    if (stream < 0 || stream >= m_streams)
        return;
    const auto i = std::size_t(stream);
    const bool first = m_lastNs[i] < 0;
    if (m_firstAny < 0)
        m_firstAny = nowNs;
    // The window begins with the arrival that completes the set of streams (or ends the warm-up): at the
    // previous arrival of any stream, with the counts before this one, as ReceiveWindow does at a warm-up's end.
    if (m_startNs < 0 && m_started + (first ? 1 : 0) == m_streams && nowNs - m_firstAny >= m_warmupNs) {
        m_startNs = m_lastAny >= 0 ? m_lastAny : nowNs;
        m_startCounts = m_counts;
    }
    m_started += first ? 1 : 0;
    m_counts[i] += n;
    m_totalMany += n;
    m_lastNs[i] = nowNs;
    m_lastAny = std::max(m_lastAny, nowNs);
    if (m_startNs < 0)
        return;
    // Every stream whose latest arrival is this instant keeps the counts as they are now: the window's end
    // holds what arrived by then on any stream.
    for (std::size_t k = 0; k < m_counts.size(); ++k) {
        if (m_lastNs[k] == nowNs)
            m_atLast[k] = m_counts;
    }
}

double StreamsWindow::totalSeconds() const
{
    if (m_streams == 1)
        return m_single.totalSeconds();
    return m_firstAny >= 0 ? double(m_lastAny - m_firstAny) / 1e9 : 0;
}

std::int64_t StreamsWindow::lastNs() const
{
    return m_streams == 1 ? m_single.lastNs() : m_lastAny;
}

int StreamsWindow::endingStream() const
{
    if (m_startNs < 0)
        return -1;
    int ending = 0;
    for (int i = 1; i < m_streams; ++i) {
        if (m_lastNs[std::size_t(i)] < m_lastNs[std::size_t(ending)])
            ending = i;
    }
    // A stream whose last arrival came before the window began: no second is common to all.
    return m_atLast[std::size_t(ending)].empty() || m_lastNs[std::size_t(ending)] <= m_startNs ? -1 : ending;
}

std::vector<std::int64_t> StreamsWindow::streamBytes() const
{
    if (m_streams == 1)
        return {m_single.measuredBytes()};
    std::vector<std::int64_t> bytes(std::size_t(m_streams), 0);
    const int ending = endingStream();
    if (ending < 0)
        return bytes;
    const std::vector<std::int64_t> &end = m_atLast[std::size_t(ending)];
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = end[i] - m_startCounts[i];
    return bytes;
}

std::int64_t StreamsWindow::measuredBytes() const
{
    if (m_streams == 1)
        return m_single.measuredBytes();
    std::int64_t sum = 0;
    for (std::int64_t b : streamBytes())
        sum += b;
    return sum;
}

double StreamsWindow::measuredSeconds() const
{
    if (m_streams == 1)
        return m_single.measuredSeconds();
    const int ending = endingStream();
    return ending < 0 ? 0 : double(m_lastNs[std::size_t(ending)] - m_startNs) / 1e9;
}

int StreamsWindow::silentStreams() const
{
    if (m_streams == 1)
        return m_single.totalBytes() > 0 ? 0 : 1;
    return m_streams - m_started;
}

} // namespace wb
