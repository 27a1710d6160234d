#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

namespace wb {

/// A TCP test against an unmodified `iperf3 -s`, speaking iperf3's control and data protocol itself
/// (cookie, state bytes, JSON parameter and results exchange, parallel TCP data streams). libiperf is
/// not linked: it has no live results, keeps global state and may exit() the process.
/// "iperf3-send" is iperf3's normal mode (we send), "iperf3-recv" is -R (the server sends), "iperf3-bidir" is --bidir
/// (both at once, a figure each way);
/// "iperf3-udp-send" and "iperf3-udp-recv" are the same with -u at a target rate (-b), measuring loss
/// and jitter.
class Iperf3Driver : public ProtocolDriver
{
public:
    enum class Direction { Send, Receive, Both };
    enum class Transport { Tcp, Udp };
    explicit Iperf3Driver(Direction direction, Transport transport = Transport::Tcp)
        : m_direction(direction)
        , m_transport(transport)
    {
    }

    static QList<ProtocolInfo> protocolInfos();
    RunResult run(const RunSpec &spec, RunObserver &observer) override;
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

private:
    Direction m_direction;
    Transport m_transport;
};

} // namespace wb
