#pragma once

#include <algorithm>
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

/// An IPv4-mapped IPv6 address (::ffff:192.0.2.1) as the IPv4 address it carries; any other as it is.
inline IpAddress unmappedAddress(const IpAddress &a)
{
    static constexpr std::uint8_t kPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (a.family != IpAddress::Family::V6 || !std::equal(kPrefix, kPrefix + 12, a.bytes.begin()))
        return a;
    IpAddress v4;
    v4.family = IpAddress::Family::V4;
    std::copy(a.bytes.begin() + 12, a.bytes.end(), v4.bytes.begin());
    return v4;
}

} // namespace wb::platform
