#pragma once

#include "platform/Interfaces.h"

namespace wb::platform {

/// sysfs (/sys/class/net) and the ethtool ioctl (without privileges). sysfs shows the network namespace it
/// was mounted in, which a thread that entered another one with setns(2) does not share: there the facts
/// come from ethtool alone.
class LinuxInterfaces : public Interfaces
{
public:
    InterfaceReading read(const std::string &name) const override;
    std::optional<InterfaceErrors> errors(const std::string &name) const override;
};

} // namespace wb::platform
