#pragma once

#include "protocols/transfer/TransferDriver.h"

namespace wb {

/// SMB read (server → client) and write (client → server) of one file with libsmbclient's context API:
/// one context per run (so per worker thread), SMB2/SMB3 (SMB1 only when the host allows it), large I/O.
class SmbDriver : public TransferDriver
{
public:
    using TransferDriver::TransferDriver;
    static QList<ProtocolInfo> protocolInfos();
    /// Opens the share with the host's login and the folder of the file (a read without seeding: the file);
    /// with no share set, says so and whether the port takes a connection. One check at a time.
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

private:
    std::unique_ptr<TransferRun> makeRun(const RunSpec &spec, RunObserver &observer) const override;
};

} // namespace wb
