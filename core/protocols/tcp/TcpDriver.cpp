#include "TcpDriver.h"

#include "model/Frame.h"
#include "identity/HelloIdentityProbe.h"
#include "identity/IdentityProbeSocket.h"
#include "net/Socket.h"
#include "net/TcpCounters.h"
#include "protocols/ThroughputMeter.h"
#include "protocols/transfer/TransferError.h"
#include "stats/ReceiveWindow.h"
#include "wire/PrintableText.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlChannel.h"
#include "wire/wirebenchd/ControlMessage.h"
#include "wire/wirebenchd/RefusedAdvice.h"

#include <QDateTime>

#include <cerrno>
#include <cstring>
#include <vector>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

using namespace wb::net;
using control::ControlChannel;
using control::wirebenchdRefusedText;
using wire::kMaxPeerTextChars;
using wire::printableText;

namespace {

constexpr int kConnectTimeoutMs = 5000;
constexpr int kHandshakeTimeoutMs = 5000;
constexpr int kStopGraceMs = 800;          // after Stop, how long a sender waits for the receiver's count
constexpr int kMinRecvBuffer = 256 * 1024; // read at least this much per recv(): fewer syscalls
constexpr qint64 kMsNs = 1000000;
constexpr int kMaxSettableMss = 32767; // Linux: TCP_MAXSEG above MAX_TCP_WINDOW is EINVAL

/// Socket options the driver sets before connect().
struct SocketSetup
{
    int mss = 0;
    int sendBuffer = 0;
    int recvBuffer = 0;
};

/// Connects with a timeout, looking at the stop flag every 100 ms. Returns the socket (blocking) or an
/// invalid Fd with *err = errno (ETIMEDOUT, ECANCELED for a stop, ...) and *optionError for a failed option.
Fd connectTo(const sockaddr *addr, socklen_t len, const SocketSetup &setup, const RunObserver &observer, int *err,
             QString *optionError)
{
    Fd fd(::socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!fd.valid()) {
        *err = errno;
        return {};
    }
    QString e;
    // Before connect: TCP_MAXSEG also lowers the MSS we announce in our SYN.
    if (setup.mss > 0 && !setIntOption(fd.get(), IPPROTO_TCP, TCP_MAXSEG, setup.mss, &e)) {
        *optionError = QStringLiteral("cannot set the MSS to %1 bytes (%2)").arg(setup.mss).arg(e);
        return {};
    }
    if (setup.sendBuffer > 0 && !setIntOption(fd.get(), SOL_SOCKET, SO_SNDBUF, setup.sendBuffer, &e)) {
        *optionError = QStringLiteral("cannot set the send buffer to %1 bytes (%2)").arg(setup.sendBuffer).arg(e);
        return {};
    }
    if (setup.recvBuffer > 0 && !setIntOption(fd.get(), SOL_SOCKET, SO_RCVBUF, setup.recvBuffer, &e)) {
        *optionError = QStringLiteral("cannot set the receive buffer to %1 bytes (%2)").arg(setup.recvBuffer).arg(e);
        return {};
    }
    if (::connect(fd.get(), addr, len) != 0) {
        if (errno != EINPROGRESS) {
            *err = errno;
            return {};
        }
        const qint64 deadline = nowNs() + qint64(kConnectTimeoutMs) * kMsNs;
        for (;;) {
            if (observer.stopRequested()) {
                *err = ECANCELED;
                return {};
            }
            if (nowNs() >= deadline) {
                *err = ETIMEDOUT;
                return {};
            }
            pollfd p{fd.get(), POLLOUT, 0};
            if (::poll(&p, 1, 100) > 0)
                break;
        }
        int soError = 0;
        socklen_t sl = sizeof(soError);
        getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &soError, &sl);
        if (soError != 0) {
            *err = soError;
            return {};
        }
    }
    setNonBlocking(fd.get(), false);
    return fd;
}

} // namespace

QList<ProtocolInfo> TcpDriver::protocolInfos()
{
    ProtocolInfo send;
    send.id = QStringLiteral("tcp-send");
    send.title = QStringLiteral("TCP send (client → server)");
    send.description = QStringLiteral("A timed TCP stream from this computer to the server, as netperf TCP_STREAM.");
    send.family = QStringLiteral("tcp");
    send.create = [] { return std::make_unique<TcpDriver>(Direction::Send); };
    ProtocolInfo recv;
    recv.id = QStringLiteral("tcp-recv");
    recv.title = QStringLiteral("TCP receive (server → client)");
    recv.description = QStringLiteral("A timed TCP stream from the server to this computer, as netperf TCP_MAERTS.");
    recv.family = QStringLiteral("tcp");
    recv.create = [] { return std::make_unique<TcpDriver>(Direction::Receive); };
    const QList<OptionSpec> options = {
        {QLatin1String(kKeyOption), QStringLiteral("wirebenchd key"), OptionSpec::Type::Secret, QString(), {},
         QStringLiteral("The key wirebenchd printed on its first start (its key file); empty for a wirebenchd in --open mode")},
    };
    send.hostOptions = options;
    recv.hostOptions = options;
    return {send, recv};
}

RunResult TcpDriver::run(const RunSpec &spec, RunObserver &observer)
{
    RunResult r;
    r.spec = spec;
    r.status = RunStatus::Failed;
    r.startedAt = QDateTime::currentDateTimeUtc();

    const quint16 port = spec.host.port ? spec.host.port : control::kDefaultPort;
    QString address = spec.host.address.trimmed();
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']')))
        address = address.mid(1, address.size() - 2);
    const QString hostPort = address.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(address).arg(port)
                                                                 : QStringLiteral("%1:%2").arg(address).arg(port);
    const QString where = spec.host.name.isEmpty() || spec.host.name == address
                              ? hostPort
                              : QStringLiteral("%1 (%2)").arg(spec.host.name, hostPort);
    auto failed = [&](const QString &text) {
        r.status = observer.stopRequested() ? RunStatus::Cancelled : RunStatus::Failed;
        r.error = r.status == RunStatus::Cancelled ? QString() : where + QStringLiteral(": ") + text;
        return r;
    };
    auto cancelled = [&] {
        r.status = RunStatus::Cancelled;
        return r;
    };
    const auto shouldStop = [&observer] { return observer.stopRequested(); };

    if (address.isEmpty())
        return failed(QStringLiteral("no address given: enter the host name or IP address of the wirebenchd host"));

    // --- Control connection ---
    observer.status(QStringLiteral("Connecting to %1").arg(where));
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    const int gai = ::getaddrinfo(address.toUtf8().constData(), QByteArray::number(port).constData(), &hints, &res);
    if (gai != 0) {
        r.extra.insert(QStringLiteral("fault"), transferFaultName(TransferFault::Unreachable));
        return failed(QStringLiteral("cannot resolve the name \"%1\" (%2): check the spelling, DNS, or use an IP address")
                          .arg(address, QString::fromLocal8Bit(gai_strerror(gai))));
    }
    Fd ctrl;
    sockaddr_storage server{};
    socklen_t serverLen = 0;
    int connectErr = 0;
    QString optionError;
    for (addrinfo *ai = res; ai && !ctrl.valid(); ai = ai->ai_next) {
        ctrl = connectTo(ai->ai_addr, ai->ai_addrlen, {}, observer, &connectErr, &optionError);
        if (ctrl.valid()) {
            std::memcpy(&server, ai->ai_addr, ai->ai_addrlen);
            serverLen = ai->ai_addrlen;
        }
        if (connectErr == ECANCELED)
            break;
    }
    freeaddrinfo(res);
    if (!ctrl.valid()) {
        if (connectErr == ECANCELED)
            return cancelled();
        r.extra.insert(QStringLiteral("fault"), transferFaultName(connectFault(connectErr)));
        if (connectErr == ECONNREFUSED)
            return failed(wirebenchdRefusedText(port));
        if (connectErr == ETIMEDOUT)
            return failed(QStringLiteral("no answer within %1 s: check the address, the network and the firewall (TCP port %2)")
                              .arg(kConnectTimeoutMs / 1000)
                              .arg(port));
        return failed(QStringLiteral("cannot connect: %1: check the address and the network").arg(errnoText(connectErr)));
    }
    // Control messages are small and want to go out at once. The data connection keeps Nagle, as netperf
    // does, so that small message sizes (-m 1472) behave as they do there.
    setIntOption(ctrl.get(), IPPROTO_TCP, TCP_NODELAY, 1);
    const QString serverIp = hostText(server);
    ControlChannel ch(ctrl.get(), 1024 * 1024);
    QJsonObject m;
    QString err;

    // Reads the next message, turning busy, error and a closed connection into the run's error.
    auto readMessage = [&](int timeoutMs, const QString &waitingFor) -> bool {
        const ControlChannel::Read rr = ch.read(&m, timeoutMs, &err, shouldStop);
        switch (rr) {
        case ControlChannel::Read::Message: {
            const QString type = m.value(QLatin1String("type")).toString();
            // The server's own words: "busy" means a full queue or a connection limit, and only it knows which.
            const QString said = printableText(m.value(QLatin1String("message")).toString().trimmed(), kMaxPeerTextChars);
            if (type == QLatin1String(control::kBusy)) {
                err = said.isEmpty() ? QStringLiteral("wirebenchd is busy: try again later") : said;
                return false;
            }
            if (type == QLatin1String(control::kError)) {
                err = QStringLiteral("wirebenchd refused: %1").arg(said);
                return false;
            }
            return true;
        }
        case ControlChannel::Read::Timeout:
            err = QStringLiteral("no %1 from wirebenchd within %2 s: is this port a wirebenchd (not another service)?")
                      .arg(waitingFor)
                      .arg(timeoutMs / 1000.0);
            return false;
        case ControlChannel::Read::Closed:
            err = QStringLiteral("wirebenchd closed the control connection while we waited for %1: check its log").arg(waitingFor);
            return false;
        case ControlChannel::Read::Error:
            err = QStringLiteral("bad control message from the server (%1): is this port a wirebenchd?").arg(err);
            return false;
        case ControlChannel::Read::Stopped:
            err.clear();
            return false;
        }
        return false;
    };

    if (!readMessage(kHandshakeTimeoutMs, QStringLiteral("hello")))
        return observer.stopRequested() ? cancelled() : failed(err);
    control::Hello hello;
    if (!control::Hello::fromJson(m, &hello, &err))
        return failed(QStringLiteral("unexpected first message from the server (%1): is this port a wirebenchd?").arg(err));
    if (hello.version != control::kProtocolVersion) {
        return failed(QStringLiteral("%1 speaks control protocol version %2, this Wirebench speaks version %3: install matching versions")
                          .arg(hello.software.isEmpty() ? QStringLiteral("the server") : hello.software)
                          .arg(hello.version)
                          .arg(control::kProtocolVersion));
    }
    r.serverOs = hello.osSummary();
    r.extra.insert(QStringLiteral("server_hostname"), hello.hostname);
    r.extra.insert(QStringLiteral("server_software"), hello.software);
    if (hello.cpus > 0)
        r.extra.insert(QStringLiteral("server_cpus"), hello.cpus);
    if (hello.linkSpeedMbps > 0)
        r.extra.insert(QStringLiteral("remote_link_speed_Mbps"), hello.linkSpeedMbps);
    if (!hello.link.isEmpty())
        r.extra.insert(QStringLiteral("remote_link"), hello.link.toVariantMap()); // RunAnalyzer judges it

    // Authentication: our proof over both nonces; the server answers welcome with its own proof.
    const QString key = spec.host.options.value(QLatin1String(kKeyOption)).toString().trimmed();
    const bool serverWantsKey = hello.auth == QLatin1String(auth::kAuthHmac);
    control::Hello mine = control::Hello::local(QStringLiteral("wirebench " WIREBENCH_VERSION));
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    if (serverWantsKey && !key.isEmpty())
        mine.mac = auth::clientProof(key, hello.nonce, mine.nonce);
    if (!ch.write(mine.toJson(), &err))
        return failed(QStringLiteral("wirebenchd closed the control connection (%1): check its log").arg(err));
    for (;;) {
        // A queued client waits as long as the tests before it run; Stop still ends the wait.
        if (!readMessage(kHandshakeTimeoutMs, QStringLiteral("welcome"))) {
            if (serverWantsKey && key.isEmpty() && err.startsWith(QLatin1String("wirebenchd closed"))) {
                err = QStringLiteral("this wirebenchd requires a key: set it in the host's settings or use --key");
                r.extra.insert(QStringLiteral("fault"), transferFaultName(TransferFault::LoginRefused));
            }
            return observer.stopRequested() ? cancelled() : failed(err);
        }
        const QString type = m.value(QLatin1String("type")).toString();
        if (type == QLatin1String(control::kQueued)) {
            observer.status(QStringLiteral("Waiting for %1: queued at position %2 behind other tests")
                                .arg(where)
                                .arg(m.value(QLatin1String("position")).toInt()));
            if (!readMessage(24 * 3600 * 1000, QStringLiteral("welcome")))
                return observer.stopRequested() ? cancelled() : failed(err);
            if (m.value(QLatin1String("type")).toString() == QLatin1String(control::kQueued))
                continue;
        }
        break;
    }
    if (m.value(QLatin1String("type")).toString() != QLatin1String(control::kWelcome))
        return failed(QStringLiteral("unexpected \"%1\" from wirebenchd instead of \"welcome\"").arg(m.value(QLatin1String("type")).toString().left(40)));
    if (!mine.mac.isEmpty()) {
        const auto theirProof = QByteArray::fromBase64Encoding(m.value(QLatin1String("mac")).toString().toLatin1(),
                                                               QByteArray::AbortOnBase64DecodingErrors);
        if (!theirProof || !auth::sameBytes(*theirProof, auth::serverProof(key, hello.nonce, mine.nonce)))
            return failed(QStringLiteral("the server did not prove that it knows the key: it is not the wirebenchd you "
                                         "configured (or its key changed); check the address and the key"));
    }

    control::TestRequest req;
    req.direction = m_direction == Direction::Send ? control::TestRequest::Direction::Send : control::TestRequest::Direction::Recv;
    req.durationMs = qMax(1, spec.params.durationMs);
    req.messageSize = qMax(1, spec.params.messageSize);
    req.sendBuffer = qMax(0, spec.params.sendBufferBytes);
    req.recvBuffer = qMax(0, spec.params.recvBufferBytes);
    req.mss = Frame::maxSegFor(spec.frameSize, server.ss_family == AF_INET6);
    if (req.mss > kMaxSettableMss) {
        // Linux refuses a larger TCP_MAXSEG; the interface MTU (e.g. 65536 on loopback) bounds the MSS anyway.
        r.warnings << QStringLiteral("frame size %1: TCP_MAXSEG accepts at most %2 bytes, so the MSS was left to the "
                                     "system (bounded by the interface MTU)")
                          .arg(spec.frameSize)
                          .arg(kMaxSettableMss);
        req.mss = 0;
    }
    req.sampleIntervalMs = qBound(10, spec.params.sampleIntervalMs, 60000);
    req.warmupMs = qBound(0, spec.params.warmupMs, 600000);
    if (!ch.write(req.toJson(), &err)) {
        return failed(QStringLiteral("wirebenchd closed the control connection (%1): check its log").arg(err));
    }
    if (!readMessage(kHandshakeTimeoutMs, QStringLiteral("data port")))
        return observer.stopRequested() ? cancelled() : failed(err);
    control::Ready ready;
    if (!control::Ready::fromJson(m, &ready, &err))
        return failed(QStringLiteral("unexpected answer to the test request (%1)").arg(err));

    // --- Data connection ---
    sockaddr_storage dataAddr = server;
    if (dataAddr.ss_family == AF_INET)
        reinterpret_cast<sockaddr_in *>(&dataAddr)->sin_port = htons(quint16(ready.dataPort));
    else
        reinterpret_cast<sockaddr_in6 *>(&dataAddr)->sin6_port = htons(quint16(ready.dataPort));
    SocketSetup setup;
    setup.mss = req.mss;
    setup.sendBuffer = req.sendBuffer;
    setup.recvBuffer = req.recvBuffer;
    Fd data = connectTo(reinterpret_cast<sockaddr *>(&dataAddr), serverLen, setup, observer, &connectErr, &optionError);
    if (!data.valid()) {
        if (!optionError.isEmpty())
            return failed(optionError + QStringLiteral(": choose another frame size or buffer size"));
        if (connectErr == ECANCELED)
            return cancelled();
        return failed(QStringLiteral("cannot open the data connection to %1 port %2 (%3): a firewall may let the control port "
                                     "through but not others")
                          .arg(serverIp)
                          .arg(ready.dataPort)
                          .arg(errnoText(connectErr)));
    }
    setIoTimeouts(data.get(), 100);
    observer.status(QStringLiteral("%1 with %2").arg(m_direction == Direction::Send ? QStringLiteral("Sending") : QStringLiteral("Receiving"), where));

    ThroughputMeter meter(spec.index, req.sampleIntervalMs, observer);
    const qint64 intervalNs = qint64(req.sampleIntervalMs) * kMsNs;
    const double cpu0 = threadCpuSeconds();
    const qint64 start = nowNs();
    meter.start();
    bool stopped = false;
    QString problem;
    bool haveResult = false;
    control::Result theirs;

    // Takes in what the server sent on the control connection (progress, result, error) without waiting
    // longer than timeoutMs. progressBytes: the receiver's count so far, as the server reported it.
    qint64 progressBytes = 0;
    double progressSeconds = 0;
    qint64 lastProgressNs = start;
    bool progressIsSampled = true; // false once the sender samples the receiver's acknowledgements instead
    auto drainControl = [&](int timeoutMs) {
        for (;;) {
            const ControlChannel::Read rr = ch.read(&m, timeoutMs, &err);
            if (rr == ControlChannel::Read::Timeout)
                return;
            if (rr == ControlChannel::Read::Closed) {
                problem = QStringLiteral("wirebenchd closed the connection mid-test (stopped or crashed?): check its log");
                return;
            }
            if (rr != ControlChannel::Read::Message) {
                problem = QStringLiteral("bad control message from wirebenchd mid-test (%1)").arg(err);
                return;
            }
            const QString type = m.value(QLatin1String("type")).toString();
            if (type == QLatin1String(control::kProgress)) {
                control::Progress p;
                if (control::Progress::fromJson(m, &p, &err) && p.bytes >= progressBytes) {
                    if (progressIsSampled)
                        meter.add(p.bytes - progressBytes);
                    progressBytes = p.bytes;
                    progressSeconds = p.seconds;
                    lastProgressNs = nowNs();
                }
            } else if (type == QLatin1String(control::kResult)) {
                if (!control::Result::fromJson(m, &theirs, &err)) {
                    problem = QStringLiteral("bad result from wirebenchd (%1)").arg(err);
                    return;
                }
                haveResult = true;
                return;
            } else if (type == QLatin1String(control::kError)) {
                problem = QStringLiteral("wirebenchd ended the test: %1").arg(m.value(QLatin1String("message")).toString());
                return;
            }
            timeoutMs = 0; // whatever else is queued, without waiting
        }
    };

    TcpInfo senderInfo;
    if (m_direction == Direction::Send) {
        std::vector<char> buf(size_t(req.messageSize));
        for (size_t i = 0; i < buf.size(); ++i)
            buf[i] = char('a' + i % 26);
        qint64 sent = 0;
        size_t off = 0;
        const qint64 end = start + (qint64(req.durationMs) + req.warmupMs) * kMsNs; // the receiver leaves the warm-up out
        qint64 nextCheck = start + 10 * kMsNs;
        // The samples are the receiver's count, read as the bytes it has acknowledged (TCP_INFO) after a
        // send() at least 10 ms after the last reading: not the bytes handed to send() (the socket buffer takes megabytes at once and drains after the
        // loop), nor wirebenchd's progress (one report per interval, on its clock, arriving with a delay).
        // Without the counter, the progress reports it is.
        const qint64 ackedBase = TcpCounters::of(data.get()).bytesAcked;
        progressIsSampled = ackedBase < 0;
        auto sampleAcked = [&] {
            const qint64 acked = TcpCounters::of(data.get()).bytesAcked;
            if (acked >= 0)
                meter.setReceived(qBound<qint64>(0, acked - ackedBase, sent)); // the FIN counts one
        };
        for (;;) {
            const qint64 now = nowNs();
            if (now >= end)
                break;
            if (observer.stopRequested()) {
                stopped = true;
                break;
            }
            const ssize_t n = ::send(data.get(), buf.data() + off, buf.size() - off, MSG_NOSIGNAL);
            if (n > 0) {
                sent += n;
                off += size_t(n);
                if (off == buf.size())
                    off = 0;
            } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                problem = QStringLiteral("the data connection failed mid-test (%1): check the server's log").arg(errnoText(errno));
                break;
            }
            if (now >= nextCheck) {
                nextCheck = now + 10 * kMsNs;
                drainControl(0);
                if (!problem.isEmpty())
                    break;
                if (!progressIsSampled)
                    sampleAcked();
                else if (now - lastProgressNs > 2 * intervalNs)
                    meter.add(0); // the graph shows a stall as one
            }
        }
        if (stopped)
            ch.write(control::stopMessage(), nullptr, 200);
        ::shutdown(data.get(), SHUT_WR); // the receiver reads to EOF and answers with its count
        senderInfo = tcpInfo(data.get());
        r.senderBytes = sent;
        // Wait for the receiver's count: long after a normal end (draining big buffers on a slow link),
        // briefly after Stop.
        qint64 waitUntil = nowNs() + qint64(stopped ? kStopGraceMs : 30000) * kMsNs;
        while (problem.isEmpty() && !haveResult && nowNs() < waitUntil) {
            // While the socket buffer drains, the last sample ends within a millisecond of the last byte's arrival.
            const bool draining = !progressIsSampled && meter.total() < sent;
            drainControl(draining ? 1 : 100);
            if (draining)
                sampleAcked();
            if (!stopped && observer.stopRequested()) {
                stopped = true;
                waitUntil = qMin(waitUntil, nowNs() + qint64(kStopGraceMs) * kMsNs);
            }
        }
        if (haveResult) {
            meter.setReceived(theirs.receivedBytes()); // what the samples missed, if anything
            meter.finish();
            r.bytes = theirs.bytes;
            r.seconds = theirs.seconds;
            if (req.warmupMs > 0 && theirs.warmupMs != req.warmupMs)
                r.warnings << QStringLiteral("wirebenchd at %1 predates warm-up: its figure includes the first %2 s; "
                                             "update wirebenchd there")
                                  .arg(where)
                                  .arg(req.warmupMs / 1000.0);
        } else {
            meter.finish();
            r.bytes = progressBytes; // what the receiver had confirmed
            r.seconds = progressSeconds;
            if (problem.isEmpty() && !stopped)
                problem = QStringLiteral("no result from wirebenchd within 30 s after the data: check its log");
        }
        r.mss = senderInfo.sndMss;
    } else {
        std::vector<char> buf(size_t(qMax(req.messageSize, kMinRecvBuffer)));
        ReceiveWindow window(qint64(req.warmupMs) * kMsNs);
        qint64 lastData = start;
        qint64 nextCheck = start + 100 * kMsNs;
        for (;;) {
            if (observer.stopRequested()) {
                stopped = true;
                break;
            }
            const ssize_t n = ::recv(data.get(), buf.data(), buf.size(), 0);
            const qint64 now = nowNs();
            if (n > 0) {
                if (window.totalBytes() == 0)
                    setReceiveLowWater(data.get(), req.recvBuffer);
                lastData = now;
                window.add(n, now);
                meter.add(n);
            } else if (n == 0) {
                break; // the server's half-close: the end of the test
            } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                meter.add(0);
                if (now - lastData > 10000 * kMsNs) {
                    problem = QStringLiteral("no data from wirebenchd for 10 s: check the network and the server's log");
                    break;
                }
            } else {
                problem = QStringLiteral("the data connection failed mid-test (%1): check the server's log").arg(errnoText(errno));
                break;
            }
            if (now >= nextCheck && !haveResult) {
                nextCheck = now + 100 * kMsNs;
                drainControl(0);
                if (!problem.isEmpty())
                    break;
            }
        }
        meter.finish();
        r.bytes = window.measuredBytes();
        r.seconds = window.measuredSeconds();
        if (stopped) {
            ch.write(control::stopMessage(), nullptr, 200);
        } else if (problem.isEmpty()) {
            const qint64 waitUntil = nowNs() + qint64(kHandshakeTimeoutMs) * kMsNs;
            while (problem.isEmpty() && !haveResult && nowNs() < waitUntil && !observer.stopRequested())
                drainControl(100);
            if (haveResult) {
                control::Result mine;
                mine.bytes = r.bytes;
                mine.seconds = r.seconds;
                mine.senderBytes = theirs.senderBytes;
                mine.mss = tcpInfo(data.get()).sndMss;
                ch.write(mine.toJson(), nullptr, 1000);
            } else if (problem.isEmpty() && !observer.stopRequested()) {
                problem = QStringLiteral("no result from wirebenchd within %1 s after the data: check its log").arg(kHandshakeTimeoutMs / 1000);
            }
        }
        if (haveResult) {
            r.senderBytes = theirs.senderBytes;
            r.mss = theirs.mss;
            senderInfo.valid = true;
            senderInfo.rttUs = theirs.rttUs;
            senderInfo.rttVarUs = theirs.rttVarUs;
            senderInfo.totalRetrans = theirs.retransmits;
        }
    }
    if (problem.startsWith(QLatin1String("the data connection failed"))) {
        // The server may have said why (shutting down, ...): its word beats "connection reset".
        const QString dataProblem = problem;
        problem.clear();
        drainControl(200);
        if (problem.isEmpty() || !problem.startsWith(QLatin1String("wirebenchd ended the test")))
            problem = dataProblem;
    }
    r.samples = meter.samples();
    if (req.warmupMs > 0)
        r.extra.insert(QStringLiteral("warmup_ms"), req.warmupMs); // the samples include it; the figure does not

    const double cpu1 = threadCpuSeconds();
    const double wall = (nowNs() - start) / 1e9;
    if (cpu0 >= 0 && cpu1 >= 0 && wall > 0)
        r.extra.insert(QStringLiteral("cpu_thread_percent"), (cpu1 - cpu0) / wall * 100); // this driver's thread, % of one core
    if (haveResult && theirs.cpuPercent >= 0)
        r.extra.insert(QStringLiteral("cpu_remote_percent"), theirs.cpuPercent);
    if (senderInfo.valid) {
        r.extra.insert(QStringLiteral("rtt_us"), senderInfo.rttUs);
        r.extra.insert(QStringLiteral("rttvar_us"), senderInfo.rttVarUs);
        r.extra.insert(QStringLiteral("retransmits"), senderInfo.totalRetrans);
    }
    if (req.mss > 0 && r.mss > req.mss) {
        r.warnings << QStringLiteral("the MSS in use (%1 bytes) is larger than the %2 bytes asked for frame size %3: the "
                                     "system ignored TCP_MAXSEG")
                          .arg(r.mss)
                          .arg(req.mss)
                          .arg(spec.frameSize);
    }

    if (stopped || (observer.stopRequested() && problem.isEmpty())) {
        r.status = RunStatus::Cancelled;
        return r;
    }
    if (!problem.isEmpty()) {
        r.status = RunStatus::Failed;
        r.error = where + QStringLiteral(": ") + problem;
        return r;
    }
    r.status = RunStatus::Ok;
    return r;
}

PreflightProblemList TcpDriver::check(const RunSpec &spec, int timeoutMs)
{
    // wirebenchd sends its hello before it asks for anything: it tells that the port is a wirebenchd, which
    // control protocol it speaks and whether it wants a key, without a test or a key.
    control::Hello hello;
    const ServerEvidence said = HelloIdentityProbe::probe(spec.host, timeoutMs, &hello);
    if (said.failed())
        return {{{}, {}, {}, said.error}};
    const quint16 port = spec.host.port ? spec.host.port : control::kDefaultPort;
    const QString where = IdentityProbeSocket(spec.host, port, QStringLiteral("wirebenchd"), timeoutMs).where();
    if (hello.version != control::kProtocolVersion) {
        return {{{}, {}, transferFaultName(TransferFault::Other),
                 QStringLiteral("%1: %2 speaks control protocol version %3, this Wirebench speaks version %4: install "
                                "matching versions")
                     .arg(where, hello.software.isEmpty() ? QStringLiteral("the server") : hello.software)
                     .arg(hello.version)
                     .arg(control::kProtocolVersion)}};
    }
    const bool hasKey = !spec.host.options.value(QLatin1String(kKeyOption)).toString().trimmed().isEmpty();
    if (hello.auth == QLatin1String(auth::kAuthHmac) && !hasKey) {
        return {{{}, {}, transferFaultName(TransferFault::LoginRefused),
                 QStringLiteral("%1: this wirebenchd requires a key and the host has none: enter the key wirebenchd "
                                "printed at its first start in the host's settings (wirebench-cli: --key-file FILE)")
                     .arg(where)}};
    }
    return {};
}

} // namespace wb
