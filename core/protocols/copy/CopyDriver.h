#pragma once

#include "protocols/transfer/TransferDriver.h"

namespace wb {

/// A plain file copy to or from a path the OS already mounts (CIFS or NFS mount, mapped drive, UNC path):
/// the robocopy experiment. copy-read reads copy.path into the sink, copy-write writes the source to it.
/// Unbuffered (O_DIRECT, aligned buffers) on request; a write's time includes fdatasync(), so the figure
/// is what reached the far side, not the page cache. Its check: the path is set, its folder exists and is
/// writable (a read with a file already there: readable).
class CopyDriver : public TransferDriver
{
public:
    using TransferDriver::TransferDriver;
    static QList<ProtocolInfo> protocolInfos();

private:
    std::unique_ptr<TransferRun> makeRun(const RunSpec &spec, RunObserver &observer) const override;
};

} // namespace wb
