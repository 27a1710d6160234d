#include "RateLimiter.h"

#include "LocalFileIo.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace wb {

void RateLimiter::start()
{
    m_startNs = LocalFileIo::nowNs();
}

void RateLimiter::throttle(qint64 totalBytes, int maxWaitMs)
{
    if (m_rate <= 0)
        return;
    const qint64 dueNs = m_startNs + qint64(double(totalBytes) / double(m_rate) * 1e9);
    const qint64 waitNs = std::min<qint64>(dueNs - LocalFileIo::nowNs(), qint64(maxWaitMs) * 1000000);
    if (waitNs > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(waitNs));
}

} // namespace wb
