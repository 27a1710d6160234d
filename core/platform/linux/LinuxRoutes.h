#pragma once

#include "platform/Routes.h"

namespace wb::platform {

/// A connected UDP socket in don't-fragment mode: getsockname gives the source address, IP_MTU/IPV6_MTU the
/// path MTU the kernel knows (the route's, or one learnt by PMTU discovery).
class LinuxRoutes : public Routes
{
public:
    RouteReading routeTo(const IpAddress &destination) const override;
};

} // namespace wb::platform
