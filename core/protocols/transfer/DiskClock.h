#pragma once

#include <QtGlobal>

namespace wb {

/// Time spent inside local disk calls, to report the local disk's own speed next to the network figure.
struct DiskClock
{
    qint64 bytes = 0;
    qint64 nanoseconds = 0;
    double megabytesPerSecond() const { return nanoseconds > 0 ? bytes * 1e3 / nanoseconds : 0; }
};

} // namespace wb
