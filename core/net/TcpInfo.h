#pragma once

#include <cstdint>

namespace wb::net {

/// What TCP_INFO says about a connected TCP socket: the one place it is read (Linux's struct tcp_info, with the
/// RFC 4898 byte counters that glibc's copy of the struct stops before).
struct TcpInfo
{
    bool valid = false; ///< TCP_INFO answered (a TCP socket on a system that has it)
    int sndMss = 0;     ///< tcpi_snd_mss: payload per segment we send, bytes
    /// tcpi_rcv_mss: the largest segment seen arriving, bytes. A socket that only receives keeps a low
    /// tcpi_snd_mss (half the largest window the peer announced), so a receiver's segment size is this one.
    int rcvMss = 0;
    std::int64_t rttUs = 0; ///< smoothed round-trip time, microseconds
    std::int64_t rttVarUs = 0;
    std::int64_t totalRetrans = 0; ///< segments resent over the connection's life
    std::int64_t sndCwndBytes = 0; ///< congestion window: tcpi_snd_cwnd segments x tcpi_snd_mss, as iperf3 shows it
    /// tcpi_bytes_acked: bytes the peer has acknowledged, i.e. the receiver's count as the sender sees it
    /// (the SYN and the FIN count one each); -1 when the system cannot say (Linux before 4.1, not TCP).
    std::int64_t bytesAcked = -1;
    std::int64_t bytesReceived = -1; ///< tcpi_bytes_received: bytes that arrived in order; -1 when unknown

    static TcpInfo of(int fd);
};

} // namespace wb::net
