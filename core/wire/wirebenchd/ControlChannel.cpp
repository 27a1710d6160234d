#include "ControlChannel.h"

#include "net/Socket.h"
#include "platform/Platform.h"
#include "wire/Text.h"

#include <algorithm>

#include <cerrno>

namespace wb::control {

using net::errnoText;
using net::nowNs;

bool ControlChannel::write(const Json &message, std::string *error, int timeoutMs)
{
    const std::string frame = encode(message);
    std::size_t off = 0;
    const std::int64_t deadline = nowNs() + std::int64_t(timeoutMs) * 1000000;
    while (off < frame.size()) {
        const ssize_t n
            = platform::Platform::socketCalls().send(m_fd, frame.data() + off, frame.size() - off, MSG_DONTWAIT);
        if (n > 0) {
            off += std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const std::int64_t left = (deadline - nowNs()) / 1000000;
            if (left <= 0) {
                if (error)
                    *error = "timed out sending a control message";
                return false;
            }
            net::PollFd p{m_fd, POLLOUT, 0};
            net::pollSockets(&p, 1, int(std::min<std::int64_t>(left, 100)));
            continue;
        }
        if (error)
            *error = errnoText(n < 0 ? errno : EPIPE);
        return false;
    }
    return true;
}

ControlChannel::Read ControlChannel::read(Json *message, int timeoutMs, std::string *error,
                                          const std::function<bool()> &shouldStop)
{
    const std::int64_t deadline = nowNs() + std::int64_t(std::max(0, timeoutMs)) * 1000000;
    char buf[16384];
    for (;;) {
        Decoded d = decode(m_in, m_max);
        if (d.status == Decoded::Status::Message) {
            *message = std::move(d.message);
            m_in.erase(0, d.consumed);
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
        const std::int64_t leftMs = (deadline - nowNs()) / 1000000;
        net::PollFd p{m_fd, POLLIN, 0};
        const int pr = net::pollSockets(&p, 1, int(std::clamp<std::int64_t>(leftMs, 0, 100)));
        if (pr < 0 && errno != EINTR) {
            if (error)
                *error = errnoText(errno);
            return Read::Error;
        }
        if (pr > 0) {
            const ssize_t n = net::receive(m_fd, buf, sizeof(buf), MSG_DONTWAIT);
            if (n > 0) {
                m_in.append(buf, std::size_t(n));
                continue;
            }
            if (n == 0) {
                if (!m_in.empty()) {
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
            if (error)
                *error = m_in.empty() ? wire::format("no control message within %d ms", timeoutMs)
                                      : decodeOne(m_in, m_max).error;
            return Read::Timeout;
        }
    }
}

} // namespace wb::control
