#include "CopyDriver.h"

#include "platform/Platform.h"
#include "protocols/ThroughputMeter.h"
#include "protocols/transfer/AlignedBuffer.h"
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
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace {

const QString DefaultFileName = TestFile::defaultName();
constexpr qint64 ChunkBytes = 4 * 1024 * 1024;
constexpr qint64 Alignment = 4096;

QString targetPath(const Host &host)
{
    QString path = host.options.value(QStringLiteral("copy.path")).toString().trimmed();
    if (path.isEmpty())
        return path;
    if (path.endsWith(QLatin1Char('/')) || QFileInfo(path).isDir())
        path = path + (path.endsWith(QLatin1Char('/')) ? QString() : QStringLiteral("/")) + DefaultFileName;
    return path;
}

class CopyRun : public TransferRun
{
public:
    CopyRun(const RunSpec &spec, RunObserver &observer, TransferDriver::Direction direction)
        : TransferRun(spec, observer, direction,
                      direction == TransferDriver::Direction::Download ? QStringLiteral("copy read")
                                                                       : QStringLiteral("copy write"))
        , m_path(targetPath(spec.host))
        , m_limiter(m_transfer.maxRateBytesPerSecond)
    {
    }

    ~CopyRun() override
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    /// What run() would meet first: no path, a missing folder, a file or folder it may not read or write.
    /// Local calls, with no timeout of their own: a hung mount blocks them as it would block the run.
    PreflightProblemList check(int timeoutMs) override;

private:
    bool reach() override;
    RunResult download(qint64 size) override;
    RunResult upload(qint64 size) override;
    RunResult checkPath();
    bool openTarget(int flags);
    bool prepareRead(qint64 planned, qint64 *expected);
    bool readHead(QByteArray *head);
    bool checkWriteTarget();
    bool seed(qint64 size, qint64 replacing);
    bool readBack(qint64 size, LocalSource &reference);
    void fillTiming();
    RunResult failErrno(int err, const QString &during);

    QString m_path;
    int m_fd = -1;
    bool m_direct = false;
    RateLimiter m_limiter;
    std::unique_ptr<AlignedBuffer> m_buffer; ///< the timed transfer's (reach() makes it)
    qint64 m_chunk = ChunkBytes;             ///< the I/O size, halved after a slow call
};

bool CopyRun::openTarget(int flags)
{
    const QByteArray path = QFile::encodeName(m_path);
    m_direct = false;
    if (m_transfer.unbuffered) {
        m_fd = platform::Platform::pageCache().openUncached(path.constData(), flags | O_CLOEXEC, 0644);
        if (m_fd >= 0) {
            m_direct = true;
            return true;
        }
        if (errno != EINVAL)
            return false;
        m_result.warnings << QStringLiteral("%1 does not support unbuffered I/O (O_DIRECT); the copy went through "
                                            "the page cache")
                                 .arg(m_path);
    }
    m_fd = ::open(path.constData(), flags | O_CLOEXEC, 0644);
    return m_fd >= 0;
}

RunResult CopyRun::failErrno(int err, const QString &during)
{
    const QString sys = QString::fromLocal8Bit(std::strerror(err));
    const QString file = QLatin1Char('"') + m_path + QLatin1Char('"');
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return fail(TransferFault::NoSuchPath,
                    QStringLiteral("no file or folder %1 %2 (is the share mounted?)").arg(file, during));
    case EACCES:
    case EPERM:
    case EROFS:
        return fail(TransferFault::PermissionDenied,
                    QStringLiteral("access to %1 denied %2 (%3)").arg(file, during, sys));
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
        return fail(TransferFault::RemoteDiskFull,
                    QStringLiteral("the disk behind the mounted path is full: no space "
                                   "left on %1 %2 (%3 B written)")
                        .arg(file, during)
                        .arg(m_moved));
    case EIO:
    case ESTALE:
    case ENOTCONN:
    case EHOSTDOWN:
    case ECONNRESET:
    case ECONNABORTED:
    case ETIMEDOUT:
        return fail(TransferFault::ClosedMidTransfer,
                    QStringLiteral("the mount stopped answering after %1 bytes %2 (%3)").arg(m_moved).arg(during, sys));
    default:
        break;
    }
    return fail(TransferFault::Other, QStringLiteral("%1 failed %2 (%3)").arg(file, during, sys));
}

void CopyRun::fillTiming()
{
    finishTiming(m_moved);
    m_result.extra.insert(QStringLiteral("unbuffered"), m_direct);
}

bool CopyRun::prepareRead(qint64 planned, qint64 *expected)
{
    // The file to read: the plan's size as it is; missing, or another size and Wirebench's own, (re)written first
    // (if the plan lets us); anyone else's read as it is (TestFile).
    const QByteArray path = QFile::encodeName(m_path);
    struct stat st = {};
    const bool exists = ::stat(path.constData(), &st) == 0;
    if (!exists && errno != ENOENT) {
        m_result = failErrno(errno, QStringLiteral("while looking for the file"));
        return false;
    }
    if (exists && st.st_size == planned)
        return true;
    if (!m_transfer.createSeed) {
        m_result = !exists ? failErrno(ENOENT, QStringLiteral("(or let Wirebench create it)"))
                           : fail(TransferFault::Mismatch,
                                  QStringLiteral("\"%1\" has %2 bytes, the plan asks for %3")
                                      .arg(m_path)
                                      .arg(qint64(st.st_size))
                                      .arg(planned));
        return false;
    }
    if (exists) {
        QByteArray head;
        if (!readHead(&head))
            return false;
        if (!TestFile::isOwn(head)) {
            readAsFound(m_path, qint64(st.st_size), planned, expected);
            return true;
        }
    }
    return seed(planned, exists ? qint64(st.st_size) : -1);
}

bool CopyRun::readHead(QByteArray *head)
{
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        m_result = failErrno(errno, QStringLiteral("while opening the file to read its start"));
        return false;
    }
    head->resize(TestFile::headBytes());
    const ssize_t got = ::pread(fd, head->data(), size_t(head->size()), 0);
    const int err = errno;
    ::close(fd);
    if (got < 0) {
        m_result = failErrno(err, QStringLiteral("while reading the start of the file"));
        return false;
    }
    head->resize(got);
    return true;
}

bool CopyRun::checkWriteTarget()
{
    // A write goes over the file at the path: only where there is none, or it is Wirebench's own (TestFile).
    struct stat st = {};
    if (::stat(QFile::encodeName(m_path).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return true; // nothing there, or no file: the write's own open tells
    QByteArray head;
    if (!readHead(&head))
        return false;
    return mayOverwrite(head, m_path, qint64(st.st_size));
}

bool CopyRun::seed(qint64 size, qint64 replacing)
{
    // replacing >= 0: the size of Wirebench's own test file that this one replaces.
    const QString during = seedDuring(m_path, size, replacing);
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        m_result = failErrno(errno, during);
        return false;
    }
    AlignedBuffer buffer(ChunkBytes);
    for (qint64 off = 0; off < size;) {
        if (m_observer.stopRequested()) {
            ::close(fd);
            m_result = cancelled();
            return false;
        }
        const qint64 n = qMin(ChunkBytes, size - off);
        TestPattern::fill(buffer.data(), off, n);
        const ssize_t w = ::write(fd, buffer.data(), size_t(n));
        if (w <= 0) {
            const int err = errno;
            ::close(fd);
            m_result = failErrno(err, replacing < 0 ? QStringLiteral("while writing the seed file") : during);
            return false;
        }
        off += w;
    }
    ::fdatasync(fd);
    ::close(fd);
    noteSeeded(replacing);
    return true;
}

bool CopyRun::readBack(qint64 size, LocalSource &reference)
{
    m_observer.status(QStringLiteral("reading %1 back to verify it").arg(m_path));
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        m_result = failErrno(errno, QStringLiteral("while reading the file back"));
        return false;
    }
    platform::Platform::pageCache().evict(fd); // read what the far side holds, not our cache
    AlignedBuffer buffer(ChunkBytes);
    AlignedBuffer expected(ChunkBytes);
    QString error;
    qint64 off = 0;
    for (;;) {
        const ssize_t r = ::read(fd, buffer.data(), size_t(ChunkBytes));
        if (r < 0) {
            const int err = errno;
            ::close(fd);
            m_result = failErrno(err, QStringLiteral("while reading the file back"));
            return false;
        }
        if (r == 0)
            break;
        if (off + r > size || !reference.reference(expected.data(), off, r, &error)
            || std::memcmp(expected.data(), buffer.data(), size_t(r)) != 0) {
            ::close(fd);
            m_result = fail(TransferFault::Mismatch,
                            QStringLiteral("the stored file differs from what was sent near byte %1").arg(off));
            return false;
        }
        off += r;
    }
    ::close(fd);
    return endReadBack(off, size);
}

PreflightProblemList CopyRun::check(int timeoutMs)
{
    Q_UNUSED(timeoutMs)
    return problemsOf(checkPath());
}

RunResult CopyRun::checkPath()
{
    if (m_path.isEmpty())
        return fail(TransferFault::NoSuchPath, QStringLiteral("no copy path is set for this host"));
    const QString during = QStringLiteral("during the check before the first run");
    const QByteArray file = QFile::encodeName(m_path);
    const QByteArray folder = QFile::encodeName(QFileInfo(m_path).absolutePath());
    // A read of a file that is there only reads it; anything else writes the file (a write, or a read's seed).
    const bool readsOnly = m_direction == TransferDriver::Direction::Download && ::access(file.constData(), F_OK) == 0;
    if (::access(folder.constData(), F_OK) != 0)
        return failErrno(errno, during);
    if (m_direction == TransferDriver::Direction::Download && !readsOnly && !m_transfer.createSeed)
        return failErrno(ENOENT, during); // no file and no leave to write one
    if (readsOnly ? ::access(file.constData(), R_OK) != 0 : ::access(folder.constData(), W_OK) != 0)
        return failErrno(errno, during);
    if (!readsOnly && ::access(file.constData(), F_OK) == 0 && ::access(file.constData(), W_OK) != 0)
        return failErrno(errno, during);
    m_result.status = RunStatus::Ok;
    return m_result;
}

bool CopyRun::reach()
{
    if (m_path.isEmpty()) {
        m_result = fail(TransferFault::NoSuchPath, QStringLiteral("no copy path is set for this host"));
        return false;
    }
    m_buffer = std::make_unique<AlignedBuffer>(ChunkBytes);
    if (m_buffer->isNull()) {
        m_result = fail(TransferFault::LocalError, QStringLiteral("out of memory for the copy buffer"));
        return false;
    }
    return true;
}

RunResult CopyRun::download(qint64 size)
{
    QString localError;
    QElapsedTimer callClock;
    qint64 expected = size; // a foreign file's own size when it is read as it is
    if (!prepareRead(size, &expected))
        return m_result;
    if (!openTarget(O_RDONLY))
        return failErrno(errno, QStringLiteral("while opening the file"));
    // Drop what the page cache holds of the file, so the figure is the network's (where the FS obeys).
    platform::Platform::pageCache().evict(m_fd);
    LocalSink sink;
    if (!sink.open(m_transfer, &localError))
        return fail(TransferFault::LocalError, localError);
    m_observer.status(QStringLiteral("reading %1").arg(m_path));
    m_meter.start();
    m_limiter.start();
    for (;;) {
        if (m_observer.stopRequested()) {
            fillTiming();
            return cancelled();
        }
        callClock.start();
        const ssize_t r = ::read(m_fd, m_buffer->data(), size_t(m_chunk));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            fillTiming();
            return failErrno(err, QStringLiteral("during the read"));
        }
        if (r == 0)
            break;
        shrinkAfterSlowCall(callClock.nsecsElapsed(), &m_chunk);
        // The chunk has crossed the network whatever the sink makes of it: it counts as received.
        m_moved += r;
        m_meter.add(r);
        if (!sink.write(m_buffer->data(), r, &localError)) {
            fillTiming();
            return fail(sinkFault(sink), localError);
        }
        m_limiter.throttle(m_moved);
    }
    const bool sinkOk = sink.finish(&localError);
    fillTiming();
    m_result.senderBytes = expected;
    if (!endDownload(sink, sinkOk, localError, m_moved, expected, QStringLiteral("read")))
        return m_result;
    return succeeded();
}

RunResult CopyRun::upload(qint64 size)
{
    QString localError;
    QElapsedTimer callClock;
    if (!checkWriteTarget())
        return m_result;
    LocalSource source;
    if (!source.open(m_transfer, size, &localError))
        return fail(TransferFault::LocalError, localError);
    if (!openTarget(O_WRONLY | O_CREAT | O_TRUNC))
        return failErrno(errno, QStringLiteral("while creating the file"));
    m_observer.status(QStringLiteral("writing %1").arg(m_path));
    m_meter.start();
    m_limiter.start();
    while (m_moved < size) {
        if (m_observer.stopRequested()) {
            fillTiming();
            m_result.senderBytes = m_moved;
            return cancelled();
        }
        const qint64 n = source.read(m_buffer->data(), m_chunk, &localError);
        if (n <= 0) {
            fillTiming();
            return fail(TransferFault::LocalError, localError);
        }
        if (m_direct && (n % Alignment) != 0) {
            // The unaligned tail of the file cannot go past the page cache, so finish buffered.
            platform::Platform::pageCache().endUncached(m_fd);
            m_direct = false;
            m_result.extra.insert(QStringLiteral("unbuffered_tail_bytes"), n % Alignment);
        }
        callClock.start();
        qint64 done = 0;
        while (done < n) {
            const ssize_t w = ::write(m_fd, m_buffer->data() + done, size_t(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                const int err = w < 0 ? errno : EIO;
                fillTiming();
                m_result.senderBytes = m_moved;
                return failErrno(err, QStringLiteral("during the write"));
            }
            done += w;
        }
        shrinkAfterSlowCall(callClock.nsecsElapsed(), &m_chunk);
        m_moved += n;
        m_meter.add(n);
        m_limiter.throttle(m_moved);
    }
    // The data is at the far side once fdatasync() returns: that belongs to the timed part.
    if (::fdatasync(m_fd) != 0 && errno != EINVAL) {
        const int err = errno;
        fillTiming();
        return failErrno(err, QStringLiteral("while flushing the file"));
    }
    const int closed = ::close(m_fd);
    const int closeErr = errno;
    m_fd = -1;
    fillTiming();
    m_result.senderBytes = m_moved;
    if (closed != 0)
        return failErrno(closeErr, QStringLiteral("while closing the file"));
    noteSourceDisk(source);
    struct stat st = {};
    if (::stat(QFile::encodeName(m_path).constData(), &st) == 0 && st.st_size != size)
        return fail(TransferFault::Mismatch,
                    QStringLiteral("the file holds %1 bytes of %2").arg(qint64(st.st_size)).arg(size));
    if (m_transfer.verify && !readBack(size, source))
        return m_result;
    return succeeded();
}

} // namespace

QList<ProtocolInfo> CopyDriver::protocolInfos()
{
    const QList<OptionSpec> options = {
        {QStringLiteral("copy.path"),
         QStringLiteral("Mounted path"),
         OptionSpec::Type::Text,
         QString(),
         {},
         QStringLiteral("A file or folder on a mounted share (CIFS/NFS mount, mapped drive, UNC path); a folder gets ")
             + DefaultFileName},
    };
    // The OS's mount owns the connection: the driver sets no MSS.
    return protocolPair<CopyDriver>(
        QStringLiteral("copy"), false, options,
        {QStringLiteral("copy-read"), QStringLiteral("Copy from a mounted path (server → client)"),
         QStringLiteral("Reads one file from a path the OS has mounted, as robocopy from a mapped drive.")},
        {QStringLiteral("copy-write"), QStringLiteral("Copy to a mounted path (client → server)"),
         QStringLiteral("Writes one file to a path the OS has mounted, as robocopy to a mapped drive.")});
}

std::unique_ptr<TransferRun> CopyDriver::makeRun(const RunSpec &spec, RunObserver &observer) const
{
    return std::make_unique<CopyRun>(spec, observer, m_direction);
}

} // namespace wb
