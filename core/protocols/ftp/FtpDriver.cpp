#include "FtpDriver.h"

#include "model/Frame.h"
#include "identity/IdentityProbeSocket.h"
#include "identity/ServiceBanner.h"
#include "identity/SmbIdentityProbe.h"
#include "net/TcpInfo.h"
#include "platform/Platform.h"
#include "protocols/ThroughputMeter.h"
#include "protocols/transfer/LocalSink.h"
#include "protocols/transfer/LocalSource.h"
#include "protocols/transfer/TestFile.h"
#include "protocols/transfer/TransferError.h"
#include "protocols/transfer/TransferRun.h"
#include "protocols/transfer/TransferSettings.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <curl/curl.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

namespace {

const QString DefaultFileName = TestFile::defaultName();
// The choices of ftp.tls_trust, as the user reads them: the stored value is the text itself.
const QString TrustSystem = QStringLiteral("system CAs");
const QString TrustCaFile = QStringLiteral("CA file");
const QString TrustAny = QStringLiteral("accept any certificate (insecure)");
constexpr long TransferBufferBytes = 1024 * 1024; // libcurl caps the upload buffer at 2 MiB
constexpr long StallSeconds = 30;                 // no byte for this long = the server is gone
constexpr int CheckMs = 3000;                     // checkServer(): the wait for a greeting, and for an SMB answer

void globalInit()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct FtpSettings
{
    QString user;
    QString password; // from Host::options until the key store lands; never copied into results or errors
    QString path;
    int port = 21;
    bool active = false;
    bool tls = false;
    enum class Trust { System, CaFile, Any } trust = Trust::System;
    QString caFile;

    static FtpSettings fromHost(const Host &host)
    {
        FtpSettings s;
        const QVariantMap &o = host.options;
        s.user = o.value(QStringLiteral("ftp.user")).toString();
        s.password = o.value(QStringLiteral("ftp.password")).toString();
        s.path = o.value(QStringLiteral("ftp.path")).toString().trimmed();
        if (s.path.isEmpty())
            s.path = DefaultFileName;
        else if (s.path.endsWith(QLatin1Char('/')))
            s.path += DefaultFileName;
        s.port = o.value(QStringLiteral("ftp.port"), 21).toInt();
        if (s.port <= 0 || s.port > 65535)
            s.port = 21;
        s.active = o.value(QStringLiteral("ftp.active"), false).toBool();
        s.tls = o.value(QStringLiteral("ftp.tls"), false).toBool();
        const QString trust = o.value(QStringLiteral("ftp.tls_trust")).toString();
        if (trust == TrustCaFile)
            s.trust = Trust::CaFile;
        else if (trust == TrustAny || (trust.isEmpty() && !o.value(QStringLiteral("ftp.tls_verify"), true).toBool()))
            s.trust = Trust::Any; // ftp.tls_verify=false: hosts saved before ftp.tls_trust existed
        s.caFile = o.value(QStringLiteral("ftp.tls_ca_file")).toString().trimmed();
        return s;
    }

    QString trustText() const
    {
        switch (trust) {
        case Trust::System:
            return QStringLiteral("system CAs");
        case Trust::CaFile:
            return QStringLiteral("CA file %1").arg(caFile);
        case Trust::Any:
            return QStringLiteral("none (any certificate accepted)");
        }
        return {};
    }

    QByteArray url(const QString &address) const
    {
        QByteArray u = "ftp://";
        QByteArray host = QUrl::toAce(address);
        if (host.isEmpty())
            host = address.toUtf8();
        if (address.contains(QLatin1Char(':')))
            host = '[' + address.toUtf8() + ']';
        u += host + ':' + QByteArray::number(port) + '/';
        if (path.startsWith(QLatin1Char('/')))
            u += "%2F"; // absolute path: libcurl then starts with CWD /
        const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        QByteArrayList encoded;
        for (const QString &p : parts)
            encoded << QUrl::toPercentEncoding(p);
        u += encoded.join('/');
        return u;
    }
};

/// State shared with libcurl's callbacks during one request.
struct Transfer
{
    enum class Mode { Download, Upload, ReadBack, Head };

    RunObserver *observer = nullptr;
    ThroughputMeter *meter = nullptr; ///< null for untimed requests (seed upload, read-back)
    Mode mode = Mode::Download;
    LocalSink *sink = nullptr;
    LocalSource *source = nullptr;
    qint64 uploadLimit = 0; ///< bytes the read callback hands out
    qint64 handedOut = 0;
    qint64 received = 0;
    qint64 uploaded = 0; ///< ulnow as libcurl reports it
    bool meterStarted = false;
    bool stopped = false;
    bool localFailed = false;
    TransferFault localFault = TransferFault::None;
    QString localError;
    std::vector<char> reference;
    QByteArray head; ///< Mode::Head: the file's first bytes

    // Socket and identity, kept across the requests of one run.
    int frameSize = 0; ///< the plan's; each connection's TCP_MAXSEG follows from it (Frame)
    int mssWanted = 0;
    int lastFd = -1;
    int controlFd = -1;       ///< the control connection's socket while it is open
    bool plainControl = true; ///< false under FTPS: the control bytes cannot be read beside libcurl
    QString lateReply;        ///< a reply the server sent as libcurl gave up on a broken upload
    int mss = 0;
    bool mssSetFailed = false;
    QString greeting;
    QString syst;
    QString lastReply;
    int dataFd = -1;       ///< the timed transfer's data connection while it is open
    qint64 dataFdBase = 0; ///< its tcpi_bytes_acked before any data: 1 (our SYN) when we connected, 0 accepted

    void startMeter()
    {
        if (meter && !meterStarted) {
            meter->start();
            meterStarted = true;
        }
    }

    /// A timed upload's samples are the bytes the server has acknowledged on the data connection (TCP_INFO),
    /// not the bytes libcurl handed to its socket: the socket buffer takes megabytes at once and drains after
    /// libcurl's last send. At most what the read callback handed out (under FTPS TLS adds its own bytes).
    /// Returns the acknowledged count, -1 without the counter (libcurl's count is used then).
    qint64 sampleUpload()
    {
        if (!meter || !meterStarted || dataFd < 0)
            return -1;
        const qint64 acked = net::TcpInfo::of(dataFd).bytesAcked;
        if (acked < 0) {
            meter->setReceived(uploaded);
            return -1;
        }
        const qint64 got = qBound<qint64>(0, acked - dataFdBase, handedOut);
        meter->setReceived(got);
        return got;
    }

    /// A timed download's samples: the bytes that have arrived, taken by libcurl or still waiting in the socket
    /// (platform::SocketCalls::unreadBytes), when a callback runs. What libcurl has taken alone lags the line by
    /// however long libcurl was kept from reading (a busy machine), and a callback then seemed to say that nothing had
    /// arrived. Under FTPS the socket holds TLS records, not file bytes: libcurl's count alone.
    void sampleDownload()
    {
        if (!meter || !meterStarted)
            return;
        int waiting = 0;
        if (dataFd < 0 || !plainControl || !platform::Platform::socketCalls().unreadBytes(dataFd, &waiting))
            waiting = 0;
        meter->setReceived(received + waiting);
    }

    /// libcurl closes the data connection after its last send, while up to megabytes are still on their way;
    /// the server answers 226 once they have arrived. Until it has acknowledged them all, or its reply is
    /// there (libcurl then reads it at once, so the figure's 226 is not delayed), the samples follow the
    /// acknowledgements. The FIN goes out now, behind the data, as close() would send it.
    void sampleUploadDrain(int fd)
    {
        if (stopped || localFailed || handedOut < uploadLimit || controlFd < 0)
            return;
        ::shutdown(fd, SHUT_WR);
        qint64 last = -1;
        for (int still = 0; still < 5000 && !observer->stopRequested(); ++still) { // 5 s without a byte: gone
            const qint64 got = sampleUpload();
            if (got < 0 || got >= handedOut)
                return;
            if (got != last)
                still = 0;
            last = got;
            pollfd p{controlFd, POLLIN, 0};
            if (::poll(&p, 1, 1) != 0)
                return;
        }
    }

    void readMss()
    {
        if (mss > 0 || lastFd < 0)
            return;
        const int sndMss = net::TcpInfo::of(lastFd).sndMss;
        if (sndMss > 0)
            mss = sndMss;
    }
};

int sockoptCallback(void *clientp, curl_socket_t fd, curlsocktype purpose)
{
    auto *t = static_cast<Transfer *>(clientp);
    t->lastFd = fd;
    if (purpose == CURLSOCKTYPE_IPCXN && t->controlFd < 0)
        t->controlFd = fd; // the first connection is the control one; data connections follow while it is open
    if (t->meter && t->mode != Transfer::Mode::ReadBack && fd != t->controlFd) {
        t->dataFd = fd; // the timed transfer's data connection (passive: ours; active: the accepted one)
        t->dataFdBase = purpose == CURLSOCKTYPE_ACCEPT ? 0 : 1;
    }
    t->mss = 0; // a new connection: read its MSS once data flows
    sockaddr_storage own{};
    socklen_t ownLen = sizeof(own);
    const bool v6 = getsockname(fd, reinterpret_cast<sockaddr *>(&own), &ownLen) == 0 && own.ss_family == AF_INET6;
    t->mssWanted = Frame::maxSegFor(t->frameSize, v6);
    if (t->mssWanted > 0 && setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &t->mssWanted, sizeof(t->mssWanted)) != 0)
        t->mssSetFailed = true;
    Q_UNUSED(purpose) // IPCXN (control, passive data) or ACCEPT (active data: only our sends follow it)
    return CURL_SOCKOPT_OK;
}

/// The last complete reply line ("451 Failure writing to local file.") that the server has already sent on fd,
/// waiting up to two seconds for it.
QString pendingReply(int fd, const RunObserver &observer)
{
    QByteArray got;
    for (int waited = 0; waited < 2000 && !observer.stopRequested(); waited += 100) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        char buffer[2048];
        const ssize_t n = ::recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
        if (n <= 0)
            break; // closed (a killed server) or nothing more
        got.append(buffer, n);
        if (got.endsWith('\n'))
            break;
    }
    QString reply;
    for (const QByteArray &line : got.split('\n')) {
        const QString text = QString::fromUtf8(line).trimmed();
        if (text.size() >= 4 && text[0].isDigit() && text[3] == QLatin1Char(' '))
            reply = text.left(200);
    }
    return reply;
}

int closeSocketCallback(void *clientp, curl_socket_t fd)
{
    auto *t = static_cast<Transfer *>(clientp);
    if (fd == t->dataFd) {
        if (t->mode == Transfer::Mode::Upload)
            t->sampleUploadDrain(fd);
        t->dataFd = -1;
    }
    if (fd == t->controlFd) {
        // libcurl drops the control connection without reading it when the data connection of an upload
        // breaks; the server's reason (vsftpd: "451 Failure writing to local file." on a full disk) is
        // waiting there. Read it before the socket goes, where the bytes are plain text.
        const bool brokenUpload = t->mode == Transfer::Mode::Upload && t->handedOut > 0 && t->uploaded < t->uploadLimit
            && !t->stopped && !t->localFailed;
        if (brokenUpload && t->plainControl)
            t->lateReply = pendingReply(fd, *t->observer);
        t->controlFd = -1;
    }
    return ::close(fd);
}

int debugCallback(CURL *, curl_infotype type, char *data, size_t size, void *clientp)
{
    if (type != CURLINFO_HEADER_IN) // never look at what we send: it holds the password
        return 0;
    auto *t = static_cast<Transfer *>(clientp);
    const QString line = QString::fromUtf8(data, qsizetype(size)).trimmed();
    if (line.isEmpty())
        return 0;
    if (line.size() >= 4 && line[3] == QLatin1Char(' '))
        t->lastReply = line.left(200);
    if (t->greeting.isEmpty() && line.startsWith(QLatin1String("220")))
        t->greeting = line.mid(4).trimmed();
    else if (t->syst.isEmpty() && line.startsWith(QLatin1String("215")))
        t->syst = line.mid(4).trimmed();
    return 0;
}

size_t writeCallback(char *data, size_t, size_t n, void *userp)
{
    auto *t = static_cast<Transfer *>(userp);
    if (t->observer->stopRequested()) {
        t->stopped = true;
        return 0;
    }
    t->startMeter();
    if (t->mode == Transfer::Mode::Head) {
        t->head.append(data, qsizetype(n)); // CURLOPT_RANGE ends the transfer after the head
        t->received += qint64(n);
        return n;
    }
    if (t->mode == Transfer::Mode::ReadBack) {
        if (t->reference.size() < n)
            t->reference.resize(n);
        if (!t->source->reference(t->reference.data(), t->received, qint64(n), &t->localError)) {
            t->localFailed = true;
            t->localFault = TransferFault::LocalError;
            return 0;
        }
        if (std::memcmp(t->reference.data(), data, n) != 0) {
            qint64 at = t->received;
            while (at - t->received < qint64(n) && data[at - t->received] == t->reference[size_t(at - t->received)])
                ++at;
            t->localFailed = true;
            t->localFault = TransferFault::Mismatch;
            t->localError = QStringLiteral("the stored file differs from what was sent at byte %1").arg(at);
            return 0;
        }
        t->received += qint64(n);
        return n;
    }
    // The chunk has crossed the network whatever the sink makes of it: it counts as received.
    t->received += qint64(n);
    if (t->mode == Transfer::Mode::Download)
        t->sampleDownload();
    if (t->sink && !t->sink->write(data, qint64(n), &t->localError)) {
        t->localFailed = true;
        t->localFault = TransferRun::sinkFault(*t->sink);
        return 0;
    }
    return n;
}

size_t readCallback(char *buffer, size_t size, size_t nitems, void *userp)
{
    auto *t = static_cast<Transfer *>(userp);
    if (t->observer->stopRequested()) {
        t->stopped = true;
        return CURL_READFUNC_ABORT;
    }
    t->startMeter();
    const qint64 want = qMin<qint64>(qint64(size * nitems), t->uploadLimit - t->handedOut);
    if (want <= 0)
        return 0;
    const qint64 got = t->source->read(buffer, want, &t->localError);
    if (got < 0) {
        t->localFailed = true;
        t->localFault = TransferFault::LocalError;
        return CURL_READFUNC_ABORT;
    }
    t->handedOut += got;
    return size_t(got);
}

int xferinfoCallback(void *clientp, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t ulnow)
{
    auto *t = static_cast<Transfer *>(clientp);
    if (t->observer->stopRequested()) {
        t->stopped = true;
        return 1;
    }
    if (dlnow > 0 || ulnow > 0)
        t->readMss();
    if (t->meter && t->meterStarted) {
        if (t->mode == Transfer::Mode::Upload) {
            t->uploaded = qint64(ulnow);
            t->sampleUpload();
        } else {
            t->sampleDownload(); // also while the data stalls
        }
    }
    return 0;
}

// What a run's messages call it: FTP's own command for the direction.
QString commandOf(TransferDriver::Direction direction)
{
    return direction == TransferDriver::Direction::Download ? QStringLiteral("FTP GET") : QStringLiteral("FTP PUT");
}

class FtpRun : public TransferRun
{
public:
    FtpRun(const RunSpec &spec, RunObserver &observer, TransferDriver::Direction direction)
        : TransferRun(spec, observer, direction, commandOf(direction))
        , m_ftp(FtpSettings::fromHost(spec.host))
    {
        m_port = m_ftp.port;
        m_state.observer = &observer;
        m_state.frameSize = spec.frameSize;
    }

    ~FtpRun() override
    {
        if (m_curl)
            curl_easy_cleanup(m_curl);
    }

    /// What run() would meet first (connection, TLS, login, folder, the file of a GET without seeding), each
    /// step within timeoutMs.
    PreflightProblemList check(int timeoutMs) override { return problemsOf(checkRun(timeoutMs)); }

private:
    bool start() override;
    bool reach() override { return checkServer(); }
    RunResult download(qint64 size) override;
    RunResult upload(qint64 size) override;
    void noteEnd() override { finishIdentity(); }
    /// check()'s steps; status Ok when nothing stood in the way.
    RunResult checkRun(int timeoutMs);
    bool open();
    void setup();
    CURLcode perform(Transfer::Mode mode, ThroughputMeter *meter, qint64 uploadBytes);
    qint64 remoteSize(CURLcode *code);
    CURLcode readHead(QByteArray *head);
    bool prepareGet(qint64 planned, qint64 *expected);
    bool checkPutTarget();
    bool checkServer();
    RunResult failCurl(CURLcode code, const QString &during);
    void finishIdentity();
    void fillTiming(qint64 bytes, bool completed);

    FtpSettings m_ftp;
    CURL *m_curl = nullptr;
    Transfer m_state;
    LocalSource m_source;
    LocalSink m_sink;
    char m_curlError[CURL_ERROR_SIZE] = {};
};

void FtpRun::setup()
{
    CURL *c = m_curl;
    curl_easy_setopt(c, CURLOPT_URL, m_ftp.url(m_spec.host.address).constData());
    if (!m_ftp.user.isEmpty()) {
        curl_easy_setopt(c, CURLOPT_USERNAME, m_ftp.user.toUtf8().constData());
        curl_easy_setopt(c, CURLOPT_PASSWORD, m_ftp.password.toUtf8().constData());
    } // else libcurl logs in as "anonymous"
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, m_curlError);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_SERVER_RESPONSE_TIMEOUT, StallSeconds);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, StallSeconds);
    curl_easy_setopt(c, CURLOPT_BUFFERSIZE, TransferBufferBytes);
    curl_easy_setopt(c, CURLOPT_UPLOAD_BUFFERSIZE, TransferBufferBytes);
    curl_easy_setopt(c, CURLOPT_SOCKOPTFUNCTION, sockoptCallback);
    curl_easy_setopt(c, CURLOPT_SOCKOPTDATA, &m_state);
    curl_easy_setopt(c, CURLOPT_CLOSESOCKETFUNCTION, closeSocketCallback);
    curl_easy_setopt(c, CURLOPT_CLOSESOCKETDATA, &m_state);
    m_state.plainControl = !m_ftp.tls;
    curl_easy_setopt(c, CURLOPT_VERBOSE, 1L); // feeds debugCallback: greeting, SYST, last reply
    curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, debugCallback);
    curl_easy_setopt(c, CURLOPT_DEBUGDATA, &m_state);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, xferinfoCallback);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &m_state);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, writeCallback);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &m_state);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, readCallback);
    curl_easy_setopt(c, CURLOPT_READDATA, &m_state);
    curl_easy_setopt(c, CURLOPT_FTP_USE_EPSV, 1L);
    if (m_ftp.active)
        curl_easy_setopt(c, CURLOPT_FTPPORT, "-"); // the control connection's own address
    if (m_ftp.tls) {
        // Control and data connections both in TLS; a server that refuses AUTH TLS ends the run.
        curl_easy_setopt(c, CURLOPT_USE_SSL, long(CURLUSESSL_ALL));
        curl_easy_setopt(c, CURLOPT_FTPSSLAUTH, long(CURLFTPAUTH_TLS));
        const bool verify = m_ftp.trust != FtpSettings::Trust::Any;
        curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, verify ? 1L : 0L);
        curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, verify ? 2L : 0L);
        if (m_ftp.trust == FtpSettings::Trust::CaFile)
            curl_easy_setopt(c, CURLOPT_CAINFO, QFile::encodeName(m_ftp.caFile).constData());
    }
}

CURLcode FtpRun::perform(Transfer::Mode mode, ThroughputMeter *meter, qint64 uploadBytes)
{
    m_state.mode = mode;
    m_state.meter = meter;
    m_state.meterStarted = false;
    m_state.received = 0;
    m_state.uploaded = 0;
    m_state.handedOut = 0;
    m_state.uploadLimit = uploadBytes;
    m_state.lateReply.clear();
    m_state.source = &m_source;
    m_state.sink = mode == Transfer::Mode::Download ? &m_sink : nullptr;
    m_curlError[0] = 0;
    // The rate limit applies to the timed transfer only, never to seeding or reading back.
    const curl_off_t rate = meter ? curl_off_t(m_transfer.maxRateBytesPerSecond) : 0;
    curl_easy_setopt(m_curl, CURLOPT_MAX_RECV_SPEED_LARGE, rate);
    curl_easy_setopt(m_curl, CURLOPT_MAX_SEND_SPEED_LARGE, rate);
    // libcurl reads up to 100 buffers in a row while the socket has data and checks the rate only between such
    // rounds: with 1 MiB buffers a fast server got 100 MiB through a 4 MiB/s limit in one burst. A buffer of
    // 1/100 of a second's worth keeps a round within about one second of the limit.
    const long recvBuffer
        = rate > 0 ? long(std::clamp<curl_off_t>(rate / 100, 16 * 1024, TransferBufferBytes)) : TransferBufferBytes;
    curl_easy_setopt(m_curl, CURLOPT_BUFFERSIZE, recvBuffer);
    curl_easy_setopt(m_curl, CURLOPT_NOBODY, 0L);
    curl_easy_setopt(m_curl, CURLOPT_QUOTE, nullptr);
    if (mode == Transfer::Mode::Upload) {
        curl_easy_setopt(m_curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(m_curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(uploadBytes));
    } else {
        curl_easy_setopt(m_curl, CURLOPT_UPLOAD, 0L);
    }
    const CURLcode code = curl_easy_perform(m_curl);
    // An upload's 226: the server has every byte, also those still on their way when the samples last looked.
    if (code == CURLE_OK && meter && mode == Transfer::Mode::Upload)
        meter->setReceived(m_state.handedOut);
    m_state.dataFd = -1;
    return code;
}

qint64 FtpRun::remoteSize(CURLcode *code)
{
    // SIZE (and SYST, for the server's identity; "*" = a refusal is no error).
    curl_slist *quote = curl_slist_append(nullptr, "*SYST");
    curl_easy_setopt(m_curl, CURLOPT_UPLOAD, 0L);
    curl_easy_setopt(m_curl, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(m_curl, CURLOPT_QUOTE, m_state.syst.isEmpty() ? quote : nullptr);
    m_state.meter = nullptr;
    *code = curl_easy_perform(m_curl);
    curl_easy_setopt(m_curl, CURLOPT_QUOTE, nullptr);
    curl_easy_setopt(m_curl, CURLOPT_NOBODY, 0L);
    curl_slist_free_all(quote);
    curl_off_t size = -1;
    if (*code == CURLE_OK)
        curl_easy_getinfo(m_curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &size);
    return qint64(size);
}

CURLcode FtpRun::readHead(QByteArray *head)
{
    m_state.head.clear();
    const QByteArray range = "0-" + QByteArray::number(TestFile::headBytes() - 1);
    curl_easy_setopt(m_curl, CURLOPT_RANGE, range.constData());
    const CURLcode code = perform(Transfer::Mode::Head, nullptr, 0);
    curl_easy_setopt(m_curl, CURLOPT_RANGE, nullptr);
    *head = m_state.head;
    return code;
}

bool FtpRun::prepareGet(qint64 planned, qint64 *expected)
{
    // The file to download: the plan's size as it is; missing, or another size and Wirebench's own, (re)written
    // first (if the plan lets us); anyone else's read as it is (TestFile).
    m_observer.status(QStringLiteral("checking %1 on the server").arg(m_ftp.path));
    CURLcode code = CURLE_OK;
    const qint64 remote = remoteSize(&code);
    bool missing = code == CURLE_REMOTE_FILE_NOT_FOUND;
    if (code != CURLE_OK && !missing) {
        m_result = failCurl(code, QStringLiteral("while checking the file"));
        return false;
    }
    if (!missing && remote == planned)
        return true;
    if (!m_transfer.createSeed) {
        m_result = missing
            ? fail(TransferFault::NoSuchPath,
                   QStringLiteral("no file \"%1\" on the server (or let Wirebench create it)").arg(m_ftp.path))
            : fail(TransferFault::Mismatch,
                   QStringLiteral("the server's \"%1\" has %2 bytes, the plan asks for %3")
                       .arg(m_ftp.path)
                       .arg(remote)
                       .arg(planned));
        return false;
    }
    if (!missing) {
        QByteArray head;
        code = readHead(&head);
        // Without SIZE (remote < 0) the first read is what tells a missing file.
        missing = remote < 0 && (code == CURLE_REMOTE_FILE_NOT_FOUND || code == CURLE_FTP_COULDNT_RETR_FILE);
        if (code != CURLE_OK && !missing) {
            m_result = failCurl(code, QStringLiteral("while reading the start of the file"));
            return false;
        }
        if (!missing && !TestFile::isOwn(head)) {
            readAsFound(m_ftp.path, remote, planned, expected);
            return true;
        }
    }
    const QString during = missing
        ? QStringLiteral("while uploading the seed file")
        : QStringLiteral("while replacing Wirebench's %1-byte test file with a %2-byte one").arg(remote).arg(planned);
    m_observer.status(QStringLiteral("uploading the seed file %1 (%2 bytes)").arg(m_ftp.path).arg(planned));
    TransferSettings memory;
    QString localError;
    if (!m_source.open(memory, planned, &localError)) {
        m_result = fail(TransferFault::LocalError, localError);
        return false;
    }
    code = perform(Transfer::Mode::Upload, nullptr, planned);
    if (code != CURLE_OK) {
        m_result = failCurl(code, during);
        return false;
    }
    m_result.extra.insert(QStringLiteral("seeded"), true);
    if (!missing)
        m_result.extra.insert(QStringLiteral("replaced_test_file_bytes"), remote);
    return true;
}

bool FtpRun::checkServer()
{
    // libcurl waits 30 s for a greeting that a silent service (an SMB server) never sends, and reads another
    // service's first bytes as a "weird server reply". A look of our own at what the port says first tells which.
    IdentityProbeSocket socket(m_spec.host, quint16(m_ftp.port), QStringLiteral("FTP"), CheckMs);
    if (!socket.connect())
        return true; // refused, unreachable: libcurl says it in its words
    QByteArray said;
    QString what;
    if (socket.readMore(&said, QStringLiteral("greeting"))) {
        if (ServiceBanner::kindOf(said) == ServiceBanner::Kind::Ftp)
            return true;
        what = ServiceBanner::describe(said);
    } else if (socket.closedByServer()) {
        return true;
    } else {
        // Nothing within CheckMs: an SMB server waits for its client to speak first (a slow FTP server is left to
        // libcurl and its 30 s).
        socket.close();
        Host asSmb = m_spec.host;
        asSmb.options.insert(QStringLiteral("smb.port"), m_ftp.port);
        QString smb;
        const SmbIdentityProbe::Speaks speaks = SmbIdentityProbe::speaks(asSmb, CheckMs, &smb);
        if (speaks == SmbIdentityProbe::Speaks::NotSmb || speaks == SmbIdentityProbe::Speaks::Unknown)
            return true;
        m_result
            = fail(TransferFault::WrongService,
                   QStringLiteral("port %1 of %2 holds an SMB server, not FTP: it sent no greeting within %3 s and "
                                  "answered an SMB NEGOTIATE")
                       .arg(m_ftp.port)
                       .arg(m_spec.host.address)
                       .arg(CheckMs / 1000));
        return false;
    }
    m_result = fail(
        TransferFault::WrongService,
        QStringLiteral("port %1 of %2 answered with %3, not FTP").arg(m_ftp.port).arg(m_spec.host.address, what));
    return false;
}

bool FtpRun::checkPutTarget()
{
    // A PUT writes over the file at the path: only where there is none, or it is Wirebench's own (TestFile).
    m_observer.status(QStringLiteral("checking %1 on the server").arg(m_ftp.path));
    CURLcode code = CURLE_OK;
    const qint64 remote = remoteSize(&code);
    if (code == CURLE_REMOTE_FILE_NOT_FOUND)
        return true;
    if (code != CURLE_OK) {
        m_result = failCurl(code, QStringLiteral("while checking the file"));
        return false;
    }
    QByteArray head;
    code = readHead(&head);
    if (remote < 0 && (code == CURLE_REMOTE_FILE_NOT_FOUND || code == CURLE_FTP_COULDNT_RETR_FILE))
        return true; // no SIZE, and no file to read
    if (code != CURLE_OK) {
        m_result = failCurl(code, QStringLiteral("while reading the start of the file already there"));
        return false;
    }
    return mayOverwrite(head, m_ftp.path, remote);
}

void FtpRun::finishIdentity()
{
    if (m_state.greeting.isEmpty() && m_state.syst.isEmpty())
        return;
    QString greeting = m_state.greeting;
    if (greeting.startsWith(QLatin1Char('(')) && greeting.endsWith(QLatin1Char(')')))
        greeting = greeting.mid(1, greeting.size() - 2); // vsftpd: "220 (vsFTPd 3.0.3)"
    QString os = greeting;
    if (!m_state.syst.isEmpty())
        os += (os.isEmpty() ? QString() : QStringLiteral(" ")) + QLatin1Char('(') + m_state.syst + QLatin1Char(')');
    m_result.serverOs = os;
    m_result.extra.insert(QStringLiteral("server_greeting"), m_state.greeting);
    m_result.extra.insert(QStringLiteral("server_syst"), m_state.syst);
    m_result.extra.insert(QStringLiteral("server_identity_source"),
                          QStringLiteral("FTP greeting (220) and SYST (215)"));
}

void FtpRun::fillTiming(qint64 bytes, bool completed)
{
    finishTiming(bytes);
    // The figure of a complete transfer: libcurl's transfer time, from "about to transfer" (PRETRANSFER)
    // to the server's final reply (226), which the server sends once it has sent (GET) or received and
    // stored (PUT) the last byte. A broken transfer keeps the meter's time.
    curl_off_t total = 0;
    curl_off_t pre = 0;
    if (completed && curl_easy_getinfo(m_curl, CURLINFO_TOTAL_TIME_T, &total) == CURLE_OK
        && curl_easy_getinfo(m_curl, CURLINFO_PRETRANSFER_TIME_T, &pre) == CURLE_OK && total > pre) {
        m_result.seconds = double(total - pre) / 1e6;
        m_result.extra.insert(QStringLiteral("meter_seconds"), m_meter.elapsedSeconds());
    }
    m_state.readMss();
    m_result.mss = m_state.mss;
    if (m_state.mssSetFailed)
        m_result.warnings << QStringLiteral("TCP_MAXSEG %1 was refused by this system; the MSS is the system's")
                                 .arg(m_state.mssWanted);
}

RunResult FtpRun::failCurl(CURLcode code, const QString &during)
{
    if (m_state.stopped || (code == CURLE_ABORTED_BY_CALLBACK && m_observer.stopRequested()))
        return cancelled();
    if (m_state.localFailed)
        return fail(m_state.localFault, m_state.localError);
    long reply = 0;
    long osErrno = 0;
    curl_easy_getinfo(m_curl, CURLINFO_RESPONSE_CODE, &reply);
    curl_easy_getinfo(m_curl, CURLINFO_OS_ERRNO, &osErrno);
    const QString path = QLatin1Char('"') + m_ftp.path + QLatin1Char('"');
    const QString user = m_ftp.user.isEmpty() ? QStringLiteral("anonymous") : m_ftp.user;
    const QString said
        = m_state.lastReply.isEmpty() ? QString() : QStringLiteral(" (server said \"%1\")").arg(m_state.lastReply);
    const bool moved = m_state.received > 0 || m_state.uploaded > 0 || m_state.handedOut > 0;
    // libcurl's own detail ("SSL certificate problem: unable to get local issuer certificate") beats its generic text.
    const QString detail
        = m_curlError[0] ? QString::fromUtf8(m_curlError).trimmed() : QString::fromUtf8(curl_easy_strerror(code));
    if (!m_state.lateReply.isEmpty()) {
        const int late = m_state.lateReply.left(3).toInt();
        const QString lateSaid = QStringLiteral(" (server said \"%1\")").arg(m_state.lateReply);
        // 452 and 552: no room. vsftpd answers every failed write with 451 "Failure writing to local file",
        // and a full disk is by far the most common cause of it.
        if (late == 452 || late == 552 || (late == 451 && m_state.lateReply.contains(QLatin1String("writ"))))
            return fail(TransferFault::RemoteDiskFull,
                        QStringLiteral("the server's disk is full: it could not store %1 after %2 B had been sent%3")
                            .arg(path)
                            .arg(qMax(m_state.uploaded, m_state.handedOut))
                            .arg(lateSaid));
        if (late >= 400)
            return fail(late == 550 || late == 553 ? TransferFault::PermissionDenied : TransferFault::ClosedMidTransfer,
                        QStringLiteral("the server stopped the upload of %1 after %2 B%3")
                            .arg(path)
                            .arg(qMax(m_state.uploaded, m_state.handedOut))
                            .arg(lateSaid));
    }
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
        return fail(TransferFault::Unreachable, QStringLiteral("cannot resolve the host name"));
    case CURLE_COULDNT_CONNECT:
        if (osErrno == EHOSTUNREACH || osErrno == ENETUNREACH)
            return fail(TransferFault::Unreachable, QStringLiteral("no route to the host"));
        if (osErrno == ETIMEDOUT)
            return fail(TransferFault::TimedOut, QStringLiteral("connecting timed out"));
        return fail(TransferFault::NotListening, QStringLiteral("connection refused %1").arg(during));
    case CURLE_LOGIN_DENIED:
        // vsftpd: "530 Non-anonymous sessions must use encryption."; others say SSL, TLS or "secure".
        if (!m_ftp.tls
            && m_state.lastReply.contains(QRegularExpression(QStringLiteral("encrypt|\\bTLS\\b|\\bSSL\\b|secure"),
                                                             QRegularExpression::CaseInsensitiveOption)))
            return fail(TransferFault::TlsRequired,
                        QStringLiteral("the server only takes logins over TLS%1").arg(said));
        return fail(TransferFault::LoginRefused, QStringLiteral("login refused for user \"%1\"%2").arg(user, said));
    case CURLE_REMOTE_ACCESS_DENIED:
        return fail(TransferFault::NoSuchPath,
                    QStringLiteral("cannot enter the folder of %1 (missing or not permitted)%2").arg(path, said));
    case CURLE_REMOTE_FILE_NOT_FOUND:
    case CURLE_FTP_COULDNT_RETR_FILE:
        return fail(TransferFault::NoSuchPath, QStringLiteral("no readable file %1%2").arg(path, said));
    case CURLE_UPLOAD_FAILED:
        if (reply == 452 || reply == 552)
            return fail(TransferFault::RemoteDiskFull,
                        QStringLiteral("the server's disk is full: it cannot store %1%2").arg(path, said));
        return fail(TransferFault::PermissionDenied,
                    QStringLiteral("the server refused to store %1 %2%3").arg(path, during, said));
    case CURLE_USE_SSL_FAILED:
        return fail(TransferFault::TlsNotOffered,
                    QStringLiteral("the server does not offer explicit FTPS: it refused AUTH TLS%1").arg(said));
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
        return fail(TransferFault::TlsUntrusted,
                    QStringLiteral("certificate not trusted (%1): %2").arg(m_ftp.trustText(), detail));
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ISSUER_ERROR:
        return fail(TransferFault::TlsFailed, QStringLiteral("the TLS handshake failed %1: %2").arg(during, detail));
    case CURLE_OPERATION_TIMEDOUT:
        return fail(moved ? TransferFault::ClosedMidTransfer : TransferFault::TimedOut,
                    QStringLiteral("no progress for %1 s %2").arg(StallSeconds).arg(during));
    default:
        break;
    }
    if (reply == 451 || reply == 452 || reply == 552)
        return fail(TransferFault::RemoteDiskFull,
                    QStringLiteral("the server's disk is full: it could not store %1 after %2 B had been sent%3")
                        .arg(path)
                        .arg(qMax(m_state.uploaded, m_state.handedOut))
                        .arg(said));
    if (code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR || code == CURLE_GOT_NOTHING
        || code == CURLE_FTP_WEIRD_SERVER_REPLY || code == CURLE_WEIRD_SERVER_REPLY || code == CURLE_FTP_ACCEPT_FAILED
        || code == CURLE_FTP_ACCEPT_TIMEOUT || moved) {
        const qint64 n = qMax(m_state.received, qMax(m_state.uploaded, m_state.handedOut));
        // Under FTPS the server's reason for ending an upload sits in the encrypted control connection that
        // libcurl drops unread (see closeSocketCallback), so say what it most often is.
        const QString hint = m_ftp.tls && m_state.mode == Transfer::Mode::Upload
            ? QStringLiteral(
                "; under FTPS the server's reason cannot be read: a full disk on the server is a common one")
            : QString();
        return fail(TransferFault::ClosedMidTransfer,
                    QStringLiteral("the server closed the connection after %1 bytes %2 (%3%4)")
                        .arg(n)
                        .arg(during, QString::fromUtf8(curl_easy_strerror(code)), hint));
    }
    return fail(TransferFault::Other,
                QStringLiteral("%1 %2%3").arg(QString::fromUtf8(curl_easy_strerror(code)), during, said));
}

bool FtpRun::open()
{
    globalInit();
    m_curl = curl_easy_init();
    if (!m_curl) {
        fail(TransferFault::LocalError, QStringLiteral("libcurl could not start"));
        return false;
    }
    if (m_ftp.tls && m_ftp.trust == FtpSettings::Trust::CaFile) {
        if (m_ftp.caFile.isEmpty()) {
            fail(TransferFault::TlsUntrusted, QStringLiteral("\"CA file\" is chosen but no CA file is set"));
            return false;
        }
        if (!QFileInfo(m_ftp.caFile).isReadable()) {
            fail(TransferFault::TlsUntrusted, QStringLiteral("cannot read the CA file \"%1\"").arg(m_ftp.caFile));
            return false;
        }
    }
    setup();
    return true;
}

RunResult FtpRun::checkRun(int timeoutMs)
{
    if (!open())
        return m_result;
    // A server that is there may still take its time over one answer: the one to a wrong password comes
    // late on purpose (vsftpd's delay_failed_login, 1 s, after PAM's pam_unix delay, 2 s; seen here as
    // "no answer within 4 s" instead of "login refused" with eight checks at once on a busy machine). So a
    // connection gets the step's time, and an answer a little over the usual failed-login delays.
    constexpr long kAnswerSeconds = 10;
    const long seconds = qMax(kAnswerSeconds, long((timeoutMs + 999) / 1000));
    curl_easy_setopt(m_curl, CURLOPT_CONNECTTIMEOUT_MS, long(timeoutMs));
    curl_easy_setopt(m_curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, seconds);
    const QString during = QStringLiteral("during the check before the first run");
    if (!checkServer()) // another service on the port
        return m_result;
    if (m_direction == TransferDriver::Direction::Upload) { // as the run: the folder, and no foreign file to write over
        if (!checkPutTarget())
            return m_result;
        m_result.status = RunStatus::Ok;
        return m_result;
    }
    CURLcode code = CURLE_OK;
    remoteSize(&code); // connect, TLS, login, CWD into the file's folder, SIZE: what every run starts with
    if (code == CURLE_OPERATION_TIMEDOUT)
        return fail(TransferFault::TimedOut, QStringLiteral("no answer within %1 s %2").arg(seconds).arg(during));
    if (code == CURLE_REMOTE_FILE_NOT_FOUND && m_direction == TransferDriver::Direction::Download
        && !m_transfer.createSeed)
        return fail(TransferFault::NoSuchPath,
                    QStringLiteral("no file \"%1\" on the server (or let Wirebench create it)").arg(m_ftp.path));
    if (code != CURLE_OK && code != CURLE_REMOTE_FILE_NOT_FOUND)
        return failCurl(code, during);
    m_result.status = RunStatus::Ok;
    return m_result;
}

bool FtpRun::start()
{
    if (!open())
        return false;
    if (m_ftp.tls) {
        m_result.extra.insert(QStringLiteral("ftps"), QStringLiteral("explicit (AUTH TLS), control and data"));
        m_result.extra.insert(QStringLiteral("tls_trust"), m_ftp.trustText());
        if (m_ftp.trust == FtpSettings::Trust::Any)
            m_result.warnings << QStringLiteral(
                "the server's TLS certificate was not checked (accept any certificate)");
    }
    return true;
}

RunResult FtpRun::download(qint64 size)
{
    QString localError;
    qint64 expected = size; // a foreign file's own size (-1: unknown) when it is read as it is
    if (!prepareGet(size, &expected))
        return m_result;
    m_state.mss = 0;
    if (!m_sink.open(m_transfer, &localError))
        return fail(TransferFault::LocalError, localError);
    m_observer.status(QStringLiteral("downloading %1").arg(m_ftp.path));
    const CURLcode code = perform(Transfer::Mode::Download, &m_meter, 0);
    const bool sinkOk = code == CURLE_OK && m_sink.finish(&localError);
    fillTiming(m_state.received, code == CURLE_OK);
    m_result.senderBytes = expected >= 0 ? expected : m_state.received;
    if (code != CURLE_OK)
        return failCurl(code, QStringLiteral("during the download"));
    if (!endDownload(m_sink, sinkOk, localError, m_state.received, expected, QStringLiteral("received")))
        return m_result;
    return succeeded();
}

RunResult FtpRun::upload(qint64 size)
{
    QString localError;
    if (!checkPutTarget())
        return m_result;
    if (!m_source.open(m_transfer, size, &localError))
        return fail(TransferFault::LocalError, localError);
    m_observer.status(QStringLiteral("uploading %1").arg(m_ftp.path));
    const CURLcode code = perform(Transfer::Mode::Upload, &m_meter, size);
    fillTiming(m_state.uploaded, code == CURLE_OK);
    m_result.senderBytes = m_state.uploaded;
    if (code != CURLE_OK)
        return failCurl(code, QStringLiteral("during the upload"));
    noteSourceDisk(m_source);
    // The server's own count: SIZE after the upload.
    CURLcode sizeCode = CURLE_OK;
    const qint64 stored = remoteSize(&sizeCode);
    if (sizeCode != CURLE_OK && stored < 0)
        m_result.warnings << QStringLiteral("the server did not answer SIZE; the byte count is the client's");
    else
        m_result.bytes = stored;
    if (stored >= 0 && stored != size)
        return fail(TransferFault::Mismatch, QStringLiteral("the server stored %1 bytes of %2").arg(stored).arg(size));
    if (m_transfer.verify) {
        m_observer.status(QStringLiteral("reading %1 back to verify it").arg(m_ftp.path));
        const CURLcode vcode = perform(Transfer::Mode::ReadBack, nullptr, 0);
        if (vcode != CURLE_OK)
            return failCurl(vcode, QStringLiteral("while reading the file back"));
        if (!endReadBack(m_state.received, size))
            return m_result;
    }
    return succeeded();
}

} // namespace

QList<ProtocolInfo> FtpDriver::protocolInfos()
{
    using T = OptionSpec::Type;
    const QList<OptionSpec> options = {
        {QStringLiteral("ftp.user"),
         QStringLiteral("FTP user"),
         T::Text,
         QString(),
         {},
         QStringLiteral("Empty: anonymous login")},
        {QStringLiteral("ftp.password"), QStringLiteral("FTP password"), T::Secret, QString(), {}, QString()},
        {QStringLiteral("ftp.path"),
         QStringLiteral("FTP remote file"),
         T::Text,
         DefaultFileName,
         {},
         QStringLiteral("Relative to the login folder; a leading / makes it absolute; a trailing / adds ")
             + DefaultFileName},
        {QStringLiteral("ftp.port"), QStringLiteral("FTP port"), T::Integer, 21, {}, QString()},
        {QStringLiteral("ftp.active"),
         QStringLiteral("FTP active mode (PORT/EPRT)"),
         T::Bool,
         false,
         {},
         QStringLiteral("Off: passive mode (EPSV, then PASV)")},
        {QStringLiteral("ftp.tls"),
         QStringLiteral("Explicit FTPS (AUTH TLS)"),
         T::Bool,
         false,
         {},
         QStringLiteral("Control and data connections in TLS; the run fails if the server does not offer it")},
        {QStringLiteral("ftp.tls_trust"),
         QStringLiteral("FTPS certificate trust"),
         T::Choice,
         TrustSystem,
         {TrustSystem, TrustCaFile, TrustAny},
         QStringLiteral("system CAs: the certificate must be signed by a CA this computer trusts; CA file: also "
                        "trust the CA in the file below; accept any certificate: no check at all (insecure: "
                        "anyone on the path can read the password and the data)")},
        {QStringLiteral("ftp.tls_ca_file"),
         QStringLiteral("FTPS CA file (PEM)"),
         T::Text,
         QString(),
         {},
         QStringLiteral("The PEM file of the CA that signed the server's certificate (or the certificate itself)")},
    };
    // Each connection's TCP_MAXSEG follows the frame size (sockoptCallback).
    QList<ProtocolInfo> pair = protocolPair<FtpDriver>(
        QStringLiteral("ftp"), true, options,
        {QStringLiteral("ftp-get"), QStringLiteral("FTP GET (server → client)"),
         QStringLiteral("Downloads one file of the chosen size by FTP (uploads it first if missing).")},
        {QStringLiteral("ftp-put"), QStringLiteral("FTP PUT (client → server)"),
         QStringLiteral("Uploads one generated file of the chosen size by FTP.")});
    for (ProtocolInfo &info : pair) {
        info.optionDependencies
            = {{QStringLiteral("ftp.tls_trust"), QStringLiteral("ftp.tls"), true},
               {QStringLiteral("ftp.tls_ca_file"), QStringLiteral("ftp.tls"), true},
               {QStringLiteral("ftp.tls_ca_file"), QStringLiteral("ftp.tls_trust"), QStringLiteral("CA file")}};
        info.latencyProbe = ProtocolInfo::LatencyProbe::Connect;
        info.servicePortOption = QStringLiteral("ftp.port");
        info.defaultServicePort = 21;
    }
    return pair;
}

std::unique_ptr<TransferRun> FtpDriver::makeRun(const RunSpec &spec, RunObserver &observer) const
{
    return std::make_unique<FtpRun>(spec, observer, m_direction);
}

} // namespace wb
