#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

namespace wb {

/// FTP GET (server → client) and PUT (client → server) of one file with libcurl's easy API, blocking the
/// engine's worker thread. Passive mode by default, active and explicit FTPS on request. The figure is
/// the file size over libcurl's transfer time (from "about to transfer" to the server's final reply).
class FtpDriver : public ProtocolDriver
{
public:
    enum class Direction { Get, Put };
    explicit FtpDriver(Direction direction) : m_direction(direction) {}

    static QList<ProtocolInfo> protocolInfos();
    RunResult run(const RunSpec &spec, RunObserver &observer) override;
    /// Logs in, enters the file's folder and asks for its size (GET without seeding: the file must be there).
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

private:
    Direction m_direction;
};

} // namespace wb
