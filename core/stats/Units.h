#pragma once

#include <QString>

namespace wb {

/// Throughput units. MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s, Mbit/s = 10^6 bits/s.
enum class RateUnit { MBps, MiBps, Mbps };

class Units
{
public:
    static double fromBytesPerSecond(double bytesPerSecond, RateUnit unit);
    static double toBytesPerSecond(double value, RateUnit unit);
    static QString label(RateUnit unit);                           ///< "MB/s", "MiB/s", "Mbit/s"
    static QString id(RateUnit unit);                              ///< "MBps", "MiBps", "Mbps" (settings, CLI)
    static RateUnit fromId(const QString &id, bool *ok = nullptr); ///< accepts ids and labels
    /// "117.7 MB/s" with sensible precision.
    static QString format(double bytesPerSecond, RateUnit unit);
    /// "128 KiB", "1.5 MB"-style size for messages and buffers (binary prefixes).
    static QString formatBytes(qint64 bytes);
};

} // namespace wb
