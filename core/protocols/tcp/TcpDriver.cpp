#include "TcpDriver.h"

namespace wb {

QList<ProtocolInfo> TcpDriver::protocolInfos()
{
    ProtocolInfo send;
    send.id = QStringLiteral("tcp-send");
    send.title = QStringLiteral("TCP send (client → server)");
    send.description = QStringLiteral("A timed TCP stream from this computer to the server, as netperf TCP_STREAM.");
    send.family = QStringLiteral("tcp");
    send.create = [] { return std::make_unique<TcpDriver>(Direction::Send); };
    ProtocolInfo recv;
    recv.id = QStringLiteral("tcp-recv");
    recv.title = QStringLiteral("TCP receive (server → client)");
    recv.description = QStringLiteral("A timed TCP stream from the server to this computer, as netperf TCP_MAERTS.");
    recv.family = QStringLiteral("tcp");
    recv.create = [] { return std::make_unique<TcpDriver>(Direction::Receive); };
    return {send, recv};
}

RunResult TcpDriver::run(const RunSpec &spec, RunObserver &observer)
{
    // Placeholder until the control protocol lands: reports that the driver is missing.
    RunResult r;
    r.spec = spec;
    r.status = RunStatus::Failed;
    r.error = QStringLiteral("%1: the TCP driver is not built yet.").arg(spec.host.displayName());
    return r;
}

} // namespace wb
