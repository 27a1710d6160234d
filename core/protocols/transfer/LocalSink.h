#pragma once

#include "AlignedBuffer.h"
#include "DiskClock.h"
#include "TransferSettings.h"

#include <QString>

#include <memory>

namespace wb {

/// Where a download's data goes: discarded (memory) or a local file, optionally checked against the pattern.
/// A download that does not finish leaves nothing of itself behind: a file the sink created is removed, a file that
/// was there before (and was truncated by open) is emptied. On a full disk this happens at once, so that the disk
/// is free again when the user reads the error; otherwise when the sink goes.
class LocalSink
{
public:
    ~LocalSink();
    bool open(const TransferSettings &settings, QString *error);
    /// Appends a chunk. Returns false on a local write error (disk full, ...) or a pattern mismatch.
    bool write(const char *data, qint64 length, QString *error);
    /// Flushes the tail and fdatasync()s a file sink (counted in the disk time). Once it succeeds the file stays.
    bool finish(QString *error);
    qint64 position() const { return m_position; }
    bool localDiskFull() const { return m_diskFull; }
    qint64 mismatchAt() const { return m_mismatch; }
    bool isFile() const { return m_fd >= 0; }
    const DiskClock &disk() const { return m_disk; }

private:
    bool flushBuffer(bool final, QString *error);
    /// Removes what the download wrote (see the class); returns what was done, for the error ("" = nothing).
    QString discard();
    QString diskFullError(const QString &doing, qint64 stored);

    int m_fd = -1;
    bool m_direct = false;
    bool m_verify = false;
    bool m_diskFull = false;
    bool m_created = false;  ///< open() created the file (it did not exist)
    bool m_finished = false; ///< finish() succeeded: the file is the whole download
    bool m_discarded = false;
    QString m_path;
    qint64 m_position = 0;
    qint64 m_mismatch = -1;
    std::unique_ptr<AlignedBuffer> m_buffer;
    qint64 m_bufferFill = 0;
    DiskClock m_disk;
};

} // namespace wb
