#include "LatencyProbe.h"

#include "net/Socket.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <map>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

namespace wb {

using namespace wb::net;

namespace {

constexpr std::int64_t kMsNs = 1000000;

std::int64_t realtimeNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// One datagram and its arrival: the kernel's SO_TIMESTAMP when it gave one, else now (both CLOCK_REALTIME).
bool receiveTimed(int fd, std::string *datagram, std::int64_t *arrivedNs)
{
    char buf[256];
    char control[CMSG_SPACE(sizeof(timeval))];
    iovec iov{buf, sizeof(buf)};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    const ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT);
    if (n < 0)
        return false;
    *arrivedNs = realtimeNs();
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMP) {
            timeval tv{};
            std::memcpy(&tv, CMSG_DATA(c), sizeof(tv));
            *arrivedNs = std::int64_t(tv.tv_sec) * 1000000000 + std::int64_t(tv.tv_usec) * 1000;
        }
    }
    datagram->assign(buf, std::size_t(n));
    return true;
}

} // namespace

LatencyProbe::LatencyProbe(LatencyTarget target)
    : m_target(std::move(target))
{
}

LatencyProbe::~LatencyProbe()
{
    stop();
}

void LatencyProbe::start()
{
    if (m_thread.joinable() || m_target.method == LatencyTarget::Method::None)
        return;
    m_stopping.store(false);
    m_thread = std::thread([this] {
        if (m_target.method == LatencyTarget::Method::Echo)
            echoLoop();
        else
            connectLoop();
    });
}

void LatencyProbe::stop()
{
    if (!m_thread.joinable())
        return;
    m_stopNs = nowNs();
    m_stopping.store(true);
    m_thread.join();
}

QList<LatencyProbe::Round> LatencyProbe::take()
{
    std::lock_guard lk(m_mutex);
    QList<Round> out;
    out.swap(m_rounds);
    return out;
}

void LatencyProbe::publish(const Round &round)
{
    std::lock_guard lk(m_mutex);
    m_rounds.append(round);
}

void LatencyProbe::echoLoop()
{
    Fd fd(::socket(m_target.address.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    // Connected: only the host's datagrams reach this socket.
    if (!fd.valid()
        || ::connect(fd.get(), reinterpret_cast<const sockaddr *>(&m_target.address), m_target.addressLength) != 0)
        return;
    setIntOption(fd.get(), SOL_SOCKET, SO_TIMESTAMP, 1);
    struct Pending
    {
        std::int64_t sentNs;   // steady
        std::int64_t sentRtNs; // realtime, against the kernel's receive timestamp
        bool loaded;
    };
    std::map<std::uint64_t, Pending> pending; // by sequence number, so also in the order they left
    const std::int64_t period = 1000 * kMsNs / m_target.rateHz();
    std::uint64_t sequence = 1;
    std::int64_t next = nowNs();
    for (;;) {
        std::int64_t now = nowNs();
        if (sending() && now >= next) {
            const std::string d = echo::request(m_target.grant, sequence);
            const Pending p{now, realtimeNs(), m_phase.load() == Phase::Loaded};
            if (::send(fd.get(), d.data(), d.size(), MSG_DONTWAIT) == ssize_t(d.size()))
                pending.emplace(sequence, p);
            ++sequence;
            next = std::max(next + period, now + period / 2);
        }
        // Lost: no answer within the timeout (and all of them once stopping has waited that long).
        const bool giveUp = m_stopping.load() && now - m_stopNs > kTimeoutMs * kMsNs;
        while (!pending.empty() && (giveUp || now - pending.begin()->second.sentNs > kTimeoutMs * kMsNs)) {
            publish({pending.begin()->second.sentNs, -1, pending.begin()->second.loaded});
            pending.erase(pending.begin());
        }
        if (m_stopping.load() && pending.empty())
            return;
        pollfd p{fd.get(), POLLIN, 0};
        const int waitMs = sending() ? int(std::max<std::int64_t>(0, (next - now) / kMsNs)) : 20;
        if (::poll(&p, 1, std::min(waitMs, 20)) <= 0)
            continue;
        std::string datagram;
        std::int64_t arrivedRt = 0;
        while (receiveTimed(fd.get(), &datagram, &arrivedRt)) {
            const std::optional<std::uint64_t> seq = echo::parseAnswer(datagram);
            const auto it = seq ? pending.find(*seq) : pending.end();
            if (it == pending.end())
                continue; // a duplicate, a late one already counted lost, or not an answer
            // Answers arrive in order unless the path reorders; earlier ones still pending stay pending.
            publish({it->second.sentNs, double(arrivedRt - it->second.sentRtNs) / 1e6, it->second.loaded});
            pending.erase(it);
        }
    }
}

void LatencyProbe::connectLoop()
{
    const std::int64_t period = 1000 * kMsNs / m_target.rateHz();
    std::int64_t next = nowNs();
    while (!m_stopping.load()) {
        std::int64_t now = nowNs();
        if (!sending() || now < next) {
            pollfd none{-1, 0, 0};
            ::poll(&none, 0, int(std::clamp<std::int64_t>((next - now) / kMsNs, 1, 20)));
            continue;
        }
        next = std::max(next + period, now + period / 2);
        const bool loaded = m_phase.load() == Phase::Loaded;
        Fd fd(::socket(m_target.address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
        if (!fd.valid())
            continue;
        // Reset at close: the server sees a connection that ended at once, and no TIME_WAIT stays behind here.
        const linger reset{1, 0};
        ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
        const std::int64_t sent = nowNs();
        double rttMs = -1;
        if (::connect(fd.get(), reinterpret_cast<const sockaddr *>(&m_target.address), m_target.addressLength) == 0) {
            rttMs = double(nowNs() - sent) / 1e6;
        } else if (errno == EINPROGRESS) {
            while (!m_stopping.load() && nowNs() - sent < kTimeoutMs * kMsNs) {
                pollfd p{fd.get(), POLLOUT, 0};
                if (::poll(&p, 1, 20) <= 0)
                    continue;
                const std::int64_t done = nowNs();
                int soError = 0;
                socklen_t sl = sizeof(soError);
                getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &soError, &sl);
                if (soError == 0)
                    rttMs = double(done - sent) / 1e6;
                break;
            }
            if (m_stopping.load() && rttMs < 0)
                return; // cut short by the end of the run: neither answered nor lost
        }
        publish({sent, rttMs, loaded});
    }
}

} // namespace wb
