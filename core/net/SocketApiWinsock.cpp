// The Winsock 2 form of SocketApi.h and of Socket.h's option calls (Windows 8 / Server 2012 and later). Every
// failure goes through platform::WinsockErrors, which leaves errno as POSIX names it.
#include "SocketApi.h"

#include "Socket.h"

#include "platform/windows/WinsockErrors.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <vector>

#include <iphlpapi.h>

namespace wb::net {

using platform::WinsockErrors;

namespace {

SOCKET sock(int fd)
{
    return fd < 0 ? INVALID_SOCKET : SOCKET(fd);
}

int result(int rc)
{
    return rc == SOCKET_ERROR ? WinsockErrors::fail() : rc;
}

int length(std::size_t size)
{
    return int(std::min<std::size_t>(size, INT_MAX));
}

} // namespace

bool startSockets(std::string *error)
{
    WSADATA data{};
    const int rc = ::WSAStartup(MAKEWORD(2, 2), &data);
    if (rc != 0 && error)
        *error = WinsockErrors::text(WinsockErrors::toErrno(rc));
    return rc == 0;
}

int pollSockets(PollFd *fds, std::size_t count, int timeoutMs)
{
    std::vector<WSAPOLLFD> wsa(count);
    for (std::size_t i = 0; i < count; ++i) {
        wsa[i].fd = sock(fds[i].fd);
        // WSAPoll refuses POLLPRI and takes the normal-data bits only.
        wsa[i].events
            = short(((fds[i].events & POLLIN) ? POLLRDNORM : 0) | ((fds[i].events & POLLOUT) ? POLLWRNORM : 0));
        wsa[i].revents = 0;
    }
    const int n = ::WSAPoll(wsa.data(), ULONG(count), timeoutMs);
    if (n == SOCKET_ERROR)
        return WinsockErrors::fail();
    for (std::size_t i = 0; i < count; ++i) {
        short r = wsa[i].revents;
        if ((r & (POLLHUP | POLLERR)) && (fds[i].events & POLLIN))
            r |= POLLIN; // as poll(2): the end of the stream or an error is something to read
        if (r & POLLRDNORM)
            r |= POLLIN;
        if (r & POLLWRNORM)
            r |= POLLOUT;
        fds[i].revents = short(r & (fds[i].events | POLLHUP | POLLERR | POLLNVAL));
    }
    return n;
}

int openSocket(int family, int type, bool nonBlocking)
{
    // Overlapped (as socket() makes them): SO_RCVTIMEO and SO_SNDTIMEO work only on those.
    const SOCKET s = ::WSASocketW(family, type, 0, nullptr, 0, WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    if (s == INVALID_SOCKET)
        return WinsockErrors::fail();
    if (nonBlocking)
        setNonBlocking(int(s), true);
    return int(s);
}

void closeSocket(int fd)
{
    ::closesocket(sock(fd));
}

ssize_t receive(int fd, void *buffer, std::size_t size, int flags)
{
    if ((flags & MSG_DONTWAIT) && !WinsockErrors::readyNow(fd, POLLRDNORM)) {
        errno = EAGAIN;
        return -1;
    }
    return result(::recv(sock(fd), static_cast<char *>(buffer), length(size), flags & ~MSG_DONTWAIT));
}

ssize_t receiveFrom(int fd, void *buffer, std::size_t size, int flags, sockaddr *from, socklen_t *fromLength)
{
    if ((flags & MSG_DONTWAIT) && !WinsockErrors::readyNow(fd, POLLRDNORM)) {
        errno = EAGAIN;
        return -1;
    }
    return result(
        ::recvfrom(sock(fd), static_cast<char *>(buffer), length(size), flags & ~MSG_DONTWAIT, from, fromLength));
}

int bindSocket(int fd, const sockaddr *address, socklen_t length)
{
    return result(::bind(sock(fd), address, length));
}

int listenSocket(int fd, int backlog)
{
    return result(::listen(sock(fd), backlog));
}

int connectSocket(int fd, const sockaddr *address, socklen_t length)
{
    return result(::connect(sock(fd), address, length));
}

int localAddress(int fd, sockaddr_storage *address, socklen_t *length)
{
    return result(::getsockname(sock(fd), reinterpret_cast<sockaddr *>(address), length));
}

void shutdownSend(int fd)
{
    ::shutdown(sock(fd), SD_SEND);
}

void setListenReuse(int fd)
{
    setIntOption(fd, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, 1);
}

unsigned interfaceIndex(const std::string &name)
{
    return ::if_nametoindex(name.c_str());
}

bool socketPair(int fds[2])
{
    // A listener on a free loopback port, one connection to it, the listener closed: the pair stays.
    fds[0] = fds[1] = -1;
    Fd listener(openSocket(AF_INET, SOCK_STREAM, false));
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (!listener.valid() || bindSocket(listener.get(), reinterpret_cast<sockaddr *>(&a), len) != 0
        || listenSocket(listener.get(), 1) != 0
        || localAddress(listener.get(), reinterpret_cast<sockaddr_storage *>(&a), &len) != 0)
        return false;
    Fd writer(openSocket(AF_INET, SOCK_STREAM, false));
    if (!writer.valid() || connectSocket(writer.get(), reinterpret_cast<sockaddr *>(&a), len) != 0)
        return false;
    const SOCKET reader = ::accept(sock(listener.get()), nullptr, nullptr);
    if (reader == INVALID_SOCKET) {
        WinsockErrors::fail();
        return false;
    }
    setNonBlocking(int(reader), true);
    setNonBlocking(writer.get(), true);
    setIntOption(writer.get(), IPPROTO_TCP, TCP_NODELAY, 1);
    fds[0] = int(reader);
    fds[1] = writer.release();
    return true;
}

std::string errnoText(int err)
{
    return WinsockErrors::text(err);
}

bool setIntOption(int fd, int level, int option, int value, std::string *error)
{
    if (::setsockopt(sock(fd), level, option, reinterpret_cast<const char *>(&value), sizeof(value)) == 0)
        return true;
    WinsockErrors::fail();
    if (error)
        *error = errnoText(errno);
    return false;
}

bool setNonBlocking(int fd, bool on)
{
    u_long mode = on ? 1 : 0;
    return ::ioctlsocket(sock(fd), FIONBIO, &mode) == 0;
}

void setIoTimeouts(int fd, int ms)
{
    const DWORD timeout = DWORD(ms);
    ::setsockopt(sock(fd), SOL_SOCKET, SO_SNDTIMEO, reinterpret_cast<const char *>(&timeout), sizeof(timeout));
    ::setsockopt(sock(fd), SOL_SOCKET, SO_RCVTIMEO, reinterpret_cast<const char *>(&timeout), sizeof(timeout));
}

int setReceiveLowWater(int, int)
{
    return 0; // Windows does not let SO_RCVLOWAT be set: every arrival wakes the reader
}

} // namespace wb::net
