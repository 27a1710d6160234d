#pragma once

#include <QtGlobal>

namespace wb::net {

/// A sender's pace, in bytes/s (0 = as fast as the socket takes it): never ahead of rate x the time since
/// the start, and never more than 10 ms worth of bytes in one send(), so that the pace holds at any block
/// size. wirebenchd's --max-rate, iperf3's -b on what the iperf3 responder sends.
class Pacer
{
public:
    Pacer() = default;
    Pacer(qint64 bytesPerSec, qint64 startNs) : m_rate(bytesPerSec), m_startNs(startNs) {}

    bool active() const { return m_rate > 0; }
    qint64 bytesPerSec() const { return m_rate; }
    /// When the pace allows `sent` bytes to have left: the start + sent / rate (the start when not paced).
    qint64 dueNs(qint64 sent) const;
    /// True while `sent` bytes are ahead of the pace at nowNs (never when not paced).
    bool ahead(qint64 sent, qint64 nowNs) const { return active() && dueNs(sent) > nowNs; }
    /// want, but at most 10 ms worth at the rate (and at least one byte); want itself when not paced.
    qint64 chunk(qint64 want) const;

private:
    qint64 m_rate = 0;
    qint64 m_startNs = 0;
};

} // namespace wb::net
