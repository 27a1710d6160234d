#pragma once

#include "InterfaceFacts.h"

#include <QString>

namespace wb {

/// What the trust rule makes of an interface's speed.
struct SpeedVerdict
{
    double speedMbps = -1;                      ///< a speed that can be compared with; -1 = unknown
    QString duplex = QStringLiteral("unknown"); ///< "full", "half", "unknown" (only from a device whose speed counts)
    QString note;                               ///< why the speed is unknown (one line), empty when known
    bool trusted() const { return speedMbps > 0; }
};

/// The one rule for believing an interface's speed, for the local end (LinkProbe) and the far end (the
/// facts its wirebenchd sends in its hello) alike; wirebenchd itself sends a bare speed only when the rule
/// trusts it. A speed nobody can trust is unknown, and nothing is compared with it:
///  - loopback, and software devices (veth, bridge, tun/tap, dummy, tunnels...): their figure is made up
///    (veth says 10000 Mbit/s, tun 10 Mbit/s whatever carries them);
///  - a VLAN, macvlan or ipvlan counts its lower device's speed (InterfaceFacts::read follows it); when that
///    device is not visible (another network namespace), unknown;
///  - a virtual machine's paravirtual NIC (virtio_net, vmxnet3, hv_netvsc, xen-netfront): made up by the
///    hypervisor; an emulated one (e1000, e1000e, rtl8139, pcnet32...) when this machine runs under one;
///  - a bond reports the sum of its ports, a NIC its negotiated speed: believed.
class LinkTrust
{
public:
    /// whose: "" for this computer's interface, "the server's " for the far end's (starts the note).
    static SpeedVerdict judge(const InterfaceFacts &facts, const QString &whose = {});
    /// What carries the traffic, for the words around it (docs/TRUST.md, extra "interface_kind"):
    /// "loopback", "virtual" (a software device), "vm" (a virtual machine's NIC), "hardware", or "unknown".
    static QString kindOf(const InterfaceFacts &facts);
    /// Drivers of software devices that report a speed of their own making.
    static bool isSoftwareDriver(const QString &driver);
    /// Paravirtual NIC drivers of virtual machines (their speed is whatever the hypervisor says).
    static bool isParavirtualDriver(const QString &driver);
    /// Drivers of NICs that hypervisors emulate (real hardware too: believed on bare metal only).
    static bool isEmulatedNicDriver(const QString &driver);
};

} // namespace wb
