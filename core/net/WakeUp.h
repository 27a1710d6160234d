#pragma once

namespace wb::net {

/// Wakes a thread that waits in pollSockets() from another thread (a server's stop): it polls readFd() for
/// POLLIN beside its sockets; signal() makes it readable and it stays so. A socket pair, so that WSAPoll, which
/// waits on sockets only, takes it too (SocketApi.h socketPair).
class WakeUp
{
public:
    WakeUp() = default;
    WakeUp(const WakeUp &) = delete;
    WakeUp &operator=(const WakeUp &) = delete;
    ~WakeUp() { close(); }

    /// False with errno when the pair cannot be made.
    bool open();
    void close();
    /// What to poll for POLLIN; -1 when not open.
    int readFd() const { return m_fds[0]; }
    void signal();

private:
    int m_fds[2] = {-1, -1};
};

} // namespace wb::net
