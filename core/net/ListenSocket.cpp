#include "ListenSocket.h"

#include "Address.h"

#include <cerrno>

#include <netinet/in.h>

namespace wb::net {

bool openListenSocket(const platform::IpAddress &address, std::uint16_t port, Fd *out, std::uint16_t *boundPort,
                      ListenFailure *failure)
{
    auto fail = [&](const char *step, int err) {
        if (failure)
            *failure = ListenFailure{step, err};
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
    if (sa.ss_family == AF_INET6) // "::" accepts IPv4 too (dual stack), other IPv6 addresses only IPv6
        setIntOption(out->get(), IPPROTO_IPV6, IPV6_V6ONLY, isUnspecified(address) ? 0 : 1);
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
