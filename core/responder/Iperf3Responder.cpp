#include "Iperf3Responder.h"

#include "Iperf3ServerOutput.h"
#include "net/ListenSocket.h"
#include "net/Socket.h"
#include "wire/PrintableText.h"
#include "wire/iperf3/Iperf3Protocol.h"

#include <QByteArray>
#include <QStringList>
#include <QtEndian>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

using namespace wb::net;
using wire::safeLogLine;
namespace ip = wb::iperf3;

namespace {

constexpr qint64 kMsNs = 1000000;
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

QString mbps(qint64 bytes, double seconds)
{
    if (seconds <= 0)
        return QStringLiteral("- MB/s");
    return QStringLiteral("%1 MB/s").arg(bytes / seconds / 1e6, 0, 'f', 1);
}

/// A UDP socket on the iperf3 port's number, as iperf3's server opens one per stream: SO_REUSEADDR, so
/// that the next one binds while the previous one, connected to its stream's client, goes on receiving
/// (the kernel gives a datagram to the socket connected to its sender before an unconnected one).
Fd openUdpSocket(const QHostAddress &address, quint16 port, int *error)
{
    sockaddr_storage sa{};
    socklen_t len = 0;
    *error = EAFNOSUPPORT;
    if (!toSockaddr(address, port, &sa, &len))
        return Fd();
    Fd fd(::socket(sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    *error = errno;
    if (!fd.valid())
        return Fd();
    setIntOption(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1);
    if (sa.ss_family == AF_INET6) // as the TCP listener: "Any" and "::" take IPv4 too
        setIntOption(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY,
                     address == QHostAddress(QHostAddress::Any) || address == QHostAddress(QHostAddress::AnyIPv6) ? 0 : 1);
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&sa), len) != 0) {
        *error = errno;
        return Fd();
    }
    return fd;
}

/// Seconds on the wall clock, as iperf3 stamps its datagrams (gettimeofday); only differences of
/// transit times enter the jitter, so the two hosts' clocks need not agree.
double wallSeconds(timespec *out = nullptr)
{
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    if (out)
        *out = ts;
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

} // namespace

class Iperf3Responder::Private
{
public:
    Private(Iperf3Responder *q, const ResponderConfig &config) : q(q), cfg(config) {}

    void loop();
    void serve(Fd control, const sockaddr_storage &peer);

    /// poll() over the caller's descriptors plus the wake-up pipe and, unless the session itself takes
    /// connections (CREATE_STREAMS), the listening socket, whose newcomers get ACCESS_DENIED at once.
    int pollSession(std::vector<pollfd> &fds, int timeoutMs, bool serviceListener);
    void denyNewcomers();
    void deny(Fd fd, const sockaddr_storage &peer);
    /// Half-close and keep reading until the peer closes, so that our last bytes are not lost to a reset
    /// (closing with unread data sends RST). Runs alongside everything else, never blocks.
    void lingerClose(Fd fd);
    void serviceLingering(bool closeAll);
    Io readExact(int fd, char *data, qint64 size, qint64 deadlineNs, bool serviceListener = true);
    Io writeAll(int fd, const char *data, qint64 size, qint64 deadlineNs, bool serviceListener = true);
    /// Until fd is ready for events, in polls of at most 100 ms that keep the server answering.
    Io waitFor(int fd, short events, qint64 deadlineNs, bool serviceListener);
    void addRecord(const Iperf3TestRecord &record);
    /// Every log line goes out through here: escaped and capped, whatever a client put into it.
    void log(const QString &line) { emit q->logLine(safeLogLine(line)); }
    bool stopping() const { return m_stopping.load(); }
    int messageLimit() const { return qMax(cfg.maxControlMessageBytes, kMinMessageBytes); }

    struct Lingering
    {
        Fd fd;
        qint64 deadlineNs = 0;
    };

    Iperf3Responder *q;
    ResponderConfig cfg;
    Fd listenFd;
    int wake[2] = {-1, -1};
    std::thread thread;
    std::atomic_bool m_stopping{false};
    std::atomic_bool busy{false};
    bool running = false;
    quint16 boundPort = 0;
    QString currentClient;             ///< for the "busy" log line; touched by the server thread only
    std::vector<Lingering> lingering;  ///< server thread only
    mutable std::mutex recordMutex;
    QList<Iperf3TestRecord> records;
};

Iperf3Responder::Iperf3Responder(const ResponderConfig &config, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, config))
{
}

Iperf3Responder::~Iperf3Responder()
{
    stop();
}

bool Iperf3Responder::start(QString *error)
{
    if (d->running)
        return true;
    ListenFailure failure;
    if (!openListenSocket(d->cfg.address, d->cfg.port, &d->listenFd, &d->boundPort, &failure)) {
        if (error) {
            *error = failure.step.isEmpty()
                         ? QStringLiteral("wirebenchd: \"%1\" is not an IPv4 or IPv6 address for the iperf3 port").arg(d->cfg.address.toString())
                         : QStringLiteral("wirebenchd: cannot %1 for iperf3 on %2 port %3: %4: pick another --iperf3-port")
                               .arg(failure.step, d->cfg.address.toString())
                               .arg(d->cfg.port)
                               .arg(errnoText(failure.error));
        }
        return false;
    }
    if (::pipe2(d->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        if (error)
            *error = QStringLiteral("wirebenchd: cannot create a wake-up pipe for the iperf3 port: %1").arg(errnoText(errno));
        d->listenFd.reset();
        return false;
    }
    d->m_stopping.store(false);
    d->running = true;
    d->thread = std::thread([this] { d->loop(); });
    return true;
}

void Iperf3Responder::stop()
{
    if (!d->running)
        return;
    d->m_stopping.store(true);
    const char c = 'x';
    [[maybe_unused]] ssize_t w = ::write(d->wake[1], &c, 1);
    if (d->thread.joinable())
        d->thread.join();
    ::close(d->wake[0]);
    ::close(d->wake[1]);
    d->wake[0] = d->wake[1] = -1;
    d->listenFd.reset();
    d->running = false;
}

bool Iperf3Responder::isRunning() const
{
    return d->running;
}

quint16 Iperf3Responder::port() const
{
    return d->boundPort;
}

bool Iperf3Responder::isBusy() const
{
    return d->busy.load();
}

QList<Iperf3TestRecord> Iperf3Responder::tests() const
{
    std::lock_guard lk(d->recordMutex);
    return d->records;
}

void Iperf3Responder::Private::addRecord(const Iperf3TestRecord &record)
{
    std::lock_guard lk(recordMutex);
    records << record;
    while (records.size() > kMaxRecords)
        records.removeFirst();
}

void Iperf3Responder::Private::loop()
{
    while (!stopping()) {
        pollfd fds[2] = {{listenFd.get(), POLLIN, 0}, {wake[0], POLLIN, 0}};
        const int n = ::poll(fds, 2, lingering.empty() ? 500 : 100);
        serviceLingering(false);
        if (n <= 0 || stopping())
            continue;
        if (!(fds[0].revents & POLLIN))
            continue;
        sockaddr_storage peer{};
        socklen_t plen = sizeof(peer);
        Fd control(::accept4(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &plen, SOCK_CLOEXEC | SOCK_NONBLOCK));
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

int Iperf3Responder::Private::pollSession(std::vector<pollfd> &fds, int timeoutMs, bool serviceListener)
{
    const size_t own = fds.size();
    fds.push_back({wake[0], POLLIN, 0});
    if (serviceListener)
        fds.push_back({listenFd.get(), POLLIN, 0});
    int n = ::poll(fds.data(), nfds_t(fds.size()), timeoutMs);
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

void Iperf3Responder::Private::denyNewcomers()
{
    for (;;) {
        sockaddr_storage peer{};
        socklen_t plen = sizeof(peer);
        Fd fd(::accept4(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &plen, SOCK_CLOEXEC | SOCK_NONBLOCK));
        if (!fd.valid())
            return;
        deny(std::move(fd), peer);
    }
}

void Iperf3Responder::Private::deny(Fd fd, const sockaddr_storage &peer)
{
    // As iperf3 does: the state byte alone, without reading the newcomer's cookie, which could stall the
    // running test. The client prints "the server is busy running a test. try again later".
    const char denied = char(ip::AccessDenied);
    [[maybe_unused]] ssize_t w = ::send(fd.get(), &denied, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    log(QStringLiteral("%1: iperf3 client refused: busy with a test from %2 (iperf3 serves one client at a time)")
            .arg(endpointText(peer), currentClient));
    lingerClose(std::move(fd));
}

void Iperf3Responder::Private::lingerClose(Fd fd)
{
    if (!fd.valid())
        return;
    ::shutdown(fd.get(), SHUT_WR);
    if (int(lingering.size()) >= qMax(1, cfg.maxConnections))
        return; // a flood: no lingering, ~Fd closes at once
    lingering.push_back({std::move(fd), nowNs() + kLingerMs * kMsNs});
}

void Iperf3Responder::Private::serviceLingering(bool closeAll)
{
    if (lingering.empty())
        return;
    const qint64 now = nowNs();
    char sink[4096];
    for (auto it = lingering.begin(); it != lingering.end();) {
        bool done = closeAll || now >= it->deadlineNs;
        while (!done) {
            const ssize_t n = ::recv(it->fd.get(), sink, sizeof(sink), MSG_DONTWAIT);
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

Io Iperf3Responder::Private::readExact(int fd, char *data, qint64 size, qint64 deadlineNs, bool serviceListener)
{
    qint64 done = 0;
    while (done < size) {
        const ssize_t n = ::recv(fd, data + done, size_t(size - done), MSG_DONTWAIT);
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

Io Iperf3Responder::Private::writeAll(int fd, const char *data, qint64 size, qint64 deadlineNs, bool serviceListener)
{
    qint64 done = 0;
    while (done < size) {
        const ssize_t n = ::send(fd, data + done, size_t(size - done), MSG_NOSIGNAL | MSG_DONTWAIT);
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

Io Iperf3Responder::Private::waitFor(int fd, short events, qint64 deadlineNs, bool serviceListener)
{
    std::vector<pollfd> fds;
    for (;;) {
        if (stopping())
            return Io::Stopped;
        const qint64 left = deadlineNs - nowNs();
        if (left <= 0)
            return Io::Timeout;
        fds.assign(1, {fd, events, 0});
        if (pollSession(fds, int(qMin<qint64>(left / kMsNs + 1, 100)), serviceListener) < 0)
            return Io::Failed;
        if (fds[0].revents)
            return Io::Ok; // errors and hang-ups surface in the following recv/send
    }
}

void Iperf3Responder::Private::serve(Fd control, const sockaddr_storage &peer)
{
    const QString who = endpointText(peer);
    // Our state bytes are tiny and often follow one the client has not acknowledged yet (delayed ACK):
    // with Nagle on, TEST_START would wait ~40 ms for that ACK, and the test clocks of the two ends drift apart.
    setIntOption(control.get(), IPPROTO_TCP, TCP_NODELAY, 1);
    Iperf3TestRecord rec;
    rec.client = who;

    // A refusal the real client prints in words: SERVER_ERROR, iperf3's error number, an errno.
    auto refuse = [&](int code, int sysErrno, const QString &why) {
        const QByteArray message = ip::serverErrorMessage(code, sysErrno);
        writeAll(control.get(), message.constData(), message.size(), nowNs() + 1000 * kMsNs);
        log(QStringLiteral("%1: iperf3 client refused: %2").arg(who, why));
        lingerClose(std::move(control));
    };

    if (!cfg.allows(peerAddress(peer))) {
        // iperf3's "test authorization failed" is the nearest words the client knows.
        return refuse(ip::ErrAuthTest, 0, QStringLiteral("client %1 is not in the networks this wirebenchd serves (--allow %2)")
                                              .arg(peerAddress(peer).toString(), cfg.allowListText()));
    }

    // Cookie, PARAM_EXCHANGE, parameters: all within the handshake timeout, so a silent or slow
    // connection does not hold the one test slot for long.
    const qint64 handshakeDeadline = nowNs() + qint64(cfg.handshakeTimeoutMs) * kMsNs;
    QByteArray cookie(ip::kCookieSize, '\0');
    switch (readExact(control.get(), cookie.data(), cookie.size(), handshakeDeadline)) {
    case Io::Ok: break;
    case Io::Timeout:
        log(QStringLiteral("%1: iperf3 client dropped: no cookie within %2 ms (--handshake-timeout)").arg(who).arg(cfg.handshakeTimeoutMs));
        return;
    case Io::Stopped: return;
    case Io::Closed:
    case Io::Failed:
        log(QStringLiteral("%1: iperf3 client closed the connection before the test").arg(who));
        return;
    }
    const char paramExchange = char(ip::ParamExchange);
    if (writeAll(control.get(), &paramExchange, 1, handshakeDeadline) != Io::Ok) {
        log(QStringLiteral("%1: iperf3 client left before the parameter exchange").arg(who));
        return;
    }
    QByteArray prefix(4, '\0');
    Io io = readExact(control.get(), prefix.data(), 4, handshakeDeadline);
    qint64 length = io == Io::Ok ? ip::decodeJsonLength(prefix) : -1;
    if (io == Io::Ok && (length < 0 || length > messageLimit()))
        return refuse(ip::ErrRecvParams, EMSGSIZE, QStringLiteral("its parameters announce %1 bytes, more than the %2 bytes allowed: not an iperf3 client?")
                                                       .arg(qint32(qFromBigEndian<quint32>(prefix.constData())))
                                                       .arg(messageLimit()));
    QByteArray json;
    if (io == Io::Ok) {
        json.resize(length);
        io = readExact(control.get(), json.data(), length, handshakeDeadline);
    }
    if (io == Io::Timeout)
        return refuse(ip::ErrRecvParams, ETIMEDOUT, QStringLiteral("no test parameters within %1 ms (--handshake-timeout)").arg(cfg.handshakeTimeoutMs));
    if (io == Io::Stopped)
        return;
    if (io != Io::Ok) {
        log(QStringLiteral("%1: iperf3 client closed the connection before sending its parameters").arg(who));
        return;
    }
    ip::ClientParameters params;
    QString why;
    if (!ip::ClientParameters::fromJson(json, &params, &why))
        return refuse(ip::ErrRecvParams, EINVAL, QStringLiteral("%1: not an iperf3 client?").arg(why));

    ip::TestParameters &t = params.test;
    const bool udp = params.protocol == QLatin1String("udp");
    rec.reverse = t.reverse;
    rec.udp = udp;
    rec.streams = t.parallel;
    rec.timeSeconds = t.timeSeconds;
    rec.omitSeconds = t.omitSeconds;
    rec.blockSize = t.blockSize > 0 ? t.blockSize : udp ? ip::kDefaultUdpBlockSize : kDefaultBlockSize;
    rec.udpTargetBitsPerSec = udp ? params.bitrate : 0;

    // What this responder does not do, in words the real client prints.
    if (params.protocol == QLatin1String("sctp"))
        return refuse(ip::ErrNoSctp, 0, QStringLiteral("an SCTP test (--sctp) was asked: this iperf3 port serves TCP and UDP tests only"));
    const int udpHeader = params.udpCounters64 ? 16 : ip::kUdpHeaderSize;
    if (udp && (rec.blockSize < udpHeader || rec.blockSize > ip::kMaxUdpBlockSize))
        return refuse(ip::ErrBlockSize, 0, QStringLiteral("refused a UDP datagram (-l) of %1 bytes: iperf3 allows %2 to %3 bytes")
                                               .arg(rec.blockSize)
                                               .arg(udpHeader)
                                               .arg(ip::kMaxUdpBlockSize));
    if (params.bidirectional)
        return refuse(ip::ErrUnimplemented, 0, QStringLiteral("a bidirectional test (--bidir) was asked: run one test each way (with and without -R)"));
    if (t.parallel < 1 || t.parallel > ip::kMaxStreams)
        return refuse(ip::ErrNumStreams, 0, QStringLiteral("%1 parallel streams asked: iperf3 allows 1 to %2").arg(t.parallel).arg(ip::kMaxStreams));
    if (rec.blockSize > cfg.maxMessageSize)
        return refuse(ip::ErrBlockSize, 0, QStringLiteral("refused a block size (-l) of %1 bytes: this wirebenchd allows at most %2 bytes")
                                               .arg(rec.blockSize)
                                               .arg(cfg.maxMessageSize));
    if (!udp && t.mss > ip::kMaxMss)
        return refuse(ip::ErrMss, 0, QStringLiteral("an MSS (-M) of %1 bytes was asked: iperf3 allows at most %2").arg(t.mss).arg(ip::kMaxMss));
    if ((qint64(t.timeSeconds) + t.omitSeconds) * 1000 > cfg.maxDurationMs) {
        // The client prints iperf3's own range for -t; our limit is in the log.
        return refuse(ip::ErrDuration, 0, QStringLiteral("refused a %1 s test: this wirebenchd allows at most %2 s (--max-duration)")
                                              .arg(t.timeSeconds + t.omitSeconds)
                                              .arg(cfg.maxDurationMs / 1000.0));
    }

    // What iperf3 -s would print, for a client that asked for it (--get-server-output).
    Iperf3ServerOutput output(params.getServerOutput, t.reverse, udp);
    output.accepted(peer);
    auto noteStream = [&output](int fd, const sockaddr_storage &remote) {
        sockaddr_storage local{};
        socklen_t len = sizeof(local);
        if (output.enabled() && ::getsockname(fd, reinterpret_cast<sockaddr *>(&local), &len) == 0)
            output.streamConnected(fd, local, remote);
    };

    // The MSS is announced in the SYN-ACK, so it must be on the listening socket while the data
    // streams connect (they inherit it); it is taken off again right after, for the next client.
    struct MssOnListener
    {
        int fd;
        bool set = false;
        ~MssOnListener()
        {
            if (set)
                setIntOption(fd, IPPROTO_TCP, TCP_MAXSEG, 0);
        }
    } mssGuard{listenFd.get()};
    if (!udp && t.mss > 0) {
        QString err;
        if (!setIntOption(listenFd.get(), IPPROTO_TCP, TCP_MAXSEG, t.mss, &err))
            return refuse(ip::ErrSetMss, errno, QStringLiteral("cannot set the MSS to %1 bytes: %2").arg(t.mss).arg(err));
        mssGuard.set = true;
    }

    // UDP: like iperf3's server, a datagram socket on our own port number before CREATE_STREAMS. Each
    // stream's client sends one datagram to it; the socket is connected to that sender and answers, and
    // a fresh one is bound for the next stream.
    Fd udpListener;
    if (udp) {
        int err = 0;
        udpListener = openUdpSocket(cfg.address, boundPort, &err);
        if (!udpListener.valid())
            return refuse(ip::ErrListen, err, QStringLiteral("cannot bind UDP port %1 for the data streams: %2: free that UDP port or pick another --iperf3-port")
                                                  .arg(boundPort)
                                                  .arg(errnoText(err)));
    }

    const char createStreams = char(ip::CreateStreams);
    if (writeAll(control.get(), &createStreams, 1, nowNs() + qint64(cfg.idleTimeoutMs) * kMsNs) != Io::Ok) {
        log(QStringLiteral("%1: iperf3 client left before opening its data streams").arg(who));
        return;
    }

    // The data streams connect to this same port and prove themselves with the cookie; anyone else who
    // connects now is told "busy", as iperf3 does.
    std::vector<Fd> streams;
    int strays = 0;
    const qint64 acceptDeadline = nowNs() + qint64(cfg.idleTimeoutMs) * kMsNs;
    std::vector<pollfd> fds;
    while (int(streams.size()) < t.parallel) {
        if (stopping())
            return;
        if (nowNs() >= acceptDeadline) {
            log(QStringLiteral("%1: iperf3 client dropped: %2 of %3 data streams within %4 ms (--idle-timeout)")
                    .arg(who)
                    .arg(streams.size())
                    .arg(t.parallel)
                    .arg(cfg.idleTimeoutMs));
            return;
        }
        // While UDP streams open, TCP newcomers on the listener are told "busy" by pollSession.
        fds = {{udp ? udpListener.get() : listenFd.get(), POLLIN, 0}, {control.get(), POLLIN, 0}};
        if (pollSession(fds, 100, udp) <= 0)
            continue;
        if (fds[1].revents) {
            signed char byte = 0;
            const ssize_t n = ::recv(control.get(), &byte, 1, MSG_DONTWAIT);
            if (n == 1 && byte == ip::ClientTerminate) {
                log(QStringLiteral("%1: iperf3 client stopped before its data streams were open").arg(who));
                return;
            }
            if (n == 1) {
                log(QStringLiteral("%1: iperf3 client sent %2 while opening its data streams: ended").arg(who, ip::stateName(byte)));
                return;
            }
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                log(QStringLiteral("%1: iperf3 client left before opening its data streams").arg(who));
                return;
            }
        }
        if (udp && (fds[0].revents & POLLIN)) {
            sockaddr_storage dpeer{};
            socklen_t dplen = sizeof(dpeer);
            char hello[64];
            if (::recvfrom(udpListener.get(), hello, sizeof(hello), MSG_DONTWAIT, reinterpret_cast<sockaddr *>(&dpeer), &dplen) < 0)
                continue;
            // iperf3 takes a stream from any sender; we take it from the control connection's host only,
            // so that a stray datagram cannot take the place of the client's.
            if (peerAddress(dpeer) != peerAddress(peer)) {
                if (strays++ == 0) // once per test: a flood must not flood the log
                    log(QStringLiteral("%1: UDP datagram ignored: the iperf3 test running belongs to %2").arg(endpointText(dpeer), who));
                continue;
            }
            if (::connect(udpListener.get(), reinterpret_cast<sockaddr *>(&dpeer), dplen) != 0)
                return refuse(ip::ErrListen, errno, QStringLiteral("cannot connect the UDP socket of stream %1 to %2: %3")
                                                        .arg(streams.size() + 1)
                                                        .arg(endpointText(dpeer), errnoText(errno)));
            // What reached the socket before it was connected may come from anyone; the client sends its
            // data only after TEST_START, so nothing of the test is dropped here.
            for (int i = 0; i < 1024 && ::recv(udpListener.get(), hello, sizeof(hello), MSG_DONTWAIT) >= 0; ++i) {
            }
            Fd connected = std::move(udpListener);
            if (int(streams.size()) + 1 < t.parallel) {
                // Bound before we answer: the next stream's datagram follows our answer at once.
                int err = 0;
                udpListener = openUdpSocket(cfg.address, boundPort, &err);
                if (!udpListener.valid())
                    return refuse(ip::ErrListen, err, QStringLiteral("cannot bind UDP port %1 for data stream %2: %3")
                                                          .arg(boundPort)
                                                          .arg(streams.size() + 2)
                                                          .arg(errnoText(err)));
            }
            const QByteArray reply = ip::udpConnectReply();
            if (::send(connected.get(), reply.constData(), size_t(reply.size()), MSG_NOSIGNAL | MSG_DONTWAIT) != reply.size()) {
                log(QStringLiteral("%1: iperf3 client dropped: cannot answer the connect datagram of UDP stream %2 at %3: %4")
                        .arg(who)
                        .arg(streams.size() + 1)
                        .arg(endpointText(dpeer), errnoText(errno)));
                return;
            }
            noteStream(connected.get(), dpeer);
            streams.push_back(std::move(connected));
        } else if (fds[0].revents & POLLIN) {
            sockaddr_storage dpeer{};
            socklen_t dplen = sizeof(dpeer);
            Fd candidate(::accept4(listenFd.get(), reinterpret_cast<sockaddr *>(&dpeer), &dplen, SOCK_CLOEXEC | SOCK_NONBLOCK));
            if (!candidate.valid())
                continue;
            QByteArray theirs(ip::kCookieSize, '\0');
            const qint64 cookieDeadline = qMin(acceptDeadline, nowNs() + qint64(cfg.handshakeTimeoutMs) * kMsNs);
            const Io got = readExact(candidate.get(), theirs.data(), theirs.size(), cookieDeadline, false);
            if (got == Io::Stopped)
                return;
            if (got == Io::Ok && theirs == cookie) {
                noteStream(candidate.get(), dpeer);
                streams.push_back(std::move(candidate));
            }
            else if (got == Io::Ok)
                deny(std::move(candidate), dpeer);
            // a connection that closed or stayed silent is simply dropped
        }
    }
    if (mssGuard.set) {
        setIntOption(listenFd.get(), IPPROTO_TCP, TCP_MAXSEG, 0);
        mssGuard.set = false;
    }
    QStringList notes;
    for (const Fd &s : streams) {
        if (t.window > 0) {
            // iperf3 sets one size for both buffers (-w). Set after the handshake, so the window scale is
            // the kernel's; a failure is noted rather than fatal.
            if (!setIntOption(s.get(), SOL_SOCKET, SO_SNDBUF, t.window) || !setIntOption(s.get(), SOL_SOCKET, SO_RCVBUF, t.window))
                notes << QStringLiteral("socket buffer of %1 bytes not set").arg(t.window);
        } else if (udp && !t.reverse) {
            setIntOption(s.get(), SOL_SOCKET, SO_RCVBUF, kUdpReceiveBufferBytes);
        }
        if (udp)
            continue;
        if (params.noDelay)
            setIntOption(s.get(), IPPROTO_TCP, TCP_NODELAY, 1);
        if (!params.congestion.isEmpty()) {
            const QByteArray name = params.congestion.toLatin1();
            if (::setsockopt(s.get(), IPPROTO_TCP, TCP_CONGESTION, name.constData(), socklen_t(name.size())) != 0)
                notes << QStringLiteral("congestion control \"%1\" not available here").arg(params.congestion);
        }
    }
    notes.removeDuplicates();

    const char startRunning[2] = {char(ip::TestStart), char(ip::TestRunning)};
    if (writeAll(control.get(), startRunning, 2, nowNs() + qint64(cfg.idleTimeoutMs) * kMsNs) != Io::Ok) {
        log(QStringLiteral("%1: iperf3 client left before the test started").arg(who));
        return;
    }

    // ---- The test: receive (iperf3 -c) or send (iperf3 -c -R) until the client sends TEST_END.
    const size_t n = streams.size();
    const bool reverse = t.reverse;
    const qint64 t0 = nowNs();
    const qint64 omitEnd = t0 + qint64(t.omitSeconds) * 1000 * kMsNs;
    const qint64 overrun = t0 + (qint64(cfg.maxDurationMs) + kOverrunGraceMs) * kMsNs;
    const qint64 idleNs = qint64(cfg.idleTimeoutMs) * kMsNs;
    std::vector<qint64> total(n, 0), base(n, 0), retransBase(n, 0);
    std::vector<qsizetype> offset(n, 0);
    std::vector<bool> open(n, true);
    // UDP, per stream: the datagrams we sent (the counter of the last one) or the receiver's bookkeeping,
    // and both as they stood when the omitted seconds ended.
    std::vector<qint64> udpSent(n, 0), udpSentBase(n, 0);
    std::vector<ip::UdpReceiveStats> udpStats(n), udpBase(n);
    bool measuring = false;
    qint64 measureStart = t0;
    ip::ThreadCpuTimes cpu0 = ip::ThreadCpuTimes::now();
    qint64 lastProgress = t0;
    const int blockSize = rec.blockSize;
    QByteArray block;
    if (reverse) {
        block.resize(blockSize);
        for (int i = 0; i < blockSize; ++i)
            block[i] = char('0' + i % 10);
    } else {
        block.resize(qMax(blockSize, 256 * 1024)); // fewer recv() calls than one per block
    }
    // Pacing of what we send: --max-rate for all streams together, -b for each stream.
    const qint64 totalRate = reverse ? cfg.maxRateBytesPerSec : 0;
    const qint64 streamRate = reverse ? params.bitrate / 8 : 0;
    auto startMeasuring = [&](qint64 now) {
        measuring = true;
        measureStart = now;
        cpu0 = ip::ThreadCpuTimes::now();
        for (size_t i = 0; i < n; ++i) {
            base[i] = total[i];
            if (!udp)
                retransBase[i] = tcpInfo(streams[i].get()).totalRetrans;
        }
        udpSentBase = udpSent;
        udpBase = udpStats;
    };
    // The server's own counts now, for its printed reports: read only when the client asked for them.
    auto countsNow = [&] {
        std::vector<Iperf3ServerOutput::Counts> c(n);
        for (size_t i = 0; i < n; ++i) {
            c[i].bytes = total[i];
            if (!udp && reverse) {
                const TcpInfo ti = tcpInfo(streams[i].get());
                c[i].retransmits = ti.totalRetrans;
                c[i].cwndBytes = ti.sndCwndBytes;
            } else if (udp && reverse) {
                c[i].packets = udpSent[i];
            } else if (udp) {
                c[i].packets = udpStats[i].packets;
                c[i].lost = udpStats[i].lost;
                c[i].outOfOrder = udpStats[i].outOfOrder;
                c[i].jitterSeconds = udpStats[i].jitter;
            }
        }
        return c;
    };
    if (t.omitSeconds == 0)
        startMeasuring(t0);
    if (output.enabled())
        output.start(t0, countsNow(), t.omitSeconds > 0);

    enum class End { TestEnd, ClientStopped, ClientGone, Terminate, Broken } end = End::Broken;
    QString problem;
    for (;;) {
        qint64 now = nowNs();
        if (!measuring && now >= omitEnd) {
            startMeasuring(now);
            if (output.enabled())
                output.endOmitting(now, countsNow());
        }
        if (output.due(now))
            output.interval(now, countsNow());
        if (stopping()) {
            end = End::Terminate;
            problem = QStringLiteral("wirebenchd is shutting down");
            break;
        }
        if (now >= overrun) {
            end = End::Terminate;
            problem = QStringLiteral("ran past the %1 s that this wirebenchd allows (--max-duration)").arg(cfg.maxDurationMs / 1000.0);
            break;
        }
        if (now - lastProgress > idleNs) {
            end = End::Terminate;
            problem = reverse ? QStringLiteral("the client read nothing for %1 s (--idle-timeout)").arg(cfg.idleTimeoutMs / 1000.0)
                              : QStringLiteral("no data from the client for %1 s (--idle-timeout)").arg(cfg.idleTimeoutMs / 1000.0);
            break;
        }
        // Which streams may send now (pacing), and how long to wait when none may.
        qint64 sentTotal = 0;
        for (qint64 v : total)
            sentTotal += v;
        const double elapsed = double(now - t0) / 1e9;
        const bool totalHeld = totalRate > 0 && double(sentTotal) >= double(totalRate) * elapsed;
        fds.assign(1, {control.get(), POLLIN, 0});
        std::vector<size_t> polled;
        bool held = totalHeld;
        for (size_t i = 0; i < n; ++i) {
            if (!open[i])
                continue;
            if (reverse && (totalHeld || (streamRate > 0 && double(total[i]) >= double(streamRate) * elapsed))) {
                held = true;
                continue;
            }
            fds.push_back({streams[i].get(), short(reverse ? POLLOUT : POLLIN), 0});
            polled.push_back(i);
        }
        // A held UDP sender wakes every ms, as iperf3's 1000 us pacing timer does: the datagrams due since
        // then leave back to back, and a longer sleep makes a burst that overflows a default receive buffer.
        if (pollSession(fds, held ? (udp ? 1 : 2) : 100, true) < 0) {
            problem = QStringLiteral("poll failed: %1").arg(errnoText(errno));
            break;
        }
        if (fds[0].revents) {
            signed char byte = 0;
            const ssize_t got = ::recv(control.get(), &byte, 1, MSG_DONTWAIT);
            if (got == 1 && byte == ip::TestEnd) {
                end = End::TestEnd;
                break;
            }
            if (got == 1 && byte == ip::ClientTerminate) {
                end = End::ClientStopped;
                break;
            }
            if (got == 1) {
                problem = QStringLiteral("the client sent %1 during the test").arg(ip::stateName(byte));
                break;
            }
            if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                end = End::ClientGone;
                problem = QStringLiteral("the client closed the control connection mid-test");
                break;
            }
        }
        now = nowNs();
        for (size_t k = 0; k < polled.size(); ++k) {
            const size_t i = polled[k];
            if (!fds[k + 1].revents)
                continue;
            for (int round = 0; round < (udp ? kUdpRounds : 16); ++round) {
                ssize_t got = 0;
                if (reverse && udp) {
                    // One whole datagram, stamped as iperf3 does: our clock, then the counter from 1.
                    timespec ts{};
                    wallSeconds(&ts);
                    const ip::UdpHeader header{quint32(ts.tv_sec), quint32(ts.tv_nsec / 1000), quint64(udpSent[i] + 1)};
                    header.write(block.data(), params.udpCounters64);
                    got = ::send(streams[i].get(), block.constData(), size_t(blockSize), MSG_NOSIGNAL | MSG_DONTWAIT);
                    if (got > 0)
                        ++udpSent[i];
                } else if (reverse) {
                    qsizetype chunk = blockSize - offset[i];
                    if (totalRate > 0)
                        chunk = qMin<qsizetype>(chunk, qMax<qint64>(1, totalRate / 100)); // at most 10 ms worth
                    if (streamRate > 0)
                        chunk = qMin<qsizetype>(chunk, qMax<qint64>(1, streamRate / 100));
                    got = ::send(streams[i].get(), block.constData() + offset[i], size_t(chunk), MSG_NOSIGNAL | MSG_DONTWAIT);
                    if (got > 0)
                        offset[i] = (offset[i] + got) % blockSize;
                } else {
                    got = ::recv(streams[i].get(), block.data(), size_t(block.size()), MSG_DONTWAIT);
                    if (got == 0 && udp)
                        continue; // an empty datagram: nothing iperf3 sends, nothing to count
                    if (got == 0) {
                        open[i] = false; // the client closed it; its control connection says why
                        break;
                    }
                    ip::UdpHeader header;
                    if (udp && ip::UdpHeader::read(block.constData(), got, params.udpCounters64, &header))
                        udpStats[i].add(header.counter, header.sec + header.usec / 1e6, wallSeconds());
                }
                if (got > 0) {
                    total[i] += got;
                    lastProgress = now;
                    if (totalRate > 0 || streamRate > 0)
                        break; // re-check the pace
                    continue;
                }
                if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                    break;
                // UDP: a full queue, or an ICMP "port unreachable" from a client that closed its socket
                // first; the control connection says whether the test goes on.
                if (udp && (errno == ENOBUFS || errno == ECONNREFUSED))
                    break;
                // Noted, not fatal: the control connection decides how the test ends.
                open[i] = false;
                notes << QStringLiteral("data stream %1 failed: %2").arg(i + 1).arg(errnoText(errno));
                break;
            }
        }
    }
    const qint64 endNs = nowNs();
    const ip::ThreadCpuTimes cpu1 = ip::ThreadCpuTimes::now();
    if (!measuring)
        measureStart = endNs; // ended within the omitted seconds: nothing measured
    rec.seconds = double(endNs - measureStart) / 1e9;
    std::vector<qint64> measured(n), retrans(n, 0);
    rec.bytes = 0;
    for (size_t i = 0; i < n; ++i) {
        measured[i] = total[i] - base[i];
        rec.bytes += measured[i];
        if (reverse && !udp)
            retrans[i] = qMax<qint64>(0, tcpInfo(streams[i].get()).totalRetrans - retransBase[i]);
    }
    if (reverse && !udp) {
        rec.retransmits = 0;
        for (qint64 r : retrans)
            rec.retransmits += r;
    }
    rec.mss = n > 0 && !udp ? tcpInfo(streams[0].get()).sndMss : 0;
    if (udp) {
        // Per stream as iperf3's receiver counts: packets up to the highest counter seen, lost the gaps.
        double jitterSum = 0;
        rec.udpLost = reverse ? -1 : 0; // with -R the client's count, from its results
        for (size_t i = 0; i < n; ++i) {
            if (reverse) {
                rec.udpPackets += udpSent[i] - udpSentBase[i];
                continue;
            }
            rec.udpPackets += udpStats[i].packets - udpBase[i].packets;
            rec.udpLost += udpStats[i].lost - udpBase[i].lost;
            rec.udpOutOfOrder += udpStats[i].outOfOrder - udpBase[i].outOfOrder;
            jitterSum += udpStats[i].jitter;
        }
        rec.udpJitterMs = n > 0 ? 1000.0 * jitterSum / double(n) : 0;
    }
    const double wall = rec.seconds > 0 ? rec.seconds : 1e-9;
    const double cpuUser = 100.0 * (cpu1.user - cpu0.user) / wall;
    const double cpuSystem = 100.0 * (cpu1.system - cpu0.system) / wall;
    rec.cpuPercent = rec.seconds > 0 ? cpuUser + cpuSystem : 0;
    if (output.enabled() && end == End::TestEnd)
        output.finish(endNs, countsNow(), rec.seconds);
    rec.stoppedByClient = end == End::ClientStopped;
    if (end == End::Terminate) {
        // As iperf3 on SIGTERM: the client prints its summary and "the server has terminated". The data
        // streams stay open until the client has read that and left (at most a second): closed first, a
        // sending client would fail on a broken pipe instead.
        const char terminate = char(ip::ServerTerminate);
        [[maybe_unused]] ssize_t w = ::send(control.get(), &terminate, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        char sink[256];
        for (const qint64 until = nowNs() + 1000 * kMsNs; nowNs() < until;) {
            pollfd p{control.get(), POLLIN, 0};
            if (::poll(&p, 1, 100) > 0 && ::recv(control.get(), sink, sizeof(sink), MSG_DONTWAIT) <= 0)
                break;
        }
    }
    // Closed now, as iperf3's server does on TEST_END: a 3.12 client drains -R streams with blocking reads
    // of a whole block, which only our close ends when a stream stops in the middle of one.
    streams.clear();

    if (end == End::TestEnd) {
        const qint64 deadline = nowNs() + idleNs;
        const char exchange = char(ip::ExchangeResults);
        io = writeAll(control.get(), &exchange, 1, deadline);
        // The client's results first (its own count), then ours.
        if (io == Io::Ok)
            io = readExact(control.get(), prefix.data(), 4, deadline);
        length = io == Io::Ok ? ip::decodeJsonLength(prefix) : -1;
        if (io == Io::Ok && (length < 0 || length > messageLimit())) {
            const QByteArray message = ip::serverErrorMessage(ip::ErrRecvResults, EMSGSIZE);
            writeAll(control.get(), message.constData(), message.size(), nowNs() + 1000 * kMsNs);
            problem = QStringLiteral("the client's results announce %1 bytes, more than the %2 allowed").arg(length).arg(messageLimit());
        } else if (io == Io::Ok) {
            json.resize(length);
            io = readExact(control.get(), json.data(), length, deadline);
        }
        ip::Results theirs;
        if (problem.isEmpty() && io == Io::Ok && !ip::Results::fromJson(json, &theirs, &why)) {
            const QByteArray message = ip::serverErrorMessage(ip::ErrRecvResults, EINVAL);
            writeAll(control.get(), message.constData(), message.size(), nowNs() + 1000 * kMsNs);
            problem = QStringLiteral("the client's results could not be read: %1").arg(why);
        }
        if (problem.isEmpty() && io == Io::Ok) {
            rec.clientBytes = theirs.totalBytes();
            rec.clientSeconds = theirs.longestSeconds();
            if (udp && reverse) {
                // The client received: its loss and jitter are the test's.
                double jitterSum = 0;
                rec.udpLost = 0;
                for (const ip::StreamResult &s : theirs.streams) {
                    rec.udpLost += s.errors - s.omittedErrors;
                    jitterSum += s.jitter;
                }
                rec.udpJitterMs = theirs.streams.isEmpty() ? 0 : 1000.0 * jitterSum / double(theirs.streams.size());
            }
            ip::Results ours;
            ours.cpuUser = cpuUser;
            ours.cpuSystem = cpuSystem;
            ours.cpuTotal = cpuUser + cpuSystem;
            // As iperf3's server: a UDP sender has no retransmits to count (0), a receiver none to tell (-1).
            ours.senderHasRetransmits = reverse ? (udp ? 0 : 1) : -1;
            for (size_t i = 0; i < n; ++i) {
                ip::StreamResult s;
                s.id = ip::streamId(int(i));
                s.bytes = measured[i];
                s.retransmits = reverse && !udp ? int(retrans[i]) : -1;
                // UDP counts as iperf3's server sends them: over the whole test, with what the omitted
                // seconds held beside them. A 3.12 client subtracts its own omitted counts, a later one ours.
                if (udp && reverse) {
                    s.packets = udpSent[i];
                    s.omittedPackets = udpSentBase[i];
                } else if (udp) {
                    s.packets = udpStats[i].packets;
                    s.omittedPackets = udpBase[i].packets;
                    s.errors = udpStats[i].lost;
                    s.omittedErrors = udpBase[i].lost;
                    s.jitter = udpStats[i].jitter;
                }
                s.startTime = 0;
                s.endTime = rec.seconds;
                ours.streams << s;
            }
            ours.serverOutputText = output.text();
            const QByteArray message = ip::frameJson(ours.toJson()) + char(ip::DisplayResults);
            io = writeAll(control.get(), message.constData(), message.size(), deadline);
        }
        if (problem.isEmpty() && io == Io::Ok) {
            rec.completed = true;
            // IPERF_DONE, or a close: either way the client has its summary.
            signed char done = 0;
            readExact(control.get(), reinterpret_cast<char *>(&done), 1, nowNs() + idleNs);
        } else if (problem.isEmpty() && io != Io::Stopped) {
            problem = io == Io::Timeout ? QStringLiteral("the results exchange timed out (--idle-timeout)")
                                        : QStringLiteral("the client left during the results exchange");
        }
    }
    rec.problem = problem;

    const QString kind = udp ? (reverse ? QStringLiteral("udp-recv (server → client, -R)") : QStringLiteral("udp-send (client → server)"))
                             : (reverse ? QStringLiteral("tcp-recv (server → client, -R)") : QStringLiteral("tcp-send (client → server)"));
    QString line = QStringLiteral("%1: iperf3 %2, %3 stream%4, %5, %6 %7 B, %8")
                       .arg(who, kind)
                       .arg(n)
                       .arg(n == 1 ? QString() : QStringLiteral("s"))
                       .arg(t.timeSeconds > 0 ? QStringLiteral("%1 s asked").arg(t.timeSeconds)
                                              : params.bytes > 0 ? QStringLiteral("%1 B asked (-n)").arg(params.bytes)
                                                                 : QStringLiteral("%1 blocks asked (-k)").arg(params.blocks))
                       .arg(udp ? QStringLiteral("datagram") : QStringLiteral("block"))
                       .arg(blockSize)
                       .arg(!udp ? QStringLiteral("mss %1 B").arg(rec.mss)
                                 : rec.udpTargetBitsPerSec > 0 ? QStringLiteral("target %1 Mbit/s per stream").arg(rec.udpTargetBitsPerSec / 1e6)
                                                               : QStringLiteral("no target rate (-b 0)"));
    if (udp && params.udpCounters64)
        line += QStringLiteral(", 64-bit counters");
    if (t.omitSeconds > 0)
        line += QStringLiteral(", first %1 s omitted").arg(t.omitSeconds);
    line += QStringLiteral(": %1 %2 B in %3 s = %4")
                .arg(reverse ? QStringLiteral("sent") : QStringLiteral("received"))
                .arg(rec.bytes)
                .arg(rec.seconds, 0, 'f', 3)
                .arg(mbps(rec.bytes, rec.seconds));
    if (rec.clientBytes >= 0) {
        line += QStringLiteral(", client %1 %2 B in %3 s = %4")
                    .arg(reverse ? QStringLiteral("received") : QStringLiteral("sent"))
                    .arg(rec.clientBytes)
                    .arg(rec.clientSeconds, 0, 'f', 3)
                    .arg(mbps(rec.clientBytes, rec.clientSeconds));
    }
    if (reverse && !udp)
        line += QStringLiteral(", %1 retransmits").arg(rec.retransmits);
    if (udp && rec.udpLost >= 0) {
        line += QStringLiteral(", lost %1 of %2 datagrams (%3 %), jitter %4 ms")
                    .arg(rec.udpLost)
                    .arg(rec.udpPackets)
                    .arg(rec.udpPackets > 0 ? 100.0 * double(rec.udpLost) / double(rec.udpPackets) : 0.0, 0, 'f', 2)
                    .arg(rec.udpJitterMs, 0, 'f', 3);
        if (!reverse)
            line += QStringLiteral(", %1 out of order").arg(rec.udpOutOfOrder);
    } else if (udp) {
        line += QStringLiteral(", %1 datagrams sent").arg(rec.udpPackets);
    }
    if (totalRate > 0)
        line += QStringLiteral(" (paced to at most %1 MB/s by --max-rate)").arg(totalRate / 1e6, 0, 'f', 1);
    if (!notes.isEmpty())
        line += QStringLiteral(" (%1)").arg(notes.join(QLatin1String("; ")));
    if (rec.stoppedByClient)
        line += QStringLiteral(" (stopped by the client)");
    if (!problem.isEmpty())
        line += QStringLiteral(" (ended early: %1)").arg(problem);
    addRecord(rec);
    log(line);
    lingerClose(std::move(control));
}

} // namespace wb
