#pragma once

// The socket calls whose form differs between POSIX and Winsock 2, so that the responders are written once.
// SocketApiPosix.cpp (Linux, FreeBSD, macOS) and SocketApiWinsock.cpp (Windows) are the two forms; the build picks
// one (core/net/CMakeLists.txt). A failed call leaves the reason in errno as POSIX names it (EAGAIN, ECONNRESET,
// EPIPE, ...): the Winsock form turns WSAGetLastError() into those names, so a caller checks errno alike on both.
// A descriptor is an int on both: a Winsock SOCKET is a kernel handle, whose value fits in 32 bits on 64-bit
// Windows (handles are kept 32-bit significant for 32-bit processes to share them).

// MSG_DONTWAIT on Windows too (platform/SocketCalls.h)
#include "platform/SocketCalls.h"

#include <cstddef>
#include <cstdint>
#include <string>

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
// Windows 10 1709 and later (ws2ipdef.h of the Windows SDK; not in mingw-w64 10's).
#ifndef TCP_MAXSEG
#define TCP_MAXSEG 4
#endif
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#endif

namespace wb::net {

/// One descriptor to wait on, as poll(2)'s struct pollfd (POLLIN, POLLOUT, POLLERR, POLLHUP), with an int
/// descriptor on every OS so that it is written with braces alike.
struct PollFd
{
    int fd = -1;
    short events = 0;
    short revents = 0;
};

/// Sockets usable from here on (WSAStartup on Windows, once per process; nothing elsewhere): false with the
/// reason in *error.
bool startSockets(std::string *error);
/// poll(2) / WSAPoll: the count of ready descriptors, 0 on time-out, -1 with errno. A hang-up or error of a
/// descriptor waited on for reading shows as POLLIN too, as poll(2) has it (the next recv says which).
int pollSockets(PollFd *fds, std::size_t count, int timeoutMs);
/// A TCP or UDP socket (type SOCK_STREAM, SOCK_DGRAM) that no child process inherits (SOCK_CLOEXEC,
/// WSA_FLAG_NO_HANDLE_INHERIT), non-blocking when asked; -1 with errno.
int openSocket(int family, int type, bool nonBlocking);
/// close(2) / closesocket.
void closeSocket(int fd);
/// recv(2) with flags (MSG_DONTWAIT works on a blocking socket too); -1 with errno. A receive time-out
/// (SO_RCVTIMEO) is EAGAIN on both.
ssize_t receive(int fd, void *buffer, std::size_t size, int flags);
ssize_t receiveFrom(int fd, void *buffer, std::size_t size, int flags, sockaddr *from, socklen_t *fromLength);
/// bind(2), listen(2), connect(2), getsockname(2): 0, or -1 with errno.
int bindSocket(int fd, const sockaddr *address, socklen_t length);
int listenSocket(int fd, int backlog);
int connectSocket(int fd, const sockaddr *address, socklen_t length);
int localAddress(int fd, sockaddr_storage *address, socklen_t *length);
/// No more sends (shutdown SHUT_WR / SD_SEND): the peer reads the end of the stream.
void shutdownSend(int fd);
/// A listening socket owns its port alone: SO_REUSEADDR on POSIX (a port in TIME_WAIT can be bound again),
/// SO_EXCLUSIVEADDRUSE on Windows (whose SO_REUSEADDR would let another program take over a bound port).
void setListenReuse(int fd);
/// The index of the network interface called name (an IPv6 scope, "fe80::1%eth0"); 0 when there is none.
unsigned interfaceIndex(const std::string &name);
/// Two connected, non-blocking stream sockets, for one thread to wake another that waits in poll(): a local
/// socketpair(2) on POSIX, a loopback TCP pair on Windows (WSAPoll waits on sockets only, not on pipes).
bool socketPair(int fds[2]);

} // namespace wb::net
