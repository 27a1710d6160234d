#pragma once

#include <algorithm>
#include <cstdint>

namespace wb {

/// The receiver's count of a timed test, with a warm-up left out (iperf3 -O). Without a warm-up the
/// figure runs from the first byte's arrival to the last's; with one, from the last arrival before the
/// warm-up ended to the last arrival, and only bytes that arrived in that window count.
class ReceiveWindow
{
public:
    explicit ReceiveWindow(std::int64_t warmupNs = 0)
        : m_warmupNs(std::max<std::int64_t>(0, warmupNs))
    {
    }

    /// n bytes arrived at nowNs (any monotonic clock in nanoseconds).
    void add(std::int64_t n, std::int64_t nowNs)
    {
        m_total += n;
        if (m_first < 0) {
            m_first = nowNs;
            if (m_warmupNs == 0) {
                m_start = nowNs;
                m_measured += n;
            }
        } else if (m_start >= 0) {
            m_measured += n;
        } else if (nowNs - m_first >= m_warmupNs) {
            m_start = m_last;
            m_measured += n;
        }
        m_last = nowNs;
    }

    std::int64_t totalBytes() const { return m_total; }       ///< warm-up included (for live graphs)
    std::int64_t measuredBytes() const { return m_measured; } ///< the figure's bytes
    double measuredSeconds() const { return m_start >= 0 ? (m_last - m_start) / 1e9 : 0; }
    double totalSeconds() const { return m_first >= 0 ? (m_last - m_first) / 1e9 : 0; }
    bool warmingUp() const { return m_start < 0; }
    std::int64_t lastNs() const { return m_last; }

private:
    std::int64_t m_warmupNs;
    std::int64_t m_total = 0;
    std::int64_t m_measured = 0;
    std::int64_t m_first = -1;
    std::int64_t m_start = -1;
    std::int64_t m_last = -1;
};

} // namespace wb
