#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

namespace wb {

/// TCP stream to and from wirebenchd, as netperf TCP_STREAM (tcp-send) and TCP_MAERTS (tcp-recv), or both at once
/// (tcp-bidir, as iperf3 --bidir).
class TcpDriver : public ProtocolDriver
{
public:
    enum class Direction { Send, Receive, Both };
    explicit TcpDriver(Direction direction)
        : m_direction(direction)
    {
    }

    /// Host option (a secret, kept in the keychain by the UI) with wirebenchd's key.
    static constexpr const char *kKeyOption = "wirebenchd.secret";

    static QList<ProtocolInfo> protocolInfos();
    RunResult run(const RunSpec &spec, RunObserver &observer) override;
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

private:
    Direction m_direction;
};

} // namespace wb
