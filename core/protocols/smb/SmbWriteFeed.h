#pragma once

#include <QString>

#include <future>
#include <vector>

namespace wb {

class LocalSource;

/// The data of an SMB write, one chunk ahead: while smbc_write sends one chunk, a second thread takes the
/// next one from the LocalSource. A synchronous write leaves the line idle for as long as the caller then
/// takes to make the next buffer (about 1 ms per 4 MiB from the memory source at 1 Gbit/s, 3% of the call;
/// longer from a file). The content is the source's, byte for byte, whatever the verify setting.
class SmbWriteFeed
{
public:
    /// totalBytes: where the source ends (nothing is read ahead past it).
    SmbWriteFeed(LocalSource &source, qint64 totalBytes, qint64 maxChunkBytes);
    ~SmbWriteFeed();
    SmbWriteFeed(const SmbWriteFeed &) = delete;
    SmbWriteFeed &operator=(const SmbWriteFeed &) = delete;

    /// The next chunk in *data, valid until the next call; returns its length, 0 at the end, -1 on a local
    /// read error (*error set). Before it returns it starts reading the chunk after it, of at most maxLength
    /// bytes (and maxChunkBytes): a smaller maxLength shows from the chunk after next.
    qint64 next(qint64 maxLength, const char **data, QString *error);
    /// Waits for the chunk being read ahead, so that the source may be used (disk()) on this thread again.
    void finish();

private:
    struct Fill
    {
        qint64 length = 0;
        QString error;
    };
    Fill fill(int buffer, qint64 maxLength);
    void startAhead(qint64 maxLength);

    LocalSource &m_source;
    qint64 m_total;
    std::vector<char> m_buffers[2];
    int m_current = 0;         ///< the buffer handed out last
    std::future<Fill> m_ahead; ///< fills buffer 1 - m_current
};

} // namespace wb
