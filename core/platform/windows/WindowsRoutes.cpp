#include "WindowsRoutes.h"

namespace wb::platform {

RouteReading WindowsRoutes::routeTo(const IpAddress &) const
{
    RouteReading r;
    r.failure = RouteReading::Failure::NoSocket;
    r.reason = "routes are not read on Windows (not ported)";
    return r;
}

} // namespace wb::platform
