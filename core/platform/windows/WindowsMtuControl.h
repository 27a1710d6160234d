#pragma once

#include "platform/MtuControl.h"

namespace wb::platform {

/// The MTU from GetIfTable2; setting one (SetIpInterfaceEntry) is not ported: the client side of Wirebench does not run
/// on Windows yet.
class WindowsMtuControl : public MtuControl
{
public:
    int mtu(const std::string &iface) const override;
    bool setMtu(const std::string &iface, int mtu, std::string *error) const override;
    bool privileged() const override;
    std::string namespaceId() const override;
};

} // namespace wb::platform
