#include "SmbDriver.h"

#include "SmbClientLibrary.h"
#include "SmbIoPump.h"
#include "SmbWriteFeed.h"
#include "SmbLanes.h"
#include "identity/IdentityProbeSocket.h"
#include "identity/SmbIdentityProbe.h"
#include "net/Address.h"
#include "net/Socket.h"
#include "net/TcpInfo.h"
#include "platform/Platform.h"
#include "protocols/ConcurrentSpans.h"
#include "protocols/ThroughputMeter.h"
#include "protocols/transfer/LocalSink.h"
#include "protocols/transfer/LocalSource.h"
#include "protocols/transfer/RateLimiter.h"
#include "protocols/transfer/TestFile.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferError.h"
#include "protocols/transfer/TransferRun.h"
#include "protocols/transfer/TransferSettings.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QHostAddress>
#include <QUrl>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace {

const QString DefaultFileName = TestFile::defaultName();
constexpr qint64 DefaultIoBytes = 4 * 1024 * 1024;
constexpr qint64 MinIoBytes = 64 * 1024;
// Untimed calls before the timing starts (smb.warm_up). Measured in the lab at 1 Gbit/s with 4 MiB calls:
// after one the first timed call still took 54-63 ms (the line needs 34-36 ms), after two about 40 ms, after
// three 35-39 ms; the whole result rose from 0.97-0.98 to 0.99 of the theory (docs/FRAMES.md).
constexpr int WarmUpCalls = 3;
// Connections of a write (smb.write_connections, SmbLanes): with one, each write waits for the server's
// answer before the next is sent. Measured in the lab at 1 Gbit/s (docs/FRAMES.md): one connection read
// 0.82-0.94 of the theory on a busy machine where smbclient read 0.96-0.97; two kept the line full there.
// bench/smb_vs_smbclient.sh (100 Mbit/s to 2.5 Gbit/s, MTU 1500 to 9000, docs/FILESERVERS.md) found two at
// 0.977-0.999 of smbclient at 5 of 12 cells and four at 0.999-1.069 at every cell. Four once stalled ("the server
// stopped answering", 20 s) with a busy loop on each core in 3 of 4 runs at 1 Gbit/s; not oplocks (smbd's log:
// none asked, none granted, no break), and on 2026-12-03 not again in 13 runs with 2-4 busy loops.
constexpr int DefaultWriteConnections = 4;
// Connections of a read (smb.read_connections): one connection's reads are in flight only within one call of
// the I/O size, and the line idles between two calls (docs/FRAMES.md).
constexpr int DefaultReadConnections = 2;
// A write connection has this long to connect, log in, open the file and make its untimed first write.
constexpr int LaneReadyTimeoutMs = 60000;
// The look before a write's timed part over several connections: another connection writes up to this many bytes, up
// to this far past the end of the file (where the untimed first writes ended). impacket's smbserver (0.10) answers
// such a write as done and stores nothing ("If we're trying to write past the file end we just skip the write call"),
// so over 4 connections the chunk a lane wrote ahead of the others was lost, and every chunk after it: 9437184 (as
// reported) or 13238272 (on loopback here) bytes of 16777216 stored.
constexpr qint64 PastEndProbeBytes = 64 * 1024;

/// The servers (address and port) that did not keep writes from several connections to one file, with why: their
/// later writes from this process go over one connection without another look.
class OneConnectionServers
{
public:
    static void remember(const QString &server, const QString &why)
    {
        const std::lock_guard<std::mutex> lock(mutex());
        known().insert(server, why);
    }
    static QString why(const QString &server)
    {
        const std::lock_guard<std::mutex> lock(mutex());
        return known().value(server);
    }

private:
    static std::mutex &mutex()
    {
        static std::mutex m;
        return m;
    }
    static QHash<QString, QString> &known()
    {
        static QHash<QString, QString> servers;
        return servers;
    }
};

struct SmbSettings
{
    QString share;
    QString path;
    QString user;
    QString password; // from Host::options until the key store lands; never copied into results or errors
    QString domain;
    bool allowSmb1 = false;
    bool warmUp = true;
    int port = 445;
    qint64 ioBytes = DefaultIoBytes;
    int writeConnections = DefaultWriteConnections;
    int readConnections = DefaultReadConnections;

    static SmbSettings fromHost(const Host &host)
    {
        SmbSettings s;
        const QVariantMap &o = host.options;
        s.share = o.value(QStringLiteral("smb.share")).toString().trimmed();
        s.path = o.value(QStringLiteral("smb.path")).toString().trimmed();
        s.path.replace(QLatin1Char('\\'), QLatin1Char('/'));
        while (s.path.startsWith(QLatin1Char('/')))
            s.path.remove(0, 1);
        if (s.path.isEmpty())
            s.path = DefaultFileName;
        else if (s.path.endsWith(QLatin1Char('/')))
            s.path += DefaultFileName;
        s.user = o.value(QStringLiteral("smb.user")).toString();
        s.password = o.value(QStringLiteral("smb.password")).toString();
        s.domain = o.value(QStringLiteral("smb.domain")).toString();
        s.allowSmb1 = o.value(QStringLiteral("smb.allow_smb1"), false).toBool();
        s.warmUp = o.value(QStringLiteral("smb.warm_up"), true).toBool();
        s.port = o.value(QStringLiteral("smb.port"), 445).toInt();
        if (s.port <= 0 || s.port > 65535)
            s.port = 445;
        const qint64 io = o.value(QStringLiteral("smb.io_size"), DefaultIoBytes).toLongLong();
        s.ioBytes = qBound<qint64>(MinIoBytes, io, 64LL * 1024 * 1024);
        s.writeConnections = qBound(
            1, o.value(QStringLiteral("smb.write_connections"), DefaultWriteConnections).toInt(), SmbLanes::MaxLanes);
        s.readConnections = qBound(1, o.value(QStringLiteral("smb.read_connections"), DefaultReadConnections).toInt(),
                                   SmbLanes::MaxLanes);
        return s;
    }

    QByteArray url(const QString &address, bool withPath = true) const
    {
        QByteArray host = address.toUtf8();
        if (address.contains(QLatin1Char(':')))
            host = '[' + host + ']';
        QByteArray u = "smb://" + host + '/' + QUrl::toPercentEncoding(share);
        if (withPath) {
            for (const QString &part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts))
                u += '/' + QUrl::toPercentEncoding(part);
        }
        return u;
    }
};

void copyField(char *dst, int len, const QString &value)
{
    if (len <= 0)
        return;
    const QByteArray v = value.toUtf8();
    const int n = qMin(len - 1, int(v.size()));
    std::memcpy(dst, v.constData(), size_t(n));
    dst[n] = 0;
}

void authCallback(SMBCCTX *ctx, const char *, const char *, char *wg, int wglen, char *un, int unlen, char *pw,
                  int pwlen)
{
    const auto *s = static_cast<const SmbSettings *>(smbc().getOptionUserData(ctx));
    if (!s)
        return;
    if (!s->domain.isEmpty())
        copyField(wg, wglen, s->domain);
    copyField(un, unlen, s->user);
    copyField(pw, pwlen, s->password);
}

/// A context for one connection as this host is set: the run's own, and each write lane's.
SMBCCTX *newContext(SmbSettings *settings, QString *error)
{
    SmbContextOptions options;
    options.userData = settings;
    options.auth = authCallback;
    options.port = settings->port;
    options.allowSmb1 = settings->allowSmb1;
    return SmbClientLibrary::newContext(options, error);
}

/// libsmbclient opens its own sockets: find the one to the server (the newest, leaving out those in skip).
int findServerSocket(const QString &address, int port, const std::vector<int> &skip = {})
{
    const QHostAddress want(address);
    int found = -1;
    for (const int fd : platform::Platform::processFiles().openDescriptors()) {
        if (std::find(skip.begin(), skip.end(), fd) != skip.end())
            continue;
        struct stat st = {};
        if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
            continue;
        sockaddr_storage peer{};
        socklen_t len = sizeof(peer);
        if (getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &len) != 0)
            continue;
        QHostAddress addr(reinterpret_cast<sockaddr *>(&peer));
        if (net::portOf(peer) == port && (want.isNull() || addr.isEqual(want, QHostAddress::TolerantConversion)))
            found = fd;
    }
    return found;
}

/// An error met on the pump's thread, told on the driver's thread once the pump has ended.
struct IoFailure
{
    int err = 0;                                    ///< errno of the SMB call that failed
    TransferFault localFault = TransferFault::None; ///< set when the local source or sink failed instead
    QString localError;
};

qint64 nowNs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.nsecsElapsed();
}

class SmbRun : public TransferRun
{
public:
    SmbRun(const RunSpec &spec, RunObserver &observer, TransferDriver::Direction direction)
        : TransferRun(spec, observer, direction,
                      direction == TransferDriver::Direction::Download ? QStringLiteral("SMB read")
                                                                       : QStringLiteral("SMB write"))
        , m_smb(SmbSettings::fromHost(spec.host))
        , m_io(m_smb.ioBytes)
        , m_limiter(m_transfer.maxRateBytesPerSecond)
    {
        m_port = m_smb.port;
    }

    ~SmbRun() override
    {
        closeFile();
        if (m_ctx)
            smbc().free_context(m_ctx, 1);
    }

    /// What run() would meet first (connection, login, share, folder, the file of a read without seeding), each
    /// step within timeoutMs; every problem found.
    PreflightProblemList check(int timeoutMs) override;

private:
    bool reach() override;
    RunResult download(qint64 size) override;
    RunResult upload(qint64 size) override;
    /// Connections for size bytes: the host's (connections), fewer when the file has fewer chunks.
    int laneCount(qint64 size, int connections) const;
    /// After each look at the lanes: what the parent does with what they moved (a read's chunks into the sink);
    /// false, with the local fault and its error, when the local side failed.
    using LanesDrain = std::function<bool(TransferFault *fault, QString *error)>;
    /// Once every lane is ready, or one failed before its timed calls (failure): true to go on, false to give the
    /// lanes up before the timing starts (a write then goes over the run's own connection).
    using LanesReady = std::function<bool(const SmbLanes::Failure &failure)>;
    /// The timed part over several connections (SmbLanes): the lanes started with body, the live samples, Stop,
    /// a lane's failure. The run's end (failed, stopped), its timing filled; nothing once every lane is done, or when
    /// ready gave them up (m_lanesDeclined).
    std::optional<RunResult> overLanes(SmbLanes &lanes, const SmbLanes::Body &body, const LanesDrain &drain,
                                       const LanesReady &ready);
    /// Starts the lanes and waits until they are ready: false with the run's end in *ended (a lane failed, Stop),
    /// or with *ended empty when ready gave them up.
    bool startLanes(SmbLanes &lanes, const SmbLanes::Body &body, const LanesReady &ready,
                    std::optional<RunResult> *ended);
    /// The timing of a run over lanes (and a write's senderBytes).
    void endLanesTiming();
    /// A write over several connections; m_file open, warmed up. Nothing when the server did not keep the lanes'
    /// look past the end of the file, or refused a lane before its timed writes (the write goes over one, said in
    /// the warnings).
    std::optional<RunResult> uploadOverLanes(qint64 size, LocalSource &source, int lanes);
    /// The lanes' look: does another connection's write past the end of the file stay (m_pastEnd, written by lane
    /// 0 after its untimed writes)? False: m_result.warnings says why the write goes over one connection.
    bool lanesKeepWrites(const SmbLanes::Failure &failure, int lanes);
    /// A write over the run's own connection; m_file open, warmed up.
    RunResult uploadOverOne(qint64 size, LocalSource &source);
    /// Connections for a write of size bytes: the host's, or one for a server already found not to keep writes
    /// from several (said in the warnings).
    int writeLaneCount(qint64 size);
    /// The write goes over one connection because the server did not keep writes from several (why); remembered
    /// for its later writes. A lane's failure, which may have been one of the moment, is only said (refused).
    void writeOverOne(const QString &why, bool refused = false);
    /// "address:port": the server, as OneConnectionServers knows it.
    QString serverAddress() const;
    /// "name (address:port)", as the error lines name the server.
    QString serverName() const;
    /// A read of size bytes over several connections into sink; m_file open, warmed up.
    RunResult downloadOverLanes(qint64 size, LocalSink &sink, int lanes);
    /// The end of a read into sink: its flush, the count against expected (-1: unknown), the pattern check.
    RunResult endRead(LocalSink &sink, qint64 expected);
    /// What a lane calls: its connection's seek, and io(done, n), which moves n bytes at done into the chunk.
    struct LaneCall
    {
        SMBCCTX *ctx;
        SMBCFILE *file;
        smbc_lseek_fn seek;
        std::function<ssize_t(qint64 done, qint64 n)> io;
    };
    using LaneIo = std::function<bool(SMBCCTX *ctx, SMBCFILE *file)>;
    /// A lane's child process: its own context and handle on the file (open flags), its local port told, io,
    /// the close.
    void laneSession(SmbLanes::Lane &lane, const QByteArray &url, int flags, const LaneIo &io);
    /// length bytes at offset in calls of at most *io bytes (halved after a slow one), each recorded when timed:
    /// the bytes moved (fewer at a read's end of file), or -1 once lane.fail() has said why.
    qint64 laneCalls(SmbLanes::Lane &lane, const LaneCall &call, qint64 offset, qint64 length, bool timed, qint64 *io);
    /// The bytes of a lane's untimed first calls, from offset 0.
    qint64 laneWarmUpBytes(qint64 size) const;
    /// A write lane: the next chunk from the local source until the end.
    void writeLane(SmbLanes::Lane &lane, const QByteArray &url, LocalSource &source, qint64 size);
    /// A read lane: the next chunk into one of its buffers until the end.
    void readLane(SmbLanes::Lane &lane, const QByteArray &url, qint64 size);
    RunResult lanesFailed(const SmbLanes::Failure &failure);
    /// The receiver's count on the lanes' connections (sock_diag): the bytes that arrived here (received) or that
    /// the server acknowledged, in *sum; false unless every lane's connection was found with a count.
    /// *dataMss (when given): the largest data MSS (TcpSocketDiag::dataMss) among those connections.
    bool lanesCounted(const std::vector<SmbLanes::Connection> &connections, bool received, qint64 *sum,
                      int *dataMss = nullptr) const;
    void noteSuccess() override;
    /// The end of a timed call's failure (failure: what the pump met) or Stop.
    RunResult pumpFailed(bool stopped, const IoFailure &failure, const QString &during);
    /// The server's own count of a written file, and a read-back when the plan verifies.
    RunResult endUpload(qint64 size);
    bool checkServer();
    bool init(QString *error);
    SMBCFILE *open(int flags, int *err);
    void closeFile();
    bool prepareRead(qint64 planned, qint64 *expected);
    bool readHead(QByteArray *head);
    bool checkWriteTarget();
    bool seed(qint64 size, qint64 replacing);
    bool readBack(qint64 size);
    bool warmUp(qint64 size, char *buffer, LocalSource *source);
    bool count(SmbIoPump &pump);
    void noteMss();
    void fillTiming(qint64 bytes, qint64 endNs = 0);
    RunResult failErrno(int err, const QString &during, bool opening);

    SmbSettings m_smb;
    SMBCCTX *m_ctx = nullptr;
    SMBCFILE *m_file = nullptr;
    qint64 m_io;
    int m_lanesMss = 0;      ///< the lanes' connections' data MSS, from the sock_diag looks (runs over lanes)
    qint64 m_lanesEndNs = 0; ///< on the meter's clock: the last lane's close answered (writes over lanes)
    /// A write's look past the end of the file (uploadOverLanes): offset and length of lane 0's untimed write there.
    struct PastEnd
    {
        qint64 fileEnd = 0; ///< where the file ends before it
        qint64 offset = 0;
        qint64 length = 0; ///< 0: no look (the untimed writes reach the file's end)
    } m_pastEnd;
    bool m_lanesDeclined = false; ///< the lanes were given up before the timed part (LanesReady)
    int m_writeLanes = 1;         ///< connections the timed write went over
    std::vector<char> m_buffer;   ///< the timed transfer's, of the host's I/O size (reach() makes it)
    RateLimiter m_limiter;
    TransferFault m_pendingFault = TransferFault::None;
    QString m_pendingError;
    QString m_checkNote; ///< what checkServer() could not settle, told if libsmbclient then times out
};

bool SmbRun::checkServer()
{
    // libsmbclient reads another service's banner as a stalled server (20 s, "stopped answering") and an SMB1-only
    // server's refusal of SMB2 as a broken connection: one NEGOTIATE of our own first says which it is.
    QString said;
    switch (SmbIdentityProbe::speaks(m_spec.host, SmbIdentityProbe::kTimeoutMs, &said)) {
    case SmbIdentityProbe::Speaks::NotSmb:
        m_result = fail(
            TransferFault::WrongService,
            QStringLiteral("port %1 of %2 answered with %3, not SMB").arg(m_smb.port).arg(m_spec.host.address, said));
        return false;
    case SmbIdentityProbe::Speaks::Smb1Only:
        if (m_smb.allowSmb1)
            return true;
        m_result = fail(TransferFault::Smb1Only,
                        QStringLiteral("the server speaks only SMB1 (NT1), which this host does not allow "
                                       "(smb.allow_smb1 is off; the server %1)")
                            .arg(said));
        return false;
    case SmbIdentityProbe::Speaks::Unknown:
        m_checkNote = said;
        return true;
    case SmbIdentityProbe::Speaks::Smb2:
        break;
    }
    return true;
}

bool SmbRun::init(QString *error)
{
    m_ctx = newContext(&m_smb, error);
    return m_ctx != nullptr;
}

SMBCFILE *SmbRun::open(int flags, int *err)
{
    errno = 0;
    SMBCFILE *f = smbc().getFunctionOpen(m_ctx)(m_ctx, m_smb.url(m_spec.host.address).constData(), flags, 0644);
    *err = errno;
    return f;
}

void SmbRun::closeFile()
{
    if (m_file && m_ctx)
        smbc().getFunctionClose(m_ctx)(m_ctx, m_file);
    m_file = nullptr;
}

void SmbRun::noteMss()
{
    // Read once the data has flowed, not after the open: Linux bounds tcpi_snd_mss by half the largest
    // window the peer has announced, so it is low on a fresh connection (32768 on loopback) and stays low
    // on one that only receives (smb-read), while the data goes in full segments, which tcpi_rcv_mss shows.
    // The larger of the two is the segment size of the data (TcpSocketDiag::dataMss, docs/FRAMES.md).
    // libsmbclient connects before we could set TCP_MAXSEG, and Linux applies it at connect time only, so
    // the MSS is the path's: the frame size is the interface's MTU.
    // Over lanes the data went on their connections, not this one (a read's parent receives almost nothing: its
    // tcpi_rcv_mss read 32741 once on loopback where the lanes' segments were 65483).
    if (m_lanesMss > 0) {
        m_result.mss = m_lanesMss;
        return;
    }
    const int fd = findServerSocket(m_spec.host.address, m_smb.port);
    if (fd < 0)
        return;
    const net::TcpInfo info = net::TcpInfo::of(fd);
    if (!info.valid)
        return;
    const int mss = qMax(info.sndMss, info.rcvMss);
    if (mss > 0)
        m_result.mss = mss;
}

bool SmbRun::warmUp(qint64 size, char *buffer, LocalSource *source)
{
    // Untimed I/O calls from offset 0 before the meter starts (as iperf3 -O omits its first seconds): a fresh
    // connection's first calls take longer than the line needs (SMB2 credits granted a few at a time, TCP's
    // start), which a second pass over the same connection does not show. A write stores the bytes that
    // belong there; the timed pass writes them again from offset 0, so the file and its check stay exact.
    m_result.extra.insert(QStringLiteral("smb_warmup_bytes"), 0);
    if (!m_smb.warmUp)
        return true;
    m_observer.status(QStringLiteral("warming up the connection (not timed)"));
    QString error;
    qint64 done = 0;
    for (int call = 0; call < WarmUpCalls && done < size; ++call) {
        const qint64 n = qMin(m_io, size - done);
        const qint64 t0 = nowNs();
        if (source) {
            if (!source->reference(buffer, done, n, &error)) {
                m_result = fail(TransferFault::LocalError, error);
                return false;
            }
            const ssize_t w = smbc().getFunctionWrite(m_ctx)(m_ctx, m_file, buffer, size_t(n));
            if (w <= 0) {
                m_result = failErrno(w < 0 ? errno : EIO, QStringLiteral("during the untimed first writes"), false);
                return false;
            }
            done += w;
        } else {
            const ssize_t r = smbc().getFunctionRead(m_ctx)(m_ctx, m_file, buffer, size_t(n));
            if (r < 0) {
                m_result = failErrno(errno, QStringLiteral("during the untimed first reads"), false);
                return false;
            }
            if (r == 0)
                break;
            done += r;
        }
        // The same rule as in the timed part, so that it starts with the I/O size it will keep.
        shrinkAfterSlowCall(nowNs() - t0, &m_io);
    }
    if (smbc().getFunctionLseek(m_ctx)(m_ctx, m_file, 0, SEEK_SET) != 0) {
        m_result
            = failErrno(errno, QStringLiteral("while seeking back to the start after the untimed first calls"), false);
        return false;
    }
    m_result.extra.insert(QStringLiteral("smb_warmup_bytes"), done);
    return true;
}

bool SmbRun::prepareRead(qint64 planned, qint64 *expected)
{
    // The file to read: the plan's size as it is; missing, or another size and Wirebench's own, (re)written first
    // (if the plan lets us); anyone else's read as it is (TestFile). Ends with m_file open at offset 0.
    int err = 0;
    m_file = open(O_RDONLY, &err);
    if (!m_file && err != ENOENT) {
        m_result = failErrno(err, QStringLiteral("while opening the file"), true);
        return false;
    }
    qint64 remote = -1;
    struct stat st = {};
    if (m_file && smbc().getFunctionFstat(m_ctx)(m_ctx, m_file, &st) == 0)
        remote = st.st_size;
    if (m_file && remote == planned)
        return true;
    if (!m_transfer.createSeed) {
        m_result = !m_file ? failErrno(err, QStringLiteral("while opening the file"), true)
                           : fail(TransferFault::Mismatch,
                                  QStringLiteral("the server's \"%1\" has %2 bytes, the plan asks for %3")
                                      .arg(m_smb.path)
                                      .arg(remote)
                                      .arg(planned));
        return false;
    }
    if (m_file) {
        QByteArray head;
        if (!readHead(&head))
            return false;
        if (!TestFile::isOwn(head)) {
            readAsFound(m_smb.path, remote, planned, expected);
            return true;
        }
    }
    const bool replacing = m_file != nullptr;
    closeFile();
    if (!seed(planned, replacing ? remote : -1))
        return false;
    m_file = open(O_RDONLY, &err);
    if (!m_file) {
        m_result = failErrno(err, QStringLiteral("while opening the file"), true);
        return false;
    }
    return true;
}

bool SmbRun::checkWriteTarget()
{
    // A write goes over the file at the path: only where there is none, or it is Wirebench's own (TestFile).
    int err = 0;
    m_file = open(O_RDONLY, &err);
    if (!m_file) {
        struct stat st = {};
        const bool exists = err != ENOENT && err != ENOTDIR
            && smbc().getFunctionStat(m_ctx)(m_ctx, m_smb.url(m_spec.host.address).constData(), &st) == 0
            && S_ISREG(st.st_mode);
        if (!exists)
            return true; // no file (or no access at all): the write's own open tells
        m_result
            = fail(TransferFault::ForeignFile,
                   QStringLiteral("\"%1\" already exists on the server (%2 bytes) and cannot be read to check that "
                                  "it is a Wirebench test file (%3): Wirebench does not overwrite it")
                       .arg(m_smb.path)
                       .arg(qint64(st.st_size))
                       .arg(QString::fromLocal8Bit(std::strerror(err))));
        return false;
    }
    qint64 remote = -1;
    struct stat st = {};
    if (smbc().getFunctionFstat(m_ctx)(m_ctx, m_file, &st) == 0)
        remote = st.st_size;
    QByteArray head;
    if (!readHead(&head))
        return false;
    closeFile();
    return mayOverwrite(head, m_smb.path, remote);
}

bool SmbRun::readHead(QByteArray *head)
{
    head->resize(TestFile::headBytes());
    qint64 got = 0;
    while (got < head->size()) {
        const ssize_t r = smbc().getFunctionRead(m_ctx)(m_ctx, m_file, head->data() + got, size_t(head->size() - got));
        if (r < 0) {
            m_result = failErrno(errno, QStringLiteral("while reading the start of the file"), false);
            return false;
        }
        if (r == 0)
            break;
        got += r;
    }
    head->resize(got);
    if (smbc().getFunctionLseek(m_ctx)(m_ctx, m_file, 0, SEEK_SET) != 0) {
        m_result = failErrno(errno, QStringLiteral("while seeking back to the start of the file"), false);
        return false;
    }
    return true;
}

bool SmbRun::seed(qint64 size, qint64 replacing)
{
    // replacing >= 0: the size of Wirebench's own test file that this one replaces.
    const QString during = seedDuring(m_smb.path, size, replacing);
    int err = 0;
    m_file = open(O_WRONLY | O_CREAT | O_TRUNC, &err);
    if (!m_file) {
        m_result = failErrno(err, during, true);
        return false;
    }
    auto write = smbc().getFunctionWrite(m_ctx);
    std::vector<char> buffer(size_t(m_smb.ioBytes));
    for (qint64 off = 0; off < size;) {
        if (m_observer.stopRequested()) {
            m_result = cancelled();
            return false;
        }
        const qint64 n = qMin<qint64>(m_smb.ioBytes, size - off);
        TestPattern::fill(buffer.data(), off, n);
        const ssize_t w = write(m_ctx, m_file, buffer.data(), size_t(n));
        if (w <= 0) {
            m_result = failErrno(errno, replacing < 0 ? QStringLiteral("while writing the seed file") : during, false);
            return false;
        }
        off += w;
    }
    closeFile();
    noteSeeded(replacing);
    return true;
}

bool SmbRun::readBack(qint64 size)
{
    m_observer.status(QStringLiteral("reading %1 back to verify it").arg(m_smb.path));
    LocalSource reference;
    QString error;
    if (!reference.open(m_transfer, size, &error)) {
        m_result = fail(TransferFault::LocalError, error);
        return false;
    }
    int err = 0;
    m_file = open(O_RDONLY, &err);
    if (!m_file) {
        m_result = failErrno(err, QStringLiteral("while reading the file back"), true);
        return false;
    }
    auto read = smbc().getFunctionRead(m_ctx);
    std::vector<char> buffer(size_t(m_smb.ioBytes));
    std::vector<char> expected(size_t(m_smb.ioBytes));
    qint64 off = 0;
    for (;;) {
        if (m_observer.stopRequested()) {
            m_result = cancelled();
            return false;
        }
        const ssize_t r = read(m_ctx, m_file, buffer.data(), buffer.size());
        if (r < 0) {
            m_result = failErrno(errno, QStringLiteral("while reading the file back"), false);
            return false;
        }
        if (r == 0)
            break;
        if (off + r > size || !reference.reference(expected.data(), off, r, &error)
            || std::memcmp(expected.data(), buffer.data(), size_t(r)) != 0) {
            m_result = fail(TransferFault::Mismatch,
                            QStringLiteral("the stored file differs from what was sent near byte %1").arg(off));
            return false;
        }
        off += r;
    }
    closeFile();
    return endReadBack(off, size);
}

void SmbRun::fillTiming(qint64 bytes, qint64 endNs)
{
    finishTiming(bytes, endNs);
    m_result.extra.insert(QStringLiteral("io_size_bytes"), m_io);
    noteMss();
}

bool SmbRun::count(SmbIoPump &pump)
{
    // Wake at least once per sampling interval, so that Stop keeps its pace. Each call's bytes count over the
    // call's own time, as they crossed the line while it ran (a read's data arrives throughout, a write is
    // answered once the server has it): a wait that ends with no call finished says nothing of what arrived.
    const int waitMs = qBound(10, m_spec.params.sampleIntervalMs, 100);
    m_meter.start();
    pump.start();
    qint64 from = 0;
    qint64 to = 0;
    for (bool ended = false; !ended;) {
        const qint64 n = pump.wait(waitMs, &ended, &from, &to);
        m_moved += n;
        if (n > 0)
            m_meter.addSpan(n, from, to);
        if (!ended && m_observer.stopRequested()) {
            pump.stop(); // within one call: the I/O size shrinks when a call takes more than 300 ms
            const qint64 rest = pump.wait(0, &ended, &from, &to);
            m_moved += rest;
            if (rest > 0)
                m_meter.addSpan(rest, from, to);
            return true;
        }
    }
    return false;
}

RunResult SmbRun::failErrno(int err, const QString &during, bool opening)
{
    const QString target
        = QStringLiteral("\\\\%1\\%2\\%3")
              .arg(m_spec.host.address, m_smb.share, QString(m_smb.path).replace(QLatin1Char('/'), QLatin1Char('\\')));
    const QString user = m_smb.user.isEmpty() ? QStringLiteral("guest") : m_smb.user;
    const QString sys = QString::fromLocal8Bit(std::strerror(err));
    switch (err) {
    case ECONNREFUSED:
        return fail(TransferFault::NotListening, QStringLiteral("connection refused %1").arg(during));
    case EHOSTUNREACH:
    case ENETUNREACH:
        return fail(TransferFault::Unreachable, QStringLiteral("no route to the host"));
    case ETIMEDOUT:
        return fail(m_moved > 0 ? TransferFault::ClosedMidTransfer : TransferFault::TimedOut,
                    QStringLiteral("the server stopped answering %1%2")
                        .arg(during,
                             m_moved > 0 || m_checkNote.isEmpty() ? QString()
                                                                  : QStringLiteral(" (before: %1)").arg(m_checkNote)));
    case ENOSPC:
    case EDQUOT:
        return fail(
            TransferFault::RemoteDiskFull,
            QStringLiteral("the server's disk is full %1 of %2 (%3 B written)").arg(during, target).arg(m_moved));
    default:
        break;
    }
    if (opening) {
        switch (err) {
        case EACCES:
        case EPERM: {
            // Tell a refused login from a refused file: can we list the share at all?
            SMBCFILE *dir = smbc().getFunctionOpendir(m_ctx)(m_ctx, m_smb.url(m_spec.host.address, false).constData());
            const int dirErr = errno;
            if (dir) {
                smbc().getFunctionClosedir(m_ctx)(m_ctx, dir);
                return fail(TransferFault::PermissionDenied,
                            QStringLiteral("access denied to %1 for user \"%2\" %3").arg(target, user, during));
            }
            if (dirErr == ENOENT || dirErr == ENODEV)
                return fail(TransferFault::NoSuchShare, QStringLiteral("no share \"%1\"").arg(m_smb.share));
            return fail(TransferFault::LoginRefused, QStringLiteral("logon refused for user \"%1\"").arg(user));
        }
        case ENOENT:
        case ENOTDIR:
        case ENODEV: {
            SMBCFILE *dir = smbc().getFunctionOpendir(m_ctx)(m_ctx, m_smb.url(m_spec.host.address, false).constData());
            if (dir) {
                smbc().getFunctionClosedir(m_ctx)(m_ctx, dir);
                return fail(TransferFault::NoSuchPath, QStringLiteral("no file or folder %1").arg(target));
            }
            return fail(TransferFault::NoSuchShare, QStringLiteral("no share \"%1\"").arg(m_smb.share));
        }
        case EINVAL:
            if (m_smb.share.isEmpty())
                return fail(TransferFault::NoSuchShare, QStringLiteral("no share is set"));
            break;
        default:
            break;
        }
    }
    if (m_moved > 0 || err == ECONNRESET || err == EPIPE || err == EIO || err == ECONNABORTED || err == ENOTCONN)
        return fail(TransferFault::ClosedMidTransfer,
                    QStringLiteral("the connection broke after %1 bytes %2 (%3)").arg(m_moved).arg(during, sys));
    return fail(TransferFault::Other, QStringLiteral("%1 failed %2 (%3)").arg(target, during, sys));
}

PreflightProblemList SmbRun::check(int timeoutMs)
{
    const auto problem = &TransferRun::problemOf;
    if (m_smb.share.isEmpty()) {
        // Nothing to open without a share, but whether an SMB server listens is worth knowing at the same time.
        PreflightProblemList problems{
            problem(fail(TransferFault::NoSuchShare, QStringLiteral("no share is set for this host")))};
        IdentityProbeSocket socket(m_spec.host, quint16(m_smb.port), QStringLiteral("SMB"), timeoutMs);
        if (!socket.connect())
            problems << PreflightProblem{{}, {}, {}, socket.error()};
        else if (!checkServer())
            problems << problem(m_result);
        return problems;
    }
    if (!checkServer()) // another service on the port, or an SMB1-only server the host does not allow
        return {problem(m_result)};
    if (QString why; !init(&why))
        return {problem(fail(TransferFault::LocalError, why))};
    // The server answered on its port (checkServer); its logon may take longer, as FTP's may: a busy smbd forks a
    // process per connection, and a domain member asks its domain controller.
    constexpr int kAnswerMs = 10000;
    smbc().setTimeout(m_ctx, std::max(timeoutMs, kAnswerMs));
    const QString during = QStringLiteral("during the check before the first run");
    auto opens = [this](const QByteArray &url) {
        errno = 0;
        SMBCFILE *dir = smbc().getFunctionOpendir(m_ctx)(m_ctx, url.constData());
        const int err = errno ? errno : EIO;
        if (!dir)
            return err;
        smbc().getFunctionClosedir(m_ctx)(m_ctx, dir);
        return 0;
    };
    const QByteArray share = m_smb.url(m_spec.host.address, false);
    if (const int err = opens(share))
        return {problem(failErrno(err, during, true))};
    const qsizetype slash = m_smb.path.lastIndexOf(QLatin1Char('/'));
    if (slash > 0) {
        const QStringList folders = m_smb.path.left(slash).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        QByteArray folder = share;
        for (const QString &part : folders)
            folder += '/' + QUrl::toPercentEncoding(part);
        if (const int err = opens(folder))
            return {problem(failErrno(err, during, true))};
    }
    if (m_direction == TransferDriver::Direction::Download && !m_transfer.createSeed) {
        struct stat st = {};
        errno = 0;
        if (smbc().getFunctionStat(m_ctx)(m_ctx, m_smb.url(m_spec.host.address).constData(), &st) != 0)
            return {problem(failErrno(errno ? errno : EIO, during, true))};
    }
    if (m_direction == TransferDriver::Direction::Upload
        && !checkWriteTarget()) // reads; never writes over a foreign file
        return {problem(m_result)};
    return {};
}

bool SmbRun::reach()
{
    if (m_smb.share.isEmpty()) {
        m_result = fail(TransferFault::NoSuchShare, QStringLiteral("no share is set for this host"));
        return false;
    }
    if (!checkServer())
        return false;
    if (QString why; !init(&why)) {
        m_result = fail(TransferFault::LocalError, why);
        return false;
    }
    m_buffer.resize(size_t(m_smb.ioBytes));
    m_observer.status(QStringLiteral("opening %1").arg(m_smb.path));
    return true;
}

RunResult SmbRun::download(qint64 size)
{
    qint64 expected = size; // a foreign file's own size (-1: unknown) when it is read as it is
    if (!prepareRead(size, &expected))
        return m_result;
    QString localError;
    LocalSink sink;
    if (!sink.open(m_transfer, &localError))
        return fail(TransferFault::LocalError, localError);
    if (!warmUp(expected >= 0 ? expected : size, m_buffer.data(), nullptr))
        return m_result;
    m_result.extra.insert(QStringLiteral("smb_read_connections"), 1);
    if (const int lanes = expected >= 0 ? laneCount(expected, m_smb.readConnections) : 1; lanes > 1)
        return downloadOverLanes(expected, sink, lanes);
    auto read = smbc().getFunctionRead(m_ctx);
    m_observer.status(QStringLiteral("reading %1").arg(m_smb.path));
    IoFailure failure;
    qint64 received = 0; // the pump thread's own count, for the rate limiter
    SmbIoPump pump(
        [&](SmbIoPump::Span &io) -> qint64 {
            if (failure.localFault != TransferFault::None)
                return -1;
            const qint64 t0 = nowNs();
            io.fromNs = m_meter.now();
            const ssize_t r = read(m_ctx, m_file, m_buffer.data(), size_t(m_io));
            io.toNs = m_meter.now(); // not the sink's work and the rate limit's wait below
            if (r < 0) {
                failure.err = errno;
                return -1;
            }
            if (r == 0)
                return 0;
            shrinkAfterSlowCall(nowNs() - t0, &m_io);
            // The chunk has crossed the network whatever the sink makes of it: it counts as received, and
            // the pump ends with the next call.
            received += r;
            if (!sink.write(m_buffer.data(), r, &failure.localError))
                failure.localFault = sinkFault(sink);
            else
                m_limiter.throttle(received);
            return r;
        },
        [this] { return m_meter.now(); });
    m_limiter.start();
    const bool stopped = count(pump);
    if (stopped || pump.lastReturn() < 0) {
        fillTiming(m_moved);
        return pumpFailed(stopped, failure, QStringLiteral("during the read"));
    }
    return endRead(sink, expected);
}

RunResult SmbRun::upload(qint64 size)
{
    if (!checkWriteTarget())
        return m_result;
    QString localError;
    LocalSource source;
    if (!source.open(m_transfer, size, &localError))
        return fail(TransferFault::LocalError, localError);
    int err = 0;
    m_file = open(O_WRONLY | O_CREAT | O_TRUNC, &err);
    if (!m_file)
        return failErrno(err, QStringLiteral("while creating the file"), true);
    if (!warmUp(size, m_buffer.data(), &source))
        return m_result;
    m_result.extra.insert(QStringLiteral("smb_write_connections"), 1);
    if (const int lanes = writeLaneCount(size); lanes > 1) {
        if (std::optional<RunResult> ended = uploadOverLanes(size, source, lanes))
            return *ended;
    }
    return uploadOverOne(size, source);
}

RunResult SmbRun::uploadOverOne(qint64 size, LocalSource &source)
{
    auto write = smbc().getFunctionWrite(m_ctx);
    SmbWriteFeed feed(source, size, m_io);
    m_observer.status(QStringLiteral("writing %1").arg(m_smb.path));
    IoFailure failure;
    qint64 sent = 0; // the pump thread's own count
    SmbIoPump pump(
        [&](SmbIoPump::Span &io) -> qint64 {
            if (sent >= size)
                return 0;
            const char *data = nullptr;
            const qint64 n = feed.next(m_io, &data, &failure.localError);
            if (n <= 0) {
                failure.localFault = TransferFault::LocalError;
                if (n == 0)
                    failure.localError
                        = QStringLiteral("the local source ended after %1 bytes of %2").arg(sent).arg(size);
                return -1;
            }
            const qint64 t0 = nowNs();
            io.fromNs = m_meter.now(); // not the wait for the next buffer above and the rate limit's below
            for (qint64 done = 0; done < n;) {
                const ssize_t w = write(m_ctx, m_file, data + done, size_t(n - done));
                if (w <= 0) {
                    failure.err = w < 0 ? errno : EIO;
                    return -1;
                }
                done += w;
            }
            io.toNs = m_meter.now();
            shrinkAfterSlowCall(nowNs() - t0, &m_io);
            sent += n;
            m_limiter.throttle(sent);
            return n;
        },
        [this] { return m_meter.now(); });
    m_limiter.start();
    const bool stopped = count(pump);
    if (stopped || pump.lastReturn() < 0) {
        fillTiming(m_moved);
        m_result.senderBytes = m_moved;
        return pumpFailed(stopped, failure, QStringLiteral("during the write"));
    }
    // Close inside the timed part: the server has the data once the close is answered.
    closeFile();
    fillTiming(m_moved);
    m_result.senderBytes = m_moved;
    feed.finish();
    noteSourceDisk(source);
    return endUpload(size);
}

int SmbRun::laneCount(qint64 size, int connections) const
{
    const qint64 chunks = (size + m_io - 1) / m_io;
    return int(qBound<qint64>(1, chunks, qint64(connections)));
}

QString SmbRun::serverAddress() const
{
    const QString address = m_spec.host.address.contains(QLatin1Char(':'))
        ? QStringLiteral("[%1]").arg(m_spec.host.address)
        : m_spec.host.address;
    return QStringLiteral("%1:%2").arg(address).arg(m_smb.port);
}

QString SmbRun::serverName() const
{
    return m_spec.host.name.isEmpty() || m_spec.host.name == m_spec.host.address
        ? serverAddress()
        : QStringLiteral("%1 (%2)").arg(m_spec.host.name, serverAddress());
}

int SmbRun::writeLaneCount(qint64 size)
{
    const int lanes = laneCount(size, m_smb.writeConnections);
    if (lanes <= 1)
        return lanes;
    if (const QString why = OneConnectionServers::why(serverAddress()); !why.isEmpty()) {
        writeOverOne(QStringLiteral("%1, found on an earlier write").arg(why));
        return 1;
    }
    return lanes;
}

void SmbRun::writeOverOne(const QString &why, bool refused)
{
    // Remembered with the reason as first found, so that a later run says what was seen rather than only that it was.
    if (!refused && OneConnectionServers::why(serverAddress()).isEmpty())
        OneConnectionServers::remember(serverAddress(), why);
    m_result.warnings
        << QStringLiteral("wrote over one connection: %1 did not %2 several connections to one file (%3); %4")
               .arg(serverName(), refused ? QStringLiteral("take") : QStringLiteral("keep writes from"), why,
                    refused ? QStringLiteral("smb.write_connections 1 for this host writes over one from the start")
                            : QStringLiteral("Wirebench writes to it over one until it restarts, and "
                                             "smb.write_connections 1 for this host skips the look"));
}

bool SmbRun::startLanes(SmbLanes &lanes, const SmbLanes::Body &body, const LanesReady &ready,
                        std::optional<RunResult> *ended)
{
    const QString verb = lanes.verb();
    m_observer.status(QStringLiteral("opening %1 connections to %2 %3").arg(lanes.lanes()).arg(verb, m_smb.path));
    lanes.setRate(m_transfer.maxRateBytesPerSecond);
    QString why;
    if (!lanes.start(body, &why)) {
        *ended = fail(TransferFault::LocalError,
                      why + QStringLiteral("; set smb.%1_connections to 1 to %1 over one").arg(verb));
        return false;
    }
    const bool allReady = lanes.waitReady(LaneReadyTimeoutMs, [this] { return m_observer.stopRequested(); });
    if (!allReady && !lanes.failure().failed) {
        *ended = cancelled();
        return false;
    }
    if (ready && !ready(allReady ? SmbLanes::Failure{} : lanes.failure())) {
        lanes.stop(); // the lanes end without a timed call
        m_lanesDeclined = true;
        ended->reset();
        return false;
    }
    if (!allReady) {
        *ended = lanesFailed(lanes.failure());
        return false;
    }
    return true;
}

std::optional<RunResult> SmbRun::overLanes(SmbLanes &lanes, const SmbLanes::Body &body, const LanesDrain &drain,
                                           const LanesReady &ready)
{
    const bool reading = m_direction == TransferDriver::Direction::Download;
    const QString verb = lanes.verb();
    const int count = lanes.lanes();
    if (std::optional<RunResult> ended; !startLanes(lanes, body, ready, &ended))
        return ended;
    m_observer.status(QStringLiteral("%1 %2 over %3 connections")
                          .arg(reading ? QStringLiteral("reading") : QStringLiteral("writing"), m_smb.path)
                          .arg(count));
    // The live samples: the receiver's count on the lanes' connections, read every few ms, as tcp-send and
    // tcp-recv count (the calls overlap, and how the line was shared among them is not known from their ends):
    // what the server acknowledged of a write, what arrived here of a read. Without sock_diag, each call's bytes
    // spread over its own time.
    const std::vector<SmbLanes::Connection> connections = lanes.connections();
    qint64 counterBase = 0;
    const bool counted = lanesCounted(connections, reading, &counterBase);
    m_meter.start();
    // The lanes' clock is CLOCK_MONOTONIC, the meter's its own: one offset, read now, turns one into the other.
    const qint64 toMeter = m_meter.now() - SmbLanes::clockNs();
    lanes.go();
    m_result.extra.insert(QStringLiteral("smb_%1_connections").arg(verb), count);
    m_result.extra.insert(QStringLiteral("samples_from"),
                          !counted      ? QStringLiteral("call_spans")
                              : reading ? QStringLiteral("tcp_bytes_received")
                                        : QStringLiteral("tcp_bytes_acked"));
    ConcurrentSpans spans; // the lanes' calls overlap in time
    const auto take = [&](const SmbLanes::Call &call) {
        m_moved += call.bytes;
        if (!counted)
            spans.add(call.bytes, call.fromNs + toMeter, call.toNs + toMeter);
    };
    const auto report = [&](bool end) {
        // Once the server has answered every byte of a write, the counters have nothing more to tell, and a look
        // now (up to a nap after the last answer, while the lanes close and log off) would stretch the clock past
        // the end: 5-7 ms of a 3 s run at 100 Mbit/s, 0.2%. What they missed is put at the last answer below.
        if (!end && !reading && counted && m_moved >= lanes.totalBytes() && lanes.inProgressBytes() == 0)
            return;
        qint64 now = 0;
        if (counted
            && lanesCounted(connections, reading, &now,
                            &m_lanesMss)) // at most what the calls so far carried (not headers)
            m_meter.setReceived(qMin(now - counterBase, m_moved + lanes.inProgressBytes()));
        const std::int64_t settled = lanes.settledNs();
        if (end)
            spans.flushAll(m_meter);
        else if (!counted && settled < std::numeric_limits<std::int64_t>::max())
            spans.flush(settled + toMeter, m_meter);
        if (end) // a stopped or failed run counts what the receiver had, as the samples do
            m_moved = qMax(m_moved, m_meter.total());
    };
    const auto ended = [&](const std::function<RunResult()> &result) {
        lanes.stop(); // each lane ends its call in progress
        lanes.poll(0, take);
        report(true);
        endLanesTiming();
        return result();
    };
    TransferFault localFault = TransferFault::None;
    QString localError;
    const int waitMs = qBound(5, m_spec.params.sampleIntervalMs / 5, 20);
    for (bool more = true; more;) {
        more = lanes.poll(waitMs, take);
        report(false);
        if (!drain(&localFault, &localError)) // the local sink failed
            return ended([&] { return fail(localFault, localError); });
        if (more && m_observer.stopRequested())
            return ended([this] { return cancelled(); });
    }
    // A write ends when the server answered the last lane's close, as that lane saw it: this process notices
    // up to a nap later, after the lanes' logoffs (1 Gbit/s, MTU 1500, 4 lanes: 0.997x smbclient, which stops
    // its clock at its close's answer). The counters said nothing since the first lane's connection went (every
    // lane's must be found): what they missed had arrived by the end of the last call, not by now.
    const std::int64_t closed = reading ? 0 : lanes.closedNs();
    if (closed > 0 && counted && lanes.lastCallEndNs() > 0) { // counted: no spans of calls to flush
        m_meter.addSpan(qMax<qint64>(0, m_moved - m_meter.total()), 0, lanes.lastCallEndNs() + toMeter);
        m_lanesEndNs = closed + toMeter;
    } else {
        report(true);
        m_lanesEndNs = closed > 0 ? closed + toMeter : 0;
    }
    m_meter.setReceived(m_moved);
    if (lanes.failure().failed) {
        endLanesTiming();
        return lanesFailed(lanes.failure());
    }
    if (!drain(&localFault, &localError)) // the chunks the lanes read last
        return ended([&] { return fail(localFault, localError); });
    return std::nullopt;
}

void SmbRun::endLanesTiming()
{
    fillTiming(m_moved, m_lanesEndNs);
    if (m_direction == TransferDriver::Direction::Upload)
        m_result.senderBytes = m_moved;
}

std::optional<RunResult> SmbRun::uploadOverLanes(qint64 size, LocalSource &source, int count)
{
    // The file ends where the run's untimed first writes ended (the lanes' own write the same bytes again), and the
    // lanes' chunks start past it. Lane 0 writes the source's bytes a little past that end first: where the server
    // does not keep them, the lanes would lose chunks, and the write goes over one connection instead.
    const qint64 end = m_result.extra.value(QStringLiteral("smb_warmup_bytes")).toLongLong();
    const qint64 gap = qMin(PastEndProbeBytes, (size - end) / 2);
    m_pastEnd = gap > 0 ? PastEnd{end, end + gap, qMin(PastEndProbeBytes, size - end - gap)} : PastEnd{};
    SmbLanes lanes(SmbLanes::Direction::Write, count, m_io, size);
    const QByteArray url = m_smb.url(m_spec.host.address);
    const auto nothingToDrain = [](TransferFault *, QString *) { return true; };
    std::optional<RunResult> ended = overLanes(
        lanes, [&](SmbLanes::Lane &lane) { writeLane(lane, url, source, size); }, nothingToDrain,
        [this, count](const SmbLanes::Failure &failure) { return lanesKeepWrites(failure, count); });
    if (ended || m_lanesDeclined)
        return ended;
    m_writeLanes = count;
    // Every lane closed its handle before it said done, inside the timed part. This one's wrote the untimed
    // warm-up only.
    endLanesTiming();
    closeFile();
    if (source.isFile()) {
        DiskClock reads;
        lanes.sourceReads(&reads.bytes, &reads.nanoseconds);
        m_result.extra.insert(QStringLiteral("disk_MBps"), reads.megabytesPerSecond());
    }
    return endUpload(size);
}

bool SmbRun::lanesKeepWrites(const SmbLanes::Failure &failure, int lanes)
{
    if (failure.failed) {
        // The server refused another connection to the file, or its untimed writes: one connection may still
        // write (and if not, says why itself). A local failure, or a lane that ended abnormally, is this computer's
        // and fails the run. Not remembered: the next write looks again.
        if (failure.local || failure.err == 0)
            return true;
        const QString text = failure.text.contains(QStringLiteral(" connection "))
            ? failure.text
            : QStringLiteral("%1 on write connection %2 of %3").arg(failure.text).arg(failure.lane + 1).arg(lanes);
        writeOverOne(QStringLiteral("%1: %2").arg(text, QString::fromLocal8Bit(std::strerror(failure.err))), true);
        return false;
    }
    if (m_pastEnd.length == 0)
        return true;
    struct stat st = {};
    if (smbc().getFunctionFstat(m_ctx)(m_ctx, m_file, &st) != 0)
        return true; // no answer to tell by: the stored size after the write still does
    if (qint64(st.st_size) >= m_pastEnd.offset + m_pastEnd.length)
        return true;
    writeOverOne(QStringLiteral("another connection's write of %1 bytes at byte %2, past the end of the file at %3 "
                                "bytes, was answered but not stored: the file had %4 bytes")
                     .arg(m_pastEnd.length)
                     .arg(m_pastEnd.offset)
                     .arg(m_pastEnd.fileEnd)
                     .arg(qint64(st.st_size)));
    return false;
}

RunResult SmbRun::downloadOverLanes(qint64 size, LocalSink &sink, int count)
{
    SmbLanes lanes(SmbLanes::Direction::Read, count, m_io, size);
    const QByteArray url = m_smb.url(m_spec.host.address);
    // The chunks go to the sink in the file's order, as one connection's would.
    const auto drain = [&](TransferFault *fault, QString *error) {
        qint64 length = 0;
        for (const char *data = lanes.nextChunk(&length); data; data = lanes.nextChunk(&length)) {
            const bool stored = sink.write(data, length, error);
            lanes.release();
            if (!stored) {
                *fault = sinkFault(sink);
                return false;
            }
        }
        return true;
    };
    if (std::optional<RunResult> ended
        = overLanes(lanes, [&](SmbLanes::Lane &lane) { readLane(lane, url, size); }, drain, {}))
        return *ended;
    return endRead(sink, size);
}

RunResult SmbRun::endRead(LocalSink &sink, qint64 expected)
{
    QString localError;
    const bool sinkOk = sink.finish(&localError);
    fillTiming(m_moved);
    closeFile();
    m_result.senderBytes = expected >= 0 ? expected : m_moved;
    if (!endDownload(sink, sinkOk, localError, m_moved, expected, QStringLiteral("received")))
        return m_result;
    return succeeded();
}

void SmbRun::laneSession(SmbLanes::Lane &lane, const QByteArray &url, int flags, const LaneIo &io)
{
    const std::vector<int> inherited = platform::Platform::processFiles().openDescriptors();
    QString why;
    SMBCCTX *ctx = newContext(&m_smb, &why);
    if (!ctx) {
        lane.fail(ENOMEM, QStringLiteral("while making %1 (%2)").arg(lane.name(), why), false, true);
        return;
    }
    errno = 0;
    SMBCFILE *file = smbc().getFunctionOpen(ctx)(ctx, url.constData(), flags, 0644);
    if (!file) {
        lane.fail(errno ? errno : EIO, QStringLiteral("while opening the file on %1").arg(lane.name()), false, true);
        smbc().free_context(ctx, 1);
        return;
    }
    // The parent reads this connection's TCP counters (sock_diag) for the live samples.
    if (const int fd = findServerSocket(m_spec.host.address, m_smb.port, inherited); fd >= 0) {
        sockaddr_storage local{};
        sockaddr_storage remote{};
        socklen_t localLength = sizeof(local);
        socklen_t remoteLength = sizeof(remote);
        if (getsockname(fd, reinterpret_cast<sockaddr *>(&local), &localLength) == 0
            && getpeername(fd, reinterpret_cast<sockaddr *>(&remote), &remoteLength) == 0) {
            SmbLanes::Connection connection;
            connection.local = net::peerAddress(local);
            connection.remote = net::peerAddress(remote);
            connection.localPort = net::portOf(local);
            connection.remotePort = net::portOf(remote);
            lane.setConnection(connection);
        }
    }
    const bool ok = io(ctx, file);
    if (smbc().getFunctionClose(ctx)(ctx, file) < 0) {
        if (ok)
            lane.fail(errno ? errno : EIO, QStringLiteral("while closing the file"), false, false);
    } else if (ok) {
        lane.closed();
        lane.waitOthersClosed();
    }
    smbc().free_context(ctx, 1);
}

qint64 SmbRun::laneWarmUpBytes(qint64 size) const
{
    // A lane's connection is as fresh as the run's own was: the same untimed calls. With one only, smb-read
    // at 1 Gbit/s in the lab read 0.958-0.965 of the theory on the first attempt and 0.983-0.985 on the next.
    return m_smb.warmUp ? qMin(size, WarmUpCalls * m_io) : 0;
}

qint64 SmbRun::laneCalls(SmbLanes::Lane &lane, const LaneCall &call, qint64 offset, qint64 length, bool timed,
                         qint64 *io)
{
    const bool reading = m_direction == TransferDriver::Direction::Download;
    if (call.seek(call.ctx, call.file, off_t(offset), SEEK_SET) < 0) {
        lane.fail(errno, QStringLiteral("while seeking on %1").arg(lane.name()), false, false);
        return -1;
    }
    qint64 done = 0;
    while (done < length) {
        const qint64 n = qMin(*io, length - done);
        if (timed)
            lane.setInProgress(n);
        const std::int64_t t0 = SmbLanes::clockNs();
        const ssize_t moved = call.io(done, n);
        if (moved < 0 || (moved == 0 && !reading)) {
            lane.fail(moved < 0 ? errno : EIO,
                      reading ? QStringLiteral("during the read") : QStringLiteral("during the write"), false, false);
            return -1;
        }
        const std::int64_t t1 = SmbLanes::clockNs();
        if (timed) {
            lane.record(moved, t0, t1);
            lane.setInProgress(0);
            shrinkAfterSlowCall(t1 - t0, io);
        }
        if (moved == 0) // the end of the file
            break;
        done += moved;
    }
    return done;
}

void SmbRun::writeLane(SmbLanes::Lane &lane, const QByteArray &url, LocalSource &source, qint64 size)
{
    laneSession(lane, url, O_WRONLY, [&](SMBCCTX *ctx, SMBCFILE *file) {
        auto write = smbc().getFunctionWrite(ctx);
        std::vector<char> buffer(static_cast<size_t>(m_io));
        const LaneCall call{ctx, file, smbc().getFunctionLseek(ctx),
                            [&](qint64 done, qint64 n) { return write(ctx, file, buffer.data() + done, size_t(n)); }};
        qint64 io = m_io;
        QString error;
        const auto writeAt = [&](qint64 offset, qint64 length, bool timed) {
            const std::int64_t read0 = SmbLanes::clockNs();
            if (!source.reference(buffer.data(), offset, length, &error)) {
                lane.fail(0, error, true, false);
                return false;
            }
            if (timed && source.isFile())
                lane.recordSourceRead(length, SmbLanes::clockNs() - read0);
            return laneCalls(lane, call, offset, length, timed, &io) == length;
        };
        // The untimed first writes of this connection (as warmUp() on the run's own): the file's first bytes again.
        bool ok = true;
        for (qint64 offset = 0; ok && offset < laneWarmUpBytes(size); offset += m_io)
            ok = writeAt(offset, qMin(m_io, size - offset), false);
        // The look past the end of the file (uploadOverLanes): the source's bytes there, which the timed part writes
        // again.
        if (ok && lane.index() == 0 && m_pastEnd.length > 0)
            ok = writeAt(m_pastEnd.offset, m_pastEnd.length, false);
        if (ok) {
            lane.ready();
            ok = lane.waitGo();
        }
        for (qint64 offset = 0, length = 0; ok && lane.claim(&offset, &length);)
            ok = writeAt(offset, length, true);
        return ok;
    });
}

void SmbRun::readLane(SmbLanes::Lane &lane, const QByteArray &url, qint64 size)
{
    laneSession(lane, url, O_RDONLY, [&](SMBCCTX *ctx, SMBCFILE *file) {
        auto read = smbc().getFunctionRead(ctx);
        char *into = nullptr;
        const LaneCall call{ctx, file, smbc().getFunctionLseek(ctx),
                            [&](qint64 done, qint64 n) { return read(ctx, file, into + done, size_t(n)); }};
        qint64 io = m_io;
        // The untimed first reads of this connection (as warmUp() on the run's own), into a buffer of its own.
        std::vector<char> warm(size_t(qMin(m_io, size)));
        into = warm.data();
        bool ok = true;
        for (qint64 offset = 0; ok && offset < laneWarmUpBytes(size); offset += m_io)
            ok = laneCalls(lane, call, offset, qMin(m_io, size - offset), false, &io) >= 0;
        if (ok) {
            lane.ready();
            ok = lane.waitGo();
        }
        qint64 offset = 0;
        qint64 length = 0;
        while (ok && (into = lane.claimBuffer(&offset, &length))) {
            const qint64 got = laneCalls(lane, call, offset, length, true, &io);
            ok = got >= 0;
            if (ok)
                lane.deliver(got);
            if (got < length) // the file ended early (or the call failed): nothing follows this chunk
                break;
        }
        return ok;
    });
}

bool SmbRun::lanesCounted(const std::vector<SmbLanes::Connection> &connections, bool received, qint64 *sum,
                          int *dataMss) const
{
    // One look-up per connection: a walk over every socket (establishedTcp) took 1.9 ms per look, 50 looks a
    // second, a tenth of a core the lanes and smbd were short of at 2.5 Gbit/s on 2 cores.
    const platform::SocketDiagnostics &diagnostics = platform::Platform::socketDiagnostics();
    *sum = 0;
    for (const SmbLanes::Connection &c : connections) {
        platform::TcpSocketReading r;
        std::string error;
        if (c.localPort == 0 || !diagnostics.tcpSocket(c.local, c.localPort, c.remote, c.remotePort, &r, &error))
            return false;
        const std::uint64_t bytes = received ? r.bytesReceived : r.bytesAcked;
        if (bytes == 0) // a kernel before 4.1, or nothing yet
            return false;
        *sum += qint64(bytes);
        if (dataMss)
            *dataMss = qMax(*dataMss, qMax(r.sndMss, r.rcvMss));
    }
    return !connections.empty();
}

RunResult SmbRun::lanesFailed(const SmbLanes::Failure &failure)
{
    if (failure.local)
        return fail(TransferFault::LocalError, failure.text);
    if (failure.err == 0)
        return fail(TransferFault::ClosedMidTransfer, failure.text);
    return failErrno(failure.err, failure.text, failure.opening);
}

RunResult SmbRun::pumpFailed(bool stopped, const IoFailure &failure, const QString &during)
{
    if (stopped)
        return cancelled();
    if (failure.localFault != TransferFault::None)
        return fail(failure.localFault, failure.localError);
    return failErrno(failure.err, during, false);
}

RunResult SmbRun::endUpload(qint64 size)
{
    // The server's own count.
    struct stat st = {};
    if (smbc().getFunctionStat(m_ctx)(m_ctx, m_smb.url(m_spec.host.address).constData(), &st) == 0) {
        m_result.bytes = st.st_size;
        if (st.st_size != size && m_writeLanes > 1) {
            // The look before the timed part found nothing wrong, yet the chunks were not all kept.
            const QString why = QStringLiteral("it stored %1 bytes of %2 written over %3 connections")
                                    .arg(qint64(st.st_size))
                                    .arg(size)
                                    .arg(m_writeLanes);
            OneConnectionServers::remember(serverAddress(), why);
            return fail(TransferFault::Mismatch,
                        QStringLiteral("the server stored %1 bytes of %2 written over %3 connections: it does not "
                                       "keep writes from several connections to one file; the next writes to it go "
                                       "over one connection")
                            .arg(qint64(st.st_size))
                            .arg(size)
                            .arg(m_writeLanes));
        }
        if (st.st_size != size)
            return fail(TransferFault::Mismatch,
                        QStringLiteral("the server stored %1 bytes of %2").arg(qint64(st.st_size)).arg(size));
    } else {
        m_result.warnings << QStringLiteral("the server did not answer stat; the byte count is the client's");
    }
    if (m_transfer.verify && !readBack(size))
        return m_result;
    return succeeded();
}

void SmbRun::noteSuccess()
{
    m_result.extra.insert(QStringLiteral("smb_protocols"),
                          m_smb.allowSmb1 ? QStringLiteral("NT1..SMB3") : QStringLiteral("SMB2_02..SMB3"));
}

} // namespace

QList<ProtocolInfo> SmbDriver::protocolInfos()
{
    using T = OptionSpec::Type;
    const QList<OptionSpec> options = {
        {QStringLiteral("smb.share"),
         QStringLiteral("SMB share"),
         T::Text,
         QString(),
         {},
         QStringLiteral("The share name, as in \\\\host\\share")},
        {QStringLiteral("smb.path"),
         QStringLiteral("SMB file in the share"),
         T::Text,
         DefaultFileName,
         {},
         QStringLiteral("A path inside the share; a trailing / adds ") + DefaultFileName},
        {QStringLiteral("smb.user"), QStringLiteral("SMB user"), T::Text, QString(), {}, QString()},
        {QStringLiteral("smb.password"), QStringLiteral("SMB password"), T::Secret, QString(), {}, QString()},
        {QStringLiteral("smb.domain"), QStringLiteral("SMB domain or workgroup"), T::Text, QString(), {}, QString()},
        {QStringLiteral("smb.port"), QStringLiteral("SMB port"), T::Integer, 445, {}, QString()},
        {QStringLiteral("smb.allow_smb1"),
         QStringLiteral("Allow SMB1 (NT1)"),
         T::Bool,
         false,
         {},
         QStringLiteral("Off: SMB2 and SMB3 only")},
        {QStringLiteral("smb.io_size"),
         QStringLiteral("SMB I/O size (bytes)"),
         T::Integer,
         DefaultIoBytes,
         {},
         QStringLiteral("Bytes per read or write call")},
        {QStringLiteral("smb.write_connections"),
         QStringLiteral("SMB write connections"),
         T::Integer,
         DefaultWriteConnections,
         {},
         QStringLiteral("Connections a write uses at once, each writing the next chunk of the same file (1 to 8). "
                        "libsmbclient sends one write at a time per connection and waits for its answer, which "
                        "leaves the line idle meanwhile; Windows and smbclient keep several writes in flight on "
                        "one. 1: one connection. Recorded as smb_write_connections")},
        {QStringLiteral("smb.read_connections"),
         QStringLiteral("SMB read connections"),
         T::Integer,
         DefaultReadConnections,
         {},
         QStringLiteral("Connections a read uses at once, each reading the next chunk of the same file (1 to 8). "
                        "libsmbclient keeps reads in flight only within one call, so the line idles between two "
                        "calls; smbclient keeps them in flight over the whole file. 1: one connection. Recorded as "
                        "smb_read_connections")},
        {QStringLiteral("smb.warm_up"),
         QStringLiteral("Untimed first I/O calls"),
         T::Bool,
         true,
         {},
         QStringLiteral("Three reads or writes of the I/O size from the start of the file before the timing starts "
                        "(as iperf3 -O): a fresh connection's first calls are slow while it ramps up. Their byte "
                        "count is recorded as smb_warmup_bytes")},
    };
    // libsmbclient connects its own socket; the MSS is read and recorded.
    QList<ProtocolInfo> pair = protocolPair<SmbDriver>(
        QStringLiteral("smb"), false, options,
        {QStringLiteral("smb-read"), QStringLiteral("SMB read (server → client)"),
         QStringLiteral("Reads one file of the chosen size from an SMB share (writes it first if missing).")},
        {QStringLiteral("smb-write"), QStringLiteral("SMB write (client → server)"),
         QStringLiteral("Writes one generated file of the chosen size to an SMB share.")});
    for (ProtocolInfo &info : pair) {
        info.connectionOwner = QStringLiteral("libsmbclient");
        info.observedPortOption = QStringLiteral("smb.port");
        info.serverProbe = ProtocolInfo::ServerProbe::Smb;
        info.latencyProbe = ProtocolInfo::LatencyProbe::Connect;
        info.servicePortOption = QStringLiteral("smb.port");
        info.defaultServicePort = 445;
    }
    return pair;
}

std::unique_ptr<TransferRun> SmbDriver::makeRun(const RunSpec &spec, RunObserver &observer) const
{
    return std::make_unique<SmbRun>(spec, observer, m_direction);
}

PreflightProblemList SmbDriver::check(const RunSpec &spec, int timeoutMs)
{
    // The checks of a plan run side by side; libsmbclient's contexts share process-wide state (its smb.conf,
    // talloc stack frames), so one check at a time talks SMB, its context freed before the next.
    static std::mutex oneAtATime;
    const std::lock_guard<std::mutex> lock(oneAtATime);
    return TransferDriver::check(spec, timeoutMs);
}

} // namespace wb
