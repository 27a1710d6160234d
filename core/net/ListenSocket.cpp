#include "ListenSocket.h"

#include "Address.h"

#include <cerrno>

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
    out->reset(openSocket(sa.ss_family, SOCK_STREAM, false));
    if (!out->valid())
        return fail("create a socket", errno);
    setListenReuse(out->get());
    if (sa.ss_family == AF_INET6) // "::" accepts IPv4 too (dual stack), other IPv6 addresses only IPv6
        setIntOption(out->get(), IPPROTO_IPV6, IPV6_V6ONLY, isUnspecified(address) ? 0 : 1);
    if (bindSocket(out->get(), reinterpret_cast<sockaddr *>(&sa), len) != 0)
        return fail("listen", errno);
    if (listenSocket(out->get(), 128) != 0)
        return fail("listen", errno);
    setNonBlocking(out->get(), true);
    sockaddr_storage bound{};
    socklen_t blen = sizeof(bound);
    localAddress(out->get(), &bound, &blen);
    if (boundPort)
        *boundPort = portOf(bound);
    return true;
}

} // namespace wb::net
