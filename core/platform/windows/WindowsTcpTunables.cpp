#include "WindowsTcpTunables.h"

namespace wb::platform {

std::optional<std::int64_t> WindowsTcpTunables::socketBufferMax() const
{
    return std::nullopt;
}

std::optional<bool> WindowsTcpTunables::timestamps() const
{
    return std::nullopt;
}

} // namespace wb::platform
