#pragma once

#include <QByteArray>
#include <QString>

#include <sys/types.h>

namespace wb {

/// What LocalSource, LocalSink, AlignedBuffer and RateLimiter share: the staging size, O_DIRECT's alignment and
/// the few POSIX helpers around them, written once.
class LocalFileIo
{
public:
    static constexpr qint64 StageBytes = 4 * 1024 * 1024;
    static constexpr qint64 Alignment = 4096;

    static qint64 nowNs();
    static QString errnoText(int err);
    /// ENOSPC, EDQUOT or EFBIG: the disk (or the user's quota, or the file system's file size) is full.
    static bool isDiskFull(int err);
    /// open(2) with O_DIRECT when wantDirect and the file system does it (*direct says which), else buffered.
    static int openMaybeDirect(const QByteArray &path, int flags, bool wantDirect, bool *direct, mode_t mode = 0644);
};

} // namespace wb
