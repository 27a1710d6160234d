#pragma once

#include "platform/IpAddress.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb::platform {

/// One established TCP socket of this network namespace, as the kernel reports it.
struct TcpSocketReading
{
    IpAddress local;
    std::uint16_t localPort = 0;
    IpAddress remote;
    std::uint16_t remotePort = 0;
    std::uint64_t inode = 0; ///< matches ProcessFiles::socketInodes() for this process's sockets
    int sndMss = 0;
    int rcvMss = 0;
    int advMss = 0;
    std::uint32_t rttUs = 0;
    std::uint32_t totalRetrans = 0;
    std::uint64_t bytesAcked = 0;    ///< bytes this end sent that the peer acknowledged (0: unknown)
    std::uint64_t bytesReceived = 0; ///< bytes that arrived from the peer in order (0: unknown)
    bool timestamps = false;
};

/// The TCP connections of every process, without owning them (libsmbclient's). Linux: sock_diag netlink
/// (INET_DIAG with tcp_info); a Windows port would use GetTcpTable2 and GetPerTcpConnectionEStats.
class SocketDiagnostics
{
public:
    virtual ~SocketDiagnostics() = default;
    /// All established TCP sockets, IPv4 and IPv6. When the OS answers for neither family: empty, with
    /// *error saying why; otherwise *error is cleared.
    virtual std::vector<TcpSocketReading> establishedTcp(std::string *error) const = 0;
    /// One TCP socket by its addresses and ports, as its own end sees them: a look-up, where establishedTcp()
    /// walks the kernel's whole table (on Linux 1.9 ms with the 262,144 buckets of a 24 GiB machine, which SMB's
    /// live samples paid 50 times a second). False when there is no such socket (*error says so) or the OS cannot
    /// tell.
    virtual bool tcpSocket(const IpAddress &local, std::uint16_t localPort, const IpAddress &remote,
                           std::uint16_t remotePort, TcpSocketReading *out, std::string *error) const = 0;
};

} // namespace wb::platform
