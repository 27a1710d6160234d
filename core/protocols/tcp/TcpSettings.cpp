#include "TcpSettings.h"

namespace wb {

TcpSettings TcpSettings::fromParams(const TestParams &params)
{
    TcpSettings s;
    s.zeroCopy = params.options.value(QLatin1String(ZeroCopyKey), false).toBool();
    return s;
}

QList<OptionSpec> TcpSettings::planOptions()
{
    return {
        {QLatin1String(ZeroCopyKey),
         QStringLiteral("Zero copy (sendfile, MSG_TRUNC)"),
         OptionSpec::Type::Bool,
         false,
         {},
         QStringLiteral(
             "tcp-send sends by sendfile(2) and tcp-recv discards on arrival with MSG_TRUNC, so this computer "
             "does not copy the data (iperf3 -Z); Linux only, elsewhere the data is copied and the result says so")},
    };
}

} // namespace wb
