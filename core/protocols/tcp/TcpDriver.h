#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

namespace wb {

/// TCP stream to and from wirebenchd, as netperf TCP_STREAM (tcp-send) and TCP_MAERTS (tcp-recv).
class TcpDriver : public ProtocolDriver
{
public:
    enum class Direction { Send, Receive };
    explicit TcpDriver(Direction direction) : m_direction(direction) {}

    static QList<ProtocolInfo> protocolInfos();
    RunResult run(const RunSpec &spec, RunObserver &observer) override;

private:
    Direction m_direction;
};

} // namespace wb
