#include "Responder.h"

#include "ListenSocket.h"
#include "Socket.h"
#include "analysis/LinkTrust.h"
#include "stats/ReceiveWindow.h"
#include "wire/PrintableText.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlChannel.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QStringList>
#include <QSysInfo>

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

#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

using namespace wb::net;
using control::ControlChannel;
using wire::safeLogLine;

namespace {

constexpr int kMinDataBuffer = 128 * 1024; // read at least this much per recv(): fewer syscalls
constexpr qint64 kMsNs = 1000000;

QString mbps(qint64 bytes, double seconds)
{
    if (seconds <= 0)
        return QStringLiteral("- MB/s");
    return QStringLiteral("%1 MB/s").arg(bytes / seconds / 1e6, 0, 'f', 1);
}

/// The interface that holds the local address of a connection, judged by the client's own rule
/// (LinkTrust): its facts go into the hello, the bare speed only when the rule believes it (older
/// clients read that alone).
void describeLink(const sockaddr_storage &local, control::Hello *hello)
{
    const QHostAddress want = peerAddress(local);
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0)
        return;
    QString name;
    for (ifaddrs *i = list; i && name.isEmpty(); i = i->ifa_next) {
        if (i->ifa_addr && (i->ifa_addr->sa_family == AF_INET || i->ifa_addr->sa_family == AF_INET6)
            && QHostAddress(i->ifa_addr).isEqual(want, QHostAddress::TolerantConversion))
            name = QString::fromLocal8Bit(i->ifa_name);
    }
    ::freeifaddrs(list);
    if (name.isEmpty())
        return;
    const InterfaceFacts facts = InterfaceFacts::read(name);
    hello->link = facts.toJson();
    const SpeedVerdict v = LinkTrust::judge(facts);
    hello->linkSpeedMbps = v.trusted() ? v.speedMbps : 0;
}

} // namespace

class Responder::Private
{
public:
    Private(Responder *q, const ResponderConfig &config) : q(q), cfg(config) {}

    enum class Slot { Got, Busy, Left, Stopped };

    void acceptLoop();
    void session(Fd client, sockaddr_storage peer);
    Slot acquireSlot(int fd, ControlChannel &ch);
    void releaseSlot();
    void reap(bool all);
    bool allowed(const sockaddr_storage &peer) const;
    /// Every log line goes out through here: escaped and capped, whatever a client put into it.
    void log(const QString &line) { emit q->logLine(safeLogLine(line)); }
    bool stopping() const { return m_stopping.load(); }

    struct Connection
    {
        std::thread thread;
        std::shared_ptr<std::atomic_bool> done;
    };

    Responder *q;
    ResponderConfig cfg;
    Fd listenFd;
    int wake[2] = {-1, -1};
    std::thread acceptThread;
    std::mutex connMutex;
    std::vector<Connection> connections;
    std::atomic_bool m_stopping{false};
    // Test slots and the queue of clients waiting for one.
    std::mutex slotMutex;
    std::condition_variable slotCv;
    int activeTests = 0;
    std::deque<quint64> waiting;
    quint64 nextTicket = 1;
    bool running = false;
    quint16 boundPort = 0;
    QHostAddress boundAddress;
};

Responder::Responder(const ResponderConfig &config, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, config))
{
}

Responder::~Responder()
{
    stop();
}

bool Responder::start(QString *error)
{
    if (d->running)
        return true;
    auto fail = [&](const QString &what, int err) {
        if (error)
            *error = QStringLiteral("wirebenchd: cannot %1 on %2 port %3: %4")
                         .arg(what, d->cfg.address.toString())
                         .arg(d->cfg.port)
                         .arg(errnoText(err));
        d->listenFd.reset();
        return false;
    };
    ListenFailure failure;
    if (!openListenSocket(d->cfg.address, d->cfg.port, &d->listenFd, &d->boundPort, &failure)) {
        if (failure.step.isEmpty()) {
            if (error)
                *error = QStringLiteral("wirebenchd: \"%1\" is not an IPv4 or IPv6 address to listen on").arg(d->cfg.address.toString());
            return false;
        }
        return fail(failure.step, failure.error);
    }
    d->boundAddress = d->cfg.address;
    if (::pipe2(d->wake, O_CLOEXEC | O_NONBLOCK) != 0)
        return fail(QStringLiteral("create a wake-up pipe"), errno);
    d->m_stopping.store(false);
    d->running = true;
    d->acceptThread = std::thread([this] { d->acceptLoop(); });
    return true;
}

void Responder::stop()
{
    if (!d->running)
        return;
    d->m_stopping.store(true);
    const char c = 'x';
    [[maybe_unused]] ssize_t w = ::write(d->wake[1], &c, 1);
    if (d->acceptThread.joinable())
        d->acceptThread.join();
    {
        std::lock_guard lk(d->slotMutex);
        d->slotCv.notify_all();
    }
    d->reap(true);
    ::close(d->wake[0]);
    ::close(d->wake[1]);
    d->wake[0] = d->wake[1] = -1;
    d->listenFd.reset();
    d->running = false;
}

bool Responder::isRunning() const
{
    return d->running;
}

QHostAddress Responder::address() const
{
    return d->boundAddress;
}

quint16 Responder::port() const
{
    return d->boundPort;
}

void Responder::Private::reap(bool all)
{
    std::lock_guard lk(connMutex);
    for (auto it = connections.begin(); it != connections.end();) {
        if (all || it->done->load()) {
            it->thread.join();
            it = connections.erase(it);
        } else {
            ++it;
        }
    }
}

bool Responder::Private::allowed(const sockaddr_storage &peer) const
{
    return cfg.allows(peerAddress(peer));
}

bool ResponderConfig::allows(const QHostAddress &client) const
{
    if (allow.isEmpty())
        return true;
    for (const auto &net : allow) {
        if (client.isInSubnet(net))
            return true;
    }
    return false;
}

QString ResponderConfig::allowListText() const
{
    QStringList nets;
    for (const auto &net : allow)
        nets << QStringLiteral("%1/%2").arg(net.first.toString()).arg(net.second);
    return nets.join(QLatin1String(", "));
}

void Responder::Private::acceptLoop()
{
    while (!stopping()) {
        pollfd fds[2] = {{listenFd.get(), POLLIN, 0}, {wake[0], POLLIN, 0}};
        const int pr = ::poll(fds, 2, 500);
        reap(false);
        if (pr <= 0)
            continue;
        if (fds[1].revents)
            break;
        sockaddr_storage peer{};
        socklen_t plen = sizeof(peer);
        Fd client(::accept4(listenFd.get(), reinterpret_cast<sockaddr *>(&peer), &plen, SOCK_CLOEXEC));
        if (!client.valid())
            continue; // EAGAIN, ECONNABORTED, EMFILE: try again on the next wake-up
        std::lock_guard lk(connMutex);
        if (int(connections.size()) >= qMax(1, cfg.maxConnections)) {
            // A flood: no thread, no waiting. One non-blocking write of "busy" and close.
            setNonBlocking(client.get(), true);
            const QByteArray frame = control::encode(control::busyMessage(
                QStringLiteral("wirebenchd is busy handling %1 connections, its limit (--max-connections): try again later")
                    .arg(connections.size())));
            [[maybe_unused]] ssize_t w = ::send(client.get(), frame.constData(), size_t(frame.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
            log(QStringLiteral("%1: refused, %2 connections already (the limit)").arg(endpointText(peer)).arg(connections.size()));
            continue;
        }
        auto done = std::make_shared<std::atomic_bool>(false);
        connections.push_back({std::thread([this, fd = client.release(), peer, done] {
                                   session(Fd(fd), peer);
                                   done->store(true);
                               }),
                               done});
    }
}

Responder::Private::Slot Responder::Private::acquireSlot(int fd, ControlChannel &ch)
{
    std::unique_lock lk(slotMutex);
    const int slotCount = qMax(1, cfg.maxConcurrent);
    if (activeTests < slotCount && waiting.empty()) {
        ++activeTests;
        return Slot::Got;
    }
    if (int(waiting.size()) >= cfg.maxQueued)
        return Slot::Busy;
    const quint64 ticket = nextTicket++;
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
        pollfd p{fd, POLLIN, 0};
        bool left = false;
        if (::poll(&p, 1, 0) > 0) {
            QJsonObject m;
            QString err;
            left = ch.read(&m, 0, &err) != ControlChannel::Read::Timeout;
        }
        lk.lock();
        if (left) {
            leave();
            return Slot::Left;
        }
    }
}

void Responder::Private::releaseSlot()
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
    ::shutdown(fd, SHUT_WR);
    const qint64 deadline = nowNs() + qint64(timeoutMs) * kMsNs;
    char buf[4096];
    while (nowNs() < deadline && !stopping.load()) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            return;
    }
}

} // namespace

void Responder::Private::session(Fd client, sockaddr_storage peer)
{
    const QString who = endpointText(peer);
    setIntOption(client.get(), IPPROTO_TCP, TCP_NODELAY, 1); // small messages: no Nagle delay
    // Before the key is proven, messages are small: the cap keeps a stranger from making us buffer much.
    ControlChannel ch(client.get(), qMin(cfg.maxControlMessageBytes, auth::kMaxPreAuthBytes));
    const auto shouldStop = [this] { return stopping(); };
    QString err;

    // The test slot this connection holds, given back when the test is over (or on any early return).
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
    } slot{this};

    auto refuse = [&](const QString &code, const QString &text) {
        ch.write(control::errorMessage(code, text), nullptr, 1000);
        slot.release();
        log(QStringLiteral("%1: %2").arg(who, text));
        lingeringClose(client.get(), 1000, m_stopping);
    };
    // Reads one message of the expected type; answers everything else with an error and gives up.
    auto expect = [&](const char *type, QJsonObject *m, int timeoutMs) {
        const ControlChannel::Read r = ch.read(m, timeoutMs, &err, shouldStop);
        switch (r) {
        case ControlChannel::Read::Message:
            if (m->value(QLatin1String("type")).toString() == QLatin1String(type))
                return true;
            if (m->value(QLatin1String("type")).toString() == QLatin1String(control::kStop)) {
                log(QStringLiteral("%1: client stopped before the test").arg(who));
                return false;
            }
            refuse(QStringLiteral("bad-message"), QStringLiteral("expected a \"%1\" message, got \"%2\"")
                                                      .arg(QLatin1String(type), control::quotedType(*m)));
            return false;
        case ControlChannel::Read::Timeout:
            refuse(QStringLiteral("timeout"), QStringLiteral("dropped: no \"%1\" message within %2 ms (%3)")
                                                  .arg(QLatin1String(type))
                                                  .arg(timeoutMs)
                                                  .arg(err));
            return false;
        case ControlChannel::Read::Closed:
            log(QStringLiteral("%1: closed the connection before the test").arg(who));
            return false;
        case ControlChannel::Read::Error:
            refuse(QStringLiteral("bad-message"), QStringLiteral("bad control message: %1").arg(err));
            return false;
        case ControlChannel::Read::Stopped:
            ch.write(control::errorMessage(QStringLiteral("shutdown"), QStringLiteral("wirebenchd is shutting down")), nullptr, 500);
            return false;
        }
        return false;
    };

    if (!allowed(peer)) {
        return refuse(QStringLiteral("not-allowed"), QStringLiteral("refused: client %1 is not in the networks this wirebenchd serves (--allow %2)")
                                                         .arg(peerAddress(peer).toString(), cfg.allowListText()));
    }

    // hello with a fresh nonce; the client proves the key over both nonces before anything else is read.
    control::Hello self = control::Hello::local(QStringLiteral("wirebenchd " WIREBENCH_VERSION));
    self.nonce = auth::randomBytes(auth::kNonceBytes);
    self.auth = QLatin1String(cfg.key.trimmed().isEmpty() ? auth::kAuthNone : auth::kAuthHmac);
    {
        sockaddr_storage local{};
        socklen_t llen = sizeof(local);
        if (getsockname(client.get(), reinterpret_cast<sockaddr *>(&local), &llen) == 0)
            describeLink(local, &self);
    }
    if (!ch.write(self.toJson(), &err)) {
        log(QStringLiteral("%1: cannot send hello: %2").arg(who, err));
        return;
    }
    QJsonObject m;
    if (!expect(control::kHello, &m, cfg.handshakeTimeoutMs))
        return;
    const auth::ClientHelloCheck check = auth::checkClientHello(m, cfg.key, self.nonce, self.software);
    if (!check.ok())
        return refuse(check.code, check.error);

    switch (acquireSlot(client.get(), ch)) {
    case Slot::Got:
        slot.held = true;
        break;
    case Slot::Busy:
        ch.write(control::busyMessage(QStringLiteral("wirebenchd on %1 is busy with another test; try again when it ends")
                                          .arg(QSysInfo::machineHostName())),
                 nullptr, 200);
        log(QStringLiteral("%1: refused, busy with another test").arg(who));
        lingeringClose(client.get(), 500, m_stopping);
        return;
    case Slot::Left:
        log(QStringLiteral("%1: left the queue").arg(who));
        return;
    case Slot::Stopped:
        ch.write(control::errorMessage(QStringLiteral("shutdown"), QStringLiteral("wirebenchd is shutting down")), nullptr, 500);
        return;
    }
    const QByteArray proof = cfg.key.trimmed().isEmpty() ? QByteArray() : auth::serverProof(cfg.key, self.nonce, check.clientNonce);
    if (!ch.write(control::welcomeMessage(proof), &err)) {
        log(QStringLiteral("%1: cannot send welcome: %2").arg(who, err));
        return;
    }
    ch.setMaxMessageBytes(cfg.maxControlMessageBytes);

    if (!expect(control::kTest, &m, cfg.idleTimeoutMs))
        return;
    control::TestRequest req;
    if (!control::TestRequest::fromJson(m, &req, &err))
        return refuse(QStringLiteral("bad-message"), err);
    if (qint64(req.durationMs) + req.warmupMs > cfg.maxDurationMs) {
        return refuse(QStringLiteral("limit"), QStringLiteral("refused a %1 s test: this wirebenchd allows at most %2 s (--max-duration)")
                                                   .arg((qint64(req.durationMs) + req.warmupMs) / 1000.0)
                                                   .arg(cfg.maxDurationMs / 1000.0));
    }
    if (req.messageSize > cfg.maxMessageSize) {
        return refuse(QStringLiteral("limit"), QStringLiteral("refused a message size of %1 bytes: this wirebenchd allows at most %2 bytes")
                                                   .arg(req.messageSize)
                                                   .arg(cfg.maxMessageSize));
    }

    // The data connection: a fresh listening socket on the address the client reached us at. Options set
    // on it before listen() are inherited by the accepted socket, and the MSS is announced in the SYN-ACK.
    sockaddr_storage local{};
    socklen_t llen = sizeof(local);
    getsockname(client.get(), reinterpret_cast<sockaddr *>(&local), &llen);
    if (local.ss_family == AF_INET)
        reinterpret_cast<sockaddr_in *>(&local)->sin_port = 0;
    else
        reinterpret_cast<sockaddr_in6 *>(&local)->sin6_port = 0;
    Fd dataListen(::socket(local.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!dataListen.valid())
        return refuse(QStringLiteral("socket"), QStringLiteral("cannot create the data socket: %1").arg(errnoText(errno)));
    if (req.mss > 0 && !setIntOption(dataListen.get(), IPPROTO_TCP, TCP_MAXSEG, req.mss, &err))
        return refuse(QStringLiteral("socket"), QStringLiteral("cannot set the MSS to %1 bytes: %2").arg(req.mss).arg(err));
    if (req.sendBuffer > 0 && !setIntOption(dataListen.get(), SOL_SOCKET, SO_SNDBUF, req.sendBuffer, &err))
        return refuse(QStringLiteral("socket"), QStringLiteral("cannot set the send buffer to %1 bytes: %2").arg(req.sendBuffer).arg(err));
    if (req.recvBuffer > 0 && !setIntOption(dataListen.get(), SOL_SOCKET, SO_RCVBUF, req.recvBuffer, &err))
        return refuse(QStringLiteral("socket"), QStringLiteral("cannot set the receive buffer to %1 bytes: %2").arg(req.recvBuffer).arg(err));
    if (::bind(dataListen.get(), reinterpret_cast<sockaddr *>(&local), llen) != 0 || ::listen(dataListen.get(), 1) != 0)
        return refuse(QStringLiteral("socket"), QStringLiteral("cannot open a data port: %1").arg(errnoText(errno)));
    sockaddr_storage dataLocal{};
    socklen_t dlen = sizeof(dataLocal);
    getsockname(dataListen.get(), reinterpret_cast<sockaddr *>(&dataLocal), &dlen);
    control::Ready ready;
    ready.dataPort = portOf(dataLocal);
    if (!ch.write(ready.toJson(), &err)) {
        log(QStringLiteral("%1: cannot send ready: %2").arg(who, err));
        return;
    }

    Fd data;
    const qint64 acceptDeadline = nowNs() + qint64(cfg.idleTimeoutMs) * kMsNs;
    while (!data.valid()) {
        if (stopping())
            return;
        if (nowNs() >= acceptDeadline)
            return refuse(QStringLiteral("timeout"), QStringLiteral("dropped: no data connection within %1 ms").arg(cfg.idleTimeoutMs));
        pollfd fds[2] = {{dataListen.get(), POLLIN, 0}, {client.get(), POLLIN, 0}};
        if (::poll(fds, 2, 100) <= 0)
            continue;
        if (fds[1].revents) { // the client spoke or left instead of connecting
            const ControlChannel::Read r = ch.read(&m, 0, &err);
            if (r == ControlChannel::Read::Closed || r == ControlChannel::Read::Message) {
                log(QStringLiteral("%1: client left before the data connection").arg(who));
                return;
            }
            if (r == ControlChannel::Read::Error)
                return refuse(QStringLiteral("bad-message"), QStringLiteral("bad control message: %1").arg(err));
        }
        if (fds[0].revents) {
            sockaddr_storage dpeer{};
            socklen_t dplen = sizeof(dpeer);
            Fd candidate(::accept4(dataListen.get(), reinterpret_cast<sockaddr *>(&dpeer), &dplen, SOCK_CLOEXEC));
            if (candidate.valid() && sameHost(dpeer, peer))
                data = std::move(candidate); // a stranger's connection is closed by ~Fd
        }
    }
    dataListen.reset();
    setIoTimeouts(data.get(), 100);

    const qint64 intervalNs = qint64(req.sampleIntervalMs) * kMsNs;
    const double cpu0 = threadCpuSeconds();
    const qint64 start = nowNs();
    QString problem;    // why the test ended early, for the log and an error reply
    bool clientStopped = false;

    // Looks at the control connection without waiting: a stop, or the client gone.
    auto pollControl = [&] {
        const ControlChannel::Read r = ch.read(&m, 0, &err);
        if (r == ControlChannel::Read::Message && m.value(QLatin1String("type")).toString() == QLatin1String(control::kStop))
            clientStopped = true;
        else if (r == ControlChannel::Read::Closed)
            problem = QStringLiteral("client closed the control connection mid-test");
        else if (r == ControlChannel::Read::Error)
            problem = QStringLiteral("bad control message mid-test: %1").arg(err);
        else if (r == ControlChannel::Read::Message)
            problem = QStringLiteral("unexpected \"%1\" message mid-test").arg(control::quotedType(m));
    };

    control::Result result;
    const QString testName = req.direction == control::TestRequest::Direction::Send
                                 ? QStringLiteral("tcp-send (client → server)")
                                 : QStringLiteral("tcp-recv (server → client)");
    if (req.direction == control::TestRequest::Direction::Send) {
        // We receive. The figure is our count from first byte to last byte; progress goes out every interval.
        std::vector<char> buf(size_t(qMax(req.messageSize, kMinDataBuffer)));
        ReceiveWindow window(qint64(req.warmupMs) * kMsNs);
        qint64 nextProgress = start + intervalNs;
        const qint64 giveUp = start + (qint64(req.durationMs) + req.warmupMs + 30000) * kMsNs;
        for (;;) {
            const ssize_t n = ::recv(data.get(), buf.data(), buf.size(), 0);
            const qint64 now = nowNs();
            if (n > 0) {
                if (window.totalBytes() == 0)
                    setReceiveLowWater(data.get(), req.recvBuffer);
                window.add(n, now);
            } else if (n == 0) {
                break; // the client is done
            } else if ((errno == EAGAIN || errno == EWOULDBLOCK)
                       && now - (window.lastNs() >= 0 ? window.lastNs() : start) > qint64(cfg.idleTimeoutMs) * kMsNs) {
                problem = QStringLiteral("no data from the client for %1 s").arg(cfg.idleTimeoutMs / 1000.0);
                break;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                problem = QStringLiteral("data connection failed: %1").arg(errnoText(errno));
                break;
            }
            if (now >= nextProgress) {
                nextProgress = now + intervalNs;
                control::Progress p; // warm-up included: the live graph shows it
                p.bytes = window.totalBytes();
                p.seconds = window.totalSeconds();
                if (!ch.write(p.toJson(), &err, 1000)) {
                    problem = QStringLiteral("cannot send progress: %1").arg(err);
                    break;
                }
                pollControl();
                if (!problem.isEmpty())
                    break;
            }
            if (stopping()) {
                problem = QStringLiteral("wirebenchd is shutting down");
                break;
            }
            if (now > giveUp) {
                problem = QStringLiteral("client kept sending 30 s past the test's duration");
                break;
            }
        }
        const TcpInfo ti = tcpInfo(data.get());
        result.bytes = window.measuredBytes();
        result.seconds = window.measuredSeconds();
        result.warmupMs = req.warmupMs;
        result.totalBytes = window.totalBytes();
        result.mss = ti.sndMss;
        result.rttUs = ti.rttUs;
        result.rttVarUs = ti.rttVarUs;
        result.retransmits = ti.totalRetrans;
    } else {
        // We send for the requested duration, then half-close; the client counts.
        std::vector<char> buf(size_t(req.messageSize));
        for (size_t i = 0; i < buf.size(); ++i)
            buf[i] = char('a' + i % 26);
        qint64 sent = 0;
        size_t off = 0;
        const qint64 end = start + (qint64(req.durationMs) + req.warmupMs) * kMsNs; // the client leaves the warm-up out
        qint64 nextCheck = start + 20 * kMsNs;
        const qint64 rate = cfg.maxRateBytesPerSec;
        for (;;) {
            const qint64 now = nowNs();
            if (now >= end)
                break;
            size_t chunk = buf.size() - off;
            if (rate > 0) {
                // --max-rate: never ahead of rate x elapsed time, in chunks of at most 10 ms worth of data.
                const qint64 dueNs = start + qint64(double(sent) * 1e9 / double(rate));
                if (dueNs > now) {
                    std::this_thread::sleep_for(std::chrono::nanoseconds(qMin<qint64>(dueNs - now, 10 * kMsNs)));
                    if (nowNs() >= nextCheck) {
                        nextCheck = nowNs() + 20 * kMsNs;
                        pollControl();
                        if (stopping())
                            problem = QStringLiteral("wirebenchd is shutting down");
                        if (clientStopped || !problem.isEmpty())
                            break;
                    }
                    continue;
                }
                chunk = qMin<size_t>(chunk, size_t(qMax<qint64>(1, rate / 100)));
            }
            const ssize_t n = ::send(data.get(), buf.data() + off, chunk, MSG_NOSIGNAL);
            if (n > 0) {
                sent += n;
                off += size_t(n);
                if (off == buf.size())
                    off = 0;
            } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                if (errno == EPIPE || errno == ECONNRESET)
                    clientStopped = true; // the client closed the data connection: a stop
                else
                    problem = QStringLiteral("data connection failed: %1").arg(errnoText(errno));
                break;
            }
            if (now >= nextCheck) {
                nextCheck = now + 20 * kMsNs;
                pollControl();
                if (clientStopped || !problem.isEmpty())
                    break;
                if (stopping()) {
                    problem = QStringLiteral("wirebenchd is shutting down");
                    break;
                }
            }
        }
        ::shutdown(data.get(), SHUT_WR);
        const TcpInfo ti = tcpInfo(data.get());
        result.senderBytes = sent;
        result.mss = ti.sndMss;
        result.rttUs = ti.rttUs;
        result.rttVarUs = ti.rttVarUs;
        result.retransmits = ti.totalRetrans;
    }
    const double cpu1 = threadCpuSeconds();
    const double wall = (nowNs() - start) / 1e9;
    if (cpu0 >= 0 && cpu1 >= 0 && wall > 0)
        result.cpuPercent = (cpu1 - cpu0) / wall * 100;

    // From here on the test is over for the client: a client that connects now (typically the same one,
    // for its next run) is served once this session has closed, not told "busy".
    slot.release();
    if (!problem.isEmpty() && problem != QLatin1String("client closed the control connection mid-test")) {
        ch.write(control::errorMessage(QStringLiteral("aborted"), QStringLiteral("test aborted: %1").arg(problem)), nullptr, 1000);
    } else if (problem.isEmpty()) {
        ch.write(result.toJson(), &err, 2000);
    }

    QString line = QStringLiteral("%1: %2, %3 s asked, message %4 B, mss %5")
                       .arg(who, testName)
                       .arg(req.durationMs / 1000.0)
                       .arg(req.messageSize)
                       .arg(result.mss);
    if (req.direction == control::TestRequest::Direction::Send) {
        line += QStringLiteral(": received %1 B in %2 s = %3").arg(result.bytes).arg(result.seconds, 0, 'f', 3).arg(mbps(result.bytes, result.seconds));
    } else {
        line += QStringLiteral(": sent %1 B").arg(result.senderBytes);
        if (problem.isEmpty() && !clientStopped) {
            // The client answers with its own (receiver's) count: that is the figure.
            const ControlChannel::Read r = ch.read(&m, 30000, &err, shouldStop);
            control::Result theirs;
            if (r == ControlChannel::Read::Message && control::Result::fromJson(m, &theirs, nullptr)) {
                line += QStringLiteral(", client received %1 B in %2 s = %3")
                            .arg(theirs.bytes)
                            .arg(theirs.seconds, 0, 'f', 3)
                            .arg(mbps(theirs.bytes, theirs.seconds));
            }
        }
    }
    if (clientStopped)
        line += QStringLiteral(" (stopped by the client)");
    if (cfg.maxRateBytesPerSec > 0 && req.direction == control::TestRequest::Direction::Recv)
        line += QStringLiteral(" (paced to at most %1 MB/s by --max-rate)").arg(cfg.maxRateBytesPerSec / 1e6, 0, 'f', 1);
    if (!problem.isEmpty())
        line += QStringLiteral(" (ended early: %1)").arg(problem);
    data.reset();
    log(line);
    lingeringClose(client.get(), 1000, m_stopping);
}

} // namespace wb
