#pragma once

#include "model/TestParams.h"
#include "protocols/DriverRegistry.h"

#include <QList>

namespace wb {

/// Plan-wide settings of the TCP streams (tcp-send, tcp-recv), read from TestParams::options.
struct TcpSettings
{
    /// Zero copy: tcp-send sends its block by sendfile(2) from a file in memory, tcp-recv takes the bytes off the
    /// socket with MSG_TRUNC, so neither copies the data through this process (iperf3 -Z and --skip-rx-copy).
    /// The figure is still the receiver's count.
    static constexpr const char *ZeroCopyKey = "tcp.zero_copy";

    bool zeroCopy = false;

    static TcpSettings fromParams(const TestParams &params);
    /// The plan-wide options above, described for a generic settings form and --set.
    static QList<OptionSpec> planOptions();
};

} // namespace wb
