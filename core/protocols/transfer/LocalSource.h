#pragma once

#include "AlignedBuffer.h"
#include "DiskClock.h"
#include "TransferSettings.h"

#include <QString>

#include <memory>

namespace wb {

/// Where an upload's data comes from: generated pattern (memory) or a local file read sequentially.
class LocalSource
{
public:
    ~LocalSource();
    /// For a file source, creates the file with the test pattern when it is missing or shorter than size.
    bool open(const TransferSettings &settings, qint64 size, QString *error);
    /// Next chunk (sequential). Returns bytes copied (0 at the end), -1 on a local read error.
    qint64 read(char *dst, qint64 maxLength, QString *error);
    /// The reference content at offset (for verifying what arrived at the far end).
    bool reference(char *dst, qint64 offset, qint64 length, QString *error);
    qint64 position() const { return m_position; }
    bool isFile() const { return m_fd >= 0; }
    bool createdFile() const { return m_created; }
    const DiskClock &disk() const { return m_disk; }

private:
    bool refill(QString *error);

    int m_fd = -1;
    int m_refFd = -1; ///< second descriptor (buffered) for reference reads
    bool m_direct = false;
    bool m_created = false;
    QString m_path;
    qint64 m_size = 0;
    qint64 m_position = 0;
    std::unique_ptr<AlignedBuffer> m_buffer;
    qint64 m_bufferStart = 0;
    qint64 m_bufferFill = 0;
    DiskClock m_disk;
};

} // namespace wb
