#include "LinkTrust.h"

#include "FarEndFacts.h"

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

// The driver lists and the kind are FarEndFacts', which the Qt-free wirebenchd judges its own interface by.
bool LinkTrust::isSoftwareDriver(const QString &driver)
{
    return FarEndFacts::isSoftwareDriver(driver.toStdString());
}

bool LinkTrust::isParavirtualDriver(const QString &driver)
{
    return FarEndFacts::isParavirtualDriver(driver.toStdString());
}

bool LinkTrust::isEmulatedNicDriver(const QString &driver)
{
    return FarEndFacts::isEmulatedNicDriver(driver.toStdString());
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
        v.note = QStringLiteral("%1interface %2 reports no speed (link down or not reported by the driver)")
                     .arg(whose, dev);
        return v;
    }
    v.speedMbps = f.speedMbps;
    v.duplex = f.duplex;
    return v;
}

} // namespace wb
