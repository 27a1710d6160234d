#pragma once

#include "model/TestParams.h"
#include "protocols/DriverRegistry.h"

#include <QString>

#include <memory>

namespace wb {

/// Plan-wide settings of the file-transfer protocols (FTP, SMB, copy), read from TestParams::options.
struct TransferSettings
{
    static constexpr const char *SourceKey = "transfer.source";         ///< "memory" | "file"
    static constexpr const char *SinkKey = "transfer.sink";             ///< "memory" | "file"
    static constexpr const char *LocalPathKey = "transfer.local_path";  ///< local file for source/sink
    static constexpr const char *UnbufferedKey = "transfer.unbuffered"; ///< O_DIRECT where available
    static constexpr const char *VerifyKey = "transfer.verify";         ///< compare content byte for byte
    static constexpr const char *CreateSeedKey = "transfer.create_seed"; ///< GET/read: upload the file if missing
    static constexpr const char *MaxRateKey = "transfer.max_rate_Bps";  ///< 0 = unlimited (B/s)

    bool fileSource = false;
    bool fileSink = false;
    QString localPath;
    bool unbuffered = false;
    bool verify = false;
    bool createSeed = true;
    qint64 maxRateBytesPerSecond = 0;

    static TransferSettings fromParams(const TestParams &params);
    /// The plan-wide options above, described for a generic settings form.
    static QList<OptionSpec> planOptions();
};

/// Deterministic test data: the byte at offset o is a function of o alone, so that any chunk can be
/// generated or checked without state. The pattern repeats with an odd period (not a power of two)
/// so that a misplaced block is still noticed. Each period starts with a line of text (the mark), so that a test
/// file says what it is to anyone who looks at its first bytes, and TestFile can tell it from other files.
class TestPattern
{
public:
    /// Length of the mark at offset 0 (and at every multiple of the period).
    static qint64 markBytes();
    static void fill(char *dst, qint64 offset, qint64 length);
    /// Offset (absolute) of the first byte that differs from the pattern, or -1.
    static qint64 firstMismatch(const char *data, qint64 offset, qint64 length);
};

/// An aligned heap buffer for O_DIRECT (4 KiB alignment).
class AlignedBuffer
{
public:
    explicit AlignedBuffer(qint64 size);
    ~AlignedBuffer();
    AlignedBuffer(const AlignedBuffer &) = delete;
    AlignedBuffer &operator=(const AlignedBuffer &) = delete;
    char *data() const { return m_data; }
    qint64 size() const { return m_size; }
    bool isNull() const { return m_data == nullptr; }

private:
    char *m_data = nullptr;
    qint64 m_size = 0;
};

/// Time spent inside local disk calls, to report the local disk's own speed next to the network figure.
struct DiskClock
{
    qint64 bytes = 0;
    qint64 nanoseconds = 0;
    double megabytesPerSecond() const { return nanoseconds > 0 ? bytes * 1e3 / nanoseconds : 0; }
};

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

/// Sleeps as needed to keep a transfer at or below a rate (test helper and user option).
class RateLimiter
{
public:
    explicit RateLimiter(qint64 bytesPerSecond) : m_rate(bytesPerSecond) {}
    void start();
    /// Blocks at most maxWaitMs so that callers can keep polling Stop.
    void throttle(qint64 totalBytes, int maxWaitMs = 100);
    bool active() const { return m_rate > 0; }

private:
    qint64 m_rate;
    qint64 m_startNs = 0;
};

} // namespace wb
