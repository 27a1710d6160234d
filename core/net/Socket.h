#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <chrono>
#include <functional>

#include <sys/socket.h>

namespace wb::net {

/// An owned socket descriptor (closed on destruction).
class Fd
{
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(Fd &&o) noexcept : m_fd(o.release()) {}
    Fd &operator=(Fd &&o) noexcept;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }

    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    int release();
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

/// Nanoseconds on the monotonic clock.
inline qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// CPU seconds (user + system) the calling thread has used so far; -1 when unknown.
double threadCpuSeconds();

/// What TCP_INFO says about a connected socket.
struct TcpInfo
{
    bool valid = false;
    int sndMss = 0;
    qint64 rttUs = 0;
    qint64 rttVarUs = 0;
    qint64 totalRetrans = 0;
    qint64 sndCwndBytes = 0; ///< congestion window: tcpi_snd_cwnd segments x tcpi_snd_mss, as iperf3 shows it
};
TcpInfo tcpInfo(int fd);

/// errno as text ("Connection refused").
QString errnoText(int err);
bool setIntOption(int fd, int level, int option, int value, QString *error = nullptr);
bool setNonBlocking(int fd, bool on);
/// SO_SNDTIMEO and SO_RCVTIMEO, so a blocking data loop wakes up to look at the clock and the stop flag.
void setIoTimeouts(int fd, int ms);
/// Lets a bulk receiver sleep until a useful amount has arrived (SO_RCVLOWAT) rather than wake for every
/// segment: fewer wake-ups on both ends, so the tool costs less and the link shows more. The amount is
/// receiveLowWater(recvBufferBytes); a read still returns early at the SO_RCVTIMEO timeout or the end of
/// the stream, so no byte waits and the last one is timed when it comes. Call it after the first read,
/// so that the first arrival is timed as it happens. Returns the amount set, 0 if the kernel refused it.
int setReceiveLowWater(int fd, int recvBufferBytes);
/// 128 KiB, or a quarter of an explicit receive buffer (recvBufferBytes > 0), so it never holds back the window.
int receiveLowWater(int recvBufferBytes);
/// "192.0.2.1:5301", "[::1]:5301"
QString endpointText(const sockaddr_storage &addr);
QString hostText(const sockaddr_storage &addr);
quint16 portOf(const sockaddr_storage &addr);
bool sameHost(const sockaddr_storage &a, const sockaddr_storage &b);

/// A control connection: frames out, frames in through a buffer (see ControlMessage.h).
class ControlChannel
{
public:
    enum class Read { Message, Timeout, Closed, Error, Stopped };
    ControlChannel(int fd, int maxMessageBytes) : m_fd(fd), m_max(maxMessageBytes) {}

    /// Writes one message (waiting at most timeoutMs for room). False with *error on failure.
    bool write(const QJsonObject &message, QString *error = nullptr, int timeoutMs = 5000);
    /// Waits up to timeoutMs for a whole message; polls in slices of at most 100 ms and returns Stopped
    /// as soon as shouldStop() says so. Timeout with timeoutMs == 0 means "nothing there yet".
    Read read(QJsonObject *message, int timeoutMs, QString *error, const std::function<bool()> &shouldStop = {});
    /// Bytes received but not yet decoded (a truncated message when the peer then closes).
    qsizetype buffered() const { return m_in.size(); }
    /// The largest message accepted from now on (smaller before authentication).
    void setMaxMessageBytes(int maxBytes) { m_max = maxBytes; }

private:
    int m_fd;
    int m_max;
    QByteArray m_in;
};

} // namespace wb::net
