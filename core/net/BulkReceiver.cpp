#include "BulkReceiver.h"

#include "Socket.h"

#include <cerrno>

namespace wb::net {

BulkReceiver::BulkReceiver(std::int64_t bufferBytes, Wake wake, int recvBufferBytes)
    : m_buffer(std::size_t(bufferBytes))
    , m_wake(wake)
    , m_recvBufferBytes(recvBufferBytes)
{
}

ssize_t BulkReceiver::receiveSome(int fd, int flags, std::int64_t *now)
{
    const ssize_t n = receive(fd, m_buffer.data(), m_buffer.size(), flags);
    if (now) {
        const int err = errno;
        *now = nowNs();
        errno = err;
    }
    if (n > 0) {
        if (m_received == 0 && m_wake == Wake::LowWater)
            setReceiveLowWater(fd, m_recvBufferBytes);
        m_received += n;
    }
    return n;
}

} // namespace wb::net
