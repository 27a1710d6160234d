#include "SmbIoPump.h"

#include <chrono>
#include <system_error>

namespace wb {

SmbIoPump::SmbIoPump(std::function<qint64()> call)
    : m_call(std::move(call))
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
        const qint64 moved = m_call();
        std::lock_guard<std::mutex> lock(m_mutex);
        if (moved > 0) {
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

qint64 SmbIoPump::wait(int timeoutMs, bool *ended)
{
    if (m_threadless) {
        *ended = m_ended || m_stop;
        if (*ended)
            return 0;
        const qint64 moved = m_call();
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
