#include "DriverRegistry.h"

#include "iperf3/Iperf3Driver.h"
#include "tcp/TcpDriver.h"
#include "ftp/FtpDriver.h"
#include "smb/SmbDriver.h"
#include "copy/CopyDriver.h"

namespace wb {

const QList<ProtocolInfo> &DriverRegistry::protocols()
{
    // One line per driver family: each returns the protocol ids it serves.
    static const QList<ProtocolInfo> all = [] {
        QList<ProtocolInfo> list;
        list << TcpDriver::protocolInfos();
        list << FtpDriver::protocolInfos();
        list << SmbDriver::protocolInfos();
        list << CopyDriver::protocolInfos();
        list << Iperf3Driver::protocolInfos();
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

} // namespace wb
