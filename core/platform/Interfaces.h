#pragma once

#include "platform/IpAddress.h"

#include <cstdint>
#include <optional>
#include <string>

namespace wb::platform {

/// What the OS says about one network interface, as raw facts: analysis/InterfaceFacts carries them and
/// analysis/LinkTrust judges them.
struct InterfaceReading
{
    std::string device; ///< the device whose speed counts: the name, or the lower device of a VLAN/macvlan
    std::string driver; ///< its kernel driver ("e1000e", "virtio_net", "veth"); empty = unknown
    bool loopback = false;
    bool isVirtual = false;         ///< a software device: no hardware behind it
    bool bond = false;              ///< a bond: reports the sum of its ports
    bool lowerMissing = false;      ///< a VLAN/macvlan/ipvlan whose lower device is not visible here
    bool hypervisor = false;        ///< this machine runs under a hypervisor
    double speedMbps = -1;          ///< what the device reports, 10^6 bit/s; -1 = nothing
    int mtu = 0;                    ///< the named interface's MTU, bytes (the largest IP packet); 0 = unknown
    std::string duplex = "unknown"; ///< "full", "half" or "unknown"
    std::string error;              ///< why nothing could be read; empty when the facts above were read
};

/// The receive errors only a physical link makes.
struct InterfaceErrors
{
    std::int64_t crcErrors = 0;   ///< frames with a bad CRC
    std::int64_t frameErrors = 0; ///< misaligned frames
};

/// Facts and counters of the interfaces in this thread's network namespace. Linux: sysfs
/// (/sys/class/net), the ethtool ioctl and getifaddrs(3); Windows: GetIfTable2 (MIB_IF_ROW2) and
/// GetAdaptersAddresses.
class Interfaces
{
public:
    virtual ~Interfaces() = default;
    /// The facts of interface name (device is name when nothing better is known).
    virtual InterfaceReading read(const std::string &name) const = 0;
    /// The receive error counters of device name; nothing when they cannot be read (no such device).
    virtual std::optional<InterfaceErrors> errors(const std::string &name) const = 0;
    /// The name of the interface that holds address (an IPv4-mapped IPv6 address is taken as the IPv4 one),
    /// as read() takes it; empty when none does.
    virtual std::string holding(const IpAddress &address) const = 0;
};

} // namespace wb::platform
