#pragma once

#include "platform/SocketDiagnostics.h"

namespace wb::platform {

/// sock_diag netlink (NETLINK_SOCK_DIAG, INET_DIAG with the tcp_info attribute): no subprocess, no traffic,
/// every process's sockets of this network namespace.
class LinuxSocketDiagnostics : public SocketDiagnostics
{
public:
    std::vector<TcpSocketReading> establishedTcp(std::string *error) const override;
    bool tcpSocket(const IpAddress &local, std::uint16_t localPort, const IpAddress &remote, std::uint16_t remotePort,
                   TcpSocketReading *out, std::string *error) const override;
};

} // namespace wb::platform
