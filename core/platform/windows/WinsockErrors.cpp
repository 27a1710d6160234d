#include "WinsockErrors.h"

#include "platform/windows/WindowsText.h"

#include <cerrno>
#include <cstring>
#include <iterator>

#include <winsock2.h>

namespace wb::platform {

namespace {

struct Name
{
    int wsa;
    int posix;
    const char *text; ///< Linux's strerror text, so that a message reads the same on every OS
};

// A time-out of SO_RCVTIMEO/SO_SNDTIMEO is WSAETIMEDOUT, where POSIX says EAGAIN: the data loops take it as
// "nothing yet" and judge idleness by their own clock. An aborted connection is one the peer reset.
constexpr Name kNames[] = {
    {WSAEWOULDBLOCK, EAGAIN, "Resource temporarily unavailable"},
    {WSAETIMEDOUT, EAGAIN, "Resource temporarily unavailable"},
    {WSAEINTR, EINTR, "Interrupted system call"},
    {WSAECONNRESET, ECONNRESET, "Connection reset by peer"},
    {WSAECONNABORTED, ECONNRESET, "Connection reset by peer"},
    {WSAESHUTDOWN, EPIPE, "Broken pipe"},
    {WSAECONNREFUSED, ECONNREFUSED, "Connection refused"},
    {WSAENOBUFS, ENOBUFS, "No buffer space available"},
    {WSAEADDRINUSE, EADDRINUSE, "Address already in use"},
    {WSAEADDRNOTAVAIL, EADDRNOTAVAIL, "Cannot assign requested address"},
    {WSAEAFNOSUPPORT, EAFNOSUPPORT, "Address family not supported by protocol"},
    {WSAEACCES, EACCES, "Permission denied"},
    {WSAEINVAL, EINVAL, "Invalid argument"},
    {WSAEMFILE, EMFILE, "Too many open files"},
    {WSAENOTCONN, ENOTCONN, "Transport endpoint is not connected"},
    {WSAENOTSOCK, ENOTSOCK, "Socket operation on non-socket"},
    {WSAEMSGSIZE, EMSGSIZE, "Message too long"},
    {WSAENETUNREACH, ENETUNREACH, "Network is unreachable"},
    {WSAEHOSTUNREACH, EHOSTUNREACH, "No route to host"},
    {WSAEINPROGRESS, EINPROGRESS, "Operation now in progress"},
    {WSAEALREADY, EALREADY, "Operation already in progress"},
    {WSAENOPROTOOPT, ENOPROTOOPT, "Protocol not available"},
    {WSAEPROTONOSUPPORT, EPROTONOSUPPORT, "Protocol not supported"},
    {WSAEOPNOTSUPP, EOPNOTSUPP, "Operation not supported"},
    {WSAENETDOWN, ENETDOWN, "Network is down"},
    {WSAEFAULT, EFAULT, "Bad address"},
    {WSAEBADF, EBADF, "Bad file descriptor"},
};

} // namespace

int WinsockErrors::toErrno(int wsaError)
{
    for (const Name &n : kNames) {
        if (n.wsa == wsaError)
            return n.posix;
    }
    return wsaError;
}

int WinsockErrors::fail()
{
    errno = toErrno(::WSAGetLastError());
    return -1;
}

std::string WinsockErrors::text(int err)
{
    if (err == ETIMEDOUT)
        return "Connection timed out";
    for (const Name &n : kNames) {
        if (n.posix == err)
            return n.text;
    }
    if (err >= WSABASEERR)
        return WindowsText::systemMessage(unsigned(err));
    return std::strerror(err);
}

bool WinsockErrors::readyNow(int fd, short events)
{
    WSAPOLLFD p{};
    p.fd = SOCKET(fd);
    p.events = events;
    if (::WSAPoll(&p, 1, 0) < 0)
        return true; // the call that follows fails and says why
    return p.revents != 0;
}

} // namespace wb::platform
