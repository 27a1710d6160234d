#pragma once

#include "stats/ReceiveWindow.h"

#include <cstdint>
#include <vector>

namespace wb {

/// The receiver's count of a test over N parallel streams (tcp-send and tcp-recv with streams > 1): the figure is
/// the sum of the streams' bytes over the window common to all of them, from the moment the last stream has
/// started (and the warm-up, counted from the first byte of any stream, is over) to the last arrival of the stream
/// that ended first. A stream that starts late or ends early would otherwise add time in which the others alone
/// carried the line, or bytes that no common second holds. One stream is ReceiveWindow's rule, exactly.
/// Arrivals are timed by the caller's clock when it read them (one reader for all streams, as a poll loop is).
class StreamsWindow
{
public:
    StreamsWindow(int streams, std::int64_t warmupNs = 0);

    /// n bytes of stream `stream` (0..streams-1) arrived at nowNs (any monotonic clock in nanoseconds).
    void add(int stream, std::int64_t n, std::int64_t nowNs);

    int streams() const { return m_streams; }
    std::int64_t totalBytes() const { return m_single.totalBytes() + m_totalMany; } ///< every stream, warm-up included
    /// First arrival of any stream to the latest arrival of any (live progress).
    double totalSeconds() const;
    std::int64_t lastNs() const;        ///< latest arrival of any stream, -1 before the first
    std::int64_t measuredBytes() const; ///< the figure's bytes: the sum over the common window
    double measuredSeconds() const;     ///< the common window's length
    /// Each stream's bytes in the common window (they add up to measuredBytes()).
    std::vector<std::int64_t> streamBytes() const;
    /// Streams that received nothing so far (so there is no common window).
    int silentStreams() const;

private:
    /// The stream whose last arrival came first, -1 while the window has not begun.
    int endingStream() const;

    int m_streams;
    std::int64_t m_warmupNs;
    ReceiveWindow m_single; // one stream: its own rule
    std::int64_t m_totalMany = 0;
    std::vector<std::int64_t> m_counts; // each stream's count so far
    std::vector<std::int64_t> m_lastNs; // each stream's latest arrival, -1 before its first
    int m_started = 0;                  // streams with at least one arrival
    std::int64_t m_firstAny = -1;
    std::int64_t m_lastAny = -1;
    std::int64_t m_startNs = -1;                     // the common window's start, -1 while not begun
    std::vector<std::int64_t> m_startCounts;         // every stream's count at the start
    std::vector<std::vector<std::int64_t>> m_atLast; // [i]: every stream's count at stream i's latest arrival
};

} // namespace wb
