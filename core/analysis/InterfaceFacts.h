#pragma once

#include "FarEndFacts.h"

#include <QJsonObject>
#include <QString>

namespace wb {

/// What the system says about one network interface: the facts the trust rule for its speed
/// (LinkTrust::judge) needs. A plain value, read with read() from platform::Interfaces (Linux: sysfs and
/// the ethtool driver query), or taken from a far end's wirebenchd hello (fromJson), so that the same rule
/// judges both ends of a link.
struct InterfaceFacts
{
    /// Version of the JSON object (the hello's "link"). A later version may add members, never change these.
    static constexpr int kJsonVersion = FarEndFacts::kInterfaceJsonVersion;

    QString name;   ///< the interface the route uses ("eth0", "eth0.10")
    QString device; ///< the device whose speed counts: name, or the lower device of a VLAN/macvlan
    QString driver; ///< kernel driver of device as `ethtool -i` says ("e1000e", "virtio_net", "veth"); empty = unknown
    bool loopback = false;     ///< the loopback interface
    bool isVirtual = false;    ///< a software device (/sys/devices/virtual): no hardware behind it
    bool bond = false;         ///< a bond: reports the sum of its ports, which is real
    bool lowerMissing = false; ///< a VLAN/macvlan/ipvlan whose lower device is not visible here (another namespace)
    bool hypervisor = false;   ///< this machine runs under a hypervisor (emulated NICs report made-up speeds)
    double speedMbps = -1;     ///< what device reports, 10^6 bit/s; -1 = nothing (link down, no figure)
    QString duplex = QStringLiteral("unknown"); ///< "full", "half" or "unknown", as device reports it
    int mtu = 0;   ///< name's MTU in bytes (the largest IP packet); 0 = unknown (older wirebenchd)
    QString error; ///< why nothing could be read ("interface eth9 is not in /sys/class/net")

    /// The facts of interface name in this process's network namespace.
    static InterfaceFacts read(const QString &name);
    /// For wirebenchd's hello: {"version": 1, "name", "device", "driver", "loopback", "virtual", ...}.
    QJsonObject toJson() const;
    /// From a peer's hello (its strings capped and stripped of control characters); an empty object or a
    /// missing version gives facts with error set ("did not say what kind of interface ...").
    static InterfaceFacts fromJson(const QJsonObject &o);
    /// The receive error counters of device name that only a physical link makes: frames with a bad CRC and
    /// misaligned frames (platform::Interfaces::errors; Linux: rx_crc_errors and rx_frame_errors in sysfs).
    /// False when they cannot be read (no such device).
    static bool readErrorCounters(const QString &name, qint64 *crcErrors, qint64 *frameErrors);
};

} // namespace wb
