#include "SmbIoPump.h"

#include <chrono>
#include <system_error>

namespace wb {

SmbIoPump::SmbIoPump(Call call, std::function<qint64()> clock)
    : m_call(std::move(call))
    , m_clock(std::move(clock))
{
}

SmbIoPump::~SmbIoPump()
{
    stop();
}

bool SmbIoPump::start()
{
    try {
        m_thread = std::thread([this] { loop(); });
    } catch (const std::system_error &) {
        m_threadless = true;
        return false;
    }
    return true;
}

void SmbIoPump::loop()
{
    for (;;) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_stop) {
                m_ended = true;
                break;
            }
        }
        Span span;
        const qint64 moved = callOnce(&span);
        std::lock_guard<std::mutex> lock(m_mutex);
        if (moved > 0) {
            if (m_unreported == 0)
                m_fromNs = span.fromNs;
            m_toNs = span.toNs;
            m_unreported += moved;
        } else {
            m_last = moved;
            m_ended = true;
        }
        m_changed.notify_all();
        if (m_ended)
            return;
    }
    m_changed.notify_all();
}

qint64 SmbIoPump::callOnce(Span *span)
{
    const qint64 begin = m_clock();
    const qint64 moved = m_call(*span);
    const qint64 end = m_clock();
    if (span->fromNs < 0 || span->toNs < span->fromNs)
        *span = {begin, end};
    return moved;
}

qint64 SmbIoPump::wait(int timeoutMs, bool *ended, qint64 *fromNs, qint64 *toNs)
{
    if (m_threadless) {
        *ended = m_ended || m_stop;
        if (*ended)
            return 0;
        Span span;
        const qint64 moved = callOnce(&span);
        *fromNs = span.fromNs;
        *toNs = span.toNs;
        if (moved <= 0) {
            m_last = moved;
            m_ended = true;
            *ended = true;
            return 0;
        }
        return moved;
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_unreported > 0 || m_ended; });
    const qint64 moved = m_unreported;
    m_unreported = 0;
    *fromNs = m_fromNs;
    *toNs = m_toNs;
    *ended = m_ended;
    return moved;
}

void SmbIoPump::stop()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace wb
