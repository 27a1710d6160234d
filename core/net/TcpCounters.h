#pragma once

#include <QtGlobal>

namespace wb::net {

/// A TCP socket's byte counters (Linux TCP_INFO, RFC 4898). glibc's struct tcp_info stops before them, so
/// they are read with the kernel's own header in a file of their own.
struct TcpCounters
{
    /// tcpi_bytes_acked: bytes the peer has acknowledged, i.e. the receiver's count as the sender sees it
    /// (the SYN and the FIN count one each); -1 when the system cannot say (Linux before 4.1, not TCP).
    qint64 bytesAcked = -1;
    qint64 bytesReceived = -1; ///< tcpi_bytes_received: bytes that arrived in order; -1 when unknown

    static TcpCounters of(int fd);
};

} // namespace wb::net
