#include "LinuxRoutes.h"

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::platform {

RouteReading LinuxRoutes::routeTo(const IpAddress &dest) const
{
    RouteReading r;
    const bool v6 = dest.family == IpAddress::Family::V6;
    const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        r.failure = RouteReading::Failure::NoSocket;
        r.reason = std::strerror(errno);
        return r;
    }
    sockaddr_storage ss{};
    socklen_t len = 0;
    if (v6) {
        auto *a = reinterpret_cast<sockaddr_in6 *>(&ss);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(9); // discard; nothing is sent
        std::memcpy(&a->sin6_addr, dest.bytes.data(), 16);
        a->sin6_scope_id = dest.scopeId;
        len = sizeof(sockaddr_in6);
    } else {
        auto *a = reinterpret_cast<sockaddr_in *>(&ss);
        a->sin_family = AF_INET;
        a->sin_port = htons(9);
        std::memcpy(&a->sin_addr, dest.bytes.data(), 4);
        len = sizeof(sockaddr_in);
    }
    // Don't-fragment mode makes IP_MTU report the path MTU the kernel knows (route or learnt PMTU).
    if (v6) {
        int pmtu = IPV6_PMTUDISC_DO;
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &pmtu, sizeof(pmtu));
    } else {
        int pmtu = IP_PMTUDISC_DO;
        ::setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu));
    }
    if (::connect(fd, reinterpret_cast<sockaddr *>(&ss), len) != 0) {
        r.failure = RouteReading::Failure::NoRoute;
        r.reason = std::strerror(errno);
        ::close(fd);
        return r;
    }
    sockaddr_storage local{};
    socklen_t localLen = sizeof(local);
    if (::getsockname(fd, reinterpret_cast<sockaddr *>(&local), &localLen) == 0) {
        if (local.ss_family == AF_INET) {
            r.local.family = IpAddress::Family::V4;
            std::memcpy(r.local.bytes.data(), &reinterpret_cast<sockaddr_in *>(&local)->sin_addr, 4);
        } else if (local.ss_family == AF_INET6) {
            r.local.family = IpAddress::Family::V6;
            std::memcpy(r.local.bytes.data(), &reinterpret_cast<sockaddr_in6 *>(&local)->sin6_addr, 16);
        }
    }
    int mtu = 0;
    socklen_t mtuLen = sizeof(mtu);
    if (v6 ? ::getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &mtuLen) == 0
           : ::getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &mtuLen) == 0)
        r.pathMtu = mtu;
    ::close(fd);
    return r;
}

} // namespace wb::platform
