#pragma once

#include "protocols/transfer/TransferDriver.h"

namespace wb {

/// FTP GET (server → client) and PUT (client → server) of one file with libcurl's easy API, blocking the
/// engine's worker thread. Passive mode by default, active and explicit FTPS on request. The figure is
/// the file size over libcurl's transfer time (from "about to transfer" to the server's final reply). Its check
/// logs in, enters the file's folder and asks for its size (GET without seeding: the file must be there).
class FtpDriver : public TransferDriver
{
public:
    using TransferDriver::TransferDriver;
    static QList<ProtocolInfo> protocolInfos();

private:
    std::unique_ptr<TransferRun> makeRun(const RunSpec &spec, RunObserver &observer) const override;
};

} // namespace wb
