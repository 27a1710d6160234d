#pragma once

#include <string>

namespace wb::platform {

/// Winsock's errors in POSIX's names, for the Winsock forms of the socket calls (WindowsSocketCalls here,
/// core/net/SocketApiWinsock.cpp): a failed call leaves errno as POSIX names it (WSAEWOULDBLOCK is EAGAIN,
/// WSAECONNRESET ECONNRESET, ...), so that the responders check errno alike on every OS.
class WinsockErrors
{
public:
    /// The errno of a Winsock error code; an error POSIX has no name for keeps its WSA code (10000 and up).
    static int toErrno(int wsaError);
    /// errno from WSAGetLastError(); returns -1, what the failed call returns.
    static int fail();
    /// The text of an errno value as Linux's C library words it ("Connection reset by peer"); a WSA code's
    /// as Windows words it.
    static std::string text(int err);
    /// Whether socket fd is ready for events (POLLRDNORM, POLLWRNORM) now, or has failed or hung up: what a
    /// MSG_DONTWAIT call looks at first, since Winsock has no per-call non-blocking flag.
    static bool readyNow(int fd, short events);
};

} // namespace wb::platform
