#pragma once

#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolDriver.h"

#include <memory>

namespace wb {

class TransferRun;

/// A driver that moves one file in one direction (FTP, SMB, copy): run() and check() hand the work to the
/// family's TransferRun, so that a family writes only its run and its ProtocolInfos.
class TransferDriver : public ProtocolDriver
{
public:
    /// Download: server → client (GET, read); Upload: client → server (PUT, write).
    enum class Direction { Download, Upload };
    explicit TransferDriver(Direction direction)
        : m_direction(direction)
    {
    }
    ~TransferDriver() override;

    RunResult run(const RunSpec &spec, RunObserver &observer) override;
    PreflightProblemList check(const RunSpec &spec, int timeoutMs) override;

protected:
    /// One side of a family's pair of protocols.
    struct Side
    {
        QString id;
        QString title;
        QString description;
    };
    /// The download and upload ProtocolInfos of a family (untimed: they move TestParams::fileSizeBytes), each
    /// creating a Driver of its direction.
    template <class Driver>
    static QList<ProtocolInfo> protocolPair(const QString &family, bool setsMss, const QList<OptionSpec> &options,
                                            const Side &download, const Side &upload)
    {
        ProtocolInfo get = sideInfo(family, setsMss, options, download,
                                    [] { return std::make_unique<Driver>(Direction::Download); });
        get.flow = ProtocolInfo::Flow::FromServer;
        return {get,
                sideInfo(family, setsMss, options, upload, [] { return std::make_unique<Driver>(Direction::Upload); })};
    }

    virtual std::unique_ptr<TransferRun> makeRun(const RunSpec &spec, RunObserver &observer) const = 0;

    Direction m_direction;

private:
    static ProtocolInfo sideInfo(const QString &family, bool setsMss, const QList<OptionSpec> &options,
                                 const Side &side, std::function<std::unique_ptr<ProtocolDriver>()> create);
};

} // namespace wb
