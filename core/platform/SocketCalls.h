#pragma once

#include <cstddef>

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#include <sys/types.h> // ssize_t
// Winsock has no per-call "do not wait": WindowsSocketCalls::send and net::receive emulate it (a zero-timeout
// WSAPoll first). A bit no Winsock MSG_ flag uses.
#ifndef MSG_DONTWAIT
#define MSG_DONTWAIT 0x40000000
#endif
#else
#include <sys/socket.h>
#include <sys/types.h>
#endif

namespace wb::platform {

/// The socket calls whose form only some OSes have, on a socket of one's own. Linux: send(2) with MSG_NOSIGNAL,
/// accept4(2) with SOCK_CLOEXEC and SOCK_NONBLOCK, the TCP_CONGESTION option and the SIOCINQ ioctl; a macOS port
/// would set SO_NOSIGPIPE, accept then fcntl(2) and read FIONREAD; Windows has no SIGPIPE to avoid
/// (WindowsSocketCalls).
class SocketCalls
{
public:
    virtual ~SocketCalls() = default;
    /// send(2) with flags (MSG_DONTWAIT, ...) that never raises SIGPIPE: a connection the peer closed is -1 with
    /// errno EPIPE, as any other failure.
    virtual ssize_t send(int fd, const void *data, std::size_t size, int flags) const = 0;
    /// accept(2) whose descriptor is close-on-exec and, with nonBlocking, non-blocking from the start; -1 with errno.
    virtual int accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const = 0;
    /// Sets the TCP congestion control algorithm of fd by name (length bytes, no NUL needed): false with errno
    /// where the OS does not know the name, refuses it or has no such option.
    virtual bool setCongestionControl(int fd, const char *name, std::size_t length) const = 0;
    /// The bytes that arrived on the connected stream socket fd and are not read yet; false when the OS
    /// cannot tell.
    virtual bool unreadBytes(int fd, int *bytes) const = 0;

    /// Zero copy (iperf3 -Z, --skip-rx-copy). A file in memory holding content, for sendFile: its descriptor
    /// (close-on-exec), or -1 with errno where the OS has none. Linux: an unnamed file in $TMPDIR or /tmp
    /// (O_TMPFILE; its page cache is cheaper to splice from than shmem), else memfd_create(2).
    virtual int memoryFile(const void *content, std::size_t size) const = 0;
    /// Sends size bytes of file from offset on the connected socket fd without copying them through this
    /// process (Linux: sendfile(2)); it has no per-call flags, so the socket's own mode says whether it waits.
    /// What was sent, or -1 with errno (ENOSYS: not on this OS).
    virtual ssize_t sendFile(int fd, int file, long long offset, std::size_t size) const = 0;
    /// The recv(2) flag that takes a stream's bytes off the socket without copying them (Linux: MSG_TRUNC on
    /// TCP); 0 where the OS has none.
    virtual int discardFlag() const = 0;
};

} // namespace wb::platform
