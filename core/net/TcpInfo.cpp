#include "TcpInfo.h"

#include <cstddef>

// The kernel's struct tcp_info (with the RFC 4898 counters); <netinet/tcp.h> must not be included beside it.
#include <linux/tcp.h>
#include <netinet/in.h> // IPPROTO_TCP (linux/tcp.h clashes with netinet/tcp.h only)
#include <sys/socket.h>

namespace wb::net {

TcpInfo TcpInfo::of(int fd)
{
    TcpInfo t;
    tcp_info info{};
    socklen_t len = sizeof(info);
    if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
        return t;
    t.valid = true;
    t.sndMss = int(info.tcpi_snd_mss);
    t.rcvMss = int(info.tcpi_rcv_mss);
    t.rttUs = info.tcpi_rtt;
    t.rttVarUs = info.tcpi_rttvar;
    t.totalRetrans = info.tcpi_total_retrans;
    t.sndCwndBytes = std::int64_t(info.tcpi_snd_cwnd) * std::int64_t(info.tcpi_snd_mss);
    // An older kernel fills less of the struct and says how much in len.
    if (len >= offsetof(tcp_info, tcpi_bytes_acked) + sizeof(info.tcpi_bytes_acked))
        t.bytesAcked = std::int64_t(info.tcpi_bytes_acked);
    if (len >= offsetof(tcp_info, tcpi_bytes_received) + sizeof(info.tcpi_bytes_received))
        t.bytesReceived = std::int64_t(info.tcpi_bytes_received);
    return t;
}

} // namespace wb::net
