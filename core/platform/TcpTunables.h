#pragma once

#include <cstdint>
#include <optional>

namespace wb::platform {

/// The system-wide TCP settings the analysis explains a run with. Linux: /proc/sys/net/ipv4 (per network
/// namespace); a Windows port would read the TCP global parameters.
class TcpTunables
{
public:
    virtual ~TcpTunables() = default;
    /// The largest socket buffer TCP auto-tuning may grow to, bytes: the smaller of the send and receive maxima.
    virtual std::optional<std::int64_t> socketBufferMax() const = 0;
    /// Whether TCP timestamps are on for new connections.
    virtual std::optional<bool> timestamps() const = 0;
};

} // namespace wb::platform
