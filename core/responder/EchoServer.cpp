#include "EchoServer.h"

#include "net/Address.h"
#include "net/Socket.h"
#include "net/SocketApi.h"
#include "wire/Text.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/EchoWire.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <thread>

namespace wb {

using namespace wb::net;

namespace {

std::uint64_t steadySeconds()
{
    return std::uint64_t(nowNs() / 1000000000);
}

/// Answers per second: a bucket that refills at `rate` a second and holds at most one second's worth.
struct Bucket
{
    double tokens = 0;
    std::int64_t lastNs = 0;
    bool take(double rate, std::int64_t now)
    {
        tokens = std::min(rate, tokens + double(now - lastNs) / 1e9 * rate);
        lastNs = now;
        if (tokens < 1)
            return false;
        tokens -= 1;
        return true;
    }
};

} // namespace

class EchoServer::Private
{
public:
    void loop();
    bool answerable(const std::string &datagram, const sockaddr_storage &from);

    std::string secret = auth::randomBytes(32);
    Fd fd;
    std::thread thread;
    std::atomic_bool stopping{false};
    std::atomic<int> port{0};
    std::atomic<std::uint64_t> answered{0};
    std::atomic<std::uint64_t> dropped{0};
    std::map<std::string, Bucket> perClient; // the loop's thread only
    Bucket total;
};

EchoServer::EchoServer()
    : d(std::make_unique<Private>())
{
}

EchoServer::~EchoServer()
{
    stop();
}

bool EchoServer::start(const platform::IpAddress &address, std::uint16_t port, std::string *error)
{
    stop();
    sockaddr_storage sa{};
    socklen_t len = 0;
    auto fail = [&](const char *step) {
        if (error)
            *error = wire::Arg("cannot %1 for the latency echo on UDP port %2: %3")
                         .arg(std::string(step))
                         .arg(port)
                         .arg(errnoText(errno));
        d->fd.reset();
        return false;
    };
    if (!toSockaddr(address, port, &sa, &len))
        return fail("use the address");
    d->fd.reset(openSocket(sa.ss_family, SOCK_DGRAM, true));
    if (!d->fd.valid())
        return fail("create a socket");
    if (sa.ss_family == AF_INET6) // as the TCP listener: "::" takes IPv4 too
        setIntOption(d->fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, isUnspecified(address) ? 0 : 1);
    if (bindSocket(d->fd.get(), reinterpret_cast<sockaddr *>(&sa), len) != 0)
        return fail("bind");
    sockaddr_storage bound{};
    socklen_t blen = sizeof(bound);
    localAddress(d->fd.get(), &bound, &blen);
    d->port.store(portOf(bound));
    d->stopping.store(false);
    d->thread = std::thread([this] { d->loop(); });
    return true;
}

void EchoServer::stop()
{
    d->stopping.store(true);
    if (d->thread.joinable())
        d->thread.join();
    d->fd.reset();
    d->port.store(0);
}

int EchoServer::port() const
{
    return d->port.load();
}

std::string EchoServer::tokenFor(const sockaddr_storage &peer, std::uint64_t *expirySeconds) const
{
    *expirySeconds = steadySeconds() + echo::kTokenLifetimeSeconds;
    return echo::token(d->secret, addressText(peerAddress(peer)), *expirySeconds);
}

std::uint64_t EchoServer::answered() const
{
    return d->answered.load();
}

std::uint64_t EchoServer::dropped() const
{
    return d->dropped.load();
}

bool EchoServer::Private::answerable(const std::string &datagram, const sockaddr_storage &from)
{
    const std::optional<echo::Request> r = echo::parseRequest(datagram);
    if (!r || r->expirySeconds < steadySeconds())
        return false;
    const std::string who = addressText(peerAddress(from));
    if (!auth::sameBytes(r->token, echo::token(secret, who, r->expirySeconds)))
        return false;
    const std::int64_t now = nowNs();
    if (perClient.size() > 4096) // many addresses with valid tokens: start the buckets again rather than grow
        perClient.clear();
    auto it = perClient.try_emplace(who, Bucket{double(echo::kMaxPerSecondPerClient), now}).first;
    if (total.lastNs == 0)
        total = Bucket{double(echo::kMaxPerSecondTotal), now};
    return it->second.take(echo::kMaxPerSecondPerClient, now) && total.take(echo::kMaxPerSecondTotal, now);
}

void EchoServer::Private::loop()
{
    char buf[512];
    while (!stopping.load()) {
        PollFd p{fd.get(), POLLIN, 0};
        if (pollSockets(&p, 1, 200) <= 0)
            continue;
        sockaddr_storage from{};
        socklen_t flen = sizeof(from);
        const ssize_t n = receiveFrom(fd.get(), buf, sizeof(buf), 0, reinterpret_cast<sockaddr *>(&from),
                                      &flen); // non-blocking socket
        if (n <= 0)
            continue;
        const std::string datagram(buf, std::size_t(n));
        if (!answerable(datagram, from)) {
            dropped.fetch_add(1);
            continue;
        }
        const std::string answer = echo::answerTo(datagram);
        // sendto(2) has one form on POSIX and Winsock when the buffer is a char pointer and the length an int.
        if (::sendto(fd.get(), answer.data(), int(answer.size()), 0, reinterpret_cast<sockaddr *>(&from), flen) > 0)
            answered.fetch_add(1);
    }
}

} // namespace wb
