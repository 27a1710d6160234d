#include "TransferDriver.h"

#include "TransferRun.h"

namespace wb {

TransferDriver::~TransferDriver() = default;

RunResult TransferDriver::run(const RunSpec &spec, RunObserver &observer)
{
    return makeRun(spec, observer)->run();
}

PreflightProblemList TransferDriver::check(const RunSpec &spec, int timeoutMs)
{
    QuietObserver quiet;
    return makeRun(spec, quiet)->check(timeoutMs);
}

ProtocolInfo TransferDriver::sideInfo(const QString &family, bool setsMss, const QList<OptionSpec> &options,
                                      const Side &side, std::function<std::unique_ptr<ProtocolDriver>()> create)
{
    ProtocolInfo info;
    info.id = side.id;
    info.title = side.title;
    info.description = side.description;
    info.timed = false;
    info.setsMss = setsMss;
    info.family = family;
    info.hostOptions = options;
    info.create = std::move(create);
    return info;
}

} // namespace wb
