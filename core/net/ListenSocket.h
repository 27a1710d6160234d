#pragma once

#include "Socket.h"

#include "platform/IpAddress.h"

#include <cstdint>
#include <string>

namespace wb::net {

/// Why openListenSocket failed: the step ("create a socket", "listen") and errno. An empty step means the
/// address itself was unusable.
struct ListenFailure
{
    std::string step;
    int error = 0;
};

/// A non-blocking listening TCP socket on address:port (port 0 = any free port), SO_REUSEADDR; "::" is dual
/// stack (IPv4 too), other IPv6 addresses IPv6 only. The responders of wirebenchd (its own protocol and the
/// iperf3 one) listen the same way. On success *boundPort holds the port actually bound.
bool openListenSocket(const platform::IpAddress &address, std::uint16_t port, Fd *out, std::uint16_t *boundPort,
                      ListenFailure *failure);

} // namespace wb::net
