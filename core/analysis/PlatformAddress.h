#pragma once

#include "platform/IpAddress.h"

#include <QHostAddress>

namespace wb {

/// The platform layer's Qt-free address and QHostAddress, both ways.
class PlatformAddress
{
public:
    /// A null QHostAddress for Family::None.
    static QHostAddress toQt(const platform::IpAddress &a);
    /// An IPv4 or IPv6 address with its numeric scope (an interface name as scope is looked up).
    static platform::IpAddress fromQt(const QHostAddress &a);
};

} // namespace wb
