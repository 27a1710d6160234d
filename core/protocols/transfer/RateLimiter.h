#pragma once

#include <QtGlobal>

namespace wb {

/// Sleeps as needed to keep a transfer at or below a rate (test helper and user option).
class RateLimiter
{
public:
    explicit RateLimiter(qint64 bytesPerSecond)
        : m_rate(bytesPerSecond)
    {
    }
    void start();
    /// Blocks at most maxWaitMs so that callers can keep polling Stop.
    void throttle(qint64 totalBytes, int maxWaitMs = 100);
    bool active() const { return m_rate > 0; }

private:
    qint64 m_rate;
    qint64 m_startNs = 0;
};

} // namespace wb
