#include "TcpCounters.h"

#include <cstddef>

// The kernel's struct tcp_info (with the RFC 4898 counters); <netinet/tcp.h> must not be included beside it.
#include <linux/tcp.h>
#include <netinet/in.h> // IPPROTO_TCP (linux/tcp.h clashes with netinet/tcp.h only)
#include <sys/socket.h>

namespace wb::net {

TcpCounters TcpCounters::of(int fd)
{
    TcpCounters c;
    tcp_info info{};
    socklen_t len = sizeof(info);
    if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
        return c;
    // An older kernel fills less of the struct and says how much in len.
    if (len >= offsetof(tcp_info, tcpi_bytes_acked) + sizeof(info.tcpi_bytes_acked))
        c.bytesAcked = qint64(info.tcpi_bytes_acked);
    if (len >= offsetof(tcp_info, tcpi_bytes_received) + sizeof(info.tcpi_bytes_received))
        c.bytesReceived = qint64(info.tcpi_bytes_received);
    return c;
}

} // namespace wb::net
