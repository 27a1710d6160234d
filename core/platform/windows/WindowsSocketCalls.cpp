#include "WindowsSocketCalls.h"

#include "platform/windows/WinsockErrors.h"

#include <algorithm>
#include <cerrno>
#include <climits>

namespace wb::platform {

ssize_t WindowsSocketCalls::send(int fd, const void *data, std::size_t size, int flags) const
{
    if ((flags & MSG_DONTWAIT) && !WinsockErrors::readyNow(fd, POLLWRNORM)) {
        errno = EAGAIN;
        return -1;
    }
    const int n = ::send(SOCKET(fd), static_cast<const char *>(data), int(std::min<std::size_t>(size, INT_MAX)),
                         flags & ~MSG_DONTWAIT);
    return n == SOCKET_ERROR ? WinsockErrors::fail() : n;
}

int WindowsSocketCalls::accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const
{
    const SOCKET s = ::accept(SOCKET(listenFd), peer, peerLength);
    if (s == INVALID_SOCKET)
        return WinsockErrors::fail();
    // The accepted socket takes the listener's non-blocking mode: set it either way.
    u_long on = nonBlocking ? 1 : 0;
    ::ioctlsocket(s, FIONBIO, &on);
    return int(s);
}

bool WindowsSocketCalls::setCongestionControl(int, const char *, std::size_t) const
{
    errno = ENOPROTOOPT; // the system's one congestion provider (netsh int tcp set supplemental) for all sockets
    return false;
}

bool WindowsSocketCalls::unreadBytes(int fd, int *bytes) const
{
    u_long n = 0;
    if (::ioctlsocket(SOCKET(fd), FIONREAD, &n) != 0)
        return false;
    *bytes = int(std::min<u_long>(n, INT_MAX));
    return true;
}

int WindowsSocketCalls::memoryFile(const void *, std::size_t) const
{
    errno = ENOSYS;
    return -1;
}

ssize_t WindowsSocketCalls::sendFile(int, int, long long, std::size_t) const
{
    errno = ENOSYS;
    return -1;
}

} // namespace wb::platform
