#pragma once

#include <QString>

#include <functional>

namespace wb {

/// The local disk's own rate on the file of a transfer, measured outside the timed transfer (issue 14): the
/// source file read again after an upload (its cached pages dropped first), or a sample written and
/// fdatasync()ed in the sink's folder after a download, then removed. The same I/O mode as the transfer
/// (O_DIRECT when it used it). SessionFindings compares it with the transfer and the network.
class LocalDiskRate
{
public:
    /// The most a measurement reads or writes: the file's size up to this, so it costs at most a few seconds
    /// more than the transfer and never fills a disk the transfer fit on twice.
    static constexpr qint64 kMaxSampleBytes = 256LL * 1024 * 1024;

    struct Rate
    {
        double MBps = 0;  ///< 10^6 bytes/s; 0 when not measured
        qint64 bytes = 0; ///< what was read or written
        bool direct = false;
        QString problem; ///< why it was not measured (empty when it was)
    };

    /// Reads up to `bytes` of `path` (kMaxSampleBytes at most) from its start, after asking the kernel to
    /// drop its cached pages, so that it is the disk that is read.
    static Rate readOf(const QString &path, qint64 bytes, bool wantDirect, const std::function<bool()> &stop);
    /// Writes a sample of `bytes` (kMaxSampleBytes at most) in a new file beside `path` and fdatasync()s it; the
    /// sample alone is removed afterwards, whatever happened.
    static Rate writeBeside(const QString &path, qint64 bytes, bool wantDirect, const std::function<bool()> &stop);
};

} // namespace wb
