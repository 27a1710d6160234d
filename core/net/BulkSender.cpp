#include "BulkSender.h"

#include "platform/Platform.h"

#include <sys/socket.h>

namespace wb::net {

QByteArray BulkSender::pattern(qsizetype bytes, char first, int period)
{
    QByteArray block(bytes, Qt::Uninitialized);
    for (qsizetype i = 0; i < bytes; ++i)
        block[i] = char(first + i % period);
    return block;
}

ssize_t BulkSender::sendSome(int fd, int flags, qint64 most)
{
    const qint64 rest = m_block.size() - m_offset;
    const ssize_t n = platform::Platform::socketCalls().send(fd, m_block.constData() + m_offset, size_t(qMin(rest, most)), flags);
    if (n > 0) {
        m_sent += n;
        m_offset += n;
        if (m_offset == m_block.size())
            m_offset = 0;
    }
    return n;
}

} // namespace wb::net
