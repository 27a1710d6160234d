#pragma once

#include "net/SocketApi.h"
#include "platform/IpAddress.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace wb {

/// wirebenchd's latency echo (wire/wirebenchd/EchoWire.h): a UDP socket on the control port's number that sends
/// back every datagram carrying a valid token (one the control connection gave to that address, not expired), at
/// most echo::kMaxPerSecondPerClient a second to one address and echo::kMaxPerSecondTotal in all; everything else
/// is dropped unanswered. The secret behind the tokens is new on every start. Its own thread, standard C++.
class EchoServer
{
public:
    EchoServer();
    ~EchoServer();
    EchoServer(const EchoServer &) = delete;
    EchoServer &operator=(const EchoServer &) = delete;

    /// Binds UDP address:port ("::" is dual stack) and starts answering. False with a one-line *error.
    bool start(const platform::IpAddress &address, std::uint16_t port, std::string *error = nullptr);
    void stop();
    int port() const; ///< 0 when not running

    /// A token for the client at peer, valid for echo::kTokenLifetimeSeconds; *expirySeconds is its end.
    std::string tokenFor(const sockaddr_storage &peer, std::uint64_t *expirySeconds) const;

    std::uint64_t answered() const; ///< datagrams sent back so far
    std::uint64_t dropped() const;  ///< datagrams dropped: no valid token, expired, over the rate limit

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace wb
