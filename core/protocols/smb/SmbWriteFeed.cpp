#include "SmbWriteFeed.h"

#include "protocols/transfer/LocalSource.h"

#include <system_error>

namespace wb {

SmbWriteFeed::SmbWriteFeed(LocalSource &source, qint64 totalBytes, qint64 maxChunkBytes)
    : m_source(source)
    , m_total(totalBytes)
{
    for (std::vector<char> &b : m_buffers)
        b.resize(size_t(maxChunkBytes));
}

SmbWriteFeed::~SmbWriteFeed()
{
    finish();
}

void SmbWriteFeed::finish()
{
    if (m_ahead.valid())
        m_ahead.wait();
}

SmbWriteFeed::Fill SmbWriteFeed::fill(int buffer, qint64 maxLength)
{
    std::vector<char> &b = m_buffers[buffer];
    Fill f;
    f.length = m_source.read(b.data(), qMin<qint64>(maxLength, qint64(b.size())), &f.error);
    return f;
}

void SmbWriteFeed::startAhead(qint64 maxLength)
{
    // Only this thread touches the source while no fill is pending, so position() is safe to read here.
    if (m_source.position() >= m_total)
        return;
    const int other = 1 - m_current;
    try {
        m_ahead = std::async(std::launch::async, [this, other, maxLength] { return fill(other, maxLength); });
    } catch (const std::system_error &) {
        // No thread to spare: the next chunk is then read when it is asked for, as without the feed.
        m_ahead = {};
    }
}

qint64 SmbWriteFeed::next(qint64 maxLength, const char **data, QString *error)
{
    Fill f;
    if (m_ahead.valid()) {
        f = m_ahead.get();
        m_current = 1 - m_current;
    } else {
        f = fill(m_current, maxLength);
    }
    if (f.length <= 0) {
        *error = f.error;
        return f.length;
    }
    *data = m_buffers[m_current].data();
    startAhead(maxLength);
    return f.length;
}

} // namespace wb
