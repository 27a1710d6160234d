#pragma once

#include <QStringList>

namespace wb {

/// The protocol lists that the settings, the plan editor's presets and the CLI start from, so that none of
/// them names a protocol id. Each holds only what this build registers (DriverRegistry).
class ProtocolSets
{
public:
    /// A first plan: TCP both ways (the plan editor's and the settings' default).
    static QStringList firstPlan();
    /// The CLI's plan without --protocol: TCP send.
    static QStringList cliDefault();
    /// The file-server shoot-out preset: SMB and FTP, both ways.
    static QStringList shootout();
    /// The shoot-out's reference streams (TestPlan::referenceStreams): TCP both ways.
    static QStringList reference();
    /// The netperf TCP_STREAM preset.
    static QStringList netperf();
};

} // namespace wb
