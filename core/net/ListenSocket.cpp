#include "ListenSocket.h"

#include <cerrno>
#include <cstring>

#include <netinet/in.h>

namespace wb::net {

bool toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage *out, socklen_t *len)
{
    std::memset(out, 0, sizeof(*out));
    QHostAddress a = address;
    if (a == QHostAddress(QHostAddress::Any))
        a = QHostAddress(QHostAddress::AnyIPv6); // dual stack, see openListenSocket
    if (a.protocol() == QAbstractSocket::IPv4Protocol) {
        auto *s = reinterpret_cast<sockaddr_in *>(out);
        s->sin_family = AF_INET;
        s->sin_port = htons(port);
        s->sin_addr.s_addr = htonl(a.toIPv4Address());
        *len = sizeof(sockaddr_in);
        return true;
    }
    if (a.protocol() == QAbstractSocket::IPv6Protocol) {
        auto *s = reinterpret_cast<sockaddr_in6 *>(out);
        s->sin6_family = AF_INET6;
        s->sin6_port = htons(port);
        const Q_IPV6ADDR v6 = a.toIPv6Address();
        std::memcpy(&s->sin6_addr, v6.c, 16);
        bool ok = false;
        const quint32 scope = a.scopeId().toUInt(&ok);
        if (ok)
            s->sin6_scope_id = scope;
        *len = sizeof(sockaddr_in6);
        return true;
    }
    return false;
}

QHostAddress peerAddress(const sockaddr_storage &peer)
{
    QHostAddress a(reinterpret_cast<const sockaddr *>(&peer));
    bool ok = false;
    const quint32 v4 = a.toIPv4Address(&ok);
    return ok ? QHostAddress(v4) : a;
}

bool openListenSocket(const QHostAddress &address, quint16 port, Fd *out, quint16 *boundPort, ListenFailure *failure)
{
    auto fail = [&](const char *step, int err) {
        if (failure)
            *failure = ListenFailure{QString::fromLatin1(step), err};
        out->reset();
        return false;
    };
    sockaddr_storage sa{};
    socklen_t len = 0;
    if (!toSockaddr(address, port, &sa, &len))
        return fail("", 0);
    out->reset(::socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!out->valid())
        return fail("create a socket", errno);
    setIntOption(out->get(), SOL_SOCKET, SO_REUSEADDR, 1);
    if (sa.ss_family == AF_INET6) // "Any" and "::" accept IPv4 too (dual stack), other IPv6 addresses only IPv6
        setIntOption(out->get(), IPPROTO_IPV6, IPV6_V6ONLY,
                     address == QHostAddress(QHostAddress::Any) || address == QHostAddress(QHostAddress::AnyIPv6) ? 0 : 1);
    if (::bind(out->get(), reinterpret_cast<sockaddr *>(&sa), len) != 0)
        return fail("listen", errno);
    if (::listen(out->get(), 128) != 0)
        return fail("listen", errno);
    setNonBlocking(out->get(), true);
    sockaddr_storage bound{};
    socklen_t blen = sizeof(bound);
    ::getsockname(out->get(), reinterpret_cast<sockaddr *>(&bound), &blen);
    if (boundPort)
        *boundPort = portOf(bound);
    return true;
}

} // namespace wb::net
