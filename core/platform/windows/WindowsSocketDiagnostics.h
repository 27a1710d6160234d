#pragma once

#include "platform/SocketDiagnostics.h"

namespace wb::platform {

/// Not ported (GetTcpTable2 and GetPerTcpConnectionEStats): only the client reads other sockets, and it does not run on
/// Windows yet.
class WindowsSocketDiagnostics : public SocketDiagnostics
{
public:
    std::vector<TcpSocketReading> establishedTcp(std::string *error) const override;
};

} // namespace wb::platform
