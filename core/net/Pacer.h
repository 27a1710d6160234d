#pragma once

#include <cstdint>

namespace wb::net {

/// A sender's pace, in bytes/s (0 = as fast as the socket takes it): never ahead of rate x the time since
/// the start, and never more than 10 ms worth of bytes in one send(), so that the pace holds at any block
/// size. wirebenchd's --max-rate, iperf3's -b on what the iperf3 responder sends.
class Pacer
{
public:
    Pacer() = default;
    Pacer(std::int64_t bytesPerSec, std::int64_t startNs)
        : m_rate(bytesPerSec)
        , m_startNs(startNs)
    {
    }

    bool active() const { return m_rate > 0; }
    std::int64_t bytesPerSec() const { return m_rate; }
    /// When the pace allows `sent` bytes to have left: the start + sent / rate (the start when not paced).
    std::int64_t dueNs(std::int64_t sent) const;
    /// True while `sent` bytes are ahead of the pace at nowNs (never when not paced).
    bool ahead(std::int64_t sent, std::int64_t nowNs) const { return active() && dueNs(sent) > nowNs; }
    /// want, but at most 10 ms worth at the rate (and at least one byte); want itself when not paced.
    std::int64_t chunk(std::int64_t want) const;

private:
    std::int64_t m_rate = 0;
    std::int64_t m_startNs = 0;
};

} // namespace wb::net
