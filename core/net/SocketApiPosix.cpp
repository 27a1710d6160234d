// The POSIX form of SocketApi.h and of Socket.h's option calls (Linux, FreeBSD, macOS). SOCK_CLOEXEC and
// SOCK_NONBLOCK in socket(2) and socketpair(2) are POSIX.1-2024 (Linux, FreeBSD; macOS sets them by fcntl).
#include "SocketApi.h"

#include "Socket.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <net/if.h>
#include <sys/time.h>
#include <unistd.h>

namespace wb::net {

// Our PollFd is struct pollfd, member for member, so the array is handed to poll(2) as it is.
static_assert(sizeof(PollFd) == sizeof(pollfd) && offsetof(PollFd, events) == offsetof(pollfd, events)
              && offsetof(PollFd, revents) == offsetof(pollfd, revents));

bool startSockets(std::string *)
{
    return true;
}

int pollSockets(PollFd *fds, std::size_t count, int timeoutMs)
{
    return ::poll(reinterpret_cast<pollfd *>(fds), nfds_t(count), timeoutMs);
}

int openSocket(int family, int type, bool nonBlocking)
{
    return ::socket(family, type | SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0), 0);
}

void closeSocket(int fd)
{
    ::close(fd);
}

ssize_t receive(int fd, void *buffer, std::size_t size, int flags)
{
    return ::recv(fd, buffer, size, flags);
}

ssize_t receiveFrom(int fd, void *buffer, std::size_t size, int flags, sockaddr *from, socklen_t *fromLength)
{
    return ::recvfrom(fd, buffer, size, flags, from, fromLength);
}

int bindSocket(int fd, const sockaddr *address, socklen_t length)
{
    return ::bind(fd, address, length);
}

int listenSocket(int fd, int backlog)
{
    return ::listen(fd, backlog);
}

int connectSocket(int fd, const sockaddr *address, socklen_t length)
{
    return ::connect(fd, address, length);
}

int localAddress(int fd, sockaddr_storage *address, socklen_t *length)
{
    return ::getsockname(fd, reinterpret_cast<sockaddr *>(address), length);
}

void shutdownSend(int fd)
{
    ::shutdown(fd, SHUT_WR);
}

void setListenReuse(int fd)
{
    setIntOption(fd, SOL_SOCKET, SO_REUSEADDR, 1);
}

unsigned interfaceIndex(const std::string &name)
{
    return ::if_nametoindex(name.c_str());
}

bool socketPair(int fds[2])
{
    return ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, fds) == 0;
}

std::string errnoText(int err)
{
    return std::strerror(err);
}

bool setIntOption(int fd, int level, int option, int value, std::string *error)
{
    if (::setsockopt(fd, level, option, &value, sizeof(value)) == 0)
        return true;
    if (error)
        *error = errnoText(errno);
    return false;
}

bool setNonBlocking(int fd, bool on)
{
    const int flags = ::fcntl(fd, F_GETFL, 0);
    if (flags < 0)
        return false;
    return ::fcntl(fd, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK)) == 0;
}

void setIoTimeouts(int fd, int ms)
{
    timeval tv{};
    tv.tv_sec = ms / 1000;
    tv.tv_usec = (ms % 1000) * 1000;
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

int setReceiveLowWater(int fd, int recvBufferBytes)
{
    const int bytes = receiveLowWater(recvBufferBytes);
    return ::setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof(bytes)) == 0 ? bytes : 0;
}

} // namespace wb::net
