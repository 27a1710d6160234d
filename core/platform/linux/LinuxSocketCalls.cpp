#include "LinuxSocketCalls.h"

#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>

namespace wb::platform {

ssize_t LinuxSocketCalls::send(int fd, const void *data, std::size_t size, int flags) const
{
    return ::send(fd, data, size, flags | MSG_NOSIGNAL);
}

int LinuxSocketCalls::accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const
{
    return ::accept4(listenFd, peer, peerLength, SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0));
}

bool LinuxSocketCalls::setCongestionControl(int fd, const char *name, std::size_t length) const
{
    return ::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, socklen_t(length)) == 0;
}

bool LinuxSocketCalls::unreadBytes(int fd, int *bytes) const
{
    return ::ioctl(fd, SIOCINQ, bytes) == 0;
}

} // namespace wb::platform
