#pragma once

#include "platform/Routes.h"

namespace wb::platform {

/// Not ported (GetBestRoute2, GetIpInterfaceEntry): only the client asks, and it does not run on Windows yet.
class WindowsRoutes : public Routes
{
public:
    RouteReading routeTo(const IpAddress &destination) const override;
};

} // namespace wb::platform
