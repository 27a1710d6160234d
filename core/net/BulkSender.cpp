#include "BulkSender.h"

#include "platform/Platform.h"

#include <algorithm>

namespace wb::net {

BulkSender::Block BulkSender::pattern(std::int64_t bytes, char first, int period)
{
    auto block = std::make_shared<std::string>(std::size_t(std::max<std::int64_t>(0, bytes)), '\0');
    for (std::size_t i = 0; i < block->size(); ++i)
        (*block)[i] = char(first + int(i % std::size_t(period)));
    return block;
}

ssize_t BulkSender::sendSome(int fd, int flags, std::int64_t most)
{
    const std::int64_t rest = std::int64_t(m_block->size() - m_offset);
    const std::size_t size = std::size_t(std::min(rest, most));
    const platform::SocketCalls &calls = platform::Platform::socketCalls();
    const ssize_t n = m_file >= 0 ? calls.sendFile(fd, m_file, static_cast<long long>(m_offset), size)
                                  : calls.send(fd, m_block->data() + m_offset, size, flags);
    if (n > 0) {
        m_sent += n;
        m_offset += std::size_t(n);
        if (m_offset == m_block->size())
            m_offset = 0;
    }
    return n;
}

ssize_t BulkSender::sendBurst(int fd, int flags, int calls)
{
    ssize_t total = 0;
    for (int i = 0; i < calls; ++i) {
        const std::int64_t offered = std::int64_t(m_block->size() - m_offset);
        const ssize_t n = sendSome(fd, flags);
        if (n <= 0)
            return total > 0 ? total : n; // a hard error comes back on the next call, after the next poll()
        total += n;
        if (n < offered)
            break; // the socket is full
    }
    return total;
}

} // namespace wb::net
