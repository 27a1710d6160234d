#pragma once

#include <QString>

namespace wb {

struct Host;

/// What this machine knows about the link towards one destination: the local interface the route
/// uses, its MTU, negotiated speed and duplex, and the path MTU. The route, the path MTU and the speed
/// come from the platform's readers (platform::Routes and platform::Interfaces; Linux: the kernel's route
/// cache and sysfs), the interface and its MTU from Qt.
struct LinkInfo
{
    QString destination;                        ///< the address asked about (as given)
    QString resolvedAddress;                    ///< the IP literal the probe used
    QString interfaceName;                      ///< "eth0", "lo"; empty when not found
    int interfaceMtu = 0;                       ///< bytes; 0 = unknown
    int pathMtu = 0;                            ///< bytes (kernel's IP_MTU on a connected socket); 0 = unknown
    double speedMbps = -1;                      ///< negotiated speed of the local interface, 10^6 bit/s; -1 = unknown
    QString duplex = QStringLiteral("unknown"); ///< "full", "half" or "unknown"
    QString speedNote;                          ///< why the speed is unknown ("loopback interface lo reports no speed")
    QString device; ///< the device whose speed and error counters count (a VLAN's lower device)
    QString driver; ///< its kernel driver ("e1000e", "veth"); empty = unknown
    QString kind = QStringLiteral("unknown"); ///< LinkTrust::kindOf: "loopback", "virtual", "vm", "hardware", "unknown"
    double remoteSpeedMbps
        = -1; ///< the far host's link as its wirebenchd reported it, if LinkTrust believes it; -1 = unknown
    int remoteInterfaceMtu
        = 0;                 ///< the MTU of the server's interface towards us, bytes (wirebenchd says it); 0 = unknown
    QString remoteSpeedNote; ///< why the far end's speed is not used ("the server's virtual interface ...")
    double overrideSpeedMbps = 0; ///< Host::linkSpeedMbps; > 0 wins
    QString error;                ///< one line when the probe itself failed (unresolvable name, no route)

    /// The rate the ceiling uses: the override when set, else the slower known end; -1 = unknown.
    double effectiveSpeedMbps() const;
    /// "override", "local", "remote" or "unknown": where effectiveSpeedMbps() came from.
    QString speedSource() const;
    bool speedKnown() const { return effectiveSpeedMbps() > 0; }
};

class LinkProbe
{
public:
    /// Probes the route to address (host name or IP literal; resolves names, which may block).
    /// No subprocess, no traffic: a UDP socket is connected (which only selects a route) and closed.
    static LinkInfo probe(const QString &address);
    /// probe(host.address) with the host's override and the remote's speed (if any, already judged) applied.
    static LinkInfo probe(const Host &host, double remoteSpeedMbps = -1);
    /// The negotiated speed (Mbit/s) and duplex of interface name as LinkTrust judges its facts
    /// (InterfaceFacts::read): loopback, virtual and VM interfaces report unknown (-1, "unknown") with *note.
    static void readSpeedAndDuplex(const QString &name, double *speedMbps, QString *duplex, QString *note);
};

} // namespace wb
