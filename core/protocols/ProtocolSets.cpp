#include "ProtocolSets.h"

#include "DriverRegistry.h"

namespace wb {

namespace {

QStringList registered(QStringList ids)
{
    ids.removeIf([](const QString &id) { return !DriverRegistry::has(id); });
    return ids;
}

} // namespace

QStringList ProtocolSets::firstPlan()
{
    return {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
}

QStringList ProtocolSets::cliDefault()
{
    return {QStringLiteral("tcp-send")};
}

QStringList ProtocolSets::shootout()
{
    return registered({QStringLiteral("smb-read"), QStringLiteral("smb-write"), QStringLiteral("ftp-get"),
                       QStringLiteral("ftp-put")});
}

QStringList ProtocolSets::reference()
{
    return {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
}

QStringList ProtocolSets::netperf()
{
    return {QStringLiteral("tcp-send")};
}

} // namespace wb
