#pragma once

#include "ProtocolDriver.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace wb {

/// What the UI and the CLI need to know about a protocol without creating its driver.
struct ProtocolInfo
{
    QString id;          ///< "tcp-send"
    QString title;       ///< "TCP send (client → server)"
    QString description; ///< one sentence for tooltips and --help
    bool timed = true;   ///< runs for TestParams::durationMs (false: moves TestParams::fileSizeBytes)
    bool clampsMss = true; ///< the driver sets TCP_MAXSEG to frameSize - 40
    std::function<std::unique_ptr<ProtocolDriver>()> create;
};

/// The one place where protocols are registered: adding a protocol adds one line in DriverRegistry.cpp.
class DriverRegistry
{
public:
    static const QList<ProtocolInfo> &protocols();
    static const ProtocolInfo *find(const QString &id);
    static bool has(const QString &id) { return find(id) != nullptr; }
    static std::unique_ptr<ProtocolDriver> create(const QString &id);
};

} // namespace wb
