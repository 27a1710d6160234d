#pragma once

#include <cstdint>
#include <vector>

#include <sys/types.h>

namespace wb::net {

/// The receiving half of a bulk stream: one buffer, one recv() a call, and the count of what arrived.
/// A blocking reader (SO_RCVTIMEO) asks for LowWater: after the first bytes, timed as they come, the socket
/// wakes it for a useful amount only (setReceiveLowWater). A reader that polls wants EveryArrival, since
/// the low-water mark would hold back poll() as well.
class BulkReceiver
{
public:
    enum class Wake { EveryArrival, LowWater };

    /// bufferBytes per recv(); recvBufferBytes is the socket's explicit receive buffer (0 = the kernel's),
    /// which bounds the low-water mark.
    BulkReceiver(std::int64_t bufferBytes, Wake wake, int recvBufferBytes = 0);

    /// One recv() with flags: what it returned, errno as it left it when that is < 0. *nowNs (when given) is
    /// the clock read right after recv() returned, before the low-water mark is set: the arrival's time.
    ssize_t receiveSome(int fd, int flags, std::int64_t *nowNs = nullptr);
    std::int64_t received() const { return m_received; }
    /// What the last receiveSome() read (a datagram's header, say).
    const char *data() const { return m_buffer.data(); }

private:
    std::vector<char> m_buffer;
    Wake m_wake;
    int m_recvBufferBytes;
    std::int64_t m_received = 0;
};

} // namespace wb::net
