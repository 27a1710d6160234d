#pragma once

#include "platform/MtuControl.h"

namespace wb::platform {

/// SIOCGIFMTU and SIOCSIFMTU (setting needs CAP_NET_ADMIN); the network namespace is the inode of
/// /proc/self/ns/net.
class LinuxMtuControl : public MtuControl
{
public:
    int mtu(const std::string &iface) const override;
    bool setMtu(const std::string &iface, int mtu, std::string *error) const override;
    bool privileged() const override;
    std::string namespaceId() const override;
};

} // namespace wb::platform
