#pragma once

#include <QDeadlineTimer>
#include <QString>

#include <functional>

struct sockaddr;

namespace wb::net {

enum class IoStatus { Ok, Timeout, Closed, Failed, Stopped };

/// A non-blocking POSIX TCP (or UDP) socket whose every wait is bounded by a deadline and sliced into polls of
/// at most 100 ms, so that Stop is noticed within a second: the iperf3 driver's control and data streams.
/// POSIX rather than QTcpSocket because the MSS clamp must be set before connect() and TCP_INFO read afterwards.
class DeadlineSocket
{
public:
    using StopFn = std::function<bool()>;

    DeadlineSocket() = default;
    ~DeadlineSocket();
    DeadlineSocket(DeadlineSocket &&other) noexcept;
    DeadlineSocket &operator=(DeadlineSocket &&other) noexcept;
    DeadlineSocket(const DeadlineSocket &) = delete;
    DeadlineSocket &operator=(const DeadlineSocket &) = delete;

    /// Creates the socket, applies MSS and buffer sizes (0 = leave alone), connects.
    /// A failed option is not fatal: it is reported in optionWarning().
    IoStatus connectTo(const sockaddr *address, unsigned addressLength, int mss, int sendBuffer, int recvBuffer,
                       QDeadlineTimer deadline, const StopFn &stop);
    /// A UDP socket connected to the address (no packet leaves: the peer learns of us from the first
    /// datagram), with buffer sizes as for connectTo().
    IoStatus connectDatagram(const sockaddr *address, unsigned addressLength, int sendBuffer, int recvBuffer);
    IoStatus writeAll(const char *data, qint64 size, QDeadlineTimer deadline, const StopFn &stop);
    IoStatus readExact(char *data, qint64 size, QDeadlineTimer deadline, const StopFn &stop);

    /// One non-blocking send: bytes written, 0 when the buffer is full, -1 on error (see lastError()).
    qint64 sendSome(const char *data, qint64 size);
    /// One non-blocking receive: bytes read, 0 when nothing is waiting, -1 on error, -2 at end of stream.
    qint64 recvSome(char *data, qint64 size);

    int fd() const { return m_fd; }
    bool isOpen() const { return m_fd >= 0; }
    int lastErrno() const { return m_errno; }
    QString lastError() const;
    QString optionWarning() const { return m_optionWarning; }
    void close();

private:
    /// A fresh non-blocking socket with the buffer sizes (0 = leave alone); false when none was created.
    bool open(int family, int type, int protocol, int sendBuffer, int recvBuffer);
    IoStatus waitFor(short events, QDeadlineTimer deadline, const StopFn &stop);
    /// writeAll (sending) and readExact: size bytes in as many calls as it takes, waiting between them.
    IoStatus moveAll(bool sending, char *data, qint64 size, QDeadlineTimer deadline, const StopFn &stop);
    /// After a send() or recv() of sendSome/recvSome that returned < 0: true to call again (EINTR); else *result
    /// is 0 when the socket is not ready (EAGAIN), -1 with lastErrno() on any other error.
    bool retryAfterError(qint64 *result);

    int m_fd = -1;
    int m_errno = 0;
    QString m_optionWarning;
};

} // namespace wb::net
