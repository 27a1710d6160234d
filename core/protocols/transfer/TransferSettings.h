#pragma once

#include "model/TestParams.h"
#include "protocols/DriverRegistry.h"

#include <QString>

namespace wb {

/// Plan-wide settings of the file-transfer protocols (FTP, SMB, copy), read from TestParams::options.
struct TransferSettings
{
    static constexpr const char *SourceKey = "transfer.source";          ///< "memory" | "file"
    static constexpr const char *SinkKey = "transfer.sink";              ///< "memory" | "file"
    static constexpr const char *LocalPathKey = "transfer.local_path";   ///< local file for source/sink
    static constexpr const char *UnbufferedKey = "transfer.unbuffered";  ///< O_DIRECT where available
    static constexpr const char *VerifyKey = "transfer.verify";          ///< compare content byte for byte
    static constexpr const char *CreateSeedKey = "transfer.create_seed"; ///< GET/read: upload the file if missing
    static constexpr const char *MaxRateKey = "transfer.max_rate_Bps";   ///< 0 = unlimited (B/s)

    bool fileSource = false;
    bool fileSink = false;
    QString localPath;
    bool unbuffered = false;
    bool verify = false;
    bool createSeed = true;
    qint64 maxRateBytesPerSecond = 0;

    static TransferSettings fromParams(const TestParams &params);
    /// The plan-wide options above, described for a generic settings form.
    static QList<OptionSpec> planOptions();
};

} // namespace wb
