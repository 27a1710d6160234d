#include "WakeUp.h"

#include "SocketApi.h"

#include "platform/Platform.h"

namespace wb::net {

bool WakeUp::open()
{
    close();
    if (socketPair(m_fds))
        return true;
    m_fds[0] = m_fds[1] = -1;
    return false;
}

void WakeUp::close()
{
    for (int &fd : m_fds) {
        if (fd >= 0)
            closeSocket(fd);
        fd = -1;
    }
}

void WakeUp::signal()
{
    const char c = 'x';
    if (m_fds[1] < 0)
        return;
    [[maybe_unused]] const ssize_t w = platform::Platform::socketCalls().send(m_fds[1], &c, 1, MSG_DONTWAIT);
}

} // namespace wb::net
