#pragma once

#include <array>
#include <cstdint>

namespace wb::platform {

/// An IPv4 or IPv6 address as the OS hands it over, without Qt (the Qt-free wirebenchd uses the platform
/// layer too): the caller turns it into its own address type.
struct IpAddress
{
    enum class Family { None, V4, V6 };
    Family family = Family::None;
    std::array<std::uint8_t, 16> bytes{}; ///< network order; an IPv4 address fills the first 4
    std::uint32_t scopeId = 0;            ///< IPv6 interface index; 0 = none
};

} // namespace wb::platform
