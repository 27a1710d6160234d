#include "WirebenchdServer.h"

#include "EchoServer.h"

#include "analysis/FarEndFacts.h"
#include "net/Address.h"
#include "net/BulkReceiver.h"
#include "net/BulkSender.h"
#include "net/ConnectionThreads.h"
#include "net/ListenSocket.h"
#include "net/Pacer.h"
#include "net/PerAddressLimit.h"
#include "net/Socket.h"
#include "net/TcpInfo.h"
#include "net/WakeUp.h"
#include "platform/Platform.h"
#include "stats/StreamsWindow.h"
#include "wire/PrintableText.h"
#include "wire/Text.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlChannel.h"
#include "wire/wirebenchd/ControlMessage.h"
#include "wire/wirebenchd/EchoWire.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace wb {

using namespace wb::net;
using control::ControlChannel;
using control::Json;
using wire::Arg;
using wire::safeLogLine;

namespace {

constexpr int kMinDataBuffer = 128 * 1024; // read at least this much per recv(): fewer syscalls
constexpr std::int64_t kMsNs = 1000000;
// A refusal under --max-unproven-per-address passes once the address's own connections prove the key or close
// (a hello's round trip): a client may try again after this.
constexpr int kUnprovenRetryAfterMs = 100;

std::string mbps(std::int64_t bytes, double seconds)
{
    if (seconds <= 0)
        return "- MB/s";
    return Arg("%1 MB/s").arg(double(bytes) / seconds / 1e6, 0, 'f', 1);
}

/// The interface that holds the local address of a connection, judged by the client's own rule
/// (FarEndFacts, which LinkTrust words): its facts go into the hello, the bare speed only when the rule believes
/// it (older clients read that alone). Returns its name (empty when not found): its drop counters go with the result.
std::string describeLink(const sockaddr_storage &local, control::Hello *hello)
{
    const std::string name = platform::Platform::interfaces().holding(peerAddress(local));
    if (name.empty())
        return name;
    const platform::InterfaceReading reading = platform::Platform::interfaces().read(name);
    hello->link = FarEndFacts::interfaceJson(name, reading);
    hello->linkSpeedMbps = FarEndFacts::trustedSpeedMbps(reading);
    return name;
}

platform::DropReading readDrops(const std::string &interfaceName)
{
    return platform::Platform::dropCounters().read(interfaceName);
}

} // namespace

class WirebenchdServer::Private
{
public:
    Private(const ServerConfig &config, LogSink sink)
        : cfg(config)
        , sink(std::move(sink))
        , unproven(config.maxUnprovenPerAddress)
    {
    }

    enum class Slot { Got, Busy, Left, Stopped };

    void acceptLoop();
    /// The limits a new connection meets before it has a thread: what its address holds unproven, then every
    /// connection. False when it was turned away (and closed).
    bool admit(Fd &client, const sockaddr_storage &peer);
    /// "busy" with the reason in one non-blocking write, then the close: a flood gets no thread and no waiting.
    void turnAway(Fd client, const std::string &reason, int retryAfterMs = 0);
    /// A connection of `address` proved the key or ended: it counts no more against --max-unproven-per-address.
    void releaseUnproven(const std::string &address);
    class Session;
    void session(Fd client, sockaddr_storage peer);
    Slot acquireSlot(int fd, ControlChannel &ch);
    void releaseSlot();
    bool allowed(const sockaddr_storage &peer) const { return cfg.allows(peerAddress(peer)); }
    /// Every log line goes out through here: escaped and capped, whatever a client put into it.
    void log(const std::string &line)
    {
        if (sink)
            sink(safeLogLine(line));
    }
    bool stopping() const { return m_stopping.load(); }

    ServerConfig cfg;
    LogSink sink;
    Fd listenFd;
    WakeUp wake;
    std::thread acceptThread;
    std::mutex connMutex; ///< held while the connections are counted against --max-connections and one is added
    ConnectionThreads connections;
    PerAddressLimit unproven; ///< --max-unproven-per-address: connections of each address that have not proved the key
    int refusedAtLimit = 0; ///< connections turned away at --max-connections since the last one let in (accept thread)
    std::atomic_bool m_stopping{false};
    // Test slots and the queue of clients waiting for one.
    std::mutex slotMutex;
    std::condition_variable slotCv;
    int activeTests = 0;
    std::deque<std::uint64_t> waiting;
    std::uint64_t nextTicket = 1;
    // Data connections of running tests: --max-connections counts them with the control connections.
    std::atomic_int dataConnections{0};
    bool running = false;
    std::uint16_t boundPort = 0;
    EchoServer echo; ///< UDP on boundPort: the latency probe's round trips (tokens given in the handshake)
};

WirebenchdServer::WirebenchdServer(const ServerConfig &config, LogSink log)
    : d(std::make_unique<Private>(config, std::move(log)))
{
}

WirebenchdServer::~WirebenchdServer()
{
    stop();
}

bool WirebenchdServer::start(std::string *error)
{
    if (d->running)
        return true;
    auto fail = [&](const std::string &what, int err) {
        if (error)
            *error = Arg("wirebenchd: cannot %1 on %2 port %3: %4")
                         .arg(what, addressText(d->cfg.address))
                         .arg(d->cfg.port)
                         .arg(errnoText(err));
        d->listenFd.reset();
        return false;
    };
    ListenFailure failure;
    if (!openListenSocket(d->cfg.address, d->cfg.port, &d->listenFd, &d->boundPort, &failure)) {
        if (failure.step.empty()) {
            if (error)
                *error = Arg("wirebenchd: \"%1\" is not an IPv4 or IPv6 address to listen on")
                             .arg(addressText(d->cfg.address));
            return false;
        }
        return fail(failure.step, failure.error);
    }
    if (!d->wake.open())
        return fail("create a wake-up socket pair", errno);
    if (d->cfg.echo) {
        std::string echoError; // without it, tests still run: the client times TCP connects instead
        if (!d->echo.start(d->cfg.address, d->boundPort, &echoError))
            d->log(echoError);
    }
    d->m_stopping.store(false);
    d->running = true;
    d->acceptThread = std::thread([this] { d->acceptLoop(); });
    return true;
}

void WirebenchdServer::stop()
{
    if (!d->running)
        return;
    d->m_stopping.store(true);
    d->wake.signal();
    if (d->acceptThread.joinable())
        d->acceptThread.join();
    {
        std::lock_guard lk(d->slotMutex);
        d->slotCv.notify_all();
    }
    d->connections.reap(true);
    d->echo.stop();
    d->wake.close();
    d->listenFd.reset();
    d->running = false;
}

bool WirebenchdServer::isRunning() const
{
    return d->running;
}

std::uint16_t WirebenchdServer::port() const
{
    return d->boundPort;
}

void WirebenchdServer::Private::acceptLoop()
{
    while (!stopping()) {
        PollFd fds[2] = {{listenFd.get(), POLLIN, 0}, {wake.readFd(), POLLIN, 0}};
        const int pr = pollSockets(fds, 2, 500);
        connections.reap(false);
        if (pr <= 0)
            continue;
        if (fds[1].revents)
            break;
        sockaddr_storage peer{};
        socklen_t plen = sizeof(peer);
        Fd client(platform::Platform::socketCalls().accept(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &plen,
                                                           false));
        if (!client.valid())
            continue; // EAGAIN, ECONNABORTED, EMFILE: try again on the next wake-up
        if (admit(client, peer))
            connections.start([this, fd = client.release(), peer] { session(Fd(fd), peer); });
    }
}

bool WirebenchdServer::Private::admit(Fd &client, const sockaddr_storage &peer)
{
    // One address may hold a few connections that have proved nothing, so that a flood from it leaves the others
    // their room under --max-connections. A flood is logged at its first refusal and when it is over (with its count).
    const std::string address = addressText(peerAddress(peer));
    const PerAddressLimit::Taken taken = unproven.take(address);
    if (!taken.ok) {
        turnAway(std::move(client),
                 Arg("wirebenchd holds %1 connections from %2 that have not proved the key yet, the most it takes from "
                     "one address (--max-unproven-per-address): finish or close those, then try again")
                     .arg(taken.held)
                     .arg(address),
                 kUnprovenRetryAfterMs);
        if (taken.firstRefusal) {
            log(Arg("%1: refused, its address holds %2 connections that have not proved the key (the limit, "
                    "--max-unproven-per-address); its further refusals are counted until it holds none")
                    .arg(endpointText(peer))
                    .arg(taken.held));
        }
        return false;
    }
    std::lock_guard lk(connMutex);
    const int inUse = int(connections.working()) + dataConnections.load();
    const int limit = std::max(1, cfg.maxConnections);
    if (inUse >= limit) {
        releaseUnproven(address);
        turnAway(std::move(client),
                 Arg("wirebenchd is busy handling %1 connections, its limit (--max-connections): try again later")
                     .arg(inUse));
        if (refusedAtLimit++ == 0) {
            log(Arg("%1: refused, %2 connections already (the limit); further refusals are counted until one is "
                    "let in (--max-connections)")
                    .arg(endpointText(peer))
                    .arg(inUse));
        }
        return false;
    }
    if (refusedAtLimit > 0) {
        log(Arg("%1 connections in use, under the limit of %2 again (--max-connections): %3 were refused at it")
                .arg(inUse)
                .arg(limit)
                .arg(refusedAtLimit));
        refusedAtLimit = 0;
    }
    return true;
}

void WirebenchdServer::Private::turnAway(Fd client, const std::string &reason, int retryAfterMs)
{
    setNonBlocking(client.get(), true);
    const std::string frame = control::encode(control::busyMessage(reason, retryAfterMs));
    [[maybe_unused]] ssize_t w
        = platform::Platform::socketCalls().send(client.get(), frame.data(), size_t(frame.size()), MSG_DONTWAIT);
}

void WirebenchdServer::Private::releaseUnproven(const std::string &address)
{
    const int refused = unproven.release(address);
    if (refused > 0) {
        log(Arg("%1 holds no connection that has not proved the key any more: %2 of its connections were refused "
                "at the limit of %3 (--max-unproven-per-address)")
                .arg(address)
                .arg(refused)
                .arg(unproven.limit()));
    }
}

WirebenchdServer::Private::Slot WirebenchdServer::Private::acquireSlot(int fd, ControlChannel &ch)
{
    std::unique_lock lk(slotMutex);
    const int slotCount = std::max(1, cfg.maxConcurrent);
    if (activeTests < slotCount && waiting.empty()) {
        ++activeTests;
        return Slot::Got;
    }
    if (int(waiting.size()) >= cfg.maxQueued)
        return Slot::Busy;
    const std::uint64_t ticket = nextTicket++;
    waiting.push_back(ticket);
    auto leave = [&] {
        std::erase(waiting, ticket);
        slotCv.notify_all();
    };
    int shownPosition = -1;
    for (;;) {
        const int position = int(std::find(waiting.begin(), waiting.end(), ticket) - waiting.begin()) + 1;
        if (position == 1 && activeTests < slotCount) {
            waiting.pop_front();
            ++activeTests;
            slotCv.notify_all();
            return Slot::Got;
        }
        if (position != shownPosition) {
            shownPosition = position;
            lk.unlock();
            const bool sent = ch.write(control::queuedMessage(position), nullptr, 500);
            lk.lock();
            if (!sent) {
                leave();
                return Slot::Left;
            }
        }
        slotCv.wait_for(lk, std::chrono::milliseconds(100));
        if (stopping()) {
            leave();
            return Slot::Stopped;
        }
        // A waiting client may give up: anything it says (stop) or its close ends the wait.
        lk.unlock();
        PollFd p{fd, POLLIN, 0};
        bool left = false;
        if (pollSockets(&p, 1, 0) > 0) {
            Json m;
            std::string err;
            left = ch.read(&m, 0, &err) != ControlChannel::Read::Timeout;
        }
        lk.lock();
        if (left) {
            leave();
            return Slot::Left;
        }
    }
}

void WirebenchdServer::Private::releaseSlot()
{
    std::lock_guard lk(slotMutex);
    --activeTests;
    slotCv.notify_all();
}

namespace {

/// Half-close, then read what the peer still sends until it closes, so that our last message is not
/// destroyed by a reset (closing with unread data sends RST).
void lingeringClose(int fd, int timeoutMs, const std::atomic_bool &stopping)
{
    shutdownSend(fd);
    const std::int64_t deadline = nowNs() + std::int64_t(timeoutMs) * kMsNs;
    char buf[4096];
    while (nowNs() < deadline && !stopping.load()) {
        PollFd p{fd, POLLIN, 0};
        if (pollSockets(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = receive(fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            return;
    }
}

} // namespace

/// One control connection, in the steps a session has: handshake and refusals, the test request, the data
/// connection, the data phase (receive or send), the reply and the log line.
class WirebenchdServer::Private::Session
{
public:
    Session(Private *d, Fd client, sockaddr_storage peer)
        : d(d)
        , m_client(std::move(client))
        , m_peer(peer)
        , m_who(endpointText(peer))
        , m_unproven{d, addressText(peerAddress(peer))}
        ,
        // Before the key is proven, messages are small: the cap keeps a stranger from making us buffer much.
        m_ch(m_client.get(), std::min(d->cfg.maxControlMessageBytes, auth::kMaxPreAuthBytes))
    {
    }

    void run()
    {
        setIntOption(m_client.get(), IPPROTO_TCP, TCP_NODELAY, 1); // small messages: no Nagle delay
        if (!handshake() || !readRequest() || !openData())
            return;
        for (const Fd &fd : m_data)
            setIoTimeouts(fd.get(), 100);
        m_dropsBefore = readDrops(m_interface); // what this end drops during the test goes with the result
        m_cpu0 = threadCpuSeconds();
        m_start = nowNs();
        if (m_req.direction == control::TestRequest::Direction::Send)
            receive(0, m_data.size());
        else if (m_req.direction == control::TestRequest::Direction::Recv)
            send(0, m_data.size());
        else
            exchange();
        takeTcpInfo();
        reply();
        record();
    }

private:
    // The test slot this connection holds, given back when the test is over (or on any early return).
    struct DataReservation
    {
        Private *d;
        int count = 0;
        void release()
        {
            d->dataConnections -= count;
            count = 0;
        }
        ~DataReservation() { release(); }
    };

    // The connection's place under --max-unproven-per-address (admit() took it), given back at the key's proof.
    struct UnprovenMark
    {
        Private *d;
        std::string address;
        bool held = true;
        void release()
        {
            if (held)
                d->releaseUnproven(address);
            held = false;
        }
        ~UnprovenMark() { release(); }
    };

    struct SlotGuard
    {
        Private *d;
        bool held = false;
        void release()
        {
            if (held)
                d->releaseSlot();
            held = false;
        }
        ~SlotGuard() { release(); }
    };

    bool stopping() const { return d->stopping(); }
    void log(const std::string &line) { d->log(line); }

    /// Says why, gives the slot back, logs and closes. Always false, so that a step ends with it.
    bool refuse(const std::string &code, const std::string &text)
    {
        m_ch.write(control::errorMessage(code, text), nullptr, 1000);
        m_slot.release();
        log(Arg("%1: %2").arg(m_who, text));
        lingeringClose(m_client.get(), 1000, d->m_stopping);
        return false;
    }

    // Reads one message of the expected type; answers everything else with an error and gives up.
    bool expect(const char *type, Json *m, int timeoutMs)
    {
        const auto shouldStop = [this] { return stopping(); };
        const ControlChannel::Read r = m_ch.read(m, timeoutMs, &m_err, shouldStop);
        switch (r) {
        case ControlChannel::Read::Message:
            if (control::typeOf(*m) == std::string(type))
                return true;
            if (control::typeOf(*m) == std::string(control::kStop)) {
                log(Arg("%1: client stopped before the test").arg(m_who));
                return false;
            }
            return refuse(Arg("bad-message"),
                          Arg("expected a \"%1\" message, got \"%2\"").arg(std::string(type), control::quotedType(*m)));
        case ControlChannel::Read::Timeout:
            return refuse(
                Arg("timeout"),
                Arg("dropped: no \"%1\" message within %2 ms (%3)").arg(std::string(type)).arg(timeoutMs).arg(m_err));
        case ControlChannel::Read::Closed:
            log(Arg("%1: closed the connection before the test").arg(m_who));
            return false;
        case ControlChannel::Read::Error:
            return refuse(Arg("bad-message"), Arg("bad control message: %1").arg(m_err));
        case ControlChannel::Read::Stopped:
            m_ch.write(control::errorMessage(Arg("shutdown"), Arg("wirebenchd is shutting down")), nullptr, 500);
            return false;
        }
        return false;
    }

    /// The allow-list, hello both ways with the key proof, a test slot (or the queue, or "busy"), welcome.
    bool handshake()
    {
        const ServerConfig &cfg = d->cfg;
        if (!d->allowed(m_peer)) {
            return refuse(Arg("not-allowed"),
                          Arg("refused: client %1 is not in the networks this wirebenchd serves (--allow %2)")
                              .arg(addressText(peerAddress(m_peer)), cfg.allowListText()));
        }

        // hello with a fresh nonce; the client proves the key over both nonces before anything else is read.
        control::Hello self = control::Hello::local(Arg("wirebenchd " WIREBENCH_VERSION));
        self.nonce = auth::randomBytes(auth::kNonceBytes);
        self.auth = wire::trimmed(cfg.key).empty() ? auth::kAuthNone : auth::kAuthHmac;
        self.maxStreams = control::kMaxStreams;
        self.bidir = true;
        {
            sockaddr_storage local{};
            socklen_t llen = sizeof(local);
            if (getsockname(m_client.get(), reinterpret_cast<sockaddr *>(&local), &llen) == 0)
                m_interface = describeLink(local, &self);
        }
        if (!m_ch.write(self.toJson(), &m_err)) {
            log(Arg("%1: cannot send hello: %2").arg(m_who, m_err));
            return false;
        }
        if (!expect(control::kHello, &m_msg, cfg.handshakeTimeoutMs))
            return false;
        const auth::ClientHelloCheck check = auth::checkClientHello(m_msg, cfg.key, self.nonce, self.software);
        if (!check.ok())
            return refuse(check.code, check.error);
        m_unproven.release(); // proved: its address may open others, and this one is bounded by the test limits now
        if (cfg.echo && check.hello.want == echo::kWantEcho)
            return grantEcho(self.nonce, check.clientNonce);
        if (check.hello.want == control::kWantCounters)
            return serveCounters(self.nonce, check.clientNonce);

        switch (d->acquireSlot(m_client.get(), m_ch)) {
        case Slot::Got:
            m_slot.held = true;
            break;
        case Slot::Busy:
            m_ch.write(control::busyMessage(Arg("wirebenchd on %1 is busy with another test; try again when it ends")
                                                .arg(platform::Platform::systemInfo().describe().hostname)),
                       nullptr, 200);
            log(Arg("%1: refused, busy with another test").arg(m_who));
            lingeringClose(m_client.get(), 500, d->m_stopping);
            return false;
        case Slot::Left:
            log(Arg("%1: left the queue").arg(m_who));
            return false;
        case Slot::Stopped:
            m_ch.write(control::errorMessage(Arg("shutdown"), Arg("wirebenchd is shutting down")), nullptr, 500);
            return false;
        }
        const std::string proof = wire::trimmed(cfg.key).empty()
            ? std::string()
            : auth::serverProof(cfg.key, self.nonce, check.clientNonce);
        if (!m_ch.write(control::welcomeMessage(proof), &m_err)) {
            log(Arg("%1: cannot send welcome: %2").arg(m_who, m_err));
            return false;
        }
        m_ch.setMaxMessageBytes(cfg.maxControlMessageBytes);
        return true;
    }

    /// A latency-echo token instead of a test: no slot is taken, so it is given while another client's test runs.
    /// Always false: the connection ends here.
    bool grantEcho(const std::string &serverNonce, const std::string &clientNonce)
    {
        const ServerConfig &cfg = d->cfg;
        std::uint64_t expiry = 0;
        const std::string token = d->echo.tokenFor(m_peer, &expiry);
        const std::string proof
            = wire::trimmed(cfg.key).empty() ? std::string() : auth::serverProof(cfg.key, serverNonce, clientNonce);
        m_ch.write(echo::tokenMessage(token, expiry, d->echo.port(), proof), nullptr, 1000);
        lingeringClose(m_client.get(), 1000, d->m_stopping);
        return false;
    }

    /// The far end's counters for a transfer that another server carries (an FTP or SMB server on this host): what
    /// this end dropped since the last answer (or the greeting), on the interface the connection came in on, each time
    /// the client asks (the start of its timed part, its end). No test
    /// slot: it reads counters only. A few answers, each within the longest test's time.
    bool serveCounters(const std::string &serverNonce, const std::string &clientNonce)
    {
        const ServerConfig &cfg = d->cfg;
        platform::DropReading before = readDrops(m_interface);
        const std::string proof
            = wire::trimmed(cfg.key).empty() ? std::string() : auth::serverProof(cfg.key, serverNonce, clientNonce);
        if (!m_ch.write(control::countersMessage(Json::object(), proof), &m_err, 1000))
            return false;
        constexpr int kMaxAnswers = 16;
        const int waitMs = std::max(cfg.idleTimeoutMs, cfg.maxDurationMs + cfg.idleTimeoutMs);
        for (int answered = 0; answered < kMaxAnswers; ++answered) {
            Json m;
            if (m_ch.read(&m, waitMs, &m_err, [this] { return stopping(); }) != ControlChannel::Read::Message
                || control::typeOf(m) != std::string(control::kCounters))
                return false;
            const platform::DropReading now = readDrops(m_interface);
            const Json drops = FarEndFacts::dropsJson(platform::DropReading::delta(before, now));
            before = now; // the next answer: since this one
            if (!m_ch.write(control::countersMessage(drops), &m_err, 1000))
                return false;
        }
        return false;
    }

    /// The test request, within this wirebenchd's limits.
    bool readRequest()
    {
        const ServerConfig &cfg = d->cfg;
        if (!expect(control::kTest, &m_msg, cfg.idleTimeoutMs))
            return false;
        if (!control::TestRequest::fromJson(m_msg, &m_req, &m_err))
            return refuse(Arg("bad-message"), m_err);
        if (std::int64_t(m_req.durationMs) + m_req.warmupMs > cfg.maxDurationMs) {
            return refuse(Arg("limit"),
                          Arg("refused a %1 s test: this wirebenchd allows at most %2 s (--max-duration)")
                              .arg((std::int64_t(m_req.durationMs) + m_req.warmupMs) / 1000.0)
                              .arg(cfg.maxDurationMs / 1000.0));
        }
        if (m_req.messageSize > cfg.maxMessageSize) {
            return refuse(Arg("limit"),
                          Arg("refused a message size of %1 bytes: this wirebenchd allows at most %2 bytes")
                              .arg(m_req.messageSize)
                              .arg(cfg.maxMessageSize));
        }
        return reserveDataConnections();
    }

    /// --max-connections counts a test's data connections with the control connections: they are reserved
    /// before the first is opened, and given back when the session ends.
    bool reserveDataConnections()
    {
        const int limit = std::max(1, d->cfg.maxConnections);
        int inUse = 0;
        {
            std::lock_guard lk(d->connMutex);
            inUse = int(d->connections.working()) + d->dataConnections.load();
            if (inUse + m_req.dataConnections() <= limit) {
                d->dataConnections += m_req.dataConnections();
                m_dataReserved.count = m_req.dataConnections();
                return true;
            }
        }
        return refuse(Arg("limit"),
                      Arg("refused %1 data connections: this wirebenchd handles at most %2 connections at once "
                          "(--max-connections), with %3 in use")
                          .arg(m_req.dataConnections())
                          .arg(limit)
                          .arg(inUse));
    }

    /// The data connection: a fresh listening socket on the address the client reached us at. Options set
    /// on it before listen() are inherited by the accepted socket, and the MSS is announced in the SYN-ACK.
    bool openData()
    {
        sockaddr_storage local{};
        socklen_t llen = sizeof(local);
        getsockname(m_client.get(), reinterpret_cast<sockaddr *>(&local), &llen);
        if (local.ss_family == AF_INET)
            reinterpret_cast<sockaddr_in *>(&local)->sin_port = 0;
        else
            reinterpret_cast<sockaddr_in6 *>(&local)->sin6_port = 0;
        Fd dataListen(openSocket(local.ss_family, SOCK_STREAM, false));
        if (!dataListen.valid())
            return refuse(Arg("socket"), Arg("cannot create the data socket: %1").arg(errnoText(errno)));
        if (m_req.mss > 0 && !setIntOption(dataListen.get(), IPPROTO_TCP, TCP_MAXSEG, m_req.mss, &m_err)) {
            // A system without the option (Windows before 10 1709, wine) runs the test at its own MSS, which the
            // result reports; a value the system refuses is refused.
            if (errno != ENOPROTOOPT)
                return refuse(Arg("socket"), Arg("cannot set the MSS to %1 bytes: %2").arg(m_req.mss).arg(m_err));
            log(Arg("%1: the MSS of %2 bytes asked for cannot be set here (%3): the system's own")
                    .arg(m_who)
                    .arg(m_req.mss)
                    .arg(m_err));
        }
        if (m_req.sendBuffer > 0 && !setIntOption(dataListen.get(), SOL_SOCKET, SO_SNDBUF, m_req.sendBuffer, &m_err))
            return refuse(Arg("socket"),
                          Arg("cannot set the send buffer to %1 bytes: %2").arg(m_req.sendBuffer).arg(m_err));
        if (m_req.recvBuffer > 0 && !setIntOption(dataListen.get(), SOL_SOCKET, SO_RCVBUF, m_req.recvBuffer, &m_err))
            return refuse(Arg("socket"),
                          Arg("cannot set the receive buffer to %1 bytes: %2").arg(m_req.recvBuffer).arg(m_err));
        if (bindSocket(dataListen.get(), reinterpret_cast<sockaddr *>(&local), llen) != 0
            || listenSocket(dataListen.get(), m_req.dataConnections()) != 0)
            return refuse(Arg("socket"), Arg("cannot open a data port: %1").arg(errnoText(errno)));
        sockaddr_storage dataLocal{};
        socklen_t dlen = sizeof(dataLocal);
        getsockname(dataListen.get(), reinterpret_cast<sockaddr *>(&dataLocal), &dlen);
        control::Ready ready;
        ready.dataPort = portOf(dataLocal);
        if (!m_ch.write(ready.toJson(), &m_err)) {
            log(Arg("%1: cannot send ready: %2").arg(m_who, m_err));
            return false;
        }
        return acceptData(dataListen);
    }

    /// Waits for the client's data connections (a stranger's is closed), watching the control connection.
    bool acceptData(const Fd &dataListen)
    {
        const int idleMs = d->cfg.idleTimeoutMs;
        const std::int64_t acceptDeadline = nowNs() + std::int64_t(idleMs) * kMsNs;
        while (int(m_data.size()) < m_req.dataConnections()) {
            if (stopping())
                return false;
            if (nowNs() >= acceptDeadline && m_req.dataConnections() == 1)
                return refuse(Arg("timeout"), Arg("dropped: no data connection within %1 ms").arg(idleMs));
            if (nowNs() >= acceptDeadline) {
                return refuse(Arg("timeout"),
                              Arg("dropped: %1 of %2 data connections within %3 ms")
                                  .arg(m_data.size())
                                  .arg(m_req.dataConnections())
                                  .arg(idleMs));
            }
            PollFd fds[2] = {{dataListen.get(), POLLIN, 0}, {m_client.get(), POLLIN, 0}};
            if (pollSockets(fds, 2, 100) <= 0)
                continue;
            if (fds[1].revents) { // the client spoke or left instead of connecting
                const ControlChannel::Read r = m_ch.read(&m_msg, 0, &m_err);
                if (r == ControlChannel::Read::Closed || r == ControlChannel::Read::Message) {
                    log(Arg("%1: client left before the data connection").arg(m_who));
                    return false;
                }
                if (r == ControlChannel::Read::Error)
                    return refuse(Arg("bad-message"), Arg("bad control message: %1").arg(m_err));
            }
            if (fds[0].revents) {
                sockaddr_storage dpeer{};
                socklen_t dplen = sizeof(dpeer);
                Fd candidate(platform::Platform::socketCalls().accept(
                    dataListen.get(), reinterpret_cast<sockaddr *>(&dpeer), &dplen, false));
                if (candidate.valid() && sameHost(dpeer, m_peer))
                    m_data.push_back(std::move(candidate)); // a stranger's connection is closed by ~Fd
            }
        }
        return true;
    }

    // Looks at the control connection without waiting: a stop, or the client gone.
    void pollControl()
    {
        const ControlChannel::Read r = m_ch.read(&m_msg, 0, &m_err);
        if (r == ControlChannel::Read::Message && control::typeOf(m_msg) == std::string(control::kStop))
            m_clientStopped = true;
        else if (r == ControlChannel::Read::Closed)
            m_problem = Arg("client closed the control connection mid-test");
        else if (r == ControlChannel::Read::Error)
            m_problem = Arg("bad control message mid-test: %1").arg(m_err);
        else if (r == ControlChannel::Read::Message)
            m_problem = Arg("unexpected \"%1\" message mid-test").arg(control::quotedType(m_msg));
    }

    /// tcp-send: we receive on every data connection. The figure is our count from first byte to last byte (over
    /// several streams: their sum over the window common to all, StreamsWindow); progress goes out every interval.
    void receive(std::size_t first, std::size_t streams)
    {
        const int idleMs = d->cfg.idleTimeoutMs;
        const std::int64_t intervalNs = std::int64_t(m_req.sampleIntervalMs) * kMsNs;
        // One stream wakes per chunk (SO_RCVLOWAT); several take every arrival, so that each is timed as it comes.
        // Both ways at once take every arrival too: Linux clamps the window of a socket with SO_RCVLOWAT to twice the
        // mark, and there the ACKs wait behind the other direction's data (round trips of milliseconds, not
        // microseconds): a 128 KiB mark held the client's stream to 75-97% of the line, the window its limit.
        const bool lowWater = streams == 1 && m_req.direction != control::TestRequest::Direction::Bidir;
        const BulkReceiver::Wake wake = lowWater ? BulkReceiver::Wake::LowWater : BulkReceiver::Wake::EveryArrival;
        std::vector<BulkReceiver> receivers(
            streams, BulkReceiver(std::max(m_req.messageSize, kMinDataBuffer), wake, m_req.recvBuffer));
        StreamsWindow window(int(streams), std::int64_t(m_req.warmupMs) * kMsNs);
        std::vector<PollFd> fds(streams);
        for (std::size_t i = 0; i < streams; ++i)
            fds[i] = {m_data[first + i].get(), POLLIN, 0};
        std::size_t open = streams;
        std::int64_t nextProgress = m_start + intervalNs;
        const std::int64_t giveUp = m_start + (std::int64_t(m_req.durationMs) + m_req.warmupMs + 30000) * kMsNs;
        while (open > 0 && m_problem.empty()) {
            const int ready = pollSockets(fds.data(), streams, 100);
            std::int64_t now = nowNs();
            for (std::size_t i = 0; ready > 0 && i < streams && m_problem.empty(); ++i) {
                if (fds[i].fd < 0 || fds[i].revents == 0)
                    continue;
                const ssize_t n = receivers[i].receiveSome(fds[i].fd, MSG_DONTWAIT, &now);
                if (n > 0) {
                    window.add(int(i), n, now);
                } else if (n == 0) {
                    fds[i].fd = -1; // this stream is done
                    --open;
                } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    m_problem = Arg("data connection failed: %1").arg(errnoText(errno));
                }
            }
            if (!m_problem.empty() || open == 0)
                break;
            if (now - (window.lastNs() >= 0 ? window.lastNs() : m_start) > std::int64_t(idleMs) * kMsNs) {
                m_problem = Arg("no data from the client for %1 s").arg(idleMs / 1000.0);
                break;
            }
            if (now >= nextProgress) {
                nextProgress = now + intervalNs;
                control::Progress p; // warm-up included: the live graph shows it
                p.bytes = window.totalBytes();
                p.seconds = window.totalSeconds();
                if (!m_ch.write(p.toJson(), &m_err, 1000)) {
                    m_problem = Arg("cannot send progress: %1").arg(m_err);
                    break;
                }
                pollControl();
            }
            if (stopping())
                m_problem = Arg("wirebenchd is shutting down");
            else if (now > giveUp)
                m_problem = Arg("client kept sending 30 s past the test's duration");
        }
        m_result.bytes = window.measuredBytes();
        m_result.seconds = window.measuredSeconds();
        m_result.warmupMs = m_req.warmupMs;
        m_result.totalBytes = window.totalBytes();
        if (streams > 1)
            m_result.streamBytes = window.streamBytes();
    }

    /// tcp-recv: we send on every data connection for the requested duration, then half-close; the client counts.
    void send(std::size_t first, std::size_t streams)
    {
        const SendOutcome sent = sendOn(first, streams, nullptr);
        if (m_problem.empty())
            m_problem = sent.problem;
        m_clientStopped = m_clientStopped || sent.clientStopped;
        m_result.senderBytes = sent.bytes;
    }

    /// tcp-bidir: the client's first `streams` data connections carry its data to us (receive(), which watches the
    /// control connection and sends the progress), the others ours to it, sent on a thread of their own meanwhile.
    void exchange()
    {
        const std::size_t streams = std::size_t(m_req.streams);
        std::atomic_bool halt{false};
        SendOutcome sent;
        std::thread sender([&] { sent = sendOn(streams, streams, &halt); });
        receive(0, streams);
        if (!m_problem.empty() || m_clientStopped)
            halt.store(true);
        sender.join();
        if (m_problem.empty())
            m_problem = sent.problem;
        m_clientStopped = m_clientStopped || sent.clientStopped;
        m_result.senderBytes = sent.bytes;
    }

    struct SendOutcome
    {
        std::string problem;
        bool clientStopped = false;
        std::int64_t bytes = 0; ///< all streams together
    };

    /// Sends on m_data[first, first + streams) for the requested duration, then half-closes. Without `halt` it
    /// watches the control connection itself (a stop, the client gone); with it, the caller does and sets it.
    SendOutcome sendOn(std::size_t first, std::size_t streams, const std::atomic_bool *halt)
    {
        SendOutcome out;
        std::vector<BulkSender> senders(streams, BulkSender(BulkSender::pattern(m_req.messageSize, 'a', 26)));
        std::vector<PollFd> fds(streams);
        for (std::size_t i = 0; i < streams; ++i)
            fds[i] = {m_data[first + i].get(), POLLOUT, 0};
        std::int64_t &sent = out.bytes;
        const std::int64_t end
            = m_start + (std::int64_t(m_req.durationMs) + m_req.warmupMs) * kMsNs; // the client leaves the warm-up out
        std::int64_t nextCheck = m_start + 20 * kMsNs;
        // --max-rate: the streams together never ahead of rate x elapsed time, in chunks of at most 10 ms worth.
        const Pacer pacer(d->cfg.maxRateBytesPerSec, m_start);
        std::size_t turn = 0; // who sends first this round: in turn, so that a pace shares the rate fairly
        while (out.problem.empty() && !out.clientStopped) {
            std::int64_t now = nowNs();
            if (now >= end)
                break;
            if (pacer.ahead(sent, now)) {
                std::this_thread::sleep_for(
                    std::chrono::nanoseconds(std::min<std::int64_t>(pacer.dueNs(sent) - now, 10 * kMsNs)));
            } else if (pollSockets(fds.data(), streams, 10) > 0) {
                for (std::size_t k = 0; k < streams && !pacer.ahead(sent, now); ++k) {
                    const std::size_t i = (turn + k) % streams;
                    if (fds[i].revents == 0)
                        continue;
                    const ssize_t n = senders[i].sendSome(fds[i].fd, MSG_DONTWAIT, pacer.chunk(BulkSender::kWhole));
                    if (n > 0) {
                        sent += n;
                    } else if (errno == EPIPE || errno == ECONNRESET) {
                        out.clientStopped = true; // the client closed a data connection: a stop
                        break;
                    } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        out.problem = Arg("data connection failed: %1").arg(errnoText(errno));
                        break;
                    }
                    now = nowNs();
                }
                turn = (turn + 1) % streams;
            }
            if (nowNs() >= nextCheck && !out.clientStopped && out.problem.empty()) {
                nextCheck = nowNs() + 20 * kMsNs;
                if (halt) {
                    out.clientStopped = halt->load();
                } else {
                    pollControl();
                    out.problem = m_problem;
                    out.clientStopped = m_clientStopped;
                }
                if (stopping())
                    out.problem = Arg("wirebenchd is shutting down");
            }
        }
        for (std::size_t i = 0; i < streams; ++i)
            shutdownSend(m_data[first + i].get());
        if (out.problem.empty() && !out.clientStopped)
            waitUntilDelivered(first, senders);
        return out;
    }

    /// What the sockets took is still on its way after the last send (their buffers hold megabytes): wait, at most
    /// 2 s for all of them, until the client acknowledged it and our FIN (one more; an accepted socket's count has
    /// no SYN in it), so that the retransmissions and the drop counters in the result cover the whole transfer, as the
    /// client's own count does.
    void waitUntilDelivered(std::size_t first, const std::vector<BulkSender> &senders)
    {
        const std::int64_t deadline = nowNs() + 2000 * kMsNs;
        for (std::size_t i = 0; i < senders.size() && nowNs() < deadline && !stopping();) {
            const std::int64_t acked = TcpInfo::of(m_data[first + i].get()).bytesAcked;
            if (acked < 0 || acked >= senders[i].sent() + 1)
                ++i;
            else
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

    /// The data connections' MSS and RTT (the first one's) and their retransmits (all), as TCP_INFO says them at the
    /// end of the data phase.
    void takeTcpInfo()
    {
        const TcpInfo ti = TcpInfo::of(m_data.front().get());
        m_result.mss = ti.sndMss;
        m_result.rttUs = ti.rttUs;
        m_result.rttVarUs = ti.rttVarUs;
        m_result.retransmits = 0;
        for (const Fd &fd : m_data)
            m_result.retransmits += TcpInfo::of(fd.get()).totalRetrans;
    }

    /// Our CPU share, the slot given back, and the result (or why the test ended) to the client.
    void reply()
    {
        const double cpu1 = threadCpuSeconds();
        const double wall = (nowNs() - m_start) / 1e9;
        if (m_cpu0 >= 0 && cpu1 >= 0 && wall > 0)
            m_result.cpuPercent = (cpu1 - m_cpu0) / wall * 100;
        m_result.drops = FarEndFacts::dropsJson(platform::DropReading::delta(m_dropsBefore, readDrops(m_interface)));

        // From here on the test is over for the client: a client that connects now (typically the same one,
        // for its next run) is served once this session has closed, not told "busy".
        m_slot.release();
        if (!m_problem.empty() && m_problem != std::string("client closed the control connection mid-test")) {
            m_ch.write(control::errorMessage(Arg("aborted"), Arg("test aborted: %1").arg(m_problem)), nullptr, 1000);
        } else if (m_problem.empty()) {
            m_ch.write(m_result.toJson(), &m_err, 2000);
        }
    }

    /// The log line of the test (with the client's own count after a tcp-recv), then the close.
    void record()
    {
        using Direction = control::TestRequest::Direction;
        const bool clientSends = m_req.direction != Direction::Recv;
        const bool serverSends = m_req.direction != Direction::Send;
        const std::string testName = m_req.direction == Direction::Send ? Arg("tcp-send (client → server)")
            : m_req.direction == Direction::Recv                        ? Arg("tcp-recv (server → client)")
                                                                        : Arg("tcp-bidir (both ways at once)");
        std::string line = Arg("%1: %2, %3 s asked, message %4 B, mss %5")
                               .arg(m_who, testName)
                               .arg(m_req.durationMs / 1000.0)
                               .arg(m_req.messageSize)
                               .arg(m_result.mss);
        if (m_req.streams > 1)
            line += Arg(", %1 streams").arg(m_req.streams);
        if (clientSends)
            line += Arg(": received %1 B in %2 s = %3")
                        .arg(m_result.bytes)
                        .arg(m_result.seconds, 0, 'f', 3)
                        .arg(mbps(m_result.bytes, m_result.seconds));
        if (serverSends) {
            line += Arg("%1 sent %2 B").arg(clientSends ? ";" : ":").arg(m_result.senderBytes);
            if (m_problem.empty() && !m_clientStopped) {
                // The client answers with its own (receiver's) count: that is the figure.
                const auto shouldStop = [this] { return stopping(); };
                const ControlChannel::Read r = m_ch.read(&m_msg, 30000, &m_err, shouldStop);
                control::Result theirs;
                if (r == ControlChannel::Read::Message && control::Result::fromJson(m_msg, &theirs, nullptr)) {
                    line += Arg(", client received %1 B in %2 s = %3")
                                .arg(theirs.bytes)
                                .arg(theirs.seconds, 0, 'f', 3)
                                .arg(mbps(theirs.bytes, theirs.seconds));
                }
            }
        }
        if (m_clientStopped)
            line += Arg(" (stopped by the client)");
        if (d->cfg.maxRateBytesPerSec > 0 && serverSends)
            line += Arg(" (paced to at most %1 MB/s by --max-rate)").arg(d->cfg.maxRateBytesPerSec / 1e6, 0, 'f', 1);
        if (!m_problem.empty())
            line += Arg(" (ended early: %1)").arg(m_problem);
        m_data.clear();
        m_dataReserved.release();
        log(line);
        lingeringClose(m_client.get(), 1000, d->m_stopping);
    }

    Private *d;
    Fd m_client;
    sockaddr_storage m_peer;
    std::string m_who;
    UnprovenMark m_unproven;
    ControlChannel m_ch;
    SlotGuard m_slot{d};
    DataReservation m_dataReserved{d};
    std::string m_err;
    Json m_msg;
    control::TestRequest m_req;
    std::string m_interface; // the interface towards the client (of its control connection's local address)
    platform::DropReading m_dropsBefore;
    std::vector<Fd> m_data; // the test's data connections, as many as it asked for streams
    double m_cpu0 = -1;
    std::int64_t m_start = 0;
    std::string m_problem; // why the test ended early, for the log and an error reply
    bool m_clientStopped = false;
    control::Result m_result;
};

void WirebenchdServer::Private::session(Fd client, sockaddr_storage peer)
{
    Session(this, std::move(client), peer).run();
}

} // namespace wb
