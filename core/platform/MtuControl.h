#pragma once

#include <string>

namespace wb::platform {

/// Reads and sets an interface's MTU (analysis/InterfaceMtu keeps the originals and puts them back).
/// Linux: SIOCGIFMTU and SIOCSIFMTU; a Windows port would use GetIpInterfaceEntry/SetIpInterfaceEntry.
class MtuControl
{
public:
    virtual ~MtuControl() = default;
    /// The MTU of iface in bytes; 0 when unknown.
    virtual int mtu(const std::string &iface) const = 0;
    /// Sets it; false with one line in *error (bad name, out of range, refused: with what to do about it).
    virtual bool setMtu(const std::string &iface, int mtu, std::string *error) const = 0;
    /// Whether this process may set an MTU at all (Linux: root).
    virtual bool privileged() const = 0;
    /// Names the network namespace interface names belong to (a state file from another one is not ours);
    /// empty when the OS has no such thing.
    virtual std::string namespaceId() const = 0;
};

} // namespace wb::platform
