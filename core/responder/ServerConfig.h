#pragma once

#include "net/Address.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wb {

/// Settings of the responders (wirebenchd's own protocol and its iperf3 port), with the documented defaults. Plain
/// C++: the Qt side fills it from ResponderConfig.
struct ServerConfig
{
    platform::IpAddress address = net::anyAddress(); ///< "::": IPv6 and IPv4 (dual stack)
    std::uint16_t port = control::kDefaultPort;      ///< 0 = any free port (the GUI's embedded responder)
    int maxDurationMs = 60000;                       ///< a longer test request is refused
    int maxMessageSize = 16 * 1024 * 1024;           ///< a larger send size is refused
    int maxControlMessageBytes = 64 * 1024;          ///< a longer control message is an error (before
                                                     ///< authentication: at most auth::kMaxPreAuthBytes)
    int handshakeTimeoutMs = 5000;       ///< hello and key proof must arrive within this, or the client is dropped
    int idleTimeoutMs = 15000;           ///< after the handshake: longest silence (test request, data connection, data)
    std::string key;                     ///< pre-shared key (Auth.h); empty = open mode, no key asked
    std::vector<net::Subnet> allow;      ///< client networks (CIDR) served; empty = all
    int maxConcurrent = 1;               ///< tests run at the same time
    int maxQueued = 0;                   ///< clients that wait for a slot ("queued"); the next one gets "busy"
    int maxConnections = 32;             ///< connections handled at once (any stage); more are closed at once
    int maxUnprovenPerAddress = 4;       ///< connections one address holds before they prove the key (open mode:
                                         ///< send a valid hello); more from it are closed at once
    std::int64_t maxRateBytesPerSec = 0; ///< pace what this responder sends (tcp-recv), 0 = no cap
    bool echo = true;                    ///< the latency echo on UDP (EchoServer); off: as a wirebenchd without it

    /// True when the allow-list is empty or holds the client's network (shared by the iperf3 responder).
    bool allows(const platform::IpAddress &client) const;
    /// The allow-list as "192.168.1.0/24, 2001:db8::/32", for refusals.
    std::string allowListText() const;
};

/// Where a responder's log lines go (escaped and capped already: wire::safeLogLine), from its own threads.
using LogSink = std::function<void(const std::string &line)>;

} // namespace wb
