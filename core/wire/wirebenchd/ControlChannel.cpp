#include "ControlChannel.h"

#include "ControlMessage.h"
#include "net/Socket.h"
#include "platform/Platform.h"

#include <algorithm>

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>

namespace wb::control {

using net::errnoText;
using net::nowNs;

bool ControlChannel::write(const QJsonObject &message, QString *error, int timeoutMs)
{
    const QByteArray frame = encode(message);
    qsizetype off = 0;
    const qint64 deadline = nowNs() + qint64(timeoutMs) * 1000000;
    while (off < frame.size()) {
        const ssize_t n = platform::Platform::socketCalls().send(m_fd, frame.constData() + off, size_t(frame.size() - off), MSG_DONTWAIT);
        if (n > 0) {
            off += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const qint64 left = (deadline - nowNs()) / 1000000;
            if (left <= 0) {
                if (error)
                    *error = QStringLiteral("timed out sending a control message");
                return false;
            }
            pollfd p{m_fd, POLLOUT, 0};
            ::poll(&p, 1, int(qMin<qint64>(left, 100)));
            continue;
        }
        if (error)
            *error = errnoText(n < 0 ? errno : EPIPE);
        return false;
    }
    return true;
}

ControlChannel::Read ControlChannel::read(QJsonObject *message, int timeoutMs, QString *error,
                                          const std::function<bool()> &shouldStop)
{
    const qint64 deadline = nowNs() + qint64(qMax(0, timeoutMs)) * 1000000;
    char buf[16384];
    for (;;) {
        const Decoded d = decode(m_in, m_max);
        if (d.status == Decoded::Status::Message) {
            *message = d.message;
            m_in.remove(0, d.consumed);
            return Read::Message;
        }
        if (d.status == Decoded::Status::Error) {
            if (error)
                *error = d.error;
            m_in.clear();
            return Read::Error;
        }
        if (shouldStop && shouldStop())
            return Read::Stopped;
        const qint64 leftMs = (deadline - nowNs()) / 1000000;
        pollfd p{m_fd, POLLIN, 0};
        const int pr = ::poll(&p, 1, int(std::clamp<qint64>(leftMs, 0, 100)));
        if (pr < 0 && errno != EINTR) {
            if (error)
                *error = errnoText(errno);
            return Read::Error;
        }
        if (pr > 0) {
            const ssize_t n = ::recv(m_fd, buf, sizeof(buf), MSG_DONTWAIT);
            if (n > 0) {
                m_in.append(buf, n);
                continue;
            }
            if (n == 0) {
                if (!m_in.isEmpty()) {
                    if (error)
                        *error = decodeOne(m_in, m_max).error;
                    m_in.clear();
                    return Read::Error;
                }
                return Read::Closed;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                if (error)
                    *error = errnoText(errno);
                return errno == ECONNRESET ? Read::Closed : Read::Error;
            }
            continue;
        }
        if (nowNs() >= deadline) {
            if (error) {
                *error = m_in.isEmpty() ? QStringLiteral("no control message within %1 ms").arg(timeoutMs)
                                        : decodeOne(m_in, m_max).error;
            }
            return Read::Timeout;
        }
    }
}

} // namespace wb::control
