#include "Iperf3Driver.h"

#include "identity/IdentityProbeSocket.h"
#include "model/Frame.h"
#include "net/DeadlineSocket.h"
#include "net/TcpInfo.h"
#include "protocols/ThroughputMeter.h"
#include "protocols/transfer/TransferError.h"
#include "wire/QtWire.h"
#include "wire/iperf3/Iperf3Protocol.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QtEndian>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include <netdb.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

namespace wb {

using namespace iperf3;
using net::DeadlineSocket;
using net::IoStatus;
using net::TcpInfo;

namespace {

constexpr int kDefaultTimeoutMs = 10000;
/// An iperf3 server answers "busy" until it has cleaned up after the previous client, which takes a
/// moment after the last byte of that test: the next repetition of a plan must not trip over it.
constexpr int kBusyRetryMs = 8000;
/// A server that accepted our connection answers with PARAM_EXCHANGE at once; silence for this long most
/// likely means the connection sits in the backlog of a listening socket the server is replacing (iperf3
/// re-opens it after each test), so the client connects again (within kBusyRetryMs).
constexpr int kFirstStateMs = 2000;

constexpr char kUdpRateOption[] = "iperf3.udp_rate_Mbps";
constexpr char kUdpLengthOption[] = "iperf3.udp_length";
constexpr int kDefaultUdpRateMbps = 100;
constexpr double kUdpLossWarnPercent = 1.0;
/// The token bucket of a UDP sender holds at most this much time at the target rate: short stalls of
/// a busy machine are made up, a long one is not turned into a burst that overflows the receiver.
constexpr double kUdpBurstSeconds = 0.05;
/// The shortest sleep between UDP sends: below it the sender would spin, above it it sends in bursts.
constexpr qint64 kUdpMinSleepNs = 200000;

/// The clock of iperf3's datagram header (CLOCK_MONOTONIC, as iperf3 3.12 uses): the receiver only
/// looks at differences of transit times, so the two hosts' clocks need not agree.
timespec monotonicNow()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

/// CPU time of the calling thread: the engine's worker does all of a run's I/O.
using CpuTimes = iperf3::ThreadCpuTimes;

/// Thrown nowhere: a run ends through these outcomes, returned up the call chain.
enum class Outcome { Continue, Failed, Cancelled };

/// One run against one iperf3 server: the state machine of an iperf3 client.
class Session
{
public:
    Session(const RunSpec &spec, RunObserver &observer, bool reverse, bool udp, bool bidir = false)
        : m_spec(spec)
        , m_observer(observer)
        , m_reverse(reverse)
        , m_bidir(bidir)
        , m_udp(udp)
        , m_port(spec.host.port ? spec.host.port : kDefaultPort)
        , m_timeoutMs(
              qMax(500, spec.params.options.value(QStringLiteral("iperf3.timeout_ms"), kDefaultTimeoutMs).toInt()))
        , m_meter(spec.index, spec.params.sampleIntervalMs, observer)
        , m_reverseMeter(spec.index, spec.params.sampleIntervalMs, observer)
        , m_stop([&observer] { return observer.stopRequested(); })
    {
        m_result.spec = spec;
        m_result.startedAt = QDateTime::currentDateTime();
        m_reverseMeter.setReverse(true); // --bidir: the live graph's second line
        m_meter.setLine(spec.host.linkSpeedMbps, spec.frameSize);
        m_reverseMeter.setLine(spec.host.linkSpeedMbps, spec.frameSize);
    }

    RunResult run();

private:
    Outcome prepare();
    Outcome connectControl();
    Outcome handshake();
    Outcome prepareUdp();
    Outcome createStreams();
    Outcome createUdpStreams();
    Outcome transfer();
    Outcome transferUdp();
    Outcome controlDuringTest();
    void startDataClock();
    bool dataPhaseRunning(const std::function<void()> &startMeasuring, qint64 *now);
    bool nextRound(const std::function<void()> &startMeasuring, qint64 *now, bool *stopped);
    Outcome afterPoll(int ready, const pollfd &control);
    void beginMeasuring();
    void endMeasuring();
    Outcome finishTest();
    Outcome exchangeResults();
    /// waitMs: how long to wait for the state byte; 0 = the run's timeout.
    Outcome readState(int *state, const QString &expected, bool drain, int waitMs = 0);
    Outcome unexpectedState(int state, const QString &expected);
    Outcome ioFailure(IoStatus status, const DeadlineSocket &socket, const QString &what);
    Outcome fail(const QString &what, const QString &tryText);
    Outcome cancel();
    void composeResult();
    void composeBidirResult(qint64 ourBytes);
    void takeServerSeconds(double serverSeconds);
    void composeUdpResult();
    /// Whether we send on stream i (else the server does).
    bool weSend(size_t i) const { return m_bidir ? i < m_streams.size() / 2 : !m_reverse; }

    QString hostLabel() const
    {
        const QString addr = m_spec.host.address.contains(QLatin1Char(':'))
            ? QStringLiteral("[%1]").arg(m_spec.host.address)
            : m_spec.host.address;
        return QStringLiteral("%1 (%2:%3)").arg(m_spec.host.displayName(), addr).arg(m_port);
    }
    QDeadlineTimer deadline() const { return QDeadlineTimer(m_timeoutMs); }

    const RunSpec &m_spec;
    RunObserver &m_observer;
    const bool m_reverse;
    const bool m_bidir; ///< --bidir: the first half of m_streams we send on, the second half the server does
    const bool m_udp;
    const quint16 m_port;
    const int m_timeoutMs;
    ThroughputMeter m_meter;
    ThroughputMeter m_reverseMeter; ///< --bidir: what we receive
    DeadlineSocket::StopFn m_stop;
    RunResult m_result;

    TestParameters m_params;
    QByteArray m_cookie;
    sockaddr_storage m_address{};
    unsigned m_addressLength = 0;
    int m_mss = 0;
    DeadlineSocket m_control;
    std::vector<DeadlineSocket> m_streams;
    std::vector<qint64> m_measured;    ///< per stream, after the omitted seconds
    std::vector<qint64> m_retransBase; ///< per stream, TCP_INFO at the start of the measurement
    std::vector<qint64> m_retrans;
    TcpInfo m_firstStats;
    double m_localSeconds = 0;
    CpuTimes m_cpu;            ///< used during the measurement
    CpuTimes m_cpuStart;       ///< at the start of the measurement
    QElapsedTimer m_dataClock; ///< from TEST_RUNNING: the omitted seconds, then the measured duration
    qint64 m_omitNs = 0;
    qint64 m_endNs = 0;
    double m_cpuWallSeconds = 0;
    Results m_server;
    bool m_measuring = false; ///< the meter has been started
    bool m_busy = false;      ///< the last failure may clear by itself (ACCESS_DENIED, early close)
    // UDP, per stream: datagrams we sent (the counter of the last one), and the receiver's bookkeeping;
    // the *Base copies are taken when the omitted seconds end.
    std::vector<qint64> m_udpSent;
    std::vector<qint64> m_udpSentBase;
    std::vector<UdpReceiveStats> m_udpStats;
    std::vector<UdpReceiveStats> m_udpBase;
};

RunResult Session::run()
{
    Outcome o = prepare();
    const QDeadlineTimer busyUntil(kBusyRetryMs);
    while (o == Outcome::Continue) {
        o = connectControl();
        if (o == Outcome::Continue)
            o = handshake();
        if (o != Outcome::Failed || !m_busy || busyUntil.hasExpired())
            break;
        // Busy during the first moments: most likely the previous test is still being wrapped up.
        m_streams.clear();
        m_control.close();
        m_busy = false;
        m_result.status = RunStatus::Failed;
        m_result.error.clear();
        for (int i = 0; i < 3 && !m_stop(); ++i)
            ::poll(nullptr, 0, 100);
        if (m_stop())
            o = cancel();
        else
            o = Outcome::Continue;
    }
    if (o == Outcome::Continue)
        o = transfer();
    if (o == Outcome::Continue)
        o = finishTest();
    if (o == Outcome::Continue)
        composeResult();
    m_streams.clear();
    m_control.close();
    m_result.samples = m_meter.samples();
    for (Sample &sample : m_result.samples)
        sample.streamBytes.clear(); // the live graph drew each stream; the result keeps each stream's sum
    return m_result;
}

Outcome Session::fail(const QString &what, const QString &tryText)
{
    if (m_measuring)
        m_meter.finish();
    m_result.status = RunStatus::Failed;
    m_result.error = QStringLiteral("%1: %2: %3").arg(hostLabel(), what, tryText);
    return Outcome::Failed;
}

Outcome Session::cancel()
{
    if (m_measuring)
        m_meter.finish();
    // CLIENT_TERMINATE lets the server end its side and serve the next client at once.
    if (m_control.isOpen()) {
        const char byte = char(ClientTerminate);
        m_control.sendSome(&byte, 1);
    }
    m_result.status = RunStatus::Cancelled;
    m_result.error.clear();
    return Outcome::Cancelled;
}

Outcome Session::ioFailure(IoStatus status, const DeadlineSocket &socket, const QString &what)
{
    switch (status) {
    case IoStatus::Ok:
        return Outcome::Continue;
    case IoStatus::Stopped:
        return cancel();
    case IoStatus::Timeout:
        return fail(QStringLiteral("no answer within %1 s while %2").arg(m_timeoutMs / 1000.0).arg(what),
                    QStringLiteral("check that iperf3 -s is running there and that no firewall drops the traffic"));
    case IoStatus::Closed:
        return fail(QStringLiteral("the server closed the connection while %1").arg(what),
                    QStringLiteral("the iperf3 server may have stopped or restarted; check it and run again"));
    case IoStatus::Failed:
        return fail(QStringLiteral("%1 failed (%2)").arg(what, socket.lastError()),
                    QStringLiteral("check the network path to the server"));
    }
    return Outcome::Failed;
}

Outcome Session::prepare()
{
    const TestParams &p = m_spec.params;
    if (p.streams < 1 || p.streams > kMaxStreams)
        return fail(QStringLiteral("%1 parallel streams requested").arg(p.streams),
                    QStringLiteral("iperf3 accepts 1 to %1 streams").arg(kMaxStreams));
    if (p.durationMs <= 0)
        return fail(QStringLiteral("a test of %1 ms was requested").arg(p.durationMs),
                    QStringLiteral("set a duration of at least 1 s"));
    m_params.reverse = m_reverse;
    m_params.bidirectional = m_bidir;
    m_params.parallel = p.streams;
    // iperf3 counts time and omit in whole seconds; the server resets its counters when its omit
    // timer fires, so ours must fire at the same moment.
    m_params.timeSeconds = int(std::ceil(p.durationMs / 1000.0));
    m_params.omitSeconds = int(std::ceil(qMax(0, p.warmupMs) / 1000.0));
    if (m_params.omitSeconds * 1000 != qMax(0, p.warmupMs))
        m_result.warnings << QStringLiteral("iperf3 omits whole seconds: the warm-up of %1 ms was rounded up to %2 s")
                                 .arg(p.warmupMs)
                                 .arg(m_params.omitSeconds);
    m_params.blockSize = qBound(1, p.messageSize, kMaxBlockSize);
    if (m_udp) {
        if (Outcome o = prepareUdp(); o != Outcome::Continue)
            return o;
    } else if (m_params.blockSize != p.messageSize)
        m_result.warnings << QStringLiteral(
                                 "iperf3 writes at most %1 B at a time: the message size of %2 B was set to %3 B")
                                 .arg(kMaxBlockSize)
                                 .arg(p.messageSize)
                                 .arg(m_params.blockSize);
    // The server sets one size for both of its buffers (-w): the one for its role.
    const int serverSide = m_reverse ? p.sendBufferBytes : p.recvBufferBytes;
    m_params.window = serverSide > 0 ? serverSide : qMax(p.sendBufferBytes, p.recvBufferBytes);
    if (m_spec.frameSize > 0 && !m_udp) {
        m_mss = Frame::maxSegFor(m_spec.frameSize, false); // IPv6's is set once the address is known
        if (m_mss < 88 || m_mss > kMaxMss)
            return fail(QStringLiteral("frame size %1 B gives an MSS of %2 B").arg(m_spec.frameSize).arg(m_mss),
                        QStringLiteral("iperf3 accepts an MSS of 88 to %1 B; pick a frame size of 128 to %2 B")
                            .arg(kMaxMss)
                            .arg(Frame::frameOf(kMaxMss, false, false)));
        m_params.mss = m_mss;
    }
    m_cookie = wire::qb(makeCookie());
    const size_t streams = size_t(p.streams) * (m_bidir ? 2 : 1); // --bidir: each way
    m_measured.assign(streams, 0);
    m_retransBase.assign(streams, 0);
    m_retrans.assign(streams, 0);
    m_udpSent.assign(size_t(p.streams), 0);
    m_udpSentBase.assign(size_t(p.streams), 0);
    m_udpStats.assign(size_t(p.streams), UdpReceiveStats());
    m_udpBase.assign(size_t(p.streams), UdpReceiveStats());
    if (!m_udp) { // TCP: the live graph's line of each stream, on request
        m_meter.setStreams(p.streams);
        m_reverseMeter.setStreams(p.streams);
    }
    return Outcome::Continue;
}

Outcome Session::prepareUdp()
{
    const QVariantMap &options = m_spec.host.options;
    const qint64 rateMbps = options.value(QLatin1String(kUdpRateOption), kDefaultUdpRateMbps).toLongLong();
    if (rateMbps < 1 || rateMbps > 1000000)
        return fail(QStringLiteral("a UDP target rate of %1 Mbit/s was requested").arg(rateMbps),
                    QStringLiteral("set the host option %1 to 1 to 1000000 (Mbit/s, 10^6 bit/s per stream)")
                        .arg(QLatin1String(kUdpRateOption)));
    // iperf3's -l for UDP: one datagram's payload. A frame of F bytes (IP packet) carries F - 28 B
    // of it behind the IPv4 (20 B) and UDP (8 B) headers.
    int length = options.value(QLatin1String(kUdpLengthOption), 0).toInt();
    QString source = QStringLiteral("the host option %1").arg(QLatin1String(kUdpLengthOption));
    if (length <= 0) {
        length = m_spec.frameSize > 0 ? Frame::datagramFor(m_spec.frameSize) : kDefaultUdpBlockSize;
        source = QStringLiteral("frame size %1 B - 28 B").arg(m_spec.frameSize);
    }
    if (length < kMinUdpBlockSize || length > kMaxUdpBlockSize)
        return fail(QStringLiteral("a UDP datagram of %1 B was requested (%2)").arg(length).arg(source),
                    QStringLiteral("iperf3 sends %1 to %2 B per datagram; set %3 or a frame size of %4 to 65535 B")
                        .arg(kMinUdpBlockSize)
                        .arg(kMaxUdpBlockSize)
                        .arg(QLatin1String(kUdpLengthOption))
                        .arg(Frame::frameOfDatagram(kMinUdpBlockSize)));
    m_params.udp = true;
    m_params.bandwidth = rateMbps * 1000000;
    m_params.blockSize = length;
    return Outcome::Continue;
}

Outcome Session::connectControl()
{
    m_observer.status(QStringLiteral("connecting to iperf3 on %1").arg(hostLabel()));
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *list = nullptr;
    const QByteArray node = m_spec.host.address.toUtf8();
    const QByteArray service = QByteArray::number(m_port);
    const int rc = ::getaddrinfo(node.constData(), service.constData(), &hints, &list);
    if (rc != 0 || !list) {
        m_result.extra.insert(QStringLiteral("fault"), transferFaultName(TransferFault::Unreachable));
        return fail(QStringLiteral("cannot resolve \"%1\" (%2)")
                        .arg(m_spec.host.address, QString::fromLocal8Bit(gai_strerror(rc))),
                    QStringLiteral("check the host's address"));
    }
    IoStatus status = IoStatus::Failed;
    // An iperf3 server re-opens its listening socket around a test (when the client set -M or -w),
    // so a refusal right after the previous test is retried for a moment before it counts.
    QDeadlineTimer refusedUntil(2000);
    for (;;) {
        for (addrinfo *ai = list; ai; ai = ai->ai_next) {
            status = m_control.connectTo(ai->ai_addr, ai->ai_addrlen, 0, 0, 0, deadline(), m_stop);
            if (status == IoStatus::Ok) {
                std::memcpy(&m_address, ai->ai_addr, ai->ai_addrlen);
                m_addressLength = ai->ai_addrlen;
                if (m_mss > 0 && ai->ai_family == AF_INET6)
                    m_params.mss = m_mss = Frame::maxSegFor(m_spec.frameSize, true);
                break;
            }
            if (status == IoStatus::Stopped)
                break;
        }
        const int err = m_control.lastErrno();
        if (status != IoStatus::Failed || (err != ECONNREFUSED && err != ECONNRESET) || refusedUntil.hasExpired()
            || m_stop())
            break;
        ::poll(nullptr, 0, 100);
    }
    ::freeaddrinfo(list);
    if (status == IoStatus::Stopped)
        return cancel();
    if (status == IoStatus::Timeout)
        return fail(QStringLiteral("no answer to the connection within %1 s").arg(m_timeoutMs / 1000.0),
                    QStringLiteral("check the address, the port and any firewall"));
    if (status != IoStatus::Ok) {
        m_result.extra.insert(QStringLiteral("fault"), transferFaultName(connectFault(m_control.lastErrno())));
        if (m_control.lastErrno() == ECONNREFUSED)
            return fail(QStringLiteral("connection refused"),
                        QStringLiteral("start \"iperf3 -s -p %1\" on the host or correct the port").arg(m_port));
        return fail(QStringLiteral("cannot connect (%1)").arg(m_control.lastError()),
                    QStringLiteral("check the address, the port and the network path"));
    }
    const IoStatus sent = m_control.writeAll(m_cookie.constData(), m_cookie.size(), deadline(), m_stop);
    m_busy = sent == IoStatus::Closed; // reset by a listening socket being replaced: worth another try
    return ioFailure(sent, m_control, QStringLiteral("sending the iperf3 cookie"));
}

Outcome Session::readState(int *state, const QString &expected, bool drain, int waitMs)
{
    // While we wait on the control connection, a receiving client keeps reading its data streams, so
    // that a server still blocked in a write can reach its control handling.
    waitMs = waitMs > 0 ? qMin(waitMs, m_timeoutMs) : m_timeoutMs;
    const QDeadlineTimer until(waitMs);
    std::vector<pollfd> fds(1 + (drain ? m_streams.size() : 0));
    static thread_local QByteArray sink(256 * 1024, '\0');
    for (;;) {
        if (m_stop())
            return cancel();
        if (until.hasExpired()) {
            m_busy = expected == wire::qs(stateName(ParamExchange)); // see kFirstStateMs
            return fail(QStringLiteral("no %1 from the server within %2 s").arg(expected).arg(waitMs / 1000.0),
                        QStringLiteral("is this port an iperf3 server? check that iperf3 -s is running and reachable"));
        }
        fds[0] = {m_control.fd(), POLLIN, 0};
        for (size_t i = 1; i < fds.size(); ++i)
            fds[i] = {m_streams[i - 1].fd(), POLLIN, 0};
        const int n
            = ::poll(fds.data(), nfds_t(fds.size()), int(qBound(qint64(1), until.remainingTime(), qint64(100))));
        if (n < 0 && errno != EINTR)
            return fail(QStringLiteral("poll failed (%1)").arg(QString::fromLocal8Bit(std::strerror(errno))),
                        QStringLiteral("run again"));
        for (size_t i = 1; i < fds.size(); ++i) {
            if (fds[i].revents)
                m_streams[i - 1].recvSome(sink.data(), sink.size()); // discarded: the test has ended
        }
        if (n > 0 && fds[0].revents)
            break;
    }
    signed char byte = 0;
    const IoStatus status = m_control.readExact(reinterpret_cast<char *>(&byte), 1, deadline(), m_stop);
    if (status == IoStatus::Closed) {
        // Closed before its first byte: the connection most likely sat in the backlog of a listening
        // socket that the server closed while re-opening it after the previous test; worth a retry.
        m_busy = expected == wire::qs(stateName(ParamExchange));
        return fail(QStringLiteral("the server closed the control connection while we waited for %1").arg(expected),
                    QStringLiteral("the iperf3 server stopped, crashed or refused us; check it and run again"));
    }
    if (status != IoStatus::Ok)
        return ioFailure(status, m_control, QStringLiteral("waiting for %1").arg(expected));
    *state = byte;
    return Outcome::Continue;
}

Outcome Session::unexpectedState(int state, const QString &expected)
{
    switch (state) {
    case AccessDenied:
        m_busy = true;
        return fail(QStringLiteral("the server is busy running a test: iperf3 serves one client at a time"),
                    QStringLiteral("try again when its current test has ended"));
    case ServerTerminate:
        return fail(QStringLiteral("the iperf3 server was stopped during the test"),
                    QStringLiteral("restart iperf3 -s on the host and run again"));
    case ServerError: {
        // SERVER_ERROR is followed by iperf3's error number and the server's errno (4 bytes each);
        // some paths send only the first before closing.
        QByteArray codes(8, '\0');
        const IoStatus first = m_control.readExact(codes.data(), 4, QDeadlineTimer(2000), m_stop);
        if (first == IoStatus::Stopped)
            return cancel();
        if (first != IoStatus::Ok)
            return fail(QStringLiteral("the server reported an error without saying which"),
                        QStringLiteral("look at the iperf3 server's output"));
        const int code = qFromBigEndian<qint32>(codes.constData());
        int sysErrno = 0;
        if (m_control.readExact(codes.data() + 4, 4, QDeadlineTimer(500), m_stop) == IoStatus::Ok)
            sysErrno = qFromBigEndian<qint32>(codes.constData() + 4);
        if (code == ErrAuthTest)
            return fail(
                QStringLiteral("the iperf3 server refused the test's authorization: it requires iperf3's RSA "
                               "authentication (--rsa-private-key-path), which Wirebench does not support yet, or "
                               "its allow-list (wirebenchd --allow) leaves this computer out"),
                QStringLiteral("run iperf3 -s without authentication for this host, or allow this computer's network"));
        if (code == ErrAccessDenied)
            return unexpectedState(AccessDenied, expected);
        QString what = wire::qs(serverErrorText(code));
        if (sysErrno > 0 && sysErrno < 4096)
            what += QStringLiteral(" (%1)").arg(QString::fromLocal8Bit(std::strerror(sysErrno)));
        return fail(what, QStringLiteral("look at the iperf3 server's output and adjust the plan"));
    }
    default:
        if (!isKnownState(state))
            return fail(
                QStringLiteral("unexpected reply (byte %1) where iperf3 sends %2").arg(state).arg(expected),
                QStringLiteral("this is not an iperf3 server, or a version that speaks differently; check the port"));
        return fail(
            QStringLiteral("the server sent %1 where %2 was expected").arg(wire::qs(stateName(state)), expected),
            QStringLiteral("this iperf3 version speaks differently; report its version (iperf3 --version)"));
    }
}

Outcome Session::handshake()
{
    m_observer.status(QStringLiteral("starting an iperf3 test on %1").arg(hostLabel()));
    bool paramsSent = false;
    bool streamsCreated = false;
    for (;;) {
        const QString expected = wire::qs(!paramsSent           ? stateName(ParamExchange)
                                              : !streamsCreated ? stateName(CreateStreams)
                                                                : stateName(TestRunning));
        int state = 0;
        if (Outcome o = readState(&state, expected, false, paramsSent ? 0 : kFirstStateMs); o != Outcome::Continue)
            return o;
        if (state == ParamExchange && !paramsSent) {
            const QByteArray message = wire::qb(frameJson(m_params.toJson()));
            const IoStatus s = m_control.writeAll(message.constData(), message.size(), deadline(), m_stop);
            if (Outcome o = ioFailure(s, m_control, QStringLiteral("sending the test parameters"));
                o != Outcome::Continue)
                return o;
            paramsSent = true;
        } else if (state == CreateStreams && paramsSent && !streamsCreated) {
            if (Outcome o = createStreams(); o != Outcome::Continue)
                return o;
            streamsCreated = true;
        } else if (state == TestStart && streamsCreated) {
            continue;
        } else if (state == TestRunning && streamsCreated) {
            return Outcome::Continue;
        } else {
            return unexpectedState(state, expected);
        }
    }
}

Outcome Session::createStreams()
{
    // One after another: the server numbers streams in the order it accepts them (1, 3, 4, ...), and
    // the results exchange refers to those numbers.
    if (m_udp)
        return createUdpStreams();
    const TestParams &p = m_spec.params;
    const int count = p.streams * (m_bidir ? 2 : 1); // --bidir: ours to send first, then the server's
    for (int i = 0; i < count; ++i) {
        DeadlineSocket s;
        IoStatus status = s.connectTo(reinterpret_cast<const sockaddr *>(&m_address), m_addressLength, m_mss,
                                      p.sendBufferBytes, p.recvBufferBytes, deadline(), m_stop);
        if (status == IoStatus::Ok)
            status = s.writeAll(m_cookie.constData(), m_cookie.size(), deadline(), m_stop);
        if (status != IoStatus::Ok)
            return ioFailure(status, s, QStringLiteral("opening data stream %1 of %2").arg(i + 1).arg(count));
        if (!s.optionWarning().isEmpty() && i == 0)
            m_result.warnings << s.optionWarning();
        m_streams.push_back(std::move(s));
    }
    return Outcome::Continue;
}

Outcome Session::createUdpStreams()
{
    // A UDP stream exists for the server once it has our connect datagram: it connects its socket to
    // our address, answers, and opens a fresh one on the same port for the next stream.
    const TestParams &p = m_spec.params;
    const QByteArray hello = wire::qb(udpConnectMessage());
    for (int i = 0; i < p.streams; ++i) {
        DeadlineSocket s;
        const QString which = QStringLiteral("UDP data stream %1 of %2").arg(i + 1).arg(p.streams);
        if (s.connectDatagram(reinterpret_cast<const sockaddr *>(&m_address), m_addressLength, p.sendBufferBytes,
                              p.recvBufferBytes)
            != IoStatus::Ok)
            return fail(QStringLiteral("cannot open %1 (%2)").arg(which, s.lastError()),
                        QStringLiteral("check the address and the network path"));
        if (s.sendSome(hello.constData(), hello.size()) != hello.size())
            return fail(QStringLiteral("cannot send the connect datagram of %1 (%2)").arg(which, s.lastError()),
                        QStringLiteral("check the network path to the server"));
        QByteArray reply(4, '\0');
        const IoStatus status = s.readExact(reply.data(), reply.size(), deadline(), m_stop);
        if (status == IoStatus::Timeout)
            return fail(QStringLiteral("no answer to the connect datagram of %1 within %2 s")
                            .arg(which)
                            .arg(m_timeoutMs / 1000.0),
                        QStringLiteral("check that no firewall drops UDP to port %1 on the host").arg(m_port));
        if (status != IoStatus::Ok)
            return ioFailure(status, s, QStringLiteral("opening %1").arg(which));
        if (!isUdpConnectReply(wire::sb(reply)))
            return fail(
                QStringLiteral("unexpected answer to the connect datagram of %1 (bytes %2)")
                    .arg(which, QString::fromLatin1(reply.toHex())),
                QStringLiteral("this iperf3 version speaks differently; report its version (iperf3 --version)"));
        if (!s.optionWarning().isEmpty() && i == 0)
            m_result.warnings << s.optionWarning();
        m_streams.push_back(std::move(s));
    }
    return Outcome::Continue;
}

Outcome Session::controlDuringTest()
{
    // The server speaks during the test only to end it.
    signed char byte = 0;
    const qint64 got = m_control.recvSome(reinterpret_cast<char *>(&byte), 1);
    if (got == -2 || got == -1)
        return fail(QStringLiteral("the server closed the control connection in the middle of the test"),
                    QStringLiteral("the iperf3 server stopped or crashed; check it and run again"));
    if (got == 1)
        return unexpectedState(byte, QStringLiteral("nothing during the test"));
    return Outcome::Continue;
}

void Session::startDataClock()
{
    m_omitNs = qint64(m_params.omitSeconds) * 1000000000;
    m_endNs = m_omitNs + qint64(m_spec.params.durationMs) * 1000000;
    m_dataClock.start();
}

/// Where the data phase stands: *now is the time since TEST_RUNNING, startMeasuring runs once the
/// omitted seconds are over, false once the measured duration is over too.
bool Session::dataPhaseRunning(const std::function<void()> &startMeasuring, qint64 *now)
{
    *now = m_dataClock.nsecsElapsed();
    if (!m_measuring && *now >= m_omitNs)
        startMeasuring();
    return *now < m_endNs;
}

/// The head of each round of the data phase: false once Stop is asked (*stopped: the caller cancels) or the
/// data phase is over (dataPhaseRunning), looking at Stop first.
bool Session::nextRound(const std::function<void()> &startMeasuring, qint64 *now, bool *stopped)
{
    *stopped = m_stop();
    return !*stopped && dataPhaseRunning(startMeasuring, now);
}

/// After a round's poll() on the control connection and the streams: a failed poll fails the run; a message
/// from the server is read at once (controlDuringTest).
Outcome Session::afterPoll(int ready, const pollfd &control)
{
    if (ready < 0 && errno != EINTR)
        return fail(QStringLiteral("poll failed (%1)").arg(QString::fromLocal8Bit(std::strerror(errno))),
                    QStringLiteral("run again"));
    if (ready > 0 && control.revents)
        return controlDuringTest();
    return Outcome::Continue;
}

void Session::beginMeasuring()
{
    m_measuring = true;
    m_meter.start();
    if (m_bidir)
        m_reverseMeter.start();
    m_cpuStart = CpuTimes::now();
}

void Session::endMeasuring()
{
    m_meter.finish();
    if (m_bidir)
        m_reverseMeter.finish();
    m_localSeconds = m_meter.elapsedSeconds();
    const CpuTimes cpuEnd = CpuTimes::now();
    m_cpu.user = cpuEnd.user - m_cpuStart.user;
    m_cpu.system = cpuEnd.system - m_cpuStart.system;
    m_cpuWallSeconds = m_localSeconds;
}

Outcome Session::transfer()
{
    if (m_udp)
        return transferUdp();
    const QString doing = m_bidir ? QStringLiteral("sending to and receiving from")
        : m_reverse               ? QStringLiteral("receiving from")
                                  : QStringLiteral("sending to");
    m_observer.status(QStringLiteral("iperf3 %1 %2").arg(doing, hostLabel()));
    const size_t n = m_streams.size();
    const int chunk = m_reverse || m_bidir ? qMax(m_params.blockSize, 128 * 1024) : m_params.blockSize;
    QByteArray buffer(chunk, '\0');
    for (int i = 0; i < chunk; ++i)
        buffer[i] = char('0' + i % 10); // what iperf3 sends when asked for a repeating payload
    std::vector<pollfd> fds(1 + n);

    // Sending, the samples are the receiver's count: the bytes the server has acknowledged on the streams
    // (TCP_INFO), not the bytes written (the socket buffers take megabytes at once). Without the counter, or
    // receiving, the bytes this computer moved. --bidir: the live meter follows what we send, the second what
    // we receive.
    std::vector<qint64> ackedBase(n, -1);
    bool sampleAcks = m_bidir || !m_reverse;
    auto startMeasuring = [&] {
        beginMeasuring();
        for (size_t i = 0; i < n; ++i) {
            m_retransBase[i] = TcpInfo::of(m_streams[i].fd()).totalRetrans;
            ackedBase[i] = TcpInfo::of(m_streams[i].fd()).bytesAcked;
            sampleAcks = sampleAcks && (!weSend(i) || ackedBase[i] >= 0);
        }
    };
    // Each stream's count, so that the live graph can draw each stream's line; the meters add them up.
    std::vector<qint64> ours(size_t(m_params.parallel), 0);
    std::vector<qint64> theirs(m_bidir ? ours.size() : 0, 0);
    auto sample = [&] {
        size_t mine = 0;
        size_t other = 0;
        for (size_t i = 0; i < n; ++i) {
            if (m_bidir && !weSend(i)) {
                theirs[other++] = m_measured[i];
            } else if (sampleAcks && weSend(i)) {
                // What was in flight when the measurement began counts once.
                ours[mine++]
                    = qMin(qMax<qint64>(0, TcpInfo::of(m_streams[i].fd()).bytesAcked - ackedBase[i]), m_measured[i]);
            } else {
                ours[mine++] = m_measured[i];
            }
        }
        if (m_bidir)
            m_reverseMeter.setReceived(theirs);
        m_meter.setReceived(ours);
    };
    startDataClock();
    bool stopped = false;
    for (qint64 now = 0; nextRound(startMeasuring, &now, &stopped);) {
        const int waitMs = int(qBound(qint64(1), (m_endNs - now) / 1000000, qint64(50)));
        fds[0] = {m_control.fd(), POLLIN, 0};
        for (size_t i = 0; i < n; ++i)
            fds[i + 1] = {m_streams[i].fd(), short(weSend(i) ? POLLOUT : POLLIN), 0};
        const int ready = ::poll(fds.data(), nfds_t(fds.size()), waitMs);
        if (Outcome o = afterPoll(ready, fds[0]); o != Outcome::Continue)
            return o;
        for (size_t i = 0; ready > 0 && i < n; ++i) {
            const short revents = fds[i + 1].revents;
            if (!revents)
                continue;
            DeadlineSocket &s = m_streams[i];
            const bool sending = weSend(i);
            for (int k = 0; k < 16; ++k) {
                const qint64 got = sending ? s.sendSome(buffer.constData(), chunk) : s.recvSome(buffer.data(), chunk);
                if (got == 0)
                    break;
                if (got < 0) {
                    const QString why = got == -2 ? QStringLiteral("closed") : s.lastError();
                    return fail(
                        QStringLiteral("data stream %1 was cut in the middle of the test (%2)").arg(i + 1).arg(why),
                        QStringLiteral("the iperf3 server stopped or the path failed; check it and run again"));
                }
                if (m_measuring)
                    m_measured[i] += got;
                if (!sending && got < chunk)
                    break;
            }
        }
        if (m_measuring)
            sample();
    }
    if (stopped)
        return cancel();
    endMeasuring();
    for (size_t i = 0; i < n; ++i) {
        const TcpInfo stats = TcpInfo::of(m_streams[i].fd());
        if (i == 0)
            m_firstStats = stats;
        m_retrans[i] = qMax<qint64>(0, stats.totalRetrans - m_retransBase[i]);
    }
    return Outcome::Continue;
}

Outcome Session::transferUdp()
{
    const double targetMbps = m_params.bandwidth / 1e6;
    m_observer.status(QStringLiteral("iperf3 UDP %1 %2 at %3 Mbit/s per stream")
                          .arg(m_reverse ? QStringLiteral("receiving from") : QStringLiteral("sending to"), hostLabel())
                          .arg(targetMbps));
    const size_t n = m_streams.size();
    const int length = m_params.blockSize;
    // Received datagrams may be longer than the one we asked for; a receive buffer of the largest
    // possible keeps the kernel from truncating them.
    QByteArray datagram(m_reverse ? kMaxUdpBlockSize : length, '\0');
    for (int i = kUdpHeaderSize; i < length; ++i)
        datagram[i] = char('0' + i % 10);
    std::vector<pollfd> fds(1 + n);
    // A token bucket per stream, filled at the target rate on a steady clock; the first datagram may
    // leave at once.
    const double bytesPerNs = double(m_params.bandwidth) / 8.0 / 1e9;
    const double maxCredit = qMax(4.0 * length, double(m_params.bandwidth) / 8.0 * kUdpBurstSeconds);
    std::vector<double> credit(n, double(length));
    std::vector<char> blocked(n, 0);
    qint64 lastNs = 0;

    auto startMeasuring = [&] {
        beginMeasuring();
        m_udpSentBase = m_udpSent;
        m_udpBase = m_udpStats;
    };
    startDataClock();
    bool stopped = false;
    for (qint64 now = 0; nextRound(startMeasuring, &now, &stopped);) {
        qint64 round = 0;
        qint64 waitNs = qMin<qint64>(m_endNs - now, 50000000);
        if (!m_reverse) {
            const double grown = double(now - lastNs) * bytesPerNs;
            lastNs = now;
            for (size_t i = 0; i < n; ++i) {
                credit[i] = qMin(maxCredit, credit[i] + grown);
                blocked[i] = 0;
                while (credit[i] >= length) {
                    const timespec ts = monotonicNow();
                    const UdpHeader header{quint32(ts.tv_sec), quint32(ts.tv_nsec / 1000), quint64(m_udpSent[i] + 1)};
                    header.write(datagram.data());
                    const qint64 sent = m_streams[i].sendSome(datagram.constData(), length);
                    if (sent == 0) {
                        blocked[i] = 1; // the socket buffer is full: wait until it drains
                        break;
                    }
                    if (sent < 0)
                        return fail(
                            QStringLiteral("UDP data stream %1 failed in the middle of the test (%2)")
                                .arg(i + 1)
                                .arg(m_streams[i].lastError()),
                            QStringLiteral("the iperf3 server stopped or the path failed; check it and run again"));
                    ++m_udpSent[i];
                    credit[i] -= length;
                    round += sent;
                    if (m_measuring)
                        m_measured[i] += sent;
                }
                if (!blocked[i])
                    waitNs = qMin(waitNs, qint64((length - credit[i]) / bytesPerNs));
            }
            waitNs = qMax(waitNs, kUdpMinSleepNs);
        }
        fds[0] = {m_control.fd(), POLLIN, 0};
        for (size_t i = 0; i < n; ++i)
            fds[i + 1] = {m_streams[i].fd(), short(m_reverse ? POLLIN : (blocked[i] ? POLLOUT : 0)), 0};
        const timespec timeout{time_t(waitNs / 1000000000), long(waitNs % 1000000000)};
        const int ready = ::ppoll(fds.data(), nfds_t(fds.size()), &timeout, nullptr);
        if (Outcome o = afterPoll(ready, fds[0]); o != Outcome::Continue)
            return o;
        for (size_t i = 0; m_reverse && ready > 0 && i < n; ++i) {
            if (!fds[i + 1].revents)
                continue;
            for (int k = 0; k < 256; ++k) {
                const qint64 got = m_streams[i].recvSome(datagram.data(), datagram.size());
                if (got == 0)
                    break;
                if (got == -2)
                    continue; // an empty datagram: nothing iperf3 sends, nothing to count
                if (got < 0)
                    return fail(QStringLiteral("UDP data stream %1 failed in the middle of the test (%2)")
                                    .arg(i + 1)
                                    .arg(m_streams[i].lastError()),
                                QStringLiteral("the iperf3 server stopped or the path failed; check it and run again"));
                const timespec arrival = monotonicNow();
                UdpHeader header;
                if (UdpHeader::read(datagram.constData(), got, false, &header))
                    m_udpStats[i].add(header.counter, header.sec + header.usec / 1e6,
                                      arrival.tv_sec + arrival.tv_nsec / 1e9);
                round += got;
                if (m_measuring)
                    m_measured[i] += got;
            }
        }
        if (m_measuring)
            m_meter.add(round);
    }
    if (stopped)
        return cancel();
    endMeasuring();
    return Outcome::Continue;
}

Outcome Session::finishTest()
{
    const char end = char(TestEnd);
    if (Outcome o
        = ioFailure(m_control.writeAll(&end, 1, deadline(), m_stop), m_control, QStringLiteral("ending the test"));
        o != Outcome::Continue)
        return o;
    m_observer.status(QStringLiteral("collecting iperf3 results from %1").arg(hostLabel()));
    int state = 0;
    if (Outcome o = readState(&state, wire::qs(stateName(ExchangeResults)), m_reverse || m_bidir);
        o != Outcome::Continue)
        return o;
    if (state != ExchangeResults)
        return unexpectedState(state, wire::qs(stateName(ExchangeResults)));
    if (Outcome o = exchangeResults(); o != Outcome::Continue)
        return o;
    if (Outcome o = readState(&state, wire::qs(stateName(DisplayResults)), m_reverse || m_bidir);
        o != Outcome::Continue)
        return o;
    if (state != DisplayResults)
        return unexpectedState(state, wire::qs(stateName(DisplayResults)));
    const char done = char(IperfDone);
    m_control.writeAll(&done, 1, QDeadlineTimer(1000), m_stop); // the figures are in; a lost goodbye is harmless
    return Outcome::Continue;
}

Outcome Session::exchangeResults()
{
    Results ours;
    const double wall = qMax(1e-9, m_cpuWallSeconds);
    ours.cpuUser = 100.0 * m_cpu.user / wall;
    ours.cpuSystem = 100.0 * m_cpu.system / wall;
    ours.cpuTotal = ours.cpuUser + ours.cpuSystem;
    ours.senderHasRetransmits = m_reverse && !m_bidir ? -1 : (m_udp ? 0 : 1);
    for (size_t i = 0; i < m_streams.size(); ++i) {
        StreamResult s;
        s.id = streamId(int(i));
        s.bytes = m_measured[i];
        s.retransmits = !weSend(i) || m_udp ? -1 : int(m_retrans[i]);
        s.endTime = m_localSeconds;
        if (m_udp && m_reverse) {
            s.jitter = m_udpStats[i].jitter;
            s.errors = m_udpStats[i].lost - m_udpBase[i].lost;
            s.packets = m_udpStats[i].packets - m_udpBase[i].packets;
        } else if (m_udp) {
            s.packets = m_udpSent[i] - m_udpSentBase[i];
        }
        ours.streams.push_back(s);
    }
    const QByteArray message = wire::qb(frameJson(ours.toJson()));
    if (Outcome o = ioFailure(m_control.writeAll(message.constData(), message.size(), deadline(), m_stop), m_control,
                              QStringLiteral("sending our results"));
        o != Outcome::Continue)
        return o;

    QByteArray prefix(4, '\0');
    if (Outcome o = ioFailure(m_control.readExact(prefix.data(), 4, deadline(), m_stop), m_control,
                              QStringLiteral("reading the server's results"));
        o != Outcome::Continue)
        return o;
    const qint64 length = decodeJsonLength(wire::sb(prefix));
    if (length < 0)
        return fail(QStringLiteral("the server announced results of an impossible length"),
                    QStringLiteral("this iperf3 version speaks differently; report its version (iperf3 --version)"));
    QByteArray json(length, '\0');
    if (Outcome o = ioFailure(m_control.readExact(json.data(), length, deadline(), m_stop), m_control,
                              QStringLiteral("reading the server's results"));
        o != Outcome::Continue)
        return o;
    std::string why;
    if (!Results::fromJson(wire::sb(json), &m_server, &why))
        return fail(QStringLiteral("the server's results could not be read: %1").arg(wire::qs(why)),
                    QStringLiteral("this iperf3 version speaks differently; report its version (iperf3 --version)"));
    return Outcome::Continue;
}

void Session::composeResult()
{
    qint64 ourBytes = 0;
    for (qint64 b : m_measured)
        ourBytes += b;
    const qint64 serverBytes = m_server.totalBytes();
    const double serverSeconds = m_server.longestSeconds();
    if (m_bidir) {
        composeBidirResult(ourBytes);
    } else if (m_reverse) {
        m_result.bytes = ourBytes;
        m_result.seconds = m_localSeconds;
        m_result.senderBytes = serverBytes;
    } else {
        m_result.bytes = serverBytes;
        m_result.senderBytes = ourBytes;
        takeServerSeconds(serverSeconds);
    }
    m_result.extra.insert(QStringLiteral("server_bytes"), serverBytes);
    m_result.extra.insert(QStringLiteral("server_seconds"), serverSeconds);
    m_result.extra.insert(QStringLiteral("server_cpu_percent"), m_server.cpuTotal);
    m_result.extra.insert(QStringLiteral("cpu_local_percent"),
                          m_cpuWallSeconds > 0 ? 100.0 * (m_cpu.user + m_cpu.system) / m_cpuWallSeconds : 0.0);
    m_result.extra.insert(QStringLiteral("streams"), int(m_streams.size()) / (m_bidir ? 2 : 1)); // each way
    if (m_params.omitSeconds > 0)
        m_result.extra.insert(QStringLiteral("warmup_ms"), m_params.omitSeconds * 1000); // iperf3 -O, whole seconds
    if (m_udp) {
        composeUdpResult();
    } else {
        m_result.mss = m_firstStats.sndMss;
        m_result.extra.insert(QStringLiteral("rtt_us"), qint64(m_firstStats.rttUs));
        m_result.extra.insert(QStringLiteral("rcv_mss"), m_firstStats.rcvMss);
        qint64 retransmits = -1;
        if (!m_reverse) {
            retransmits = 0;
            for (qint64 r : m_retrans)
                retransmits += r;
        } else {
            retransmits = m_server.totalRetransmits();
        }
        if (retransmits >= 0)
            m_result.extra.insert(QStringLiteral("retransmits"), retransmits);
    }
    if (qsizetype(m_server.streams.size()) != qsizetype(m_streams.size()))
        m_result.warnings << QStringLiteral("the server reported %1 streams, we ran %2")
                                 .arg(m_server.streams.size())
                                 .arg(m_streams.size());
    m_result.status = RunStatus::Ok;
}

/// The server's time for what it received, or ours when it reported none.
void Session::takeServerSeconds(double serverSeconds)
{
    m_result.seconds = serverSeconds;
    if (serverSeconds <= 0) {
        m_result.seconds = m_localSeconds;
        m_result.warnings << QStringLiteral("the server reported no test duration: our own clock was used");
    }
}

/// --bidir: the first figure is the server's count of what we sent (its results for our sending streams, over its
/// own time), the second ours of what it sent; each stream is told by the id both ends gave it.
void Session::composeBidirResult(qint64 ourBytes)
{
    const size_t half = m_streams.size() / 2;
    qint64 sent = 0;
    for (size_t i = 0; i < half; ++i)
        sent += m_measured[i];
    qint64 serverReceived = 0;
    qint64 serverSent = 0;
    double serverSeconds = 0;
    for (const StreamResult &s : m_server.streams) {
        size_t index = 0;
        while (index < m_streams.size() && streamId(int(index)) != s.id)
            ++index;
        if (index < half) {
            serverReceived += s.bytes;
            serverSeconds = qMax(serverSeconds, s.endTime - s.startTime);
        } else if (index < m_streams.size()) {
            serverSent += s.bytes;
        }
    }
    m_result.bytes = serverReceived;
    m_result.senderBytes = sent;
    takeServerSeconds(serverSeconds);
    RunResult::Reverse reverse;
    reverse.bytes = ourBytes - sent;
    reverse.seconds = m_localSeconds;
    reverse.senderBytes = serverSent;
    reverse.samples = m_reverseMeter.samples();
    for (Sample &sample : reverse.samples)
        sample.streamBytes.clear();
    m_result.reverse = reverse;
}

void Session::composeUdpResult()
{
    // As iperf3 reports it: the datagrams the sender sent in the measured time, lost ones as the
    // receiver counted them from gaps in the counters, jitter averaged over the streams.
    qint64 packets = 0;
    qint64 lost = 0;
    qint64 outOfOrder = 0;
    double jitterSum = 0;
    int jitterStreams = 0;
    if (m_reverse) {
        for (size_t i = 0; i < m_streams.size(); ++i) {
            lost += m_udpStats[i].lost - m_udpBase[i].lost;
            outOfOrder += m_udpStats[i].outOfOrder - m_udpBase[i].outOfOrder;
            jitterSum += m_udpStats[i].jitter;
            ++jitterStreams;
        }
        for (const StreamResult &s : m_server.streams)
            packets += s.packets - s.omittedPackets;
        if (packets <= 0) { // a server that did not count what it sent: the counters we saw
            for (size_t i = 0; i < m_streams.size(); ++i)
                packets += m_udpStats[i].packets - m_udpBase[i].packets;
        }
    } else {
        for (size_t i = 0; i < m_streams.size(); ++i)
            packets += m_udpSent[i] - m_udpSentBase[i];
        for (const StreamResult &s : m_server.streams) {
            lost += s.errors - s.omittedErrors;
            jitterSum += s.jitter;
            ++jitterStreams;
        }
    }
    lost = qMax<qint64>(0, lost);
    const double lossPercent = packets > 0 ? 100.0 * double(lost) / double(packets) : 0.0;
    const double targetMbps = double(m_params.bandwidth) * double(m_streams.size()) / 1e6;
    m_result.extra.insert(QStringLiteral("udp_target_Mbps"), targetMbps);
    m_result.extra.insert(QStringLiteral("udp_length"), m_params.blockSize);
    m_result.extra.insert(QStringLiteral("udp_packets"), packets);
    m_result.extra.insert(QStringLiteral("udp_lost_packets"), lost);
    m_result.extra.insert(QStringLiteral("udp_loss_percent"), lossPercent);
    m_result.extra.insert(QStringLiteral("udp_jitter_ms"),
                          jitterStreams > 0 ? 1000.0 * jitterSum / jitterStreams : 0.0);
    if (m_reverse)
        m_result.extra.insert(QStringLiteral("udp_out_of_order"), outOfOrder);
    if (lossPercent > kUdpLossWarnPercent)
        m_result.warnings << QStringLiteral(
                                 "UDP loss of %1 % (%2 of %3 datagrams) at a target of %4 Mbit/s: the path or "
                                 "the receiver cannot keep up; lower %5 to find the rate it sustains")
                                 .arg(lossPercent, 0, 'f', 2)
                                 .arg(lost)
                                 .arg(packets)
                                 .arg(targetMbps)
                                 .arg(QLatin1String(kUdpRateOption));
}

} // namespace

QList<ProtocolInfo> Iperf3Driver::protocolInfos()
{
    const QList<OptionSpec> udpOptions = {
        {QLatin1String(kUdpRateOption),
         QStringLiteral("iperf3 UDP rate"),
         OptionSpec::Type::Integer,
         kDefaultUdpRateMbps,
         {},
         QStringLiteral("Target rate of each UDP stream in Mbit/s (10^6 bit/s), as iperf3 -b; default 100 Mbit/s")},
        {QLatin1String(kUdpLengthOption),
         QStringLiteral("iperf3 UDP datagram size"),
         OptionSpec::Type::Integer,
         0,
         {},
         QStringLiteral("UDP payload per datagram in bytes (B), as iperf3 -l; 0 = the plan's frame size minus 28 B "
                        "(IPv4 20 B + UDP 8 B), or 1460 B without a frame size")},
    };
    auto info = [&udpOptions](const char *id, const char *title, const char *description, Direction direction,
                              Transport transport) {
        ProtocolInfo p;
        p.id = QLatin1String(id);
        p.title = QString::fromUtf8(title);
        p.description = QString::fromUtf8(description);
        p.family = QStringLiteral("iperf3");
        p.flow = direction == Direction::Receive ? ProtocolInfo::Flow::FromServer : ProtocolInfo::Flow::ToServer;
        p.rawTcp = transport == Transport::Tcp && direction != Direction::Both;
        p.bothWays = direction == Direction::Both;
        if (transport == Transport::Udp) {
            p.setsMss = false; // the frame size sets the datagram size instead
            p.hostOptions = udpOptions;
        }
        p.create = [direction, transport] { return std::make_unique<Iperf3Driver>(direction, transport); };
        p.latencyProbe = ProtocolInfo::LatencyProbe::Connect; // between tests' stream set-ups (LatencyProbe)
        p.defaultServicePort = kDefaultPort;
        return p;
    };
    return {
        info("iperf3-send", "iperf3 TCP send (client → server)",
             "A timed TCP test against an iperf3 server, as \"iperf3 -c\": this computer sends.", Direction::Send,
             Transport::Tcp),
        info("iperf3-recv", "iperf3 TCP receive (server → client)",
             "A timed TCP test against an iperf3 server, as \"iperf3 -c -R\": the server sends.", Direction::Receive,
             Transport::Tcp),
        info("iperf3-bidir", "iperf3 TCP both ways at once (client ⇄ server)",
             "A timed TCP test in both directions at once against an iperf3 server, as \"iperf3 -c --bidir\": a figure "
             "for each direction.",
             Direction::Both, Transport::Tcp),
        info("iperf3-udp-send", "iperf3 UDP send (client → server)",
             "A timed UDP test at a target rate against an iperf3 server, as \"iperf3 -c -u -b RATE\": this computer "
             "sends; loss and jitter as the server counts them.",
             Direction::Send, Transport::Udp),
        info("iperf3-udp-recv", "iperf3 UDP receive (server → client)",
             "A timed UDP test at a target rate against an iperf3 server, as \"iperf3 -c -u -R -b RATE\": the server "
             "sends; loss and jitter as we count them.",
             Direction::Receive, Transport::Udp),
    };
}

RunResult Iperf3Driver::run(const RunSpec &spec, RunObserver &observer)
{
    Session session(spec, observer, m_direction == Direction::Receive, m_transport == Transport::Udp,
                    m_direction == Direction::Both);
    return session.run();
}

PreflightProblemList Iperf3Driver::check(const RunSpec &spec, int timeoutMs)
{
    // Only whether the port takes a connection: iperf3 -s has nothing to say before a cookie, and a cookie
    // would start a test.
    const quint16 port = spec.host.port ? spec.host.port : iperf3::kDefaultPort;
    IdentityProbeSocket socket(spec.host, port, QStringLiteral("iperf3"), timeoutMs);
    if (!socket.connect())
        return {{{}, {}, {}, socket.error()}};
    socket.close();
    return {};
}

} // namespace wb
