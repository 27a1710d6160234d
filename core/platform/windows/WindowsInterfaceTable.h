#pragma once

#include <optional>
#include <string>

#include <winsock2.h>
#include <ws2ipdef.h>
#include <iphlpapi.h>

namespace wb::platform {

/// One interface's row of GetIfTable2 (MIB_IF_ROW2: speed, MTU, type, discards), found by its alias ("Ethernet",
/// the name the Network Connections folder and `netsh interface` show), which is the interface name Wirebench
/// uses on Windows.
class WindowsInterfaceTable
{
public:
    static std::optional<MIB_IF_ROW2> row(const std::string &alias);
};

} // namespace wb::platform
