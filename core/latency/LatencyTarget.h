#pragma once

#include "model/RunSpec.h"
#include "wire/wirebenchd/EchoWire.h"

#include <QString>

#include <sys/socket.h>

namespace wb {

/// Where and how the latency probe times round trips for one run: wirebenchd's UDP echo (a token fetched on its
/// control port with the host's key, docs/PROTOCOL.md) or the TCP connect time to the protocol's service port
/// (iperf3, FTP, SMB). Blocking, a few seconds at most; called on the engine's worker thread before the run.
struct LatencyTarget
{
    enum class Method { None, Echo, Connect };
    Method method = Method::None;
    sockaddr_storage address{}; ///< with the port to probe (the echo's UDP port, or the service port)
    socklen_t addressLength = 0;
    echo::Grant grant; ///< Echo: the token
    QString text;      ///< "10.0.0.2 UDP port 5301"
    QString note;      ///< Method::None: why not, one line naming the host

    /// "udp-echo", "tcp-connect", "" (RunLatency::method).
    QString methodName() const;
    int rateHz() const { return method == Method::Echo ? 20 : 10; }

    /// The target for spec: its protocol's LatencyProbe (ProtocolInfo), its address resolved, the echo token asked.
    static LatencyTarget forSpec(const RunSpec &spec, int timeoutMs);
};

} // namespace wb
