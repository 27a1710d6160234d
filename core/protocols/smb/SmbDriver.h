#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

namespace wb {

/// SMB read (server → client) and write (client → server) of one file with libsmbclient's context API:
/// one context per run (so per worker thread), SMB2/SMB3 (SMB1 only when the host allows it), large I/O.
class SmbDriver : public ProtocolDriver
{
public:
    enum class Direction { Read, Write };
    explicit SmbDriver(Direction direction) : m_direction(direction) {}

    static QList<ProtocolInfo> protocolInfos();
    RunResult run(const RunSpec &spec, RunObserver &observer) override;
    /// Opens the share with the host's login and the folder of the file (a read without seeding: the file);
    /// with no share set, says so and whether the port takes a connection.
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

private:
    Direction m_direction;
};

} // namespace wb
