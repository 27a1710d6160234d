#pragma once

#include "platform/Interfaces.h"

namespace wb::platform {

/// GetIfTable2 (MIB_IF_ROW2: speed, type, hardware or not) by the interface's alias ("Ethernet"), and
/// GetAdaptersAddresses for the interface that holds an address.
class WindowsInterfaces : public Interfaces
{
public:
    InterfaceReading read(const std::string &name) const override;
    std::optional<InterfaceErrors> errors(const std::string &name) const override;
    std::string holding(const IpAddress &address) const override;
};

} // namespace wb::platform
