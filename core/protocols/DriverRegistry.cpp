#include "DriverRegistry.h"

#include "iperf3/Iperf3Driver.h"
#include "tcp/TcpDriver.h"
#include "ftp/FtpDriver.h"
#include "smb/SmbDriver.h"
#include "copy/CopyDriver.h"

#include <algorithm>

namespace wb {

namespace {

/// A family's protocols, with the host dialog's tab title for their options where the driver names none.
QList<ProtocolInfo> withTab(QList<ProtocolInfo> infos, const QString &tabTitle)
{
    for (ProtocolInfo &info : infos) {
        if (info.tabTitle.isEmpty())
            info.tabTitle = tabTitle;
    }
    return infos;
}

/// A test another server type runs through its own driver.
struct StandIn
{
    const char *serverType;
    const char *protocol;
    const char *runBy;
};
constexpr StandIn kStandIns[] = {
    {"iperf3", "tcp-send", "iperf3-send"},
    {"iperf3", "tcp-recv", "iperf3-recv"},
    {"iperf3", "tcp-bidir", "iperf3-bidir"},
};

} // namespace

const OptionSpec *ProtocolInfo::option(const QString &key) const
{
    for (const OptionSpec &spec : hostOptions) {
        if (spec.key == key)
            return &spec;
    }
    return nullptr;
}

const QList<ProtocolInfo> &DriverRegistry::protocols()
{
    // One line per driver family: each returns the protocol ids it serves; the host dialog's tab beside it.
    static const QList<ProtocolInfo> all = [] {
        QList<ProtocolInfo> list;
        list << withTab(TcpDriver::protocolInfos(), QStringLiteral("wirebenchd"));
        list << withTab(FtpDriver::protocolInfos(), QStringLiteral("FTP"));
        list << withTab(SmbDriver::protocolInfos(), QStringLiteral("SMB"));
        list << withTab(CopyDriver::protocolInfos(), QStringLiteral("Copy"));
        list << withTab(Iperf3Driver::protocolInfos(), QStringLiteral("iperf3"));
        return list;
    }();
    return all;
}

const ProtocolInfo *DriverRegistry::find(const QString &id)
{
    for (const ProtocolInfo &info : protocols()) {
        if (info.id == id)
            return &info;
    }
    return nullptr;
}

std::unique_ptr<ProtocolDriver> DriverRegistry::create(const QString &id)
{
    const ProtocolInfo *info = find(id);
    return info ? info->create() : nullptr;
}

QString DriverRegistry::forServerType(const QString &protocol, const QString &serverType)
{
    for (const StandIn &s : kStandIns) {
        if (serverType == QLatin1String(s.serverType) && protocol == QLatin1String(s.protocol))
            return QLatin1String(s.runBy);
    }
    return protocol;
}

QList<OptionDependency> DriverRegistry::optionDependencies()
{
    QList<OptionDependency> all;
    for (const ProtocolInfo &info : protocols()) {
        for (const OptionDependency &d : info.optionDependencies) {
            if (std::none_of(all.cbegin(), all.cend(),
                             [&](const OptionDependency &o) { return o.key == d.key && o.controller == d.controller; }))
                all << d;
        }
    }
    return all;
}

} // namespace wb
