#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace wb::net {

/// The threads of a server's connections, one per connection (wirebenchd's control port, the probe endpoint):
/// started by the accept loop, joined once their work is done (reap), every one at stop.
class ConnectionThreads
{
public:
    ConnectionThreads() = default;
    ConnectionThreads(const ConnectionThreads &) = delete;
    ConnectionThreads &operator=(const ConnectionThreads &) = delete;
    ~ConnectionThreads() { reap(true); }

    /// Runs work on a thread of its own.
    void start(std::function<void()> work);
    /// Joins the threads whose work is done; all: every thread, waiting for those still at work.
    void reap(bool all);
    /// Connections still at work: a thread whose work has ended counts no more, reaped or not (the accept loop
    /// reaps only when it wakes, and a limit counted on unreaped threads refuses clients for connections gone).
    std::size_t working() const;

private:
    struct Connection
    {
        std::thread thread;
        std::shared_ptr<std::atomic_bool> done;
    };

    mutable std::mutex m_mutex;
    std::vector<Connection> m_connections;
};

} // namespace wb::net
