#include "TransferSettings.h"

namespace wb {

TransferSettings TransferSettings::fromParams(const TestParams &params)
{
    TransferSettings s;
    const QVariantMap &o = params.options;
    s.fileSource = o.value(QLatin1String(SourceKey)).toString() == QLatin1String("file");
    s.fileSink = o.value(QLatin1String(SinkKey)).toString() == QLatin1String("file");
    s.localPath = o.value(QLatin1String(LocalPathKey)).toString();
    s.unbuffered = o.value(QLatin1String(UnbufferedKey), false).toBool();
    s.verify = o.value(QLatin1String(VerifyKey), false).toBool();
    s.createSeed = o.value(QLatin1String(CreateSeedKey), true).toBool();
    s.maxRateBytesPerSecond = qMax<qint64>(0, o.value(QLatin1String(MaxRateKey), 0).toLongLong());
    return s;
}

QList<OptionSpec> TransferSettings::planOptions()
{
    using T = OptionSpec::Type;
    return {
        {QLatin1String(SourceKey),
         QStringLiteral("Upload source"),
         T::Choice,
         QStringLiteral("memory"),
         {QStringLiteral("memory"), QStringLiteral("file")},
         QStringLiteral("memory: generated test data; file: read the local file (its own read speed is reported)")},
        {QLatin1String(SinkKey),
         QStringLiteral("Download sink"),
         T::Choice,
         QStringLiteral("memory"),
         {QStringLiteral("memory"), QStringLiteral("file")},
         QStringLiteral("memory: data is discarded on arrival; file: written to the local file (its write speed is "
                        "reported)")},
        {QLatin1String(LocalPathKey),
         QStringLiteral("Local file"),
         T::Text,
         QString(),
         {},
         QStringLiteral("The local file used as source or sink")},
        {QLatin1String(UnbufferedKey),
         QStringLiteral("Unbuffered I/O (O_DIRECT)"),
         T::Bool,
         false,
         {},
         QStringLiteral(
             "Bypass the page cache for local files and copy paths, so the cache does not flatter the figure")},
        {QLatin1String(VerifyKey),
         QStringLiteral("Verify content"),
         T::Bool,
         false,
         {},
         QStringLiteral(
             "Compare every byte that arrived with what was sent (PUT/write: reads the file back afterwards)")},
        {QLatin1String(CreateSeedKey),
         QStringLiteral("Create the file on GET/read if missing"),
         T::Bool,
         true,
         {},
         QStringLiteral("Uploads a test file of the chosen size first when the server has none")},
        {QLatin1String(MaxRateKey),
         QStringLiteral("Rate limit (B/s, 0 = none)"),
         T::Integer,
         0,
         {},
         QStringLiteral("Caps the transfer rate in bytes per second")},
    };
}

} // namespace wb
