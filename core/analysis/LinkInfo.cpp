#include "LinkInfo.h"

#include "LinkTrust.h"
#include "PlatformAddress.h"
#include "model/Host.h"
#include "platform/Platform.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkInterface>
#include <QRegularExpression>

#include <algorithm>

namespace wb {

double LinkInfo::effectiveSpeedMbps() const
{
    if (overrideSpeedMbps > 0)
        return overrideSpeedMbps;
    if (speedMbps > 0 && remoteSpeedMbps > 0)
        return std::min(speedMbps, remoteSpeedMbps);
    if (speedMbps > 0)
        return speedMbps;
    if (remoteSpeedMbps > 0)
        return remoteSpeedMbps;
    return -1;
}

QString LinkInfo::speedSource() const
{
    if (overrideSpeedMbps > 0)
        return QStringLiteral("override");
    if (speedMbps > 0 && remoteSpeedMbps > 0)
        return remoteSpeedMbps < speedMbps ? QStringLiteral("remote") : QStringLiteral("local");
    if (speedMbps > 0)
        return QStringLiteral("local");
    if (remoteSpeedMbps > 0)
        return QStringLiteral("remote");
    return QStringLiteral("unknown");
}

namespace {

struct LocalRoute
{
    QHostAddress local;
    int pathMtu = 0;
    QString error;
};

// The route the platform would take (it sends nothing): the source address and the path MTU.
LocalRoute routeTo(const QHostAddress &dest)
{
    const platform::RouteReading reading = platform::Platform::routes().routeTo(PlatformAddress::fromQt(dest));
    LocalRoute r;
    const QString reason = QString::fromStdString(reading.reason);
    if (reading.failure == platform::RouteReading::Failure::NoSocket) {
        r.error = QStringLiteral("cannot open a UDP socket: %1").arg(reason);
        return r;
    }
    if (reading.failure == platform::RouteReading::Failure::NoRoute) {
        r.error = QStringLiteral("no route to %1: %2").arg(dest.toString(), reason);
        return r;
    }
    r.local = PlatformAddress::toQt(reading.local);
    r.pathMtu = reading.pathMtu;
    return r;
}

bool sameAddress(const QHostAddress &a, const QHostAddress &b)
{
    if (a.isEqual(b, QHostAddress::TolerantConversion))
        return true;
    // Link-local IPv6 addresses carry a scope on one side only.
    QHostAddress x = a, y = b;
    x.setScopeId({});
    y.setScopeId({});
    return x == y;
}

} // namespace

void LinkProbe::readSpeedAndDuplex(const QString &name, double *speedMbps, QString *duplex, QString *note)
{
    const SpeedVerdict v = LinkTrust::judge(InterfaceFacts::read(name));
    *speedMbps = v.speedMbps;
    *duplex = v.duplex;
    *note = v.note;
}

LinkInfo LinkProbe::probe(const QString &address)
{
    LinkInfo info;
    info.destination = address;
    QString text = address.trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
        text = text.mid(1, text.size() - 2);
    QHostAddress dest(text);
    if (dest.isNull()) {
        static const QRegularExpression hostName(QStringLiteral("^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$"));
        if (!hostName.match(text).hasMatch()) {
            info.error = QStringLiteral("\"%1\" is neither an IP address nor a host name; check the address")
                             .arg(address.left(80).simplified());
            return info;
        }
        const QHostInfo hi = QHostInfo::fromName(text);
        for (const QHostAddress &a : hi.addresses()) {
            if (a.protocol() == QAbstractSocket::IPv4Protocol || a.protocol() == QAbstractSocket::IPv6Protocol) {
                dest = a;
                break;
            }
        }
        if (dest.isNull()) {
            info.error = QStringLiteral("%1: cannot resolve the name to look up its link (%2); check the address")
                             .arg(address, hi.errorString());
            return info;
        }
    }
    info.resolvedAddress = dest.toString();
    const LocalRoute route = routeTo(dest);
    if (!route.error.isEmpty()) {
        info.error = QStringLiteral("%1: %2; check the address and the routing table").arg(address, route.error);
        return info;
    }
    info.pathMtu = route.pathMtu;
    const QHostAddress local = route.local;
    for (const QNetworkInterface &iface : QNetworkInterface::allInterfaces()) {
        for (const QNetworkAddressEntry &entry : iface.addressEntries()) {
            if (!local.isNull() && sameAddress(entry.ip(), local)) {
                info.interfaceName = iface.name();
                info.interfaceMtu = iface.maximumTransmissionUnit();
                break;
            }
        }
        if (!info.interfaceName.isEmpty())
            break;
    }
    if (info.interfaceName.isEmpty()) {
        info.speedNote = QStringLiteral("no local interface holds the source address %1").arg(local.toString());
        return info;
    }
    const InterfaceFacts facts = InterfaceFacts::read(info.interfaceName);
    const SpeedVerdict v = LinkTrust::judge(facts);
    info.speedMbps = v.speedMbps;
    info.duplex = v.duplex;
    info.speedNote = v.note;
    info.device = facts.device;
    info.driver = facts.driver;
    info.kind = local.isLoopback() ? QStringLiteral("loopback") : LinkTrust::kindOf(facts);
    return info;
}

LinkInfo LinkProbe::probe(const Host &host, double remoteSpeedMbps)
{
    LinkInfo info = probe(host.address);
    info.overrideSpeedMbps = host.linkSpeedMbps > 0 ? host.linkSpeedMbps : 0;
    info.remoteSpeedMbps = remoteSpeedMbps > 0 ? remoteSpeedMbps : -1;
    return info;
}

} // namespace wb
