#pragma once

#include "platform/IpAddress.h"

#include <string>

namespace wb::platform {

/// The route the kernel would take to one destination: the source address it picks and the path MTU it knows.
struct RouteReading
{
    enum class Failure { None, NoSocket, NoRoute };
    IpAddress local; ///< family None when the OS did not say
    int pathMtu = 0; ///< bytes (route or learnt PMTU); 0 = unknown
    Failure failure = Failure::None;
    std::string reason; ///< the system's words for the failure ("Network is unreachable")
};

/// Asks the routing table without sending anything (a UDP socket is connected, which only selects a route,
/// and closed). Linux: IP_MTU/IPV6_MTU in don't-fragment mode give the path MTU; a Windows port would use
/// GetBestRoute2 and GetIpInterfaceEntry.
class Routes
{
public:
    virtual ~Routes() = default;
    virtual RouteReading routeTo(const IpAddress &destination) const = 0;
};

} // namespace wb::platform
