#include "Iperf3Server.h"

#include "Iperf3ServerOutput.h"
#include "net/Address.h"
#include "net/BulkReceiver.h"
#include "net/BulkSender.h"
#include "net/ListenSocket.h"
#include "net/Pacer.h"
#include "net/Socket.h"
#include "net/TcpInfo.h"
#include "net/WakeUp.h"
#include "platform/Platform.h"
#include "wire/PrintableText.h"
#include "wire/Text.h"
#include "wire/iperf3/Iperf3Protocol.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace wb {

using namespace wb::net;
using wire::Arg;
using wire::safeLogLine;
namespace ip = wb::iperf3;

namespace {

constexpr std::int64_t kMsNs = 1000000;
constexpr int kMaxRecords = 100;
/// iperf3's messages are small, but the results of 128 streams need room: --max-message never goes below this.
constexpr int kMinMessageBytes = 64 * 1024;
/// A test by time ends when the client says so; this much past --max-duration we end it ourselves (-n, -k,
/// or a client whose TEST_END does not come).
constexpr int kOverrunGraceMs = 5000;
constexpr int kDefaultBlockSize = 128 * 1024; ///< iperf3's default -l for TCP
constexpr int kLingerMs = 1000;
/// A UDP receiver without -w asks for this much socket buffer (the kernel caps it at rmem_max): the
/// default ~200 KiB holds a few ms of a fast stream, and a busy machine that schedules our thread late
/// would show that as loss of the path.
constexpr int kUdpReceiveBufferBytes = 4 * 1024 * 1024;
/// Datagrams read per stream and wake-up: one recv() each, so more rounds than a TCP stream's.
constexpr int kUdpRounds = 64;

enum class Io { Ok, Timeout, Closed, Failed, Stopped };

std::string mbps(std::int64_t bytes, double seconds)
{
    if (seconds <= 0)
        return "- MB/s";
    return Arg("%1 MB/s").arg(double(bytes) / seconds / 1e6, 0, 'f', 1);
}

/// A UDP socket on the iperf3 port's number, as iperf3's server opens one per stream: SO_REUSEADDR, so
/// that the next one binds while the previous one, connected to its stream's client, goes on receiving
/// (the kernel gives a datagram to the socket connected to its sender before an unconnected one).
Fd openUdpSocket(const platform::IpAddress &address, std::uint16_t port, int *error)
{
    sockaddr_storage sa{};
    socklen_t len = 0;
    *error = EAFNOSUPPORT;
    if (!toSockaddr(address, port, &sa, &len))
        return Fd();
    Fd fd(openSocket(sa.ss_family, SOCK_DGRAM, true));
    *error = errno;
    if (!fd.valid())
        return Fd();
    setIntOption(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1);
    if (sa.ss_family == AF_INET6) // as the TCP listener: "Any" and "::" take IPv4 too
        setIntOption(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, isUnspecified(address) ? 0 : 1);
    if (bindSocket(fd.get(), reinterpret_cast<sockaddr *>(&sa), len) != 0) {
        *error = errno;
        return Fd();
    }
    return fd;
}

/// Seconds on the wall clock, as iperf3 stamps its datagrams (gettimeofday); only differences of
/// transit times enter the jitter, so the two hosts' clocks need not agree.
std::string joined(const std::vector<std::string> &parts, const char *separator)
{
    std::string out;
    for (const std::string &p : parts)
        out += (out.empty() ? "" : separator) + p;
    return out;
}

double wallSeconds(timespec *out = nullptr)
{
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    if (out)
        *out = ts;
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

} // namespace

class Iperf3Server::Private
{
public:
    Private(const ServerConfig &config, LogSink sink)
        : cfg(config)
        , sink(std::move(sink))
    {
    }

    void loop();
    class Test;
    void serve(Fd control, const sockaddr_storage &peer);

    /// poll() over the caller's descriptors plus the wake-up pipe and, unless the session itself takes
    /// connections (CREATE_STREAMS), the listening socket, whose newcomers get ACCESS_DENIED at once.
    int pollSession(std::vector<PollFd> &fds, int timeoutMs, bool serviceListener);
    void denyNewcomers();
    void deny(Fd fd, const sockaddr_storage &peer);
    /// Half-close and keep reading until the peer closes, so that our last bytes are not lost to a reset
    /// (closing with unread data sends RST). Runs alongside everything else, never blocks.
    void lingerClose(Fd fd);
    void serviceLingering(bool closeAll);
    Io readExact(int fd, char *data, std::int64_t size, std::int64_t deadlineNs, bool serviceListener = true);
    Io writeAll(int fd, const char *data, std::int64_t size, std::int64_t deadlineNs, bool serviceListener = true);
    /// Until fd is ready for events, in polls of at most 100 ms that keep the server answering.
    Io waitFor(int fd, short events, std::int64_t deadlineNs, bool serviceListener);
    void addRecord(const Iperf3TestRecord &record);
    /// Every log line goes out through here: escaped and capped, whatever a client put into it.
    void log(const std::string &line)
    {
        if (sink)
            sink(safeLogLine(line));
    }
    bool stopping() const { return m_stopping.load(); }
    int messageLimit() const { return std::max(cfg.maxControlMessageBytes, kMinMessageBytes); }

    struct Lingering
    {
        Fd fd;
        std::int64_t deadlineNs = 0;
    };

    ServerConfig cfg;
    LogSink sink;
    Fd listenFd;
    WakeUp wake;
    std::thread thread;
    std::atomic_bool m_stopping{false};
    std::atomic_bool busy{false};
    bool running = false;
    std::uint16_t boundPort = 0;
    std::string currentClient;        ///< for the "busy" log line; touched by the server thread only
    std::vector<Lingering> lingering; ///< server thread only
    mutable std::mutex recordMutex;
    std::vector<Iperf3TestRecord> records;
};

Iperf3Server::Iperf3Server(const ServerConfig &config, LogSink log)
    : d(std::make_unique<Private>(config, std::move(log)))
{
}

Iperf3Server::~Iperf3Server()
{
    stop();
}

bool Iperf3Server::start(std::string *error)
{
    if (d->running)
        return true;
    ListenFailure failure;
    if (!openListenSocket(d->cfg.address, d->cfg.port, &d->listenFd, &d->boundPort, &failure)) {
        if (error) {
            *error = failure.step.empty()
                ? Arg("wirebenchd: \"%1\" is not an IPv4 or IPv6 address for the iperf3 port")
                      .arg(addressText(d->cfg.address))
                : Arg("wirebenchd: cannot %1 for iperf3 on %2 port %3: %4: pick another --iperf3-port")
                      .arg(failure.step, addressText(d->cfg.address))
                      .arg(d->cfg.port)
                      .arg(errnoText(failure.error));
        }
        return false;
    }
    if (!d->wake.open()) {
        if (error)
            *error
                = Arg("wirebenchd: cannot create a wake-up socket pair for the iperf3 port: %1").arg(errnoText(errno));
        d->listenFd.reset();
        return false;
    }
    d->m_stopping.store(false);
    d->running = true;
    d->thread = std::thread([this] { d->loop(); });
    return true;
}

void Iperf3Server::stop()
{
    if (!d->running)
        return;
    d->m_stopping.store(true);
    d->wake.signal();
    if (d->thread.joinable())
        d->thread.join();
    d->wake.close();
    d->listenFd.reset();
    d->running = false;
}

bool Iperf3Server::isRunning() const
{
    return d->running;
}

std::uint16_t Iperf3Server::port() const
{
    return d->boundPort;
}

bool Iperf3Server::isBusy() const
{
    return d->busy.load();
}

std::vector<Iperf3TestRecord> Iperf3Server::tests() const
{
    std::lock_guard lk(d->recordMutex);
    return d->records;
}

void Iperf3Server::Private::addRecord(const Iperf3TestRecord &record)
{
    std::lock_guard lk(recordMutex);
    records.push_back(record);
    while (records.size() > std::size_t(kMaxRecords))
        records.erase(records.begin());
}

void Iperf3Server::Private::loop()
{
    while (!stopping()) {
        PollFd fds[2] = {{listenFd.get(), POLLIN, 0}, {wake.readFd(), POLLIN, 0}};
        const int n = pollSockets(fds, 2, lingering.empty() ? 500 : 100);
        serviceLingering(false);
        if (n <= 0 || stopping())
            continue;
        if (!(fds[0].revents & POLLIN))
            continue;
        sockaddr_storage peer{};
        socklen_t plen = sizeof(peer);
        Fd control(
            platform::Platform::socketCalls().accept(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &plen, true));
        if (!control.valid())
            continue; // EAGAIN, ECONNABORTED, EMFILE: try again on the next wake-up
        busy.store(true);
        currentClient = endpointText(peer);
        serve(std::move(control), peer);
        currentClient.clear();
        busy.store(false);
    }
    serviceLingering(true);
}

int Iperf3Server::Private::pollSession(std::vector<PollFd> &fds, int timeoutMs, bool serviceListener)
{
    const size_t own = fds.size();
    fds.push_back({wake.readFd(), POLLIN, 0});
    if (serviceListener)
        fds.push_back({listenFd.get(), POLLIN, 0});
    int n = pollSockets(fds.data(), fds.size(), timeoutMs);
    if (n < 0 && errno != EINTR)
        n = -1;
    else if (n < 0)
        n = 0;
    if (serviceListener && (fds.back().revents & POLLIN))
        denyNewcomers();
    fds.resize(own);
    serviceLingering(false);
    return n;
}

void Iperf3Server::Private::denyNewcomers()
{
    for (;;) {
        sockaddr_storage peer{};
        socklen_t plen = sizeof(peer);
        Fd fd(
            platform::Platform::socketCalls().accept(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &plen, true));
        if (!fd.valid())
            return;
        deny(std::move(fd), peer);
    }
}

void Iperf3Server::Private::deny(Fd fd, const sockaddr_storage &peer)
{
    // As iperf3 does: the state byte alone, without reading the newcomer's cookie, which could stall the
    // running test. The client prints "the server is busy running a test. try again later".
    const char denied = char(ip::AccessDenied);
    [[maybe_unused]] ssize_t w = platform::Platform::socketCalls().send(fd.get(), &denied, 1, MSG_DONTWAIT);
    log(Arg("%1: iperf3 client refused: busy with a test from %2 (iperf3 serves one client at a time)")
            .arg(endpointText(peer), currentClient));
    lingerClose(std::move(fd));
}

void Iperf3Server::Private::lingerClose(Fd fd)
{
    if (!fd.valid())
        return;
    shutdownSend(fd.get());
    if (int(lingering.size()) >= std::max(1, cfg.maxConnections))
        return; // a flood: no lingering, ~Fd closes at once
    lingering.push_back({std::move(fd), nowNs() + kLingerMs * kMsNs});
}

void Iperf3Server::Private::serviceLingering(bool closeAll)
{
    if (lingering.empty())
        return;
    const std::int64_t now = nowNs();
    char sink[4096];
    for (auto it = lingering.begin(); it != lingering.end();) {
        bool done = closeAll || now >= it->deadlineNs;
        while (!done) {
            const ssize_t n = receive(it->fd.get(), sink, sizeof(sink), MSG_DONTWAIT);
            if (n > 0)
                continue;
            if (n < 0 && errno == EINTR)
                continue;
            done = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
            break;
        }
        if (done)
            it = lingering.erase(it);
        else
            ++it;
    }
}

Io Iperf3Server::Private::readExact(int fd, char *data, std::int64_t size, std::int64_t deadlineNs,
                                    bool serviceListener)
{
    std::int64_t done = 0;
    while (done < size) {
        const ssize_t n = receive(fd, data + done, size_t(size - done), MSG_DONTWAIT);
        if (n > 0) {
            done += n;
            continue;
        }
        if (n == 0)
            return Io::Closed;
        if (errno == EINTR)
            continue;
        if (errno == ECONNRESET)
            return Io::Closed;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return Io::Failed;
        if (const Io waited = waitFor(fd, POLLIN, deadlineNs, serviceListener); waited != Io::Ok)
            return waited;
    }
    return Io::Ok;
}

Io Iperf3Server::Private::writeAll(int fd, const char *data, std::int64_t size, std::int64_t deadlineNs,
                                   bool serviceListener)
{
    std::int64_t done = 0;
    while (done < size) {
        const ssize_t n = platform::Platform::socketCalls().send(fd, data + done, size_t(size - done), MSG_DONTWAIT);
        if (n > 0) {
            done += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
            return Io::Closed;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return Io::Failed;
        if (const Io waited = waitFor(fd, POLLOUT, deadlineNs, serviceListener); waited != Io::Ok)
            return waited;
    }
    return Io::Ok;
}

Io Iperf3Server::Private::waitFor(int fd, short events, std::int64_t deadlineNs, bool serviceListener)
{
    std::vector<PollFd> fds;
    for (;;) {
        if (stopping())
            return Io::Stopped;
        const std::int64_t left = deadlineNs - nowNs();
        if (left <= 0)
            return Io::Timeout;
        fds.assign(1, {fd, events, 0});
        if (pollSession(fds, int(std::min<std::int64_t>(left / kMsNs + 1, 100)), serviceListener) < 0)
            return Io::Failed;
        if (fds[0].revents)
            return Io::Ok; // errors and hang-ups surface in the following recv/send
    }
}

/// One served test, in the steps iperf3's server takes: the allow-list and the cookie, the parameter
/// exchange and what this responder refuses, the listeners the streams connect to, the data streams
/// (CREATE_STREAMS), the test itself (TEST_START and TEST_RUNNING, then receive, or send with -R, until
/// TEST_END), the tally, the results exchange and the log line. A step that ends the test early has said
/// why (to the client and in the log) and returns false.
class Iperf3Server::Private::Test
{
public:
    Test(Private *d, Fd control, const sockaddr_storage &peer)
        : d(d)
        , m_control(std::move(control))
        , m_peer(peer)
        , m_who(endpointText(peer))
        , m_mssGuard{d->listenFd.get()}
    {
        m_rec.client = m_who;
    }

    void run()
    {
        // Our state bytes are tiny and often follow one the client has not acknowledged yet (delayed ACK):
        // with Nagle on, TEST_START would wait ~40 ms for that ACK, and the test clocks of the two ends drift apart.
        setIntOption(m_control.get(), IPPROTO_TCP, TCP_NODELAY, 1);
        if (!admit() || !readCookie() || !readParameters() || !withinLimits() || !openListeners() || !createStreams()
            || !startTest())
            return;
        runTest();
        tally();
        if (m_end == End::Terminate)
            terminate();
        // Closed now, as iperf3's server does on TEST_END: a 3.12 client drains -R streams with blocking reads
        // of a whole block, which only our close ends when a stream stops in the middle of one.
        m_streams.clear();
        if (m_end == End::TestEnd)
            exchangeResults();
        m_rec.problem = m_problem;
        record();
    }

private:
    enum class End { TestEnd, ClientStopped, ClientGone, Terminate, Broken };

    // The MSS is announced in the SYN-ACK, so it must be on the listening socket while the data
    // streams connect (they inherit it); it is taken off again right after, for the next client.
    struct MssOnListener
    {
        int fd;
        bool set = false;
        void clear()
        {
            if (set)
                setIntOption(fd, IPPROTO_TCP, TCP_MAXSEG, 0);
            set = false;
        }
        ~MssOnListener() { clear(); }
    };

    bool stopping() const { return d->stopping(); }
    void log(const std::string &line) { d->log(line); }

    /// A refusal the real client prints in words: SERVER_ERROR, iperf3's error number, an errno. Always false.
    bool refuse(int code, int sysErrno, const std::string &why)
    {
        const std::string message = ip::serverErrorMessage(code, sysErrno);
        d->writeAll(m_control.get(), message.data(), message.size(), nowNs() + 1000 * kMsNs);
        log(Arg("%1: iperf3 client refused: %2").arg(m_who, why));
        d->lingerClose(std::move(m_control));
        return false;
    }

    bool admit()
    {
        const ServerConfig &cfg = d->cfg;
        if (cfg.allows(peerAddress(m_peer)))
            return true;
        // iperf3's "test authorization failed" is the nearest words the client knows.
        return refuse(ip::ErrAuthTest, 0,
                      Arg("client %1 is not in the networks this wirebenchd serves (--allow %2)")
                          .arg(addressText(peerAddress(m_peer)), cfg.allowListText()));
    }

    /// Cookie, PARAM_EXCHANGE, parameters: all within the handshake timeout, so a silent or slow
    /// connection does not hold the one test slot for long.
    bool readCookie()
    {
        m_handshakeDeadline = nowNs() + std::int64_t(d->cfg.handshakeTimeoutMs) * kMsNs;
        m_cookie = std::string(ip::kCookieSize, '\0');
        switch (d->readExact(m_control.get(), m_cookie.data(), m_cookie.size(), m_handshakeDeadline)) {
        case Io::Ok:
            return true;
        case Io::Timeout:
            log(Arg("%1: iperf3 client dropped: no cookie within %2 ms (--handshake-timeout)")
                    .arg(m_who)
                    .arg(d->cfg.handshakeTimeoutMs));
            return false;
        case Io::Stopped:
            return false;
        case Io::Closed:
        case Io::Failed:
            log(Arg("%1: iperf3 client closed the connection before the test").arg(m_who));
            return false;
        }
        return false;
    }

    /// PARAM_EXCHANGE and the client's parameters (a JSON object behind its length).
    bool readParameters()
    {
        const char paramExchange = char(ip::ParamExchange);
        if (d->writeAll(m_control.get(), &paramExchange, 1, m_handshakeDeadline) != Io::Ok) {
            log(Arg("%1: iperf3 client left before the parameter exchange").arg(m_who));
            return false;
        }
        const int limit = d->messageLimit();
        std::string prefix(4, '\0');
        Io io = d->readExact(m_control.get(), prefix.data(), 4, m_handshakeDeadline);
        const std::int64_t length = io == Io::Ok ? ip::decodeJsonLength(prefix) : -1;
        if (io == Io::Ok && (length < 0 || length > limit))
            return refuse(ip::ErrRecvParams, EMSGSIZE,
                          Arg("its parameters announce %1 bytes, more than the %2 bytes allowed: not an iperf3 client?")
                              .arg(std::int32_t((std::uint32_t(std::uint8_t(prefix[0])) << 24)
                                                | (std::uint32_t(std::uint8_t(prefix[1])) << 16)
                                                | (std::uint32_t(std::uint8_t(prefix[2])) << 8)
                                                | std::uint32_t(std::uint8_t(prefix[3]))))
                              .arg(limit));
        std::string json;
        if (io == Io::Ok) {
            json.resize(length);
            io = d->readExact(m_control.get(), json.data(), length, m_handshakeDeadline);
        }
        if (io == Io::Timeout)
            return refuse(ip::ErrRecvParams, ETIMEDOUT,
                          Arg("no test parameters within %1 ms (--handshake-timeout)").arg(d->cfg.handshakeTimeoutMs));
        if (io == Io::Stopped)
            return false;
        if (io != Io::Ok) {
            log(Arg("%1: iperf3 client closed the connection before sending its parameters").arg(m_who));
            return false;
        }
        std::string why;
        if (!ip::ClientParameters::fromJson(json, &m_params, &why))
            return refuse(ip::ErrRecvParams, EINVAL, Arg("%1: not an iperf3 client?").arg(why));

        const ip::TestParameters &t = m_params.test;
        m_udp = m_params.protocol == std::string("udp");
        m_rec.reverse = t.reverse;
        m_rec.bidir = m_params.bidirectional;
        m_rec.udp = m_udp;
        m_rec.streams = t.parallel;
        m_rec.timeSeconds = t.timeSeconds;
        m_rec.omitSeconds = t.omitSeconds;
        m_rec.blockSize = t.blockSize > 0 ? t.blockSize : m_udp ? ip::kDefaultUdpBlockSize : kDefaultBlockSize;
        m_rec.udpTargetBitsPerSec = m_udp ? m_params.bitrate : 0;
        return true;
    }

    /// What this responder does not do, in words the real client prints.
    bool withinLimits()
    {
        const ServerConfig &cfg = d->cfg;
        const ip::TestParameters &t = m_params.test;
        if (m_params.protocol == std::string("sctp"))
            return refuse(ip::ErrNoSctp, 0,
                          Arg("an SCTP test (--sctp) was asked: this iperf3 port serves TCP and UDP tests only"));
        const int udpHeader = m_params.udpCounters64 ? 16 : ip::kUdpHeaderSize;
        if (m_udp && (m_rec.blockSize < udpHeader || m_rec.blockSize > ip::kMaxUdpBlockSize))
            return refuse(ip::ErrBlockSize, 0,
                          Arg("refused a UDP datagram (-l) of %1 bytes: iperf3 allows %2 to %3 bytes")
                              .arg(m_rec.blockSize)
                              .arg(udpHeader)
                              .arg(ip::kMaxUdpBlockSize));
        if (m_params.bidirectional && m_udp)
            return refuse(ip::ErrUnimplemented, 0,
                          Arg("a bidirectional UDP test (-u --bidir) was asked: run one UDP test each way (with and "
                              "without -R)"));
        if (t.parallel < 1 || t.parallel > ip::kMaxStreams)
            return refuse(ip::ErrNumStreams, 0,
                          Arg("%1 parallel streams asked: iperf3 allows 1 to %2").arg(t.parallel).arg(ip::kMaxStreams));
        if (m_rec.blockSize > cfg.maxMessageSize)
            return refuse(ip::ErrBlockSize, 0,
                          Arg("refused a block size (-l) of %1 bytes: this wirebenchd allows at most %2 bytes")
                              .arg(m_rec.blockSize)
                              .arg(cfg.maxMessageSize));
        if (!m_udp && t.mss > ip::kMaxMss)
            return refuse(
                ip::ErrMss, 0,
                Arg("an MSS (-M) of %1 bytes was asked: iperf3 allows at most %2").arg(t.mss).arg(ip::kMaxMss));
        if ((std::int64_t(t.timeSeconds) + t.omitSeconds) * 1000 > cfg.maxDurationMs) {
            // The client prints iperf3's own range for -t; our limit is in the log.
            return refuse(ip::ErrDuration, 0,
                          Arg("refused a %1 s test: this wirebenchd allows at most %2 s (--max-duration)")
                              .arg(t.timeSeconds + t.omitSeconds)
                              .arg(cfg.maxDurationMs / 1000.0));
        }
        return true;
    }

    /// The server's printed output (when asked), the MSS on the TCP listener, and for UDP the datagram socket.
    bool openListeners()
    {
        const ip::TestParameters &t = m_params.test;
        // What iperf3 -s would print, for a client that asked for it (--get-server-output).
        m_output.emplace(m_params.getServerOutput, t.reverse, m_udp);
        m_output->accepted(m_peer);

        if (!m_udp && t.mss > 0) {
            std::string err;
            if (!setIntOption(d->listenFd.get(), IPPROTO_TCP, TCP_MAXSEG, t.mss, &err))
                return refuse(ip::ErrSetMss, errno, Arg("cannot set the MSS to %1 bytes: %2").arg(t.mss).arg(err));
            m_mssGuard.set = true;
        }

        // UDP: like iperf3's server, a datagram socket on our own port number before CREATE_STREAMS. Each
        // stream's client sends one datagram to it; the socket is connected to that sender and answers, and
        // a fresh one is bound for the next stream.
        if (m_udp) {
            int err = 0;
            m_udpListener = openUdpSocket(d->cfg.address, d->boundPort, &err);
            if (!m_udpListener.valid())
                return refuse(ip::ErrListen, err,
                              Arg("cannot bind UDP port %1 for the data streams: %2: free that UDP port or pick "
                                  "another --iperf3-port")
                                  .arg(d->boundPort)
                                  .arg(errnoText(err)));
        }
        return true;
    }

    void noteStream(int fd, const sockaddr_storage &remote)
    {
        sockaddr_storage local{};
        socklen_t len = sizeof(local);
        if (m_output->enabled() && ::getsockname(fd, reinterpret_cast<sockaddr *>(&local), &len) == 0)
            m_output->streamConnected(fd, local, remote);
    }

    /// CREATE_STREAMS, then the data streams: they connect to this same port and prove themselves with the
    /// cookie; anyone else who connects now is told "busy", as iperf3 does.
    bool createStreams()
    {
        const ServerConfig &cfg = d->cfg;
        // --bidir: the client's sending streams connect first, then the ones it receives on (iperf3's order).
        const int parallel = m_params.test.parallel * (m_params.bidirectional ? 2 : 1);
        const char createStreams = char(ip::CreateStreams);
        if (d->writeAll(m_control.get(), &createStreams, 1, nowNs() + std::int64_t(cfg.idleTimeoutMs) * kMsNs)
            != Io::Ok) {
            log(Arg("%1: iperf3 client left before opening its data streams").arg(m_who));
            return false;
        }
        m_acceptDeadline = nowNs() + std::int64_t(cfg.idleTimeoutMs) * kMsNs;
        while (int(m_streams.size()) < parallel) {
            if (stopping())
                return false;
            if (nowNs() >= m_acceptDeadline) {
                log(Arg("%1: iperf3 client dropped: %2 of %3 data streams within %4 ms (--idle-timeout)")
                        .arg(m_who)
                        .arg(m_streams.size())
                        .arg(parallel)
                        .arg(cfg.idleTimeoutMs));
                return false;
            }
            // While UDP streams open, TCP newcomers on the listener are told "busy" by pollSession.
            m_fds = {{m_udp ? m_udpListener.get() : d->listenFd.get(), POLLIN, 0}, {m_control.get(), POLLIN, 0}};
            if (d->pollSession(m_fds, 100, m_udp) <= 0)
                continue;
            if (m_fds[1].revents && !controlWhileOpening())
                return false;
            if (m_udp && (m_fds[0].revents & POLLIN)) {
                if (!takeUdpStream())
                    return false;
            } else if (m_fds[0].revents & POLLIN) {
                if (!takeTcpStream())
                    return false;
            }
        }
        m_mssGuard.clear();
        setStreamOptions();
        return true;
    }

    /// The control connection spoke or closed while the streams open: anything but nothing ends the test.
    bool controlWhileOpening()
    {
        signed char byte = 0;
        const ssize_t n = receive(m_control.get(), &byte, 1, MSG_DONTWAIT);
        if (n == 1 && byte == ip::ClientTerminate) {
            log(Arg("%1: iperf3 client stopped before its data streams were open").arg(m_who));
            return false;
        }
        if (n == 1) {
            log(Arg("%1: iperf3 client sent %2 while opening its data streams: ended").arg(m_who, ip::stateName(byte)));
            return false;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            log(Arg("%1: iperf3 client left before opening its data streams").arg(m_who));
            return false;
        }
        return true;
    }

    /// A datagram on the UDP socket: the next stream, when it comes from the client's host.
    bool takeUdpStream()
    {
        const ServerConfig &cfg = d->cfg;
        sockaddr_storage dpeer{};
        socklen_t dplen = sizeof(dpeer);
        char hello[64];
        if (receiveFrom(m_udpListener.get(), hello, sizeof(hello), MSG_DONTWAIT, reinterpret_cast<sockaddr *>(&dpeer),
                        &dplen)
            < 0)
            return true;
        // iperf3 takes a stream from any sender; we take it from the control connection's host only,
        // so that a stray datagram cannot take the place of the client's.
        if (!sameAddress(peerAddress(dpeer), peerAddress(m_peer))) {
            if (m_strays++ == 0) // once per test: a flood must not flood the log
                log(Arg("%1: UDP datagram ignored: the iperf3 test running belongs to %2")
                        .arg(endpointText(dpeer), m_who));
            return true;
        }
        if (connectSocket(m_udpListener.get(), reinterpret_cast<sockaddr *>(&dpeer), dplen) != 0)
            return refuse(ip::ErrListen, errno,
                          Arg("cannot connect the UDP socket of stream %1 to %2: %3")
                              .arg(m_streams.size() + 1)
                              .arg(endpointText(dpeer), errnoText(errno)));
        // What reached the socket before it was connected may come from anyone; the client sends its
        // data only after TEST_START, so nothing of the test is dropped here.
        for (int i = 0; i < 1024 && receive(m_udpListener.get(), hello, sizeof(hello), MSG_DONTWAIT) >= 0; ++i) {
        }
        Fd connected = std::move(m_udpListener);
        if (int(m_streams.size()) + 1 < m_params.test.parallel) {
            // Bound before we answer: the next stream's datagram follows our answer at once.
            int err = 0;
            m_udpListener = openUdpSocket(cfg.address, d->boundPort, &err);
            if (!m_udpListener.valid())
                return refuse(ip::ErrListen, err,
                              Arg("cannot bind UDP port %1 for data stream %2: %3")
                                  .arg(d->boundPort)
                                  .arg(m_streams.size() + 2)
                                  .arg(errnoText(err)));
        }
        const std::string reply = ip::udpConnectReply();
        if (platform::Platform::socketCalls().send(connected.get(), reply.data(), size_t(reply.size()), MSG_DONTWAIT)
            != ssize_t(reply.size())) {
            log(Arg("%1: iperf3 client dropped: cannot answer the connect datagram of UDP stream %2 at %3: %4")
                    .arg(m_who)
                    .arg(m_streams.size() + 1)
                    .arg(endpointText(dpeer), errnoText(errno)));
            return false;
        }
        noteStream(connected.get(), dpeer);
        m_streams.push_back(std::move(connected));
        return true;
    }

    /// A connection on the listener: the next stream when it shows our cookie, else told "busy".
    bool takeTcpStream()
    {
        sockaddr_storage dpeer{};
        socklen_t dplen = sizeof(dpeer);
        Fd candidate(platform::Platform::socketCalls().accept(d->listenFd.get(), reinterpret_cast<sockaddr *>(&dpeer),
                                                              &dplen, true));
        if (!candidate.valid())
            return true;
        std::string theirs(ip::kCookieSize, '\0');
        const std::int64_t cookieDeadline
            = std::min(m_acceptDeadline, nowNs() + std::int64_t(d->cfg.handshakeTimeoutMs) * kMsNs);
        const Io got = d->readExact(candidate.get(), theirs.data(), theirs.size(), cookieDeadline, false);
        if (got == Io::Stopped)
            return false;
        if (got == Io::Ok && theirs == m_cookie) {
            noteStream(candidate.get(), dpeer);
            m_streams.push_back(std::move(candidate));
        } else if (got == Io::Ok)
            d->deny(std::move(candidate), dpeer);
        // a connection that closed or stayed silent is simply dropped
        return true;
    }

    /// -w, -N and -C on every stream; what the system refuses is noted for the log line.
    void setStreamOptions()
    {
        const ip::TestParameters &t = m_params.test;
        for (const Fd &s : m_streams) {
            if (t.window > 0) {
                // iperf3 sets one size for both buffers (-w). Set after the handshake, so the window scale is
                // the kernel's; a failure is noted rather than fatal.
                if (!setIntOption(s.get(), SOL_SOCKET, SO_SNDBUF, t.window)
                    || !setIntOption(s.get(), SOL_SOCKET, SO_RCVBUF, t.window))
                    m_notes.push_back(Arg("socket buffer of %1 bytes not set").arg(t.window));
            } else if (m_udp && !t.reverse) {
                setIntOption(s.get(), SOL_SOCKET, SO_RCVBUF, kUdpReceiveBufferBytes);
            }
            if (m_udp)
                continue;
            if (m_params.noDelay)
                setIntOption(s.get(), IPPROTO_TCP, TCP_NODELAY, 1);
            if (!m_params.congestion.empty()) {
                const std::string name = m_params.congestion;
                if (!platform::Platform::socketCalls().setCongestionControl(s.get(), name.data(), size_t(name.size())))
                    m_notes.push_back(Arg("congestion control \"%1\" not available here").arg(m_params.congestion));
            }
        }
        std::vector<std::string> once; // each note once, in order
        for (const std::string &note : m_notes) {
            if (std::find(once.begin(), once.end(), note) == once.end())
                once.push_back(note);
        }
        m_notes = std::move(once);
    }

    /// TEST_START and TEST_RUNNING, and the counts and the block of the test, which starts now.
    bool startTest()
    {
        const ServerConfig &cfg = d->cfg;
        const char startRunning[2] = {char(ip::TestStart), char(ip::TestRunning)};
        if (d->writeAll(m_control.get(), startRunning, 2, nowNs() + std::int64_t(cfg.idleTimeoutMs) * kMsNs)
            != Io::Ok) {
            log(Arg("%1: iperf3 client left before the test started").arg(m_who));
            return false;
        }
        const ip::TestParameters &t = m_params.test;
        m_n = m_streams.size();
        m_reverse = t.reverse;
        m_bidir = m_params.bidirectional;
        m_t0 = nowNs();
        m_omitEnd = m_t0 + std::int64_t(t.omitSeconds) * 1000 * kMsNs;
        m_overrun = m_t0 + (std::int64_t(cfg.maxDurationMs) + kOverrunGraceMs) * kMsNs;
        m_idleNs = std::int64_t(cfg.idleTimeoutMs) * kMsNs;
        m_total.assign(m_n, 0);
        m_base.assign(m_n, 0);
        m_retransBase.assign(m_n, 0);
        m_open.assign(m_n, true);
        m_udpSent.assign(m_n, 0);
        m_udpSentBase.assign(m_n, 0);
        m_udpStats.assign(m_n, {});
        m_udpBase.assign(m_n, {});
        m_measureStart = m_t0;
        m_cpu0 = ip::ThreadCpuTimes::now();
        m_lastProgress = m_t0;
        m_blockSize = m_rec.blockSize;
        // The streams share one block of iperf3's digits; a UDP sender stamps each datagram's header into it.
        if (m_reverse && m_udp)
            m_datagram = *BulkSender::pattern(m_blockSize, '0', 10);
        if (!m_udp && (m_reverse || m_bidir))
            m_senders.assign(m_n, BulkSender(BulkSender::pattern(m_blockSize, '0', 10)));
        if (!m_reverse || m_bidir) // polled, so no low-water mark (it would hold back poll() too)
            m_receiver.emplace(std::max(m_blockSize, 256 * 1024),
                               BulkReceiver::Wake::EveryArrival); // fewer recv() calls than one per block
        // Pacing of what we send: --max-rate for all streams together, -b for each stream.
        const bool weSend = m_reverse || m_bidir;
        m_totalPace = Pacer(weSend ? cfg.maxRateBytesPerSec : 0, m_t0);
        m_streamPace = Pacer(weSend ? m_params.bitrate / 8 : 0, m_t0);
        if (t.omitSeconds == 0)
            startMeasuring(m_t0);
        if (m_output->enabled())
            m_output->start(m_t0, countsNow(), t.omitSeconds > 0);
        return true;
    }

    void startMeasuring(std::int64_t now)
    {
        m_measuring = true;
        m_measureStart = now;
        m_cpu0 = ip::ThreadCpuTimes::now();
        for (size_t i = 0; i < m_n; ++i) {
            m_base[i] = m_total[i];
            if (!m_udp)
                m_retransBase[i] = TcpInfo::of(m_streams[i].get()).totalRetrans;
        }
        m_udpSentBase = m_udpSent;
        m_udpBase = m_udpStats;
    }

    /// The server's own counts now, for its printed reports: read only when the client asked for them.
    std::vector<Iperf3ServerOutput::Counts> countsNow() const
    {
        std::vector<Iperf3ServerOutput::Counts> c(m_n);
        for (size_t i = 0; i < m_n; ++i) {
            c[i].bytes = m_total[i];
            if (!m_udp && sends(i)) {
                const TcpInfo ti = TcpInfo::of(m_streams[i].get());
                c[i].retransmits = ti.totalRetrans;
                c[i].cwndBytes = ti.sndCwndBytes;
            } else if (m_udp && m_reverse) {
                c[i].packets = m_udpSent[i];
            } else if (m_udp) {
                c[i].packets = m_udpStats[i].packets;
                c[i].lost = m_udpStats[i].lost;
                c[i].outOfOrder = m_udpStats[i].outOfOrder;
                c[i].jitterSeconds = m_udpStats[i].jitter;
            }
        }
        return c;
    }

    /// The test: receive (iperf3 -c) or send (iperf3 -c -R) until the client sends TEST_END.
    void runTest()
    {
        for (;;) {
            const std::int64_t now = nowNs();
            if (endedByUs(now))
                break;
            std::vector<size_t> polled;
            if (!waitForStreams(now, &polled) || endedByClient())
                break;
            moveData(polled);
        }
    }

    /// The omitted seconds' end and the printed reports when due; true when the test must end now
    /// (shutting down, past --max-duration, idle past --idle-timeout).
    bool endedByUs(std::int64_t now)
    {
        const ServerConfig &cfg = d->cfg;
        if (!m_measuring && now >= m_omitEnd) {
            startMeasuring(now);
            if (m_output->enabled())
                m_output->endOmitting(now, countsNow());
        }
        if (m_output->due(now))
            m_output->interval(now, countsNow());
        if (stopping()) {
            m_end = End::Terminate;
            m_problem = Arg("wirebenchd is shutting down");
            return true;
        }
        if (now >= m_overrun) {
            m_end = End::Terminate;
            m_problem
                = Arg("ran past the %1 s that this wirebenchd allows (--max-duration)").arg(cfg.maxDurationMs / 1000.0);
            return true;
        }
        if (now - m_lastProgress > m_idleNs) {
            m_end = End::Terminate;
            m_problem = m_reverse
                ? Arg("the client read nothing for %1 s (--idle-timeout)").arg(cfg.idleTimeoutMs / 1000.0)
                : Arg("no data from the client for %1 s (--idle-timeout)").arg(cfg.idleTimeoutMs / 1000.0);
            return true;
        }
        return false;
    }

    /// Which streams may send now (pacing), then a poll of those and the control connection; a held
    /// sender wakes soon to look again. False when the poll failed.
    bool waitForStreams(std::int64_t now, std::vector<size_t> *polled)
    {
        std::int64_t sentTotal = 0;
        for (size_t i = 0; i < m_n; ++i)
            sentTotal += sends(i) ? m_total[i] : 0;
        const bool totalHeld = m_totalPace.ahead(sentTotal, now);
        m_fds.assign(1, {m_control.get(), POLLIN, 0});
        bool held = totalHeld;
        for (size_t i = 0; i < m_n; ++i) {
            if (!m_open[i])
                continue;
            if (sends(i) && (totalHeld || m_streamPace.ahead(m_total[i], now))) {
                held = true;
                continue;
            }
            m_fds.push_back({m_streams[i].get(), short(sends(i) ? POLLOUT : POLLIN), 0});
            polled->push_back(i);
        }
        // A held UDP sender wakes every ms, as iperf3's 1000 us pacing timer does: the datagrams due since
        // then leave back to back, and a longer sleep makes a burst that overflows a default receive buffer.
        if (d->pollSession(m_fds, held ? (m_udp ? 1 : 2) : 100, true) < 0) {
            m_problem = Arg("poll failed: %1").arg(errnoText(errno));
            return false;
        }
        return true;
    }

    /// What the control connection says mid-test: TEST_END, CLIENT_TERMINATE, anything else, or a close.
    bool endedByClient()
    {
        if (!m_fds[0].revents)
            return false;
        signed char byte = 0;
        const ssize_t got = receive(m_control.get(), &byte, 1, MSG_DONTWAIT);
        if (got == 1 && byte == ip::TestEnd) {
            m_end = End::TestEnd;
            return true;
        }
        if (got == 1 && byte == ip::ClientTerminate) {
            m_end = End::ClientStopped;
            return true;
        }
        if (got == 1) {
            m_problem = Arg("the client sent %1 during the test").arg(ip::stateName(byte));
            return true;
        }
        if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            m_end = End::ClientGone;
            m_problem = Arg("the client closed the control connection mid-test");
            return true;
        }
        return false;
    }

    /// A few sends or receives on each stream the poll found ready.
    void moveData(const std::vector<size_t> &polled)
    {
        const std::int64_t now = nowNs();
        for (size_t k = 0; k < polled.size(); ++k) {
            const size_t i = polled[k];
            if (!m_fds[k + 1].revents)
                continue;
            for (int round = 0; round < (m_udp ? kUdpRounds : 16); ++round) {
                if (!moveOnce(i, now))
                    break;
            }
        }
    }

    /// One send or receive on stream i; false when this stream is done for this wake-up.
    bool moveOnce(size_t i, std::int64_t now)
    {
        ssize_t got = 0;
        if (m_reverse && m_udp) {
            // One whole datagram, stamped as iperf3 does: our clock, then the counter from 1.
            timespec ts{};
            wallSeconds(&ts);
            const ip::UdpHeader header{std::uint32_t(ts.tv_sec), std::uint32_t(ts.tv_nsec / 1000),
                                       std::uint64_t(m_udpSent[i] + 1)};
            header.write(m_datagram.data(), m_params.udpCounters64);
            got = platform::Platform::socketCalls().send(m_streams[i].get(), m_datagram.data(), size_t(m_blockSize),
                                                         MSG_DONTWAIT);
            if (got > 0)
                ++m_udpSent[i];
        } else if (sends(i)) {
            const std::int64_t most = std::min(m_totalPace.chunk(BulkSender::kWhole),
                                               m_streamPace.chunk(BulkSender::kWhole)); // at most 10 ms worth
            got = m_senders[i].sendSome(m_streams[i].get(), MSG_DONTWAIT, most);
        } else {
            got = m_receiver->receiveSome(m_streams[i].get(), MSG_DONTWAIT);
            if (got == 0 && m_udp)
                return true; // an empty datagram: nothing iperf3 sends, nothing to count
            if (got == 0) {
                m_open[i] = false; // the client closed it; its control connection says why
                return false;
            }
            ip::UdpHeader header;
            if (m_udp && ip::UdpHeader::read(m_receiver->data(), got, m_params.udpCounters64, &header))
                m_udpStats[i].add(header.counter, header.sec + header.usec / 1e6, wallSeconds());
        }
        if (got > 0) {
            m_total[i] += got;
            m_lastProgress = now;
            return !(m_totalPace.active() || m_streamPace.active()); // paced: re-check the pace
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return false;
        // UDP: a full queue, or an ICMP "port unreachable" from a client that closed its socket
        // first; the control connection says whether the test goes on.
        if (m_udp && (errno == ENOBUFS || errno == ECONNREFUSED))
            return false;
        // Noted, not fatal: the control connection decides how the test ends.
        m_open[i] = false;
        m_notes.push_back(Arg("data stream %1 failed: %2").arg(i + 1).arg(errnoText(errno)));
        return false;
    }

    /// The test's figures: bytes and time after the omitted seconds, retransmits, the MSS, UDP's counts, CPU.
    void tally()
    {
        const std::int64_t endNs = nowNs();
        const ip::ThreadCpuTimes cpu1 = ip::ThreadCpuTimes::now();
        if (!m_measuring)
            m_measureStart = endNs; // ended within the omitted seconds: nothing measured
        m_rec.seconds = double(endNs - m_measureStart) / 1e9;
        m_measured.assign(m_n, 0);
        m_retrans.assign(m_n, 0);
        m_rec.bytes = 0;
        for (size_t i = 0; i < m_n; ++i) {
            m_measured[i] = m_total[i] - m_base[i];
            (m_bidir && sends(i) ? m_rec.sentBytes : m_rec.bytes)
                += m_measured[i]; // --bidir: bytes is what we received
            if (sends(i) && !m_udp)
                m_retrans[i]
                    = std::max<std::int64_t>(0, TcpInfo::of(m_streams[i].get()).totalRetrans - m_retransBase[i]);
        }
        if ((m_reverse || m_bidir) && !m_udp) {
            m_rec.retransmits = 0;
            for (std::int64_t r : m_retrans)
                m_rec.retransmits += r;
        }
        m_rec.mss = m_n > 0 && !m_udp ? TcpInfo::of(m_streams[0].get()).sndMss : 0;
        if (m_udp) {
            // Per stream as iperf3's receiver counts: packets up to the highest counter seen, lost the gaps.
            double jitterSum = 0;
            m_rec.udpLost = m_reverse ? -1 : 0; // with -R the client's count, from its results
            for (size_t i = 0; i < m_n; ++i) {
                if (m_reverse) {
                    m_rec.udpPackets += m_udpSent[i] - m_udpSentBase[i];
                    continue;
                }
                m_rec.udpPackets += m_udpStats[i].packets - m_udpBase[i].packets;
                m_rec.udpLost += m_udpStats[i].lost - m_udpBase[i].lost;
                m_rec.udpOutOfOrder += m_udpStats[i].outOfOrder - m_udpBase[i].outOfOrder;
                jitterSum += m_udpStats[i].jitter;
            }
            m_rec.udpJitterMs = m_n > 0 ? 1000.0 * jitterSum / double(m_n) : 0;
        }
        const double wall = m_rec.seconds > 0 ? m_rec.seconds : 1e-9;
        m_cpuUser = 100.0 * (cpu1.user - m_cpu0.user) / wall;
        m_cpuSystem = 100.0 * (cpu1.system - m_cpu0.system) / wall;
        m_rec.cpuPercent = m_rec.seconds > 0 ? m_cpuUser + m_cpuSystem : 0;
        if (m_output->enabled() && m_end == End::TestEnd)
            m_output->finish(endNs, countsNow(), m_rec.seconds);
        m_rec.stoppedByClient = m_end == End::ClientStopped;
    }

    /// As iperf3 on SIGTERM: the client prints its summary and "the server has terminated". The data
    /// streams stay open until the client has read that and left (at most a second): closed first, a
    /// sending client would fail on a broken pipe instead.
    void terminate()
    {
        const char terminate = char(ip::ServerTerminate);
        [[maybe_unused]] ssize_t w
            = platform::Platform::socketCalls().send(m_control.get(), &terminate, 1, MSG_DONTWAIT);
        char sink[256];
        for (const std::int64_t until = nowNs() + 1000 * kMsNs; nowNs() < until;) {
            PollFd p{m_control.get(), POLLIN, 0};
            if (pollSockets(&p, 1, 100) > 0 && receive(m_control.get(), sink, sizeof(sink), MSG_DONTWAIT) <= 0)
                break;
        }
    }

    /// EXCHANGE_RESULTS: the client's results first (its own count), then ours with DISPLAY_RESULTS, then
    /// its IPERF_DONE or a close.
    void exchangeResults()
    {
        const int limit = d->messageLimit();
        const std::int64_t deadline = nowNs() + m_idleNs;
        const char exchange = char(ip::ExchangeResults);
        Io io = d->writeAll(m_control.get(), &exchange, 1, deadline);
        std::string prefix(4, '\0');
        if (io == Io::Ok)
            io = d->readExact(m_control.get(), prefix.data(), 4, deadline);
        const std::int64_t length = io == Io::Ok ? ip::decodeJsonLength(prefix) : -1;
        std::string json;
        if (io == Io::Ok && (length < 0 || length > limit)) {
            const std::string message = ip::serverErrorMessage(ip::ErrRecvResults, EMSGSIZE);
            d->writeAll(m_control.get(), message.data(), message.size(), nowNs() + 1000 * kMsNs);
            m_problem = Arg("the client's results announce %1 bytes, more than the %2 allowed").arg(length).arg(limit);
        } else if (io == Io::Ok) {
            json.resize(length);
            io = d->readExact(m_control.get(), json.data(), length, deadline);
        }
        ip::Results theirs;
        std::string why;
        if (m_problem.empty() && io == Io::Ok && !ip::Results::fromJson(json, &theirs, &why)) {
            const std::string message = ip::serverErrorMessage(ip::ErrRecvResults, EINVAL);
            d->writeAll(m_control.get(), message.data(), message.size(), nowNs() + 1000 * kMsNs);
            m_problem = Arg("the client's results could not be read: %1").arg(why);
        }
        if (m_problem.empty() && io == Io::Ok) {
            takeClientResults(theirs);
            const std::string message = ip::frameJson(ourResults().toJson()) + char(ip::DisplayResults);
            io = d->writeAll(m_control.get(), message.data(), message.size(), deadline);
        }
        if (m_problem.empty() && io == Io::Ok) {
            m_rec.completed = true;
            // IPERF_DONE, or a close: either way the client has its summary.
            signed char done = 0;
            d->readExact(m_control.get(), reinterpret_cast<char *>(&done), 1, nowNs() + m_idleNs);
        } else if (m_problem.empty() && io != Io::Stopped) {
            m_problem = io == Io::Timeout ? Arg("the results exchange timed out (--idle-timeout)")
                                          : Arg("the client left during the results exchange");
        }
    }

    void takeClientResults(const ip::Results &theirs)
    {
        m_rec.clientBytes = theirs.totalBytes();
        m_rec.clientSeconds = theirs.longestSeconds();
        if (m_bidir) { // its first half it sent, its second half it received (the ids both ends gave them)
            m_rec.clientSentBytes = 0;
            m_rec.clientReceivedBytes = 0;
            for (const ip::StreamResult &s : theirs.streams) {
                size_t index = 0;
                while (index < m_n && ip::streamId(int(index)) != s.id)
                    ++index;
                if (index < m_n)
                    (sends(index) ? m_rec.clientReceivedBytes : m_rec.clientSentBytes) += s.bytes;
            }
        }
        if (m_udp && m_reverse) {
            // The client received: its loss and jitter are the test's.
            double jitterSum = 0;
            m_rec.udpLost = 0;
            for (const ip::StreamResult &s : theirs.streams) {
                m_rec.udpLost += s.errors - s.omittedErrors;
                jitterSum += s.jitter;
            }
            m_rec.udpJitterMs = theirs.streams.empty() ? 0 : 1000.0 * jitterSum / double(theirs.streams.size());
        }
    }

    ip::Results ourResults() const
    {
        ip::Results ours;
        ours.cpuUser = m_cpuUser;
        ours.cpuSystem = m_cpuSystem;
        ours.cpuTotal = m_cpuUser + m_cpuSystem;
        // As iperf3's server: a UDP sender has no retransmits to count (0), a receiver none to tell (-1).
        ours.senderHasRetransmits = m_reverse || m_bidir ? (m_udp ? 0 : 1) : -1;
        for (size_t i = 0; i < m_n; ++i) {
            ip::StreamResult s;
            s.id = ip::streamId(int(i));
            s.bytes = m_measured[i];
            s.retransmits = sends(i) && !m_udp ? int(m_retrans[i]) : -1;
            // UDP counts as iperf3's server sends them: over the whole test, with what the omitted
            // seconds held beside them. A 3.12 client subtracts its own omitted counts, a later one ours.
            if (m_udp && m_reverse) {
                s.packets = m_udpSent[i];
                s.omittedPackets = m_udpSentBase[i];
            } else if (m_udp) {
                s.packets = m_udpStats[i].packets;
                s.omittedPackets = m_udpBase[i].packets;
                s.errors = m_udpStats[i].lost;
                s.omittedErrors = m_udpBase[i].lost;
                s.jitter = m_udpStats[i].jitter;
            }
            s.startTime = 0;
            s.endTime = m_rec.seconds;
            ours.streams.push_back(s);
        }
        ours.serverOutputText = m_output->text();
        return ours;
    }

    /// The test's record and its log line, then the close.
    void record()
    {
        const ip::TestParameters &t = m_params.test;
        const bool udp = m_udp;
        const bool reverse = m_reverse;
        const Iperf3TestRecord &rec = m_rec;
        const std::string kind = udp
            ? (reverse ? Arg("udp-recv (server → client, -R)") : Arg("udp-send (client → server)"))
            : m_bidir ? Arg("tcp-bidir (both ways at once, --bidir)")
                      : (reverse ? Arg("tcp-recv (server → client, -R)") : Arg("tcp-send (client → server)"));
        const size_t streams = m_bidir ? m_n / 2 : m_n;
        std::string line = Arg("%1: iperf3 %2, %3 stream%4%5, %6, %7 %8 B, %9")
                               .arg(m_who, kind)
                               .arg(streams)
                               .arg(streams == 1 ? std::string() : Arg("s"))
                               .arg(m_bidir ? Arg(" each way") : std::string())
                               .arg(t.timeSeconds > 0        ? Arg("%1 s asked").arg(t.timeSeconds)
                                        : m_params.bytes > 0 ? Arg("%1 B asked (-n)").arg(m_params.bytes)
                                                             : Arg("%1 blocks asked (-k)").arg(m_params.blocks))
                               .arg(udp ? Arg("datagram") : Arg("block"))
                               .arg(m_blockSize)
                               .arg(!udp ? Arg("mss %1 B").arg(rec.mss)
                                        : rec.udpTargetBitsPerSec > 0
                                        ? Arg("target %1 Mbit/s per stream").arg(rec.udpTargetBitsPerSec / 1e6)
                                        : Arg("no target rate (-b 0)"));
        if (udp && m_params.udpCounters64)
            line += Arg(", 64-bit counters");
        if (t.omitSeconds > 0)
            line += Arg(", first %1 s omitted").arg(t.omitSeconds);
        line += Arg(": %1 %2 B in %3 s = %4")
                    .arg(reverse ? Arg("sent") : Arg("received"))
                    .arg(rec.bytes)
                    .arg(rec.seconds, 0, 'f', 3)
                    .arg(mbps(rec.bytes, rec.seconds));
        if (m_bidir) {
            line += Arg("; sent %1 B").arg(rec.sentBytes);
            if (rec.clientSentBytes >= 0)
                line += Arg("; client sent %1 B, received %2 B").arg(rec.clientSentBytes).arg(rec.clientReceivedBytes);
        } else if (rec.clientBytes >= 0) {
            line += Arg(", client %1 %2 B in %3 s = %4")
                        .arg(reverse ? Arg("received") : Arg("sent"))
                        .arg(rec.clientBytes)
                        .arg(rec.clientSeconds, 0, 'f', 3)
                        .arg(mbps(rec.clientBytes, rec.clientSeconds));
        }
        if ((reverse || m_bidir) && !udp)
            line += Arg(", %1 retransmits").arg(rec.retransmits);
        if (udp && rec.udpLost >= 0) {
            line += Arg(", lost %1 of %2 datagrams (%3 %), jitter %4 ms")
                        .arg(rec.udpLost)
                        .arg(rec.udpPackets)
                        .arg(rec.udpPackets > 0 ? 100.0 * double(rec.udpLost) / double(rec.udpPackets) : 0.0, 0, 'f', 2)
                        .arg(rec.udpJitterMs, 0, 'f', 3);
            if (!reverse)
                line += Arg(", %1 out of order").arg(rec.udpOutOfOrder);
        } else if (udp) {
            line += Arg(", %1 datagrams sent").arg(rec.udpPackets);
        }
        if (m_totalPace.active())
            line += Arg(" (paced to at most %1 MB/s by --max-rate)").arg(m_totalPace.bytesPerSec() / 1e6, 0, 'f', 1);
        if (!m_notes.empty())
            line += Arg(" (%1)").arg(joined(m_notes, "; "));
        if (rec.stoppedByClient)
            line += Arg(" (stopped by the client)");
        if (!m_problem.empty())
            line += Arg(" (ended early: %1)").arg(m_problem);
        d->addRecord(rec);
        log(line);
        d->lingerClose(std::move(m_control));
    }

    Private *d;
    Fd m_control;
    sockaddr_storage m_peer;
    std::string m_who;
    Iperf3TestRecord m_rec;
    std::int64_t m_handshakeDeadline = 0;
    std::string m_cookie;
    ip::ClientParameters m_params;
    bool m_udp = false;
    std::optional<Iperf3ServerOutput> m_output;
    MssOnListener m_mssGuard;
    Fd m_udpListener;
    std::vector<Fd> m_streams;
    int m_strays = 0;
    std::int64_t m_acceptDeadline = 0;
    std::vector<PollFd> m_fds;
    std::vector<std::string> m_notes;

    // The test: per stream, the bytes moved (m_total) and where the measured time began (m_base), and for
    // UDP the datagrams we sent (the counter of the last one) or the receiver's bookkeeping, with both as
    // they stood when the omitted seconds ended.
    size_t m_n = 0;
    bool m_reverse = false;
    bool m_bidir = false; ///< --bidir: we receive on the first half of m_streams and send on the second
    /// Whether we send on stream i (else the client does).
    bool sends(size_t i) const { return m_bidir ? i >= m_n / 2 : m_reverse; }
    std::int64_t m_t0 = 0;
    std::int64_t m_omitEnd = 0;
    std::int64_t m_overrun = 0;
    std::int64_t m_idleNs = 0;
    std::vector<std::int64_t> m_total, m_base, m_retransBase;
    std::vector<bool> m_open;
    std::vector<std::int64_t> m_udpSent, m_udpSentBase;
    std::vector<ip::UdpReceiveStats> m_udpStats, m_udpBase;
    bool m_measuring = false;
    std::int64_t m_measureStart = 0;
    ip::ThreadCpuTimes m_cpu0;
    std::int64_t m_lastProgress = 0;
    int m_blockSize = 0;
    std::string m_datagram;                 ///< UDP -R: the datagram we send, its header stamped each time
    std::vector<BulkSender> m_senders;      ///< TCP -R: one per stream
    std::optional<BulkReceiver> m_receiver; ///< receiving: one buffer for every stream
    Pacer m_totalPace;                      ///< --max-rate, all streams together
    Pacer m_streamPace;                     ///< -b, each stream
    End m_end = End::Broken;
    std::string m_problem;

    // The tally, for the results and the log line.
    std::vector<std::int64_t> m_measured, m_retrans;
    double m_cpuUser = 0;
    double m_cpuSystem = 0;
};

void Iperf3Server::Private::serve(Fd control, const sockaddr_storage &peer)
{
    Test(this, std::move(control), peer).run();
}

} // namespace wb
