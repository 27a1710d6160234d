#include "InterfaceFacts.h"

#include "platform/Platform.h"
#include "wire/QtWire.h"

#include <QJsonValue>

namespace wb {

namespace {

/// A peer's string as safe, short text: printable ASCII only (it ends up in notes and logs).
QString cleanText(const QJsonValue &v, int maxChars = 32)
{
    QString out;
    for (const QChar c : v.toString().left(maxChars)) {
        if (c.unicode() >= 0x20 && c.unicode() < 0x7f)
            out += c;
    }
    return out;
}

} // namespace

InterfaceFacts InterfaceFacts::read(const QString &name)
{
    const platform::InterfaceReading r = platform::Platform::interfaces().read(name.toStdString());
    InterfaceFacts f;
    f.name = name;
    f.device = QString::fromStdString(r.device);
    f.driver = QString::fromStdString(r.driver);
    f.loopback = r.loopback;
    f.isVirtual = r.isVirtual;
    f.bond = r.bond;
    f.lowerMissing = r.lowerMissing;
    f.hypervisor = r.hypervisor;
    f.speedMbps = r.speedMbps;
    f.duplex = QString::fromStdString(r.duplex);
    f.mtu = r.mtu;
    f.error = QString::fromStdString(r.error);
    return f;
}

bool InterfaceFacts::readErrorCounters(const QString &name, qint64 *crcErrors, qint64 *frameErrors)
{
    const std::optional<platform::InterfaceErrors> e = platform::Platform::interfaces().errors(name.toStdString());
    if (!e)
        return false;
    *crcErrors = e->crcErrors;
    *frameErrors = e->frameErrors;
    return true;
}

QJsonObject InterfaceFacts::toJson() const
{
    // The one writer of this JSON is FarEndFacts, which the Qt-free wirebenchd uses for its hello.
    platform::InterfaceReading r;
    r.device = device.toStdString();
    r.driver = driver.toStdString();
    r.loopback = loopback;
    r.isVirtual = isVirtual;
    r.bond = bond;
    r.lowerMissing = lowerMissing;
    r.hypervisor = hypervisor;
    r.speedMbps = speedMbps;
    r.duplex = duplex.toStdString();
    r.mtu = mtu;
    r.error = error.left(200).toStdString();
    return wire::toQt(FarEndFacts::interfaceJson(name.toStdString(), r));
}

InterfaceFacts InterfaceFacts::fromJson(const QJsonObject &o)
{
    InterfaceFacts f;
    if (o.value(QLatin1String("version")).toInt(0) < 1) {
        f.error = QStringLiteral("it did not say what kind of interface it is (an older wirebenchd)");
        return f;
    }
    f.name = cleanText(o.value(QLatin1String("name")));
    f.device = cleanText(o.value(QLatin1String("device")));
    if (f.device.isEmpty())
        f.device = f.name;
    f.driver = cleanText(o.value(QLatin1String("driver")));
    f.loopback = o.value(QLatin1String("loopback")).toBool();
    f.isVirtual = o.value(QLatin1String("virtual")).toBool();
    f.bond = o.value(QLatin1String("bond")).toBool();
    f.lowerMissing = o.value(QLatin1String("lower_missing")).toBool();
    f.hypervisor = o.value(QLatin1String("hypervisor")).toBool();
    const double speed = o.value(QLatin1String("speed_mbps")).toDouble(-1);
    f.speedMbps = speed > 0 && speed < 1e9 ? speed : -1;
    const QString d = cleanText(o.value(QLatin1String("duplex")));
    f.duplex = d == QLatin1String("full") || d == QLatin1String("half") ? d : QStringLiteral("unknown");
    const int mtu = o.value(QLatin1String("mtu")).toInt(0);
    f.mtu = mtu >= 68 && mtu <= 65535 ? mtu : 0; // IPv4's minimum to the largest IP packet
    f.error = cleanText(o.value(QLatin1String("error")), 200);
    return f;
}

} // namespace wb
