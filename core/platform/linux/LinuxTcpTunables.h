#pragma once

#include "platform/TcpTunables.h"

namespace wb::platform {

/// /proc/sys/net/ipv4/tcp_wmem, tcp_rmem and tcp_timestamps (this network namespace's).
class LinuxTcpTunables : public TcpTunables
{
public:
    std::optional<std::int64_t> socketBufferMax() const override;
    std::optional<bool> timestamps() const override;
};

} // namespace wb::platform
