#include "ProbeServer.h"

#include "HttpRequest.h"
#include "HttpResponse.h"
#include "ProbeRunner.h"
#include "net/ConnectionThreads.h"
#include "net/ListenSocket.h"
#include "net/PerAddressLimit.h"
#include "net/Socket.h"
#include "net/WakeUp.h"
#include "platform/Platform.h"
#include "wire/PrintableText.h"
#include "wire/Text.h"

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace wb::probe {

using namespace wb::net;
using wire::Arg;

class ProbeServer::Private
{
public:
    Private(const ProbeConfig &config, LogSink sink)
        : cfg(config)
        , sink(sink)
        , runner(config, sink)
        , perAddress(config.maxPerAddress)
    {
    }

    void acceptLoop();
    /// The limits a new connection meets before it has a thread: its address's requests in flight, then all of
    /// them. False when it was turned away (answered and closed).
    bool admit(Fd &client, const sockaddr_storage &peer);
    /// The answer in one non-blocking write, then the close: a flood gets no thread.
    void turnAway(Fd client, const HttpResponse &response);
    /// A request of `address` was answered: it counts no more against --probe-max-per-address.
    void release(const std::string &address);
    void serve(Fd client, const sockaddr_storage &peer);
    /// The request's head, read within the request timeout; an empty string with the answer to send in *refusal
    /// when it does not come whole (413 too long, 408 too slow, 400 closed early).
    std::string readHead(int fd, HttpResponse *refusal);
    void send(int fd, const HttpResponse &response);
    void log(const std::string &line)
    {
        if (sink)
            sink(wire::safeLogLine(line));
    }

    ProbeConfig cfg;
    LogSink sink;
    ProbeRunner runner;
    Fd listenFd;
    WakeUp wake;
    std::thread acceptThread;
    ConnectionThreads connections;
    PerAddressLimit perAddress; ///< --probe-max-per-address: requests in flight of each address
    int refusedAtLimit = 0;     ///< connections turned away at the limit of all since the last one let in
    std::atomic_bool stopping{false};
    bool running = false;
    std::uint16_t boundPort = 0;
};

ProbeServer::ProbeServer(const ProbeConfig &config, LogSink log)
    : d(std::make_unique<Private>(config, std::move(log)))
{
}

ProbeServer::~ProbeServer()
{
    stop();
}

bool ProbeServer::start(std::string *error)
{
    if (d->running)
        return true;
    if (!checkPlanDirectory(d->cfg.planDirectory, error))
        return false;
    ListenFailure failure;
    if (!openListenSocket(d->cfg.address, d->cfg.port, &d->listenFd, &d->boundPort, &failure)) {
        *error = failure.step.empty()
            ? Arg("wirebenchd: --probe-listen: \"%1\" is not an IPv4 or IPv6 address to listen on")
                  .arg(addressText(d->cfg.address))
                  .str()
            : Arg("wirebenchd: cannot %1 on %2 port %3 for probes (--probe-listen): %4")
                  .arg(failure.step, addressText(d->cfg.address))
                  .arg(d->cfg.port)
                  .arg(errnoText(failure.error))
                  .str();
        return false;
    }
    if (!d->wake.open()) {
        *error = Arg("wirebenchd: cannot create a wake-up socket pair: %1").arg(errnoText(errno));
        d->listenFd.reset();
        return false;
    }
    d->stopping.store(false);
    d->running = true;
    d->acceptThread = std::thread([this] { d->acceptLoop(); });
    return true;
}

bool ProbeServer::checkPlanDirectory(const std::string &directory, std::string *error)
{
    std::error_code ec;
    if (std::filesystem::is_directory(directory, ec))
        return true;
    *error = Arg("wirebenchd: --probe-plans: %1 is not a folder%2: make it and put the plans a probe may run there "
                 "(NAME.wbplan.json, saved from Wirebench or with wirebench-cli run ... --save-plan)")
                 .arg(directory, ec ? " (" + ec.message() + ")" : std::string());
    return false;
}

void ProbeServer::stop()
{
    if (!d->running)
        return;
    d->stopping.store(true);
    d->runner.stop();
    d->wake.signal();
    if (d->acceptThread.joinable())
        d->acceptThread.join();
    d->connections.reap(true);
    d->wake.close();
    d->listenFd.reset();
    d->running = false;
}

std::uint16_t ProbeServer::port() const
{
    return d->boundPort;
}

void ProbeServer::Private::acceptLoop()
{
    while (!stopping.load()) {
        PollFd fds[2] = {{listenFd.get(), POLLIN, 0}, {wake.readFd(), POLLIN, 0}};
        const int ready = pollSockets(fds, 2, 500);
        connections.reap(false);
        if (ready <= 0)
            continue;
        if (fds[1].revents)
            break;
        sockaddr_storage peer{};
        socklen_t length = sizeof(peer);
        Fd client(platform::Platform::socketCalls().accept(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &length,
                                                           false));
        if (!client.valid())
            continue;
        if (!admit(client, peer))
            continue;
        const std::string address = addressText(peerAddress(peer));
        connections.start([this, fd = client.release(), peer, address] {
            serve(Fd(fd), peer);
            release(address);
        });
    }
}

bool ProbeServer::Private::admit(Fd &client, const sockaddr_storage &peer)
{
    // One address may have a few requests in flight (a scraper needs one at a time), so that slow requests from it
    // leave the others their room under the limit of all. A flood is logged at its first refusal and when it is over.
    const std::string address = addressText(peerAddress(peer));
    const PerAddressLimit::Taken taken = perAddress.take(address);
    if (!taken.ok) {
        turnAway(std::move(client),
                 HttpResponse::text(429,
                                    Arg("wirebenchd: %1 has %2 requests to the probe endpoint in flight already, the "
                                        "most one address may have (--probe-max-per-address): wait for their answers")
                                        .arg(address)
                                        .arg(taken.held)));
        if (taken.firstRefusal) {
            log(Arg("probe endpoint: %1 refused (429): its address has %2 requests in flight (the limit, "
                    "--probe-max-per-address); its further refusals are counted until it has none")
                    .arg(endpointText(peer))
                    .arg(taken.held));
        }
        return false;
    }
    const int inUse = int(connections.working()); // only this thread adds: no race with the count
    if (inUse >= cfg.maxConnections) {
        release(address);
        turnAway(
            std::move(client),
            HttpResponse::text(
                503,
                Arg("wirebenchd: %1 connections to the probe endpoint at once already: try again later").arg(inUse)));
        if (refusedAtLimit++ == 0) {
            log(Arg("probe endpoint: %1 refused: %2 connections already (the limit); further refusals are counted "
                    "until one is let in")
                    .arg(endpointText(peer))
                    .arg(inUse));
        }
        return false;
    }
    if (refusedAtLimit > 0) {
        log(Arg("probe endpoint: %1 connections, under the limit of %2 again: %3 were refused at it")
                .arg(inUse)
                .arg(cfg.maxConnections)
                .arg(refusedAtLimit));
        refusedAtLimit = 0;
    }
    return true;
}

void ProbeServer::Private::turnAway(Fd client, const HttpResponse &response)
{
    const std::string bytes = response.bytes();
    [[maybe_unused]] ssize_t w
        = platform::Platform::socketCalls().send(client.get(), bytes.data(), bytes.size(), MSG_DONTWAIT);
    // The request that came already is read and dropped, without waiting: closing with it unread would reset the
    // connection, and the reset could overtake the answer.
    shutdownSend(client.get());
    char sink[4096];
    for (int i = 0; i < 16 && receive(client.get(), sink, sizeof(sink), MSG_DONTWAIT) > 0; ++i) {
    }
}

void ProbeServer::Private::release(const std::string &address)
{
    const int refused = perAddress.release(address);
    if (refused > 0) {
        log(Arg("probe endpoint: %1 has no request in flight any more: %2 of its requests were refused at the "
                "limit of %3 (--probe-max-per-address)")
                .arg(address)
                .arg(refused)
                .arg(perAddress.limit()));
    }
}

std::string ProbeServer::Private::readHead(int fd, HttpResponse *refusal)
{
    std::string buffer;
    const std::int64_t deadline = nowNs() + std::int64_t(cfg.requestTimeoutMs) * 1'000'000;
    for (;;) {
        const std::int64_t left = (deadline - nowNs()) / 1'000'000;
        if (left <= 0 || stopping.load()) {
            *refusal = HttpResponse::text(
                408, Arg("wirebenchd: the request did not come whole within %1 s").arg(cfg.requestTimeoutMs / 1000.0));
            return std::string();
        }
        PollFd p{fd, POLLIN, 0};
        if (pollSockets(&p, 1, int(std::min<std::int64_t>(left, 200))) <= 0)
            continue;
        char chunk[2048];
        const ssize_t n = receive(fd, chunk, sizeof(chunk), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0) {
            *refusal = HttpResponse::text(400, "wirebenchd: the connection closed before the request's end");
            return std::string();
        }
        buffer.append(chunk, std::size_t(n));
        const std::size_t end = HttpRequest::headEnd(buffer);
        if (end > 0 && end <= HttpRequest::kMaxHeadBytes)
            return buffer.substr(0, end);
        if (buffer.size() > HttpRequest::kMaxHeadBytes) {
            *refusal = HttpResponse::text(413,
                                          Arg("wirebenchd: the request's head is longer than %1 bytes, the most "
                                              "the probe endpoint reads")
                                              .arg(HttpRequest::kMaxHeadBytes));
            return std::string();
        }
    }
}

void ProbeServer::Private::send(int fd, const HttpResponse &response)
{
    const std::string bytes = response.bytes();
    setIoTimeouts(fd, 5000);
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = platform::Platform::socketCalls().send(fd, bytes.data() + sent, bytes.size() - sent, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // the scraper left (or stalled past the time-out): nothing more to tell it
        sent += std::size_t(n);
    }
    shutdownSend(fd);
    // A lingering close: what the client still sends (the rest of a head too long) is read and dropped for a
    // moment, since closing with it unread resets the connection and could lose the answer on its way.
    const std::int64_t until = nowNs() + 500'000'000;
    char sink[4096];
    for (std::int64_t left = 500; left > 0; left = (until - nowNs()) / 1'000'000) {
        PollFd p{fd, POLLIN, 0};
        if (pollSockets(&p, 1, int(left)) <= 0 || receive(fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0)
            break;
    }
}

void ProbeServer::Private::serve(Fd client, const sockaddr_storage &peer)
{
    const std::string who = endpointText(peer);
    if (!cfg.allow.empty()) {
        bool allowed = false;
        for (const Subnet &net : cfg.allow)
            allowed = allowed || net.contains(peerAddress(peer));
        if (!allowed) {
            std::string networks;
            for (const Subnet &net : cfg.allow)
                networks += (networks.empty() ? "" : ", ") + net.text();
            log(Arg("probe endpoint: 403 Forbidden from %1: not in the networks allowed (--allow %2)")
                    .arg(who, networks));
            send(client.get(),
                 HttpResponse::text(403,
                                    Arg("wirebenchd: %1 is not in the networks allowed to ask for probes "
                                        "(--allow %2)")
                                        .arg(hostText(peer), networks)));
            return;
        }
    }
    HttpResponse refusal;
    const std::string head = readHead(client.get(), &refusal);
    if (head.empty()) {
        log(Arg("probe endpoint: %1 from %2: %3")
                .arg(HttpResponse::statusText(refusal.status), who, wire::trimmed(refusal.body)));
        send(client.get(), refusal);
        return;
    }
    HttpRequest request;
    std::string error;
    if (!HttpRequest::parse(head, &request, &error)) {
        log(Arg("probe endpoint: 400 Bad Request from %1: %2").arg(who, error));
        send(client.get(), HttpResponse::text(400, "wirebenchd: " + error + ": ask GET /probe?target=HOST&plan=NAME"));
        return;
    }
    send(client.get(), runner.answer(request, who));
}

} // namespace wb::probe
