#pragma once

#include "SocketApi.h"

#include "platform/IpAddress.h"

#include <cstdint>
#include <optional>
#include <string>

namespace wb::net {

/// Addresses as plain values for the Qt-free responder: text to platform::IpAddress and back, socket addresses,
/// and the networks of an allow-list (CIDR).

/// "192.0.2.1", "::1", "[::1]", "fe80::1%2" or "fe80::1%eth0"; nothing when the text is no IPv4 or IPv6 address.
std::optional<platform::IpAddress> parseAddress(const std::string &text);
/// "192.0.2.1", "::1" (with "%scope" when it has one).
std::string addressText(const platform::IpAddress &address);
/// "::", which a listening socket takes as every IPv6 and IPv4 address (dual stack).
platform::IpAddress anyAddress();
bool isLoopback(const platform::IpAddress &address);
bool isUnspecified(const platform::IpAddress &address);                       ///< 0.0.0.0 or ::
bool sameAddress(const platform::IpAddress &a, const platform::IpAddress &b); ///< IPv4-mapped IPv6 equals its IPv4

/// address:port as a socket address. False for an address that is neither IPv4 nor IPv6.
bool toSockaddr(const platform::IpAddress &address, std::uint16_t port, sockaddr_storage *out, socklen_t *len);
/// The address of a socket address, IPv4-mapped IPv6 turned back into IPv4 (for the allow-list).
platform::IpAddress peerAddress(const sockaddr_storage &peer);

/// A network of an allow-list: "192.168.1.0/24", "2001:db8::/32" (an address alone is the whole length).
struct Subnet
{
    platform::IpAddress address;
    int prefix = 0;

    /// Nothing when the text is not such a network.
    static std::optional<Subnet> parse(const std::string &text);
    bool contains(const platform::IpAddress &address) const;
    std::string text() const; ///< "192.168.1.0/24"
};

} // namespace wb::net
