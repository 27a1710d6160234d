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
    const ssize_t n = platform::Platform::socketCalls().send(fd, m_block->data() + m_offset, size_t(std::min(rest, most)), flags);
    if (n > 0) {
        m_sent += n;
        m_offset += std::size_t(n);
        if (m_offset == m_block->size())
            m_offset = 0;
    }
    return n;
}

} // namespace wb::net
