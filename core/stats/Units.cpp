#include "Units.h"

#include <cmath>

namespace wb {

double Units::fromBytesPerSecond(double bps, RateUnit unit)
{
    switch (unit) {
    case RateUnit::MBps:
        return bps / 1e6;
    case RateUnit::MiBps:
        return bps / 1048576.0;
    case RateUnit::Mbps:
        return bps * 8.0 / 1e6;
    }
    return bps;
}

double Units::toBytesPerSecond(double value, RateUnit unit)
{
    switch (unit) {
    case RateUnit::MBps:
        return value * 1e6;
    case RateUnit::MiBps:
        return value * 1048576.0;
    case RateUnit::Mbps:
        return value * 1e6 / 8.0;
    }
    return value;
}

QString Units::label(RateUnit unit)
{
    switch (unit) {
    case RateUnit::MBps:
        return QStringLiteral("MB/s");
    case RateUnit::MiBps:
        return QStringLiteral("MiB/s");
    case RateUnit::Mbps:
        return QStringLiteral("Mbit/s");
    }
    return {};
}

QString Units::id(RateUnit unit)
{
    switch (unit) {
    case RateUnit::MBps:
        return QStringLiteral("MBps");
    case RateUnit::MiBps:
        return QStringLiteral("MiBps");
    case RateUnit::Mbps:
        return QStringLiteral("Mbps");
    }
    return {};
}

RateUnit Units::fromId(const QString &text, bool *ok)
{
    if (ok)
        *ok = true;
    const QString t = text.trimmed();
    // Case matters for the ids: "MBps" is bytes, "Mbps" is bits.
    for (RateUnit u : {RateUnit::MBps, RateUnit::MiBps, RateUnit::Mbps}) {
        if (t == id(u) || t == label(u))
            return u;
    }
    // Spellings that cannot be mistaken whatever their case.
    if (t.compare(QLatin1String("MiBps"), Qt::CaseInsensitive) == 0
        || t.compare(QLatin1String("MiB/s"), Qt::CaseInsensitive) == 0)
        return RateUnit::MiBps;
    if (t.compare(QLatin1String("Mbit/s"), Qt::CaseInsensitive) == 0
        || t.compare(QLatin1String("Mbits"), Qt::CaseInsensitive) == 0)
        return RateUnit::Mbps;
    if (ok)
        *ok = false;
    return RateUnit::MBps;
}

QString Units::format(double bytesPerSecond, RateUnit unit)
{
    const double v = fromBytesPerSecond(bytesPerSecond, unit);
    const int decimals = std::fabs(v) >= 100 ? 1 : (std::fabs(v) >= 1 ? 2 : 3);
    return QString::number(v, 'f', decimals) + QLatin1Char(' ') + label(unit);
}

QString Units::formatBytes(qint64 bytes)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int i = 0;
    while (std::fabs(v) >= 1024 && i < 4) {
        v /= 1024;
        ++i;
    }
    if (i == 0)
        return QString::number(bytes) + QStringLiteral(" B");
    const bool whole = std::fabs(v - std::round(v)) < 1e-9;
    return QString::number(v, 'f', whole ? 0 : 1) + QLatin1Char(' ') + QLatin1String(names[i]);
}

} // namespace wb
