#pragma once

#include "platform/Interfaces.h"

namespace wb::platform {

/// sysfs (/sys/class/net), the ethtool ioctl (without privileges) and getifaddrs(3). sysfs shows the network namespace
/// it was mounted in, which a thread that entered another one with setns(2) does not share: there the facts come from
/// ethtool alone.
class LinuxInterfaces : public Interfaces
{
public:
    InterfaceReading read(const std::string &name) const override;
    std::optional<InterfaceErrors> errors(const std::string &name) const override;
    std::string holding(const IpAddress &address) const override;
};

} // namespace wb::platform
