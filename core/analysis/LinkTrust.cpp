#include "LinkTrust.h"

#include <QStringList>

namespace wb {

namespace {

/// "(its 10000 Mbit/s is made up)" when the device gave a figure, so the user sees what was not believed.
QString madeUp(const InterfaceFacts &f)
{
    return f.speedMbps > 0 ? QStringLiteral(" (its %1 Mbit/s is made up)").arg(f.speedMbps) : QString();
}

QString driverText(const InterfaceFacts &f)
{
    return f.driver.isEmpty() ? QStringLiteral("veth, bridge, tunnel") : f.driver;
}

} // namespace

bool LinkTrust::isSoftwareDriver(const QString &driver)
{
    static const QStringList software = {
        QStringLiteral("veth"),     QStringLiteral("bridge"),   QStringLiteral("tun"),       QStringLiteral("dummy"),
        QStringLiteral("macvlan"),  QStringLiteral("macvtap"),  QStringLiteral("ipvlan"),    QStringLiteral("ipvtap"),
        QStringLiteral("802.1Q VLAN Support"), QStringLiteral("vxlan"), QStringLiteral("geneve"),
        QStringLiteral("wireguard"), QStringLiteral("openvswitch"), QStringLiteral("ifb"), QStringLiteral("nlmon"),
        QStringLiteral("vrf"),      QStringLiteral("team"),     QStringLiteral("gre"),       QStringLiteral("ip_gre"),
        QStringLiteral("ipip"),     QStringLiteral("sit"),      QStringLiteral("ip6_tunnel"), QStringLiteral("ip6_gre"),
        QStringLiteral("vti"),      QStringLiteral("xfrm"),     QStringLiteral("ppp"),       QStringLiteral("netkit")};
    return software.contains(driver);
}

bool LinkTrust::isParavirtualDriver(const QString &driver)
{
    static const QStringList paravirtual = {QStringLiteral("virtio_net"), QStringLiteral("vmxnet3"),
                                            QStringLiteral("vmxnet"),     QStringLiteral("hv_netvsc"),
                                            QStringLiteral("netvsc"),     QStringLiteral("xen-netfront"),
                                            QStringLiteral("xen_netfront"), QStringLiteral("vif"),
                                            QStringLiteral("ibmveth")};
    return paravirtual.contains(driver);
}

bool LinkTrust::isEmulatedNicDriver(const QString &driver)
{
    static const QStringList emulated = {QStringLiteral("e1000"),   QStringLiteral("e1000e"),  QStringLiteral("8139cp"),
                                         QStringLiteral("8139too"), QStringLiteral("pcnet32"), QStringLiteral("ne2k-pci"),
                                         QStringLiteral("tulip"),   QStringLiteral("rtl8139")};
    return emulated.contains(driver);
}

QString LinkTrust::kindOf(const InterfaceFacts &f)
{
    if (!f.error.isEmpty())
        return QStringLiteral("unknown");
    if (f.loopback)
        return QStringLiteral("loopback");
    if (f.lowerMissing || (f.isVirtual && !f.bond) || isSoftwareDriver(f.driver))
        return QStringLiteral("virtual");
    if (isParavirtualDriver(f.driver) || (f.hypervisor && isEmulatedNicDriver(f.driver)))
        return QStringLiteral("vm");
    return QStringLiteral("hardware");
}

SpeedVerdict LinkTrust::judge(const InterfaceFacts &f, const QString &whose)
{
    SpeedVerdict v;
    const QString dev = f.device.isEmpty() ? f.name : f.device;
    if (!f.error.isEmpty()) {
        v.note = whose.isEmpty() ? f.error : QStringLiteral("%1link speed is unknown: %2").arg(whose, f.error);
        return v;
    }
    if (f.loopback) {
        v.note = QStringLiteral("%1loopback interface %2 reports no speed").arg(whose, dev);
        return v;
    }
    if (f.lowerMissing) {
        v.note = QStringLiteral("%1interface %2 (%3) runs on a device this system cannot see (another network "
                                "namespace), so its speed is unknown")
                     .arg(whose, dev, f.driver);
        return v;
    }
    if ((f.isVirtual && !f.bond) || isSoftwareDriver(f.driver)) {
        v.note = QStringLiteral("%1virtual interface %2 (%3) reports no meaningful speed%4")
                     .arg(whose, dev, driverText(f), madeUp(f));
        return v;
    }
    if (isParavirtualDriver(f.driver) || (f.hypervisor && isEmulatedNicDriver(f.driver))) {
        v.note = QStringLiteral("%1interface %2 is a virtual machine's NIC (%3), whose speed the hypervisor makes up%4")
                     .arg(whose, dev, f.driver, madeUp(f));
        return v;
    }
    if (!(f.speedMbps > 0)) {
        v.note = QStringLiteral("%1interface %2 reports no speed (link down or not reported by the driver)").arg(whose, dev);
        return v;
    }
    v.speedMbps = f.speedMbps;
    v.duplex = f.duplex;
    return v;
}

} // namespace wb
