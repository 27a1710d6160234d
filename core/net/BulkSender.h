#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include <sys/types.h>

namespace wb::net {

/// The sending half of a bulk TCP stream: one block of a pattern sent round and round, and the count of
/// what left. One send() a call, on a blocking socket (with SO_SNDTIMEO) or a non-blocking one: the
/// caller's loop decides when to send, how much (a Pacer's chunk) and when to look at anything else.
/// Senders of one block share its bytes (a shared Block), as iperf3's streams do.
class BulkSender
{
public:
    static constexpr std::int64_t kWhole = std::numeric_limits<std::int64_t>::max();
    using Block = std::shared_ptr<const std::string>;

    /// bytes of first, first + 1, ... first + period - 1, again: 'a' and 26 for wirebenchd, '0' and 10 for iperf3.
    static Block pattern(std::int64_t bytes, char first, int period);

    BulkSender() = default;
    explicit BulkSender(Block block)
        : m_block(std::move(block))
    {
    }

    /// One send() of the rest of the block, at most `most` bytes, with flags (MSG_DONTWAIT or 0), never raising
    /// SIGPIPE (platform::SocketCalls): what send() returned, errno as it left it when that is < 0.
    ssize_t sendSome(int fd, int flags, std::int64_t most = kWhole);
    /// Up to `calls` sendSome() in a row while each takes all it was offered (the socket still has room), as iperf3
    /// sends up to 10 blocks after one select(): one poll() per burst, not per block, on a non-blocking socket. The
    /// bytes sent, or what the first send() returned when it sent nothing (< 0: errno as it left it).
    ssize_t sendBurst(int fd, int flags, int calls);
    /// From now on send the block from file, a copy of it in memory (SocketCalls::memoryFile; the caller keeps it
    /// open), by sendfile: the bytes do not pass through this process (iperf3 -Z). -1: send() again. sendfile has
    /// no MSG_DONTWAIT: a caller that must not wait makes the socket non-blocking.
    void sendFrom(int file) { m_file = file; }
    std::int64_t sent() const { return m_sent; }

private:
    Block m_block;
    int m_file = -1;
    std::size_t m_offset = 0;
    std::int64_t m_sent = 0;
};

} // namespace wb::net
