#include "Socket.h"

#include "platform/Platform.h"

#include <algorithm>

namespace wb::net {

Fd &Fd::operator=(Fd &&o) noexcept
{
    if (this != &o)
        reset(o.release());
    return *this;
}

int Fd::release()
{
    const int fd = m_fd;
    m_fd = -1;
    return fd;
}

void Fd::reset(int fd)
{
    if (m_fd >= 0)
        closeSocket(m_fd);
    m_fd = fd;
}

double threadCpuSeconds()
{
    return platform::Platform::cpuTimes().threadSeconds();
}

int receiveLowWater(int recvBufferBytes)
{
    constexpr int kBulkLowWater = 128 * 1024;
    if (recvBufferBytes <= 0)
        return kBulkLowWater;
    return std::clamp(recvBufferBytes / 4, 1, kBulkLowWater);
}

std::string hostText(const sockaddr_storage &addr)
{
    char buf[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET) {
        const auto *a = reinterpret_cast<const sockaddr_in *>(&addr);
        inet_ntop(AF_INET, &a->sin_addr, buf, sizeof(buf));
    } else if (addr.ss_family == AF_INET6) {
        const auto *a = reinterpret_cast<const sockaddr_in6 *>(&addr);
        inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof(buf));
    }
    return buf;
}

std::uint16_t portOf(const sockaddr_storage &addr)
{
    if (addr.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&addr)->sin_port);
    if (addr.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&addr)->sin6_port);
    return 0;
}

std::string endpointText(const sockaddr_storage &addr)
{
    const std::string host = hostText(addr);
    const std::string port = std::to_string(portOf(addr));
    if (addr.ss_family == AF_INET6)
        return "[" + host + "]:" + port;
    return host + ":" + port;
}

bool sameHost(const sockaddr_storage &a, const sockaddr_storage &b)
{
    return hostText(a) == hostText(b);
}

} // namespace wb::net
