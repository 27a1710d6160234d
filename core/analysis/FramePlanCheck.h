#pragma once

#include "LinkInfo.h"
#include "model/Host.h"

#include <QList>
#include <QString>

namespace wb {

/// Whether one frame size can be run towards a host.
struct FrameVerdict
{
    int frameSize = 0; ///< bytes (the MTU the plan asks for)
    bool ok = true;    ///< false: the engine marks its runs "not run" and starts no driver
    QString reason;    ///< why not (one line naming the host); a note when ok but the MTU is unknown
};

/// What the plan view shows per host before a plan runs: path MTU, interface MTU and speed, and a
/// verdict per chosen frame size.
struct HostFrameCheck
{
    Host host;
    LinkInfo link;
    QList<FrameVerdict> frames;

    /// "eth0: MTU 1500 bytes, 1000 Mbit/s; path MTU 1500 bytes" (units in the text).
    QString linkSummary() const;
    bool allOk() const;
};

/// Frame sizes against the link. Probing is a local syscall (a UDP connect, which sends no packet)
/// plus sysfs reads; a host name is resolved first, which may block on DNS.
class FramePlanCheck
{
public:
    /// Probes the route to host (LinkProbe) and judges each frame size. willSetInterfaceMtu: the plan
    /// sets the local interface MTU per frame size (frames.set_interface_mtu), so the local MTU is no limit.
    static HostFrameCheck check(const Host &host, const QList<int> &frameSizes, bool willSetInterfaceMtu = false);
    /// The verdict for one frame size on a link already probed (pure; the engine uses it before each run).
    static FrameVerdict verdict(const LinkInfo &link, const Host &host, int frameSize,
                                bool willSetInterfaceMtu = false);
    /// The plan option that turns the interface MTU setter on ("frames.set_interface_mtu").
    static QString setInterfaceMtuOption();
};

} // namespace wb
