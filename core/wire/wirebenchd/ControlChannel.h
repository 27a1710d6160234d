#pragma once

#include "ControlMessage.h"

#include <functional>
#include <string>

namespace wb::control {

/// A control connection: frames out, frames in through a buffer (see ControlMessage.h).
class ControlChannel
{
public:
    enum class Read { Message, Timeout, Closed, Error, Stopped };
    ControlChannel(int fd, int maxMessageBytes)
        : m_fd(fd)
        , m_max(maxMessageBytes)
    {
    }

    /// Writes one message (waiting at most timeoutMs for room). False with *error on failure.
    bool write(const Json &message, std::string *error = nullptr, int timeoutMs = 5000);
    /// Waits up to timeoutMs for a whole message; polls in slices of at most 100 ms and returns Stopped
    /// as soon as shouldStop() says so. Timeout with timeoutMs == 0 means "nothing there yet".
    Read read(Json *message, int timeoutMs, std::string *error, const std::function<bool()> &shouldStop = {});
    /// Bytes received but not yet decoded (a truncated message when the peer then closes).
    std::size_t buffered() const { return m_in.size(); }
    /// The largest message accepted from now on (smaller before authentication).
    void setMaxMessageBytes(int maxBytes) { m_max = maxBytes; }

private:
    int m_fd;
    int m_max;
    std::string m_in;
};

} // namespace wb::control
