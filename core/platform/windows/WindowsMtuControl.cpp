#include "WindowsMtuControl.h"

#include "platform/windows/WindowsInterfaceTable.h"

namespace wb::platform {

int WindowsMtuControl::mtu(const std::string &iface) const
{
    const std::optional<MIB_IF_ROW2> row = WindowsInterfaceTable::row(iface);
    return row ? int(row->Mtu) : 0;
}

bool WindowsMtuControl::setMtu(const std::string &iface, int, std::string *error) const
{
    if (error)
        *error = "setting the MTU of " + iface + " is not ported to Windows (netsh interface ipv4 set subinterface)";
    return false;
}

bool WindowsMtuControl::privileged() const
{
    return false;
}

std::string WindowsMtuControl::namespaceId() const
{
    return {};
}

} // namespace wb::platform
