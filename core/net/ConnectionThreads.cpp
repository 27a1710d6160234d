#include "ConnectionThreads.h"

namespace wb::net {

void ConnectionThreads::start(std::function<void()> work)
{
    auto done = std::make_shared<std::atomic_bool>(false);
    std::thread thread([work = std::move(work), done] {
        work();
        done->store(true);
    });
    const std::lock_guard lk(m_mutex);
    m_connections.push_back({std::move(thread), done});
}

void ConnectionThreads::reap(bool all)
{
    std::vector<Connection> finished;
    {
        const std::lock_guard lk(m_mutex);
        for (auto it = m_connections.begin(); it != m_connections.end();) {
            if (all || it->done->load()) {
                finished.push_back(std::move(*it));
                it = m_connections.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (Connection &c : finished) // outside the lock: a thread still at work may be counting the others
        c.thread.join();
}

std::size_t ConnectionThreads::working() const
{
    const std::lock_guard lk(m_mutex);
    std::size_t n = 0;
    for (const Connection &c : m_connections)
        n += c.done->load() ? 0 : 1;
    return n;
}

} // namespace wb::net
