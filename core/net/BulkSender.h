#pragma once

#include <QByteArray>

#include <limits>

#include <sys/types.h>

namespace wb::net {

/// The sending half of a bulk TCP stream: one block of a pattern sent round and round, and the count of
/// what left. One send() a call, on a blocking socket (with SO_SNDTIMEO) or a non-blocking one: the
/// caller's loop decides when to send, how much (a Pacer's chunk) and when to look at anything else.
/// Senders of one block share its bytes (QByteArray's implicit sharing), as iperf3's streams do.
class BulkSender
{
public:
    static constexpr qint64 kWhole = std::numeric_limits<qint64>::max();

    /// bytes of first, first + 1, ... first + period - 1, again: 'a' and 26 for wirebenchd, '0' and 10 for iperf3.
    static QByteArray pattern(qsizetype bytes, char first, int period);

    BulkSender() = default;
    explicit BulkSender(QByteArray block) : m_block(std::move(block)) {}

    /// One send() of the rest of the block, at most `most` bytes, with flags (MSG_DONTWAIT or 0), never raising
    /// SIGPIPE (platform::SocketCalls): what send() returned, errno as it left it when that is < 0.
    ssize_t sendSome(int fd, int flags, qint64 most = kWhole);
    qint64 sent() const { return m_sent; }

private:
    QByteArray m_block;
    qsizetype m_offset = 0;
    qint64 m_sent = 0;
};

} // namespace wb::net
