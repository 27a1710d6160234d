#include "TcpDriver.h"

#include "model/Frame.h"
#include "model/Streams.h"
#include "identity/HelloIdentityProbe.h"
#include "identity/IdentityProbeSocket.h"
#include "net/BulkReceiver.h"
#include "net/BulkSender.h"
#include "net/Socket.h"
#include "net/TcpInfo.h"
#include "platform/Platform.h"
#include "protocols/SampleQueue.h"
#include "protocols/ThroughputMeter.h"
#include "protocols/tcp/TcpSettings.h"
#include "protocols/transfer/TransferError.h"
#include "stats/StreamsWindow.h"
#include "wire/Base64.h"
#include "wire/PrintableText.h"
#include "wire/QtWire.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlChannel.h"
#include "wire/wirebenchd/ControlMessage.h"
#include "wire/wirebenchd/RefusedAdvice.h"

#include <QDateTime>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <thread>
#include <optional>
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

namespace {

constexpr int kConnectTimeoutMs = 5000;
constexpr int kHandshakeTimeoutMs = 5000;
constexpr int kStopGraceMs = 800;          // after Stop, how long a sender waits for the receiver's count
constexpr int kMinRecvBuffer = 256 * 1024; // read at least this much per recv(): fewer syscalls
constexpr qint64 kMsNs = 1000000;
constexpr int kSendBurst = 10;         // sends after one poll() while the socket takes whole blocks (iperf3: 10)
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
    std::string e;
    // Before connect: TCP_MAXSEG also lowers the MSS we announce in our SYN.
    if (setup.mss > 0 && !setIntOption(fd.get(), IPPROTO_TCP, TCP_MAXSEG, setup.mss, &e)) {
        *optionError = QStringLiteral("cannot set the MSS to %1 bytes (%2)").arg(setup.mss).arg(wire::qs(e));
        return {};
    }
    if (setup.sendBuffer > 0 && !setIntOption(fd.get(), SOL_SOCKET, SO_SNDBUF, setup.sendBuffer, &e)) {
        *optionError
            = QStringLiteral("cannot set the send buffer to %1 bytes (%2)").arg(setup.sendBuffer).arg(wire::qs(e));
        return {};
    }
    if (setup.recvBuffer > 0 && !setIntOption(fd.get(), SOL_SOCKET, SO_RCVBUF, setup.recvBuffer, &e)) {
        *optionError
            = QStringLiteral("cannot set the receive buffer to %1 bytes (%2)").arg(setup.recvBuffer).arg(wire::qs(e));
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

/// Why this wirebenchd cannot serve `streams` data connections in one test, or empty: one that predates parallel
/// streams says nothing of them in its hello and would open one data connection only.
QString streamsRefusal(const control::Hello &hello, int streams)
{
    if (streams <= hello.maxStreams)
        return {};
    const QString software = hello.software.empty() ? QStringLiteral("the server") : wire::qs(hello.software);
    if (hello.maxStreams <= 1)
        return QStringLiteral(
                   "%1 predates parallel streams (it serves one data connection per test) and %2 streams were "
                   "asked for: update wirebenchd there, or run 1 stream")
            .arg(software)
            .arg(streams);
    return QStringLiteral("%1 serves at most %2 streams per test and %3 were asked for: ask for fewer streams")
        .arg(software)
        .arg(hello.maxStreams)
        .arg(streams);
}

/// What a wirebenchd that predates tcp-bidir is told by name, before the test.
QString bidirRefusal(const control::Hello &hello)
{
    return QStringLiteral("%1 predates tcp-bidir (both directions at once): update wirebenchd there")
        .arg(hello.software.empty() ? QStringLiteral("the server") : wire::qs(hello.software));
}

int requestedStreams(const RunSpec &spec)
{
    return qBound(1, spec.params.streams, control::kMaxStreams);
}

} // namespace

QList<ProtocolInfo> TcpDriver::protocolInfos()
{
    ProtocolInfo send;
    send.id = QStringLiteral("tcp-send");
    send.title = QStringLiteral("TCP send (client → server)");
    send.description = QStringLiteral("A timed TCP stream from this computer to the server, as netperf TCP_STREAM.");
    send.family = QStringLiteral("tcp");
    send.rawTcp = true;
    send.create = [] { return std::make_unique<TcpDriver>(Direction::Send); };
    ProtocolInfo recv;
    recv.id = QStringLiteral("tcp-recv");
    recv.title = QStringLiteral("TCP receive (server → client)");
    recv.description = QStringLiteral("A timed TCP stream from the server to this computer, as netperf TCP_MAERTS.");
    recv.family = QStringLiteral("tcp");
    recv.flow = ProtocolInfo::Flow::FromServer;
    recv.rawTcp = true;
    recv.create = [] { return std::make_unique<TcpDriver>(Direction::Receive); };
    ProtocolInfo both;
    both.id = QStringLiteral("tcp-bidir");
    both.title = QStringLiteral("TCP both ways at once (client ⇄ server)");
    both.description = QStringLiteral("Timed TCP streams in both directions at once, as iperf3 --bidir: a figure for "
                                      "each direction, to tell a full-duplex link from a half-duplex or shared one.");
    both.family = QStringLiteral("tcp");
    both.bothWays = true;
    both.create = [] { return std::make_unique<TcpDriver>(Direction::Both); };
    const QList<OptionSpec> options = {
        {QLatin1String(kKeyOption),
         QStringLiteral("wirebenchd key"),
         OptionSpec::Type::Secret,
         QString(),
         {},
         QStringLiteral(
             "The key wirebenchd printed on its first start (its key file); empty for a wirebenchd in --open mode")},
    };
    send.hostOptions = options;
    recv.hostOptions = options;
    both.hostOptions = options;
    for (ProtocolInfo *p : {&send, &recv, &both}) {
        p->latencyProbe = ProtocolInfo::LatencyProbe::Echo;
        p->defaultServicePort = control::kDefaultPort;
    }
    return {send, recv, both};
}

namespace {

/// One tcp-send or tcp-recv run, in the steps it has: reach wirebenchd, the handshake (hello, key, queue,
/// welcome), the test request, the data connection, the data phase of either direction, and the result.
/// A step that fails sets the result (Failed with the reason, or Cancelled) and returns false.
class TcpRun
{
public:
    TcpRun(const RunSpec &spec, RunObserver &observer, TcpDriver::Direction direction)
        : m_spec(spec)
        , m_observer(observer)
        , m_send(direction == TcpDriver::Direction::Send)
        , m_both(direction == TcpDriver::Direction::Both)
    {
        r.spec = spec;
        r.status = RunStatus::Failed;
        r.startedAt = QDateTime::currentDateTimeUtc();
    }

    RunResult run()
    {
        if (!nameTheServer() || !greet() || !requestTest() || !openData())
            return r;
        measure();
        return finish();
    }

private:
    bool failed(const QString &text)
    {
        r.status = m_observer.stopRequested() ? RunStatus::Cancelled : RunStatus::Failed;
        r.error = r.status == RunStatus::Cancelled ? QString() : m_where + QStringLiteral(": ") + text;
        return false;
    }
    bool cancelled()
    {
        r.status = RunStatus::Cancelled;
        return false;
    }
    bool failedOrStopped() { return m_observer.stopRequested() ? cancelled() : failed(m_err); }

    bool nameTheServer();
    bool connectControl();
    /// connectControl() and handshake(), once more after a refusal that passes by itself (busy with
    /// "retry_after_ms": this address's own connections, a check's say, still closing), within a few seconds.
    bool greet();
    bool readMessage(int timeoutMs, const QString &waitingFor);
    bool handshake();
    bool authenticate();
    bool requestTest();
    bool openData();
    void measure();
    void drainControl(int timeoutMs);
    void sendData();
    /// tcp.zero_copy: the senders send the block from a file in memory (sendfile); an invalid Fd when they copy.
    Fd zeroCopySource(std::vector<BulkSender> &senders, const BulkSender::Block &block);
    /// The sender's figure: the receiver's result when it came, else the progress it had confirmed.
    void takeSendResult(const std::vector<BulkSender> &senders);
    /// What one direction's receiving end (this computer) counted.
    struct Received
    {
        qint64 bytes = 0;
        double seconds = 0;
        std::vector<qint64> streamBytes; // each stream's share (streams > 1)
        QString problem;
        bool stopped = false;
    };
    Received receiveOn(std::size_t first, std::size_t streams, ThroughputMeter &meter, bool watchControl);
    void receiveData();
    void exchangeData();
    void answerWithOurCount(const Received &ours);
    RunResult finish();

    const RunSpec &m_spec;
    RunObserver &m_observer;
    const bool m_send;
    const bool m_both; // tcp-bidir: m_data holds the streams we send on, then those we receive on
    RunResult r;

    quint16 m_port = 0;
    QString m_address;
    QString m_where;
    Fd m_ctrl;
    sockaddr_storage m_server{};
    socklen_t m_serverLen = 0;
    QString m_serverIp;
    std::optional<ControlChannel> m_ch;
    control::Json m;
    QString m_err;
    std::string m_wireErr; // what the wire code said (a channel or message error), for m_err's sentences
    control::Hello m_hello;
    QString m_key;
    control::Hello m_mine;
    control::TestRequest m_req;
    std::vector<Fd> m_data;            // one data connection per stream
    std::vector<qint64> m_streamBytes; // the receiver's bytes of each stream over the common window (streams > 1)
    // Zero copy: how this end avoided copying the data ("sendfile", "MSG_TRUNC"; empty: it copied), and why it copied
    // although the plan asked. The receive side is chosen before the data phase (tcp-bidir receives on a thread).
    int m_receiveFlags = MSG_DONTWAIT;
    int m_retryAfterMs = 0; ///< the last busy's "retry_after_ms" (0: none)
    QStringList m_zeroCopy;
    QStringList m_zeroCopyNotes;

    std::optional<ThroughputMeter> m_meter;
    SampleQueue *m_reverseQueue = nullptr; ///< tcp-bidir: the receiving thread's live samples, while it runs
    std::atomic_bool m_halt{false};        // tcp-bidir: the sending side ended early, the receiving thread stops too
    double m_cpu0 = -1;
    qint64 m_start = 0;
    bool m_stopped = false;
    QString m_problem;
    bool m_haveResult = false;
    control::Result m_theirs;
    // What the server reported on the control connection: the receiver's count so far.
    qint64 m_progressBytes = 0;
    double m_progressSeconds = 0;
    qint64 m_lastProgressNs = 0;
    bool m_progressIsSampled = true; // false once the sender samples the receiver's acknowledgements instead
    TcpInfo m_senderInfo;
};

bool TcpRun::nameTheServer()
{
    m_port = m_spec.host.port ? m_spec.host.port : control::kDefaultPort;
    m_address = m_spec.host.address.trimmed();
    if (m_address.startsWith(QLatin1Char('[')) && m_address.endsWith(QLatin1Char(']')))
        m_address = m_address.mid(1, m_address.size() - 2);
    const QString hostPort = m_address.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(m_address).arg(m_port)
                                                                  : QStringLiteral("%1:%2").arg(m_address).arg(m_port);
    m_where = m_spec.host.name.isEmpty() || m_spec.host.name == m_address
        ? hostPort
        : QStringLiteral("%1 (%2)").arg(m_spec.host.name, hostPort);
    if (m_address.isEmpty())
        return failed(QStringLiteral("no address given: enter the host name or IP address of the wirebenchd host"));
    return true;
}

bool TcpRun::connectControl()
{
    m_observer.status(QStringLiteral("Connecting to %1").arg(m_where));
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    const int gai = ::getaddrinfo(m_address.toUtf8().constData(), QByteArray::number(m_port).constData(), &hints, &res);
    if (gai != 0) {
        r.extra.insert(QStringLiteral("fault"), transferFaultName(TransferFault::Unreachable));
        return failed(
            QStringLiteral("cannot resolve the name \"%1\" (%2): check the spelling, DNS, or use an IP address")
                .arg(m_address, QString::fromLocal8Bit(gai_strerror(gai))));
    }
    int connectErr = 0;
    QString optionError;
    for (addrinfo *ai = res; ai && !m_ctrl.valid(); ai = ai->ai_next) {
        m_ctrl = connectTo(ai->ai_addr, ai->ai_addrlen, {}, m_observer, &connectErr, &optionError);
        if (m_ctrl.valid()) {
            std::memcpy(&m_server, ai->ai_addr, ai->ai_addrlen);
            m_serverLen = ai->ai_addrlen;
        }
        if (connectErr == ECANCELED)
            break;
    }
    freeaddrinfo(res);
    if (!m_ctrl.valid()) {
        if (connectErr == ECANCELED)
            return cancelled();
        r.extra.insert(QStringLiteral("fault"), transferFaultName(connectFault(connectErr)));
        if (connectErr == ECONNREFUSED)
            return failed(wirebenchdRefusedText(m_port));
        if (connectErr == ETIMEDOUT)
            return failed(
                QStringLiteral("no answer within %1 s: check the address, the network and the firewall (TCP port %2)")
                    .arg(kConnectTimeoutMs / 1000)
                    .arg(m_port));
        return failed(QStringLiteral("cannot connect: %1: check the address and the network")
                          .arg(wire::qs(errnoText(connectErr))));
    }
    // Control messages are small and want to go out at once. The data connection keeps Nagle, as netperf
    // does, so that small message sizes (-m 1472) behave as they do there.
    setIntOption(m_ctrl.get(), IPPROTO_TCP, TCP_NODELAY, 1);
    m_serverIp = wire::qs(hostText(m_server));
    m_ch.emplace(m_ctrl.get(), 1024 * 1024);
    return true;
}

// Reads the next message, turning busy, error and a closed connection into the run's error.
bool TcpRun::readMessage(int timeoutMs, const QString &waitingFor)
{
    const ControlChannel::Read rr
        = m_ch->read(&m, timeoutMs, &m_wireErr, [this] { return m_observer.stopRequested(); });
    switch (rr) {
    case ControlChannel::Read::Message: {
        const QString type = wire::qs(control::typeOf(m));
        // The server's own words: "busy" means a full queue or a connection limit, and only it knows which.
        const QString said = wire::printableText(wire::qs(control::textAt(m, "message")).trimmed(), kMaxPeerTextChars);
        if (type == QLatin1String(control::kBusy)) {
            m_retryAfterMs = control::retryAfterMs(m);
            m_err = said.isEmpty() ? QStringLiteral("wirebenchd is busy: try again later") : said;
            return false;
        }
        if (type == QLatin1String(control::kError)) {
            m_err = QStringLiteral("wirebenchd refused: %1").arg(said);
            return false;
        }
        return true;
    }
    case ControlChannel::Read::Timeout:
        m_err = QStringLiteral("no %1 from wirebenchd within %2 s: is this port a wirebenchd (not another service)?")
                    .arg(waitingFor)
                    .arg(timeoutMs / 1000.0);
        return false;
    case ControlChannel::Read::Closed:
        m_err = QStringLiteral("wirebenchd closed the control connection while we waited for %1: check its log")
                    .arg(waitingFor);
        return false;
    case ControlChannel::Read::Error:
        m_err = QStringLiteral("bad control message from the server (%1): is this port a wirebenchd?")
                    .arg(wire::qs(m_wireErr));
        return false;
    case ControlChannel::Read::Stopped:
        m_err.clear();
        return false;
    }
    return false;
}

bool TcpRun::greet()
{
    const qint64 until = nowNs() + 3000 * kMsNs;
    for (;;) {
        m_retryAfterMs = 0;
        if (!connectControl())
            return false;
        if (handshake())
            return true;
        if (m_retryAfterMs <= 0 || nowNs() + m_retryAfterMs * kMsNs >= until || m_observer.stopRequested())
            return false;
        m_ch.reset();
        m_ctrl = Fd();
        std::this_thread::sleep_for(std::chrono::milliseconds(m_retryAfterMs));
        r.status = RunStatus::Failed;
        r.error.clear();
    }
}

bool TcpRun::handshake()
{
    if (!readMessage(kHandshakeTimeoutMs, QStringLiteral("hello")))
        return failedOrStopped();
    if (!control::Hello::fromJson(m, &m_hello, &m_wireErr))
        return failed(QStringLiteral("unexpected first message from the server (%1): is this port a wirebenchd?")
                          .arg(wire::qs(m_wireErr)));
    if (m_hello.version != control::kProtocolVersion) {
        return failed(
            QStringLiteral(
                "%1 speaks control protocol version %2, this Wirebench speaks version %3: install matching versions")
                .arg(m_hello.software.empty() ? QStringLiteral("the server") : wire::qs(m_hello.software))
                .arg(m_hello.version)
                .arg(control::kProtocolVersion));
    }
    if (const QString refusal = streamsRefusal(m_hello, requestedStreams(m_spec)); !refusal.isEmpty())
        return failed(refusal);
    if (m_both && !m_hello.bidir)
        return failed(bidirRefusal(m_hello));
    r.serverOs = wire::qs(m_hello.osSummary());
    r.extra.insert(QStringLiteral("server_hostname"), wire::qs(m_hello.hostname));
    r.extra.insert(QStringLiteral("server_software"), wire::qs(m_hello.software));
    if (m_hello.cpus > 0)
        r.extra.insert(QStringLiteral("server_cpus"), m_hello.cpus);
    if (m_hello.linkSpeedMbps > 0)
        r.extra.insert(QStringLiteral("remote_link_speed_Mbps"), m_hello.linkSpeedMbps);
    if (!m_hello.link.empty())
        r.extra.insert(QStringLiteral("remote_link"), wire::toQt(m_hello.link).toVariantMap()); // RunAnalyzer judges it
    return authenticate();
}

// Our proof over both nonces; the server answers welcome with its own proof (or queues us first).
bool TcpRun::authenticate()
{
    m_key = m_spec.host.options.value(QLatin1String(TcpDriver::kKeyOption)).toString().trimmed();
    const bool serverWantsKey = m_hello.auth == auth::kAuthHmac;
    m_mine = control::Hello::local("wirebench " WIREBENCH_VERSION);
    m_mine.nonce = auth::randomBytes(auth::kNonceBytes);
    if (serverWantsKey && !m_key.isEmpty())
        m_mine.mac = auth::clientProof(m_key.toStdString(), m_hello.nonce, m_mine.nonce);
    if (!m_ch->write(m_mine.toJson(), &m_wireErr))
        return failed(
            QStringLiteral("wirebenchd closed the control connection (%1): check its log").arg(wire::qs(m_wireErr)));
    for (;;) {
        // A queued client waits as long as the tests before it run; Stop still ends the wait.
        if (!readMessage(kHandshakeTimeoutMs, QStringLiteral("welcome"))) {
            if (serverWantsKey && m_key.isEmpty() && m_err.startsWith(QLatin1String("wirebenchd closed"))) {
                m_err = QStringLiteral("this wirebenchd requires a key: set it in the host's settings or use --key");
                r.extra.insert(QStringLiteral("fault"), transferFaultName(TransferFault::LoginRefused));
            }
            return failedOrStopped();
        }
        const QString type = wire::qs(control::typeOf(m));
        if (type == QLatin1String(control::kQueued)) {
            m_observer.status(QStringLiteral("Waiting for %1: queued at position %2 behind other tests")
                                  .arg(m_where)
                                  .arg(int(control::numberAt(m, "position", 0))));
            if (!readMessage(24 * 3600 * 1000, QStringLiteral("welcome")))
                return failedOrStopped();
            if (wire::qs(control::typeOf(m)) == QLatin1String(control::kQueued))
                continue;
        }
        break;
    }
    if (wire::qs(control::typeOf(m)) != QLatin1String(control::kWelcome))
        return failed(QStringLiteral("unexpected \"%1\" from wirebenchd instead of \"welcome\"")
                          .arg(wire::qs(control::typeOf(m)).left(40)));
    if (!m_mine.mac.empty()) {
        const std::optional<std::string> theirProof = wire::fromBase64(control::textAt(m, "mac"));
        if (!theirProof
            || !auth::sameBytes(*theirProof, auth::serverProof(m_key.toStdString(), m_hello.nonce, m_mine.nonce)))
            return failed(QStringLiteral("the server did not prove that it knows the key: it is not the wirebenchd you "
                                         "configured (or its key changed); check the address and the key"));
    }
    return true;
}

bool TcpRun::requestTest()
{
    using Direction = control::TestRequest::Direction;
    m_req.direction = m_both ? Direction::Bidir : m_send ? Direction::Send : Direction::Recv;
    m_req.durationMs = qMax(1, m_spec.params.durationMs);
    m_req.messageSize = qMax(1, m_spec.params.messageSize);
    m_req.sendBuffer = qMax(0, m_spec.params.sendBufferBytes);
    m_req.recvBuffer = qMax(0, m_spec.params.recvBufferBytes);
    m_req.mss = Frame::maxSegFor(m_spec.frameSize, m_server.ss_family == AF_INET6);
    if (m_req.mss > kMaxSettableMss) {
        // Linux refuses a larger TCP_MAXSEG; the interface MTU (e.g. 65536 on loopback) bounds the MSS anyway.
        r.warnings << QStringLiteral("frame size %1: TCP_MAXSEG accepts at most %2 bytes, so the MSS was left to the "
                                     "system (bounded by the interface MTU)")
                          .arg(m_spec.frameSize)
                          .arg(kMaxSettableMss);
        m_req.mss = 0;
    }
    m_req.sampleIntervalMs = qBound(10, m_spec.params.sampleIntervalMs, 60000);
    m_req.warmupMs = qBound(0, m_spec.params.warmupMs, 600000);
    m_req.streams = requestedStreams(m_spec);
    if (!m_ch->write(m_req.toJson(), &m_wireErr)) {
        return failed(
            QStringLiteral("wirebenchd closed the control connection (%1): check its log").arg(wire::qs(m_wireErr)));
    }
    return true;
}

bool TcpRun::openData()
{
    if (!readMessage(kHandshakeTimeoutMs, QStringLiteral("data port")))
        return failedOrStopped();
    control::Ready ready;
    if (!control::Ready::fromJson(m, &ready, &m_wireErr))
        return failed(QStringLiteral("unexpected answer to the test request (%1)").arg(wire::qs(m_wireErr)));
    sockaddr_storage dataAddr = m_server;
    if (dataAddr.ss_family == AF_INET)
        reinterpret_cast<sockaddr_in *>(&dataAddr)->sin_port = htons(quint16(ready.dataPort));
    else
        reinterpret_cast<sockaddr_in6 *>(&dataAddr)->sin6_port = htons(quint16(ready.dataPort));
    SocketSetup setup;
    setup.mss = m_req.mss;
    setup.sendBuffer = m_req.sendBuffer;
    setup.recvBuffer = m_req.recvBuffer;
    // One data connection per stream, all to the same port: the server accepts as many as the test asked for.
    while (int(m_data.size()) < m_req.dataConnections()) {
        int connectErr = 0;
        QString optionError;
        Fd data = connectTo(reinterpret_cast<sockaddr *>(&dataAddr), m_serverLen, setup, m_observer, &connectErr,
                            &optionError);
        if (!data.valid()) {
            if (!optionError.isEmpty())
                return failed(optionError + QStringLiteral(": choose another frame size or buffer size"));
            if (connectErr == ECANCELED)
                return cancelled();
            return failed(QStringLiteral(
                              "cannot open the data connection to %1 port %2 (%3): a firewall may let the control port "
                              "through but not others")
                              .arg(m_serverIp)
                              .arg(ready.dataPort)
                              .arg(wire::qs(errnoText(connectErr))));
        }
        setIoTimeouts(data.get(), 100);
        m_data.push_back(std::move(data));
    }
    const QString streams
        = m_req.streams > 1 ? QStringLiteral(" over %1").arg(Streams::label(m_req.streams)) : QString();
    const QString doing = m_both ? QStringLiteral("Sending and receiving")
        : m_send                 ? QStringLiteral("Sending")
                                 : QStringLiteral("Receiving");
    m_observer.status(QStringLiteral("%1 with %2%3").arg(doing, m_where, streams));
    return true;
}

void TcpRun::measure()
{
    m_meter.emplace(m_spec.index, m_req.sampleIntervalMs, m_observer);
    m_meter->setStreams(m_req.streams); // the live graph's line of each stream, on request
    m_meter->setLine(m_spec.host.linkSpeedMbps, m_spec.frameSize);
    m_cpu0 = threadCpuSeconds();
    m_start = nowNs();
    m_lastProgressNs = m_start;
    m_meter->start();
    if (TcpSettings::fromParams(m_spec.params).zeroCopy && (m_both || !m_send)) {
        if (const int discard = platform::Platform::socketCalls().discardFlag(); discard != 0) {
            m_receiveFlags |= discard; // the kernel counts the bytes and drops them: nothing is copied to us
            m_zeroCopy << QStringLiteral("MSG_TRUNC");
        } else {
            m_zeroCopyNotes << QStringLiteral("zero copy was asked for, but this system cannot discard on arrival: the "
                                              "data was copied");
        }
    }
    if (m_both)
        exchangeData();
    else if (m_send)
        sendData();
    else
        receiveData();
    if (m_problem.startsWith(QLatin1String("the data connection failed"))) {
        // The server may have said why (shutting down, ...): its word beats "connection reset".
        const QString dataProblem = m_problem;
        m_problem.clear();
        drainControl(200);
        if (m_problem.isEmpty() || !m_problem.startsWith(QLatin1String("wirebenchd ended the test")))
            m_problem = dataProblem;
    }
}

// Takes in what the server sent on the control connection (progress, result, error) without waiting
// longer than timeoutMs.
void TcpRun::drainControl(int timeoutMs)
{
    for (;;) {
        const ControlChannel::Read rr = m_ch->read(&m, timeoutMs, &m_wireErr);
        if (rr == ControlChannel::Read::Timeout)
            return;
        if (rr == ControlChannel::Read::Closed) {
            m_problem
                = QStringLiteral("wirebenchd closed the connection mid-test (stopped or crashed?): check its log");
            return;
        }
        if (rr != ControlChannel::Read::Message) {
            m_problem = QStringLiteral("bad control message from wirebenchd mid-test (%1)").arg(wire::qs(m_wireErr));
            return;
        }
        const QString type = wire::qs(control::typeOf(m));
        if (type == QLatin1String(control::kProgress)) {
            control::Progress p;
            if (control::Progress::fromJson(m, &p, &m_wireErr) && p.bytes >= m_progressBytes) {
                if (m_progressIsSampled)
                    m_meter->add(p.bytes - m_progressBytes);
                m_progressBytes = p.bytes;
                m_progressSeconds = p.seconds;
                m_lastProgressNs = nowNs();
            }
        } else if (type == QLatin1String(control::kResult)) {
            if (!control::Result::fromJson(m, &m_theirs, &m_wireErr)) {
                m_problem = QStringLiteral("bad result from wirebenchd (%1)").arg(wire::qs(m_wireErr));
                return;
            }
            m_haveResult = true;
            return;
        } else if (type == QLatin1String(control::kError)) {
            m_problem = QStringLiteral("wirebenchd ended the test: %1").arg(wire::qs(control::textAt(m, "message")));
            return;
        }
        timeoutMs = 0; // whatever else is queued, without waiting
    }
}

void TcpRun::sendData()
{
    const qint64 intervalNs = qint64(m_req.sampleIntervalMs) * kMsNs;
    const std::size_t streams = std::size_t(m_req.streams); // m_data's first: tcp-bidir receives on the others
    const BulkSender::Block block = BulkSender::pattern(m_req.messageSize, 'a', 26);
    std::vector<BulkSender> senders(streams, BulkSender(block));
    const Fd file = zeroCopySource(senders, block); // open while they send
    std::vector<pollfd> fds(streams);
    for (std::size_t i = 0; i < streams; ++i)
        fds[i] = {m_data[i].get(), POLLOUT, 0};
    auto sentSum = [&] {
        qint64 sum = 0;
        for (const BulkSender &sender : senders)
            sum += sender.sent();
        return sum;
    };
    const qint64 end
        = m_start + (qint64(m_req.durationMs) + m_req.warmupMs) * kMsNs; // the receiver leaves the warm-up out
    qint64 nextCheck = m_start + 10 * kMsNs;
    // The samples are the receiver's count, read as the bytes it has acknowledged (TCP_INFO, every stream) at
    // least 10 ms after the last reading: not the bytes handed to send() (the socket buffer takes megabytes at once
    // and drains after the loop), nor wirebenchd's progress (one report per interval, on its clock, arriving with a
    // delay). Without the counter, the progress reports it is.
    std::vector<qint64> ackedBase(streams);
    for (std::size_t i = 0; i < streams; ++i)
        ackedBase[i] = TcpInfo::of(m_data[i].get()).bytesAcked;
    m_progressIsSampled = ackedBase.front() < 0;
    std::vector<qint64> acked(streams);
    auto sampleAcked = [&] {
        for (std::size_t i = 0; i < streams; ++i) // the FIN counts one
            acked[i]
                = qBound<qint64>(0, TcpInfo::of(m_data[i].get()).bytesAcked - ackedBase[i], qint64(senders[i].sent()));
        m_meter->setReceived(acked);
    };
    while (m_problem.isEmpty()) {
        const qint64 now = nowNs();
        if (now >= end)
            break;
        if (m_observer.stopRequested()) {
            m_stopped = true;
            break;
        }
        const int ready = ::poll(fds.data(), nfds_t(streams), 10);
        for (std::size_t i = 0; ready > 0 && i < streams && m_problem.isEmpty(); ++i) {
            if (fds[i].revents == 0)
                continue;
            if (senders[i].sendBurst(fds[i].fd, MSG_DONTWAIT, kSendBurst) < 0 && errno != EAGAIN && errno != EWOULDBLOCK
                && errno != EINTR)
                m_problem = QStringLiteral("the data connection failed mid-test (%1): check the server's log")
                                .arg(wire::qs(errnoText(errno)));
        }
        if (now >= nextCheck && m_problem.isEmpty()) {
            nextCheck = now + 10 * kMsNs;
            if (m_reverseQueue)
                m_reverseQueue->forwardTo(m_observer); // tcp-bidir: what the receiving thread measured
            drainControl(0);
            if (!m_problem.isEmpty())
                break;
            if (!m_progressIsSampled)
                sampleAcked();
            else if (now - m_lastProgressNs > 2 * intervalNs)
                m_meter->add(0); // the graph shows a stall as one
        }
    }
    if (m_stopped)
        m_ch->write(control::stopMessage(), nullptr, 200);
    for (std::size_t i = 0; i < streams; ++i)
        ::shutdown(m_data[i].get(), SHUT_WR); // the receiver reads to EOF and answers with its count
    m_senderInfo = TcpInfo::of(m_data.front().get());
    for (std::size_t i = 1; i < streams; ++i)
        m_senderInfo.totalRetrans += TcpInfo::of(m_data[i].get()).totalRetrans;
    r.senderBytes = sentSum();
    // Wait for the receiver's count: long after a normal end (draining big buffers on a slow link),
    // briefly after Stop.
    qint64 waitUntil = nowNs() + qint64(m_stopped ? kStopGraceMs : 30000) * kMsNs;
    while (m_problem.isEmpty() && !m_haveResult && nowNs() < waitUntil) {
        // While the socket buffer drains, the last sample ends within a millisecond of the last byte's arrival.
        const bool draining = !m_progressIsSampled && m_meter->total() < r.senderBytes;
        drainControl(draining ? 1 : 100);
        if (m_reverseQueue)
            m_reverseQueue->forwardTo(m_observer);
        if (draining)
            sampleAcked();
        if (!m_stopped && m_observer.stopRequested()) {
            m_stopped = true;
            waitUntil = qMin(waitUntil, nowNs() + qint64(kStopGraceMs) * kMsNs);
        }
    }
    takeSendResult(senders);
}

Fd TcpRun::zeroCopySource(std::vector<BulkSender> &senders, const BulkSender::Block &block)
{
    if (!TcpSettings::fromParams(m_spec.params).zeroCopy)
        return Fd();
    Fd file(platform::Platform::socketCalls().memoryFile(block->data(), block->size()));
    if (!file.valid()) {
        m_zeroCopyNotes << QStringLiteral("zero copy was asked for, but this system cannot send from memory (%1): "
                                          "the data was copied")
                               .arg(wire::qs(errnoText(errno)));
        return file;
    }
    m_zeroCopy << QStringLiteral("sendfile");
    for (std::size_t i = 0; i < senders.size(); ++i) {
        senders[i].sendFrom(file.get());
        setNonBlocking(m_data[i].get(), true); // sendfile has no MSG_DONTWAIT
    }
    return file;
}

void TcpRun::takeSendResult(const std::vector<BulkSender> &senders)
{
    const std::size_t streams = senders.size();
    if (m_haveResult) {
        // What the samples missed, if anything: each stream's share when the receiver has all that was sent (so the
        // live samples' stream shares still add up to the sample), else the sum.
        if (streams > 1 && m_theirs.receivedBytes() == r.senderBytes) {
            std::vector<qint64> sent(streams);
            for (std::size_t i = 0; i < streams; ++i)
                sent[i] = qint64(senders[i].sent());
            m_meter->setReceived(sent);
        }
        m_meter->setReceived(m_theirs.receivedBytes());
        m_meter->finish();
        r.bytes = m_theirs.bytes;
        r.seconds = m_theirs.seconds;
        m_streamBytes.assign(m_theirs.streamBytes.begin(), m_theirs.streamBytes.end());
        if (m_req.warmupMs > 0 && m_theirs.warmupMs != m_req.warmupMs)
            r.warnings << QStringLiteral("wirebenchd at %1 predates warm-up: its figure includes the first %2 s; "
                                         "update wirebenchd there")
                              .arg(m_where)
                              .arg(m_req.warmupMs / 1000.0);
    } else {
        m_meter->finish();
        r.bytes = m_progressBytes; // what the receiver had confirmed
        r.seconds = m_progressSeconds;
        if (m_problem.isEmpty() && !m_stopped)
            m_problem = QStringLiteral("no result from wirebenchd within 30 s after the data: check its log");
    }
    r.mss = m_senderInfo.sndMss;
}

// Reads m_data[first, first + streams) to the server's half-close, each arrival timed. With watchControl it takes in
// the control connection meanwhile (only one thread may read it); without, m_halt ends it early.
TcpRun::Received TcpRun::receiveOn(std::size_t first, std::size_t streams, ThroughputMeter &meter, bool watchControl)
{
    Received out;
    // One stream wakes per chunk (SO_RCVLOWAT); several take every arrival, so that each is timed as it comes. Both
    // ways at once take every arrival too: SO_RCVLOWAT clamps the window, and the ACKs wait behind our own data.
    const bool lowWater = streams == 1 && !m_both;
    const BulkReceiver::Wake wake = lowWater ? BulkReceiver::Wake::LowWater : BulkReceiver::Wake::EveryArrival;
    std::vector<BulkReceiver> receivers(streams,
                                        BulkReceiver(qMax(m_req.messageSize, kMinRecvBuffer), wake, m_req.recvBuffer));
    StreamsWindow window(int(streams), qint64(m_req.warmupMs) * kMsNs);
    std::vector<pollfd> fds(streams);
    for (std::size_t i = 0; i < streams; ++i)
        fds[i] = {m_data[first + i].get(), POLLIN, 0};
    const int flags = m_receiveFlags;
    // The samples count what arrived (read, and waiting in the socket unread), so that a receive buffer read at the
    // end, at the speed of memory, counts when it arrived: on loopback tcp-recv's last sample read 6,000 MB/s of a
    // 1,500 MB/s run.
    const platform::SocketCalls &calls = platform::Platform::socketCalls();
    std::vector<qint64> arrived(streams, 0);
    const auto countArrivals = [&] {
        for (std::size_t i = 0; i < streams; ++i) {
            int unread = 0;
            if (fds[i].fd < 0 || !calls.unreadBytes(fds[i].fd, &unread) || unread < 0)
                unread = 0;
            arrived[i] = qMax(arrived[i], qint64(receivers[i].received()) + unread);
        }
        meter.setReceived(arrived);
    };
    std::size_t open = streams;
    qint64 lastData = m_start;
    qint64 nextCheck = m_start + 100 * kMsNs;
    while (open > 0 && out.problem.isEmpty() && (!watchControl || m_problem.isEmpty()) && !m_halt.load()) {
        if (m_observer.stopRequested()) {
            out.stopped = true;
            break;
        }
        const int ready = ::poll(fds.data(), nfds_t(streams), 100);
        std::int64_t now = nowNs();
        for (std::size_t i = 0; ready > 0 && i < streams && out.problem.isEmpty(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            const ssize_t n = receivers[i].receiveSome(fds[i].fd, flags, &now);
            if (n > 0) {
                lastData = now;
                window.add(int(i), n, now);
            } else if (n == 0) {
                fds[i].fd = -1; // the server's half-close: the end of this stream
                --open;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                out.problem = QStringLiteral("the data connection failed mid-test (%1): check the server's log")
                                  .arg(wire::qs(errnoText(errno)));
            }
        }
        countArrivals(); // a stall shows as intervals of nothing
        if (ready <= 0) {
            if (now - lastData > 10000 * kMsNs)
                out.problem
                    = QStringLiteral("no data from wirebenchd for 10 s: check the network and the server's log");
        }
        if (watchControl && now >= nextCheck && !m_haveResult && out.problem.isEmpty()) {
            nextCheck = now + 100 * kMsNs;
            drainControl(0);
        }
    }
    meter.finish();
    out.bytes = window.measuredBytes();
    out.seconds = window.measuredSeconds();
    if (streams > 1) {
        const std::vector<std::int64_t> perStream = window.streamBytes();
        out.streamBytes.assign(perStream.begin(), perStream.end());
    }
    return out;
}

void TcpRun::receiveData()
{
    const Received ours = receiveOn(0, m_data.size(), *m_meter, true);
    if (m_problem.isEmpty())
        m_problem = ours.problem;
    m_stopped = ours.stopped;
    r.bytes = ours.bytes;
    r.seconds = ours.seconds;
    m_streamBytes = ours.streamBytes;
    if (m_stopped) {
        m_ch->write(control::stopMessage(), nullptr, 200);
    } else if (m_problem.isEmpty()) {
        const qint64 waitUntil = nowNs() + qint64(kHandshakeTimeoutMs) * kMsNs;
        while (m_problem.isEmpty() && !m_haveResult && nowNs() < waitUntil && !m_observer.stopRequested())
            drainControl(100);
        if (m_haveResult)
            answerWithOurCount(ours);
        else if (m_problem.isEmpty() && !m_observer.stopRequested())
            m_problem = QStringLiteral("no result from wirebenchd within %1 s after the data: check its log")
                            .arg(kHandshakeTimeoutMs / 1000);
    }
    if (m_haveResult) {
        r.senderBytes = m_theirs.senderBytes;
        r.mss = m_theirs.mss;
        m_senderInfo.valid = true;
        m_senderInfo.rttUs = m_theirs.rttUs;
        m_senderInfo.rttVarUs = m_theirs.rttVarUs;
        m_senderInfo.totalRetrans = m_theirs.retransmits;
    }
}

// The receiver's count of what the server sent goes back to it, so that its log holds the figure too.
void TcpRun::answerWithOurCount(const Received &ours)
{
    control::Result mine;
    mine.bytes = ours.bytes;
    mine.seconds = ours.seconds;
    mine.senderBytes = m_theirs.senderBytes;
    mine.mss = TcpInfo::of(m_data.back().get()).sndMss;
    mine.streamBytes.assign(ours.streamBytes.begin(), ours.streamBytes.end());
    m_ch->write(mine.toJson(), nullptr, 1000);
}

// tcp-bidir: we send on the first m_req.streams data connections (sendData, which reads the control connection and
// waits for the server's count) while a thread receives on the others; each direction has its own meter, and the live
// graph draws both (the receiving thread's samples reach it through this thread).
void TcpRun::exchangeData()
{
    const std::size_t streams = std::size_t(m_req.streams);
    SampleQueue queued(m_observer); // the second direction's live samples, handed on from this thread
    m_reverseQueue = &queued;
    ThroughputMeter reverseMeter(m_spec.index, m_req.sampleIntervalMs, queued);
    reverseMeter.setStreams(m_req.streams);
    reverseMeter.setReverse(true);
    reverseMeter.setLine(m_spec.host.linkSpeedMbps, m_spec.frameSize); // full duplex: each direction its own line
    reverseMeter.start();
    Received theirs;
    std::thread receiver([&] { theirs = receiveOn(streams, streams, reverseMeter, false); });
    sendData();
    if (!m_problem.isEmpty() || m_stopped)
        m_halt.store(true);
    receiver.join();
    queued.forwardTo(m_observer);
    m_reverseQueue = nullptr;
    if (m_problem.isEmpty())
        m_problem = theirs.problem;
    m_stopped = m_stopped || theirs.stopped;
    RunResult::Reverse reverse;
    reverse.bytes = theirs.bytes;
    reverse.seconds = theirs.seconds;
    reverse.samples = reverseMeter.samples();
    if (m_haveResult) {
        reverse.senderBytes = m_theirs.senderBytes; // sendData took our own sent count for the first direction
        if (m_problem.isEmpty() && !m_stopped)
            answerWithOurCount(theirs);
    }
    r.reverse = reverse;
    if (m_problem.isEmpty() && !m_stopped) {
        if (const QString silent
            = Streams::silentProblem(QList<qint64>(theirs.streamBytes.begin(), theirs.streamBytes.end()));
            !silent.isEmpty())
            m_problem = QStringLiteral("receiving: ") + silent;
    }
    if (streams > 1) {
        QVariantList perStream;
        for (qint64 b : theirs.streamBytes)
            perStream << b;
        r.extra.insert(QStringLiteral("reverse_stream_bytes"), perStream);
    }
}

RunResult TcpRun::finish()
{
    r.samples = m_meter->samples();
    for (Sample &sample : r.samples)
        sample.streamBytes.clear(); // the live graph's per-stream lines are drawn; the result keeps each stream's sum
    if (r.reverse) {
        for (Sample &sample : r.reverse->samples)
            sample.streamBytes.clear();
    }
    if (!m_zeroCopy.isEmpty())
        r.extra.insert(QStringLiteral("zero_copy"), m_zeroCopy.join(QStringLiteral(", ")));
    r.warnings << m_zeroCopyNotes; // the plan asked for what did not happen: the figure is of a copying run
    if (m_req.streams > 1) {
        r.extra.insert(QStringLiteral("streams"), m_req.streams);
        QVariantList perStream;
        for (qint64 b : m_streamBytes)
            perStream << b;
        r.extra.insert(QStringLiteral("stream_bytes"), perStream); // each stream's share of the figure's bytes
    }
    if (m_req.warmupMs > 0)
        r.extra.insert(QStringLiteral("warmup_ms"), m_req.warmupMs); // the samples include it; the figure does not

    const double cpu1 = threadCpuSeconds();
    const double wall = (nowNs() - m_start) / 1e9;
    if (m_cpu0 >= 0 && cpu1 >= 0 && wall > 0)
        r.extra.insert(QStringLiteral("cpu_thread_percent"),
                       (cpu1 - m_cpu0) / wall * 100); // this driver's thread, % of one core
    if (m_haveResult && m_theirs.cpuPercent >= 0)
        r.extra.insert(QStringLiteral("cpu_remote_percent"), m_theirs.cpuPercent);
    if (m_haveResult && !m_theirs.drops.empty())
        r.extra.insert(QStringLiteral("remote_drops"),
                       wire::toQt(m_theirs.drops).toVariantMap()); // RunAnalyzer reads it
    if (m_senderInfo.valid) {
        r.extra.insert(QStringLiteral("rtt_us"), qint64(m_senderInfo.rttUs));
        r.extra.insert(QStringLiteral("rttvar_us"), qint64(m_senderInfo.rttVarUs));
        r.extra.insert(QStringLiteral("retransmits"), qint64(m_senderInfo.totalRetrans));
    }
    if (m_req.mss > 0 && r.mss > m_req.mss) {
        r.warnings << QStringLiteral(
                          "the MSS in use (%1 bytes) is larger than the %2 bytes asked for frame size %3: the "
                          "system ignored TCP_MAXSEG")
                          .arg(r.mss)
                          .arg(m_req.mss)
                          .arg(m_spec.frameSize);
    }

    if (m_stopped || (m_observer.stopRequested() && m_problem.isEmpty())) {
        r.status = RunStatus::Cancelled;
        return r;
    }
    if (!m_problem.isEmpty()) {
        r.status = RunStatus::Failed;
        r.error = m_where + QStringLiteral(": ") + m_problem;
        return r;
    }
    if (const QString silent = Streams::silentProblem(QList<qint64>(m_streamBytes.begin(), m_streamBytes.end()));
        !silent.isEmpty()) {
        r.status = RunStatus::Failed; // the samples and each stream's bytes stay in the result
        r.error = m_where + QStringLiteral(": ") + silent;
        return r;
    }
    r.status = RunStatus::Ok;
    return r;
}

} // namespace

RunResult TcpDriver::run(const RunSpec &spec, RunObserver &observer)
{
    return TcpRun(spec, observer, m_direction).run();
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
        return {{{},
                 {},
                 transferFaultName(TransferFault::Other),
                 QStringLiteral("%1: %2 speaks control protocol version %3, this Wirebench speaks version %4: install "
                                "matching versions")
                     .arg(where, hello.software.empty() ? QStringLiteral("the server") : wire::qs(hello.software))
                     .arg(hello.version)
                     .arg(control::kProtocolVersion)}};
    }
    if (const QString refusal = streamsRefusal(hello, requestedStreams(spec)); !refusal.isEmpty())
        return {{{}, {}, transferFaultName(TransferFault::Other), where + QStringLiteral(": ") + refusal}};
    if (m_direction == Direction::Both && !hello.bidir)
        return {{{}, {}, transferFaultName(TransferFault::Other), where + QStringLiteral(": ") + bidirRefusal(hello)}};
    const bool hasKey = !spec.host.options.value(QLatin1String(kKeyOption)).toString().trimmed().isEmpty();
    if (hello.auth == auth::kAuthHmac && !hasKey) {
        return {{{},
                 {},
                 transferFaultName(TransferFault::LoginRefused),
                 QStringLiteral("%1: this wirebenchd requires a key and the host has none: enter the key wirebenchd "
                                "printed at its first start in the host's settings (wirebench-cli: --key-file FILE)")
                     .arg(where)}};
    }
    return {};
}

} // namespace wb
