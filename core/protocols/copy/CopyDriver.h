#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

namespace wb {

/// A plain file copy to or from a path the OS already mounts (CIFS or NFS mount, mapped drive, UNC path):
/// the robocopy experiment. copy-read reads copy.path into the sink, copy-write writes the source to it.
/// Unbuffered (O_DIRECT, aligned buffers) on request; a write's time includes fdatasync(), so the figure
/// is what reached the far side, not the page cache.
class CopyDriver : public ProtocolDriver
{
public:
    enum class Direction { Read, Write };
    explicit CopyDriver(Direction direction) : m_direction(direction) {}

    static QList<ProtocolInfo> protocolInfos();
    RunResult run(const RunSpec &spec, RunObserver &observer) override;
    /// The path is set, its folder exists and is writable (a read with a file already there: readable).
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

private:
    Direction m_direction;
};

} // namespace wb
