#include "LinkInfo.h"

#include "LinkTrust.h"
#include "model/Host.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkInterface>
#include <QRegularExpression>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

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

#ifdef Q_OS_UNIX
struct LocalRoute
{
    QHostAddress local;
    int pathMtu = 0;
    QString error;
};

// Connecting a UDP socket sends nothing: it only makes the kernel choose the route and source address.
LocalRoute routeTo(const QHostAddress &dest)
{
    LocalRoute r;
    const bool v6 = dest.protocol() == QAbstractSocket::IPv6Protocol;
    const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        r.error = QStringLiteral("cannot open a UDP socket: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return r;
    }
    sockaddr_storage ss{};
    socklen_t len = 0;
    if (v6) {
        auto *a = reinterpret_cast<sockaddr_in6 *>(&ss);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(9); // discard; nothing is sent
        const Q_IPV6ADDR ip = dest.toIPv6Address();
        std::memcpy(&a->sin6_addr, &ip, sizeof(ip));
        bool ok = false;
        const uint scope = dest.scopeId().toUInt(&ok);
        if (ok)
            a->sin6_scope_id = scope;
        else if (!dest.scopeId().isEmpty())
            a->sin6_scope_id = uint(QNetworkInterface::interfaceIndexFromName(dest.scopeId()));
        len = sizeof(sockaddr_in6);
    } else {
        auto *a = reinterpret_cast<sockaddr_in *>(&ss);
        a->sin_family = AF_INET;
        a->sin_port = htons(9);
        a->sin_addr.s_addr = htonl(dest.toIPv4Address());
        len = sizeof(sockaddr_in);
    }
#ifdef Q_OS_LINUX
    // Don't-fragment mode makes IP_MTU report the path MTU the kernel knows (route or learnt PMTU).
    if (v6) {
        int pmtu = IPV6_PMTUDISC_DO;
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &pmtu, sizeof(pmtu));
    } else {
        int pmtu = IP_PMTUDISC_DO;
        ::setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu));
    }
#endif
    if (::connect(fd, reinterpret_cast<sockaddr *>(&ss), len) != 0) {
        r.error = QStringLiteral("no route to %1: %2").arg(dest.toString(), QString::fromLocal8Bit(std::strerror(errno)));
        ::close(fd);
        return r;
    }
    sockaddr_storage local{};
    socklen_t localLen = sizeof(local);
    if (::getsockname(fd, reinterpret_cast<sockaddr *>(&local), &localLen) == 0)
        r.local.setAddress(reinterpret_cast<sockaddr *>(&local));
#ifdef Q_OS_LINUX
    int mtu = 0;
    socklen_t mtuLen = sizeof(mtu);
    if (v6 ? ::getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &mtuLen) == 0
           : ::getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &mtuLen) == 0)
        r.pathMtu = mtu;
#endif
    ::close(fd);
    return r;
}
#endif

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
#ifdef Q_OS_UNIX
    const LocalRoute route = routeTo(dest);
    if (!route.error.isEmpty()) {
        info.error = QStringLiteral("%1: %2; check the address and the routing table").arg(address, route.error);
        return info;
    }
    info.pathMtu = route.pathMtu;
    const QHostAddress local = route.local;
#else
    const QHostAddress local = dest.isLoopback() ? dest : QHostAddress();
#endif
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
