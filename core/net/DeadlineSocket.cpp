#include "DeadlineSocket.h"

#include "platform/Platform.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::net {

namespace {
constexpr int kSliceMs = 100;

int sliceMs(QDeadlineTimer deadline)
{
    const qint64 left = deadline.remainingTime();
    if (left < 0)
        return kSliceMs; // forever: still wake up to look at Stop
    return int(qMin<qint64>(left, kSliceMs));
}
} // namespace

DeadlineSocket::~DeadlineSocket()
{
    close();
}

DeadlineSocket::DeadlineSocket(DeadlineSocket &&other) noexcept
    : m_fd(other.m_fd)
    , m_errno(other.m_errno)
    , m_optionWarning(std::move(other.m_optionWarning))
{
    other.m_fd = -1;
}

DeadlineSocket &DeadlineSocket::operator=(DeadlineSocket &&other) noexcept
{
    if (this != &other) {
        close();
        m_fd = other.m_fd;
        m_errno = other.m_errno;
        m_optionWarning = std::move(other.m_optionWarning);
        other.m_fd = -1;
    }
    return *this;
}

void DeadlineSocket::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

QString DeadlineSocket::lastError() const
{
    return QString::fromLocal8Bit(std::strerror(m_errno));
}

bool DeadlineSocket::open(int family, int type, int protocol, int sendBuffer, int recvBuffer)
{
    close();
    m_optionWarning.clear();
    m_fd = ::socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
    if (m_fd < 0) {
        m_errno = errno;
        return false;
    }
    if (sendBuffer > 0 && ::setsockopt(m_fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, sizeof sendBuffer) != 0)
        m_optionWarning = QStringLiteral("could not set the send buffer to %1 B").arg(sendBuffer);
    if (recvBuffer > 0 && ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &recvBuffer, sizeof recvBuffer) != 0)
        m_optionWarning = QStringLiteral("could not set the receive buffer to %1 B").arg(recvBuffer);
    return true;
}

IoStatus DeadlineSocket::connectTo(const sockaddr *address, unsigned addressLength, int mss, int sendBuffer,
                                   int recvBuffer, QDeadlineTimer deadline, const StopFn &stop)
{
    // Options that shape the connection must precede connect(): the MSS clamp also lowers the MSS we
    // announce in the SYN, and the receive buffer sets the window scale.
    if (!open(address->sa_family, SOCK_STREAM, IPPROTO_TCP, sendBuffer, recvBuffer))
        return IoStatus::Failed;
    if (mss > 0 && ::setsockopt(m_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss) != 0)
        m_optionWarning = QStringLiteral("could not set the MSS to %1 B (%2)")
                              .arg(mss)
                              .arg(QString::fromLocal8Bit(std::strerror(errno)));

    if (::connect(m_fd, address, socklen_t(addressLength)) == 0)
        return IoStatus::Ok;
    if (errno != EINPROGRESS) {
        m_errno = errno;
        close();
        return IoStatus::Failed;
    }
    const IoStatus waited = waitFor(POLLOUT, deadline, stop);
    if (waited != IoStatus::Ok) {
        close();
        return waited;
    }
    int soError = 0;
    socklen_t len = sizeof soError;
    ::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    if (soError != 0) {
        m_errno = soError;
        close();
        return IoStatus::Failed;
    }
    return IoStatus::Ok;
}

IoStatus DeadlineSocket::connectDatagram(const sockaddr *address, unsigned addressLength, int sendBuffer,
                                         int recvBuffer)
{
    if (!open(address->sa_family, SOCK_DGRAM, IPPROTO_UDP, sendBuffer, recvBuffer))
        return IoStatus::Failed;
    if (::connect(m_fd, address, socklen_t(addressLength)) != 0) {
        m_errno = errno;
        close();
        return IoStatus::Failed;
    }
    return IoStatus::Ok;
}

IoStatus DeadlineSocket::waitFor(short events, QDeadlineTimer deadline, const StopFn &stop)
{
    for (;;) {
        if (stop && stop())
            return IoStatus::Stopped;
        if (deadline.hasExpired())
            return IoStatus::Timeout;
        pollfd p{m_fd, events, 0};
        const int n = ::poll(&p, 1, sliceMs(deadline));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            m_errno = errno;
            return IoStatus::Failed;
        }
        if (n > 0)
            return IoStatus::Ok; // errors and hang-ups surface in the following call
    }
}

IoStatus DeadlineSocket::writeAll(const char *data, qint64 size, QDeadlineTimer deadline, const StopFn &stop)
{
    return moveAll(true, const_cast<char *>(data), size, deadline, stop); // sendSome only reads it
}

IoStatus DeadlineSocket::readExact(char *data, qint64 size, QDeadlineTimer deadline, const StopFn &stop)
{
    return moveAll(false, data, size, deadline, stop);
}

IoStatus DeadlineSocket::moveAll(bool sending, char *data, qint64 size, QDeadlineTimer deadline, const StopFn &stop)
{
    qint64 done = 0;
    while (done < size) {
        const qint64 n = sending ? sendSome(data + done, size - done) : recvSome(data + done, size - done);
        if (n == -2) // the peer closed (recvSome only)
            return IoStatus::Closed;
        if (n < 0)
            return (m_errno == ECONNRESET || (sending && m_errno == EPIPE)) ? IoStatus::Closed : IoStatus::Failed;
        done += n;
        if (done < size) {
            const IoStatus waited = waitFor(sending ? POLLOUT : POLLIN, deadline, stop);
            if (waited != IoStatus::Ok)
                return waited;
        }
    }
    return IoStatus::Ok;
}

qint64 DeadlineSocket::sendSome(const char *data, qint64 size)
{
    for (;;) {
        const ssize_t n = platform::Platform::socketCalls().send(m_fd, data, size_t(size), MSG_DONTWAIT);
        if (n >= 0)
            return n;
        if (qint64 result = 0; !retryAfterError(&result))
            return result;
    }
}

qint64 DeadlineSocket::recvSome(char *data, qint64 size)
{
    for (;;) {
        const ssize_t n = ::recv(m_fd, data, size_t(size), MSG_DONTWAIT);
        if (n > 0)
            return n;
        if (n == 0)
            return -2;
        if (qint64 result = 0; !retryAfterError(&result))
            return result;
    }
}

bool DeadlineSocket::retryAfterError(qint64 *result)
{
    if (errno == EINTR)
        return true;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        *result = 0;
        return false;
    }
    m_errno = errno;
    *result = -1;
    return false;
}

} // namespace wb::net
