#pragma once

#include "ProtocolDriver.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <memory>

namespace wb {

/// A setting a protocol reads from Host::options (or, when secret, from the credential store).
struct OptionSpec
{
    enum class Type { Text, Secret, Integer, Bool, Choice };
    QString key;          ///< "ftp.user"
    QString label;        ///< "FTP user"
    Type type = Type::Text;
    QVariant defaultValue;
    QStringList choices;  ///< for Type::Choice
    QString toolTip;
};

/// What the UI and the CLI need to know about a protocol without creating its driver.
struct ProtocolInfo
{
    QString id;          ///< "tcp-send"
    QString title;       ///< "TCP send (client → server)"
    QString description; ///< one sentence for tooltips and --help
    bool timed = true;   ///< runs for TestParams::durationMs (false: moves TestParams::fileSizeBytes)
    bool clampsMss = true; ///< the driver sets TCP_MAXSEG to frameSize - 40
    QString family;      ///< groups protocols that share host options in the UI ("tcp", "ftp", "smb")
    QList<OptionSpec> hostOptions; ///< per-host settings this protocol reads from Host::options
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
