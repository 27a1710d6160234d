#include "PlatformAddress.h"

#include <QNetworkInterface>

#include <cstring>

namespace wb {

QHostAddress PlatformAddress::toQt(const platform::IpAddress &a)
{
    if (a.family == platform::IpAddress::Family::V4) {
        const auto &b = a.bytes;
        return QHostAddress(quint32(b[0]) << 24 | quint32(b[1]) << 16 | quint32(b[2]) << 8 | quint32(b[3]));
    }
    if (a.family == platform::IpAddress::Family::V6) {
        Q_IPV6ADDR ip;
        std::memcpy(&ip, a.bytes.data(), sizeof(ip));
        return QHostAddress(ip);
    }
    return {};
}

platform::IpAddress PlatformAddress::fromQt(const QHostAddress &a)
{
    platform::IpAddress out;
    if (a.protocol() == QAbstractSocket::IPv6Protocol) {
        out.family = platform::IpAddress::Family::V6;
        const Q_IPV6ADDR ip = a.toIPv6Address();
        std::memcpy(out.bytes.data(), &ip, sizeof(ip));
        bool ok = false;
        const uint scope = a.scopeId().toUInt(&ok);
        if (ok)
            out.scopeId = scope;
        else if (!a.scopeId().isEmpty())
            out.scopeId = uint(QNetworkInterface::interfaceIndexFromName(a.scopeId()));
    } else {
        out.family = platform::IpAddress::Family::V4;
        const quint32 v4 = a.toIPv4Address();
        out.bytes = {std::uint8_t(v4 >> 24), std::uint8_t(v4 >> 16), std::uint8_t(v4 >> 8), std::uint8_t(v4)};
    }
    return out;
}

} // namespace wb
