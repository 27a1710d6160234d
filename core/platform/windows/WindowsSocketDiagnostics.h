#pragma once

#include "platform/SocketDiagnostics.h"

namespace wb::platform {

/// Not ported (GetTcpTable2 and GetPerTcpConnectionEStats): only the client reads other sockets, and it does not run on
/// Windows yet.
class WindowsSocketDiagnostics : public SocketDiagnostics
{
public:
    std::vector<TcpSocketReading> establishedTcp(std::string *error) const override;
    bool tcpSocket(const IpAddress &local, std::uint16_t localPort, const IpAddress &remote, std::uint16_t remotePort,
                   TcpSocketReading *out, std::string *error) const override;
};

} // namespace wb::platform
