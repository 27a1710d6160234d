#include "FramePlanCheck.h"

namespace wb {

QString FramePlanCheck::setInterfaceMtuOption()
{
    return QStringLiteral("frames.set_interface_mtu");
}

FrameVerdict FramePlanCheck::verdict(const LinkInfo &link, const Host &host, int frameSize, bool willSetInterfaceMtu)
{
    FrameVerdict v;
    v.frameSize = frameSize;
    const QString who = host.name.isEmpty() || host.name == host.address
        ? host.address
        : QStringLiteral("%1 (%2)").arg(host.name, host.address);
    if (!link.error.isEmpty()) {
        // The driver will say what is wrong with the host; a frame size cannot be judged without a route.
        v.reason = QStringLiteral("frame size %1 not checked: %2").arg(frameSize).arg(link.error);
        return v;
    }
    // The kernel's path MTU equals the route's MTU (usually the interface's) unless it learnt a smaller
    // one; when the plan sets the interface MTU, only a path MTU below the interface's is a limit.
    const bool pathLimits
        = link.pathMtu > 0 && frameSize > link.pathMtu && !(willSetInterfaceMtu && link.pathMtu >= link.interfaceMtu);
    if (pathLimits) {
        v.ok = false;
        if (frameSize > 1500)
            v.reason = QStringLiteral("jumbo frames are not enabled end to end: path MTU to %1 is %2 bytes, below "
                                      "the frame size %3: enable jumbo frames on both hosts and every switch between "
                                      "them, or choose a frame size of at most %2")
                           .arg(who)
                           .arg(link.pathMtu)
                           .arg(frameSize);
        else
            v.reason = QStringLiteral("frame size %1 does not fit: path MTU to %2 is %3 bytes (a tunnel or VPN?): "
                                      "choose a frame size of at most %3")
                           .arg(frameSize)
                           .arg(who)
                           .arg(link.pathMtu);
        return v;
    }
    if (!willSetInterfaceMtu && link.interfaceMtu > 0 && frameSize > link.interfaceMtu) {
        v.ok = false;
        v.reason = QStringLiteral("frame size %1 is above the MTU of the local interface %2 (%3 bytes) towards %4: "
                                  "set it with 'ip link set dev %2 mtu %1' (or turn on \"Set the local interface "
                                  "MTU\") and enable jumbo frames on the far host")
                       .arg(frameSize)
                       .arg(link.interfaceName)
                       .arg(link.interfaceMtu)
                       .arg(who);
        return v;
    }
    if (link.pathMtu <= 0 && link.interfaceMtu <= 0)
        v.reason = QStringLiteral("frame size %1: the MTU towards %2 is unknown on this system; the recorded MSS will "
                                  "tell what was used")
                       .arg(frameSize)
                       .arg(who);
    return v;
}

HostFrameCheck FramePlanCheck::check(const Host &host, const QList<int> &frameSizes, bool willSetInterfaceMtu)
{
    HostFrameCheck c;
    c.host = host;
    c.link = LinkProbe::probe(host);
    for (int f : frameSizes)
        c.frames.append(verdict(c.link, host, f, willSetInterfaceMtu));
    return c;
}

QString HostFrameCheck::linkSummary() const
{
    if (!link.error.isEmpty())
        return link.error;
    QString s = link.interfaceName.isEmpty()
        ? QStringLiteral("interface unknown")
        : QStringLiteral("%1: MTU %2 bytes").arg(link.interfaceName).arg(link.interfaceMtu);
    const double speed = link.effectiveSpeedMbps();
    if (speed > 0)
        s += QStringLiteral(", %1 Mbit/s (%2)").arg(speed).arg(link.speedSource());
    else
        s += QStringLiteral(", speed unknown");
    s += link.pathMtu > 0 ? QStringLiteral("; path MTU %1 bytes").arg(link.pathMtu)
                          : QStringLiteral("; path MTU unknown");
    return s;
}

bool HostFrameCheck::allOk() const
{
    for (const FrameVerdict &v : frames) {
        if (!v.ok)
            return false;
    }
    return true;
}

} // namespace wb
