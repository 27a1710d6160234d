#include "WindowsSocketDiagnostics.h"

namespace wb::platform {

std::vector<TcpSocketReading> WindowsSocketDiagnostics::establishedTcp(std::string *error) const
{
    if (error)
        *error = "the TCP connections of other programs are not read on Windows (not ported)";
    return {};
}

bool WindowsSocketDiagnostics::tcpSocket(const IpAddress &, std::uint16_t, const IpAddress &, std::uint16_t,
                                         TcpSocketReading *, std::string *error) const
{
    if (error)
        *error = "the TCP connections of other programs are not read on Windows (not ported)";
    return false;
}

} // namespace wb::platform
