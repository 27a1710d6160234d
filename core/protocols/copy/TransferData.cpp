#include "TransferData.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace {

constexpr qint64 PatternPeriod = 1048573; // a prime just under 1 MiB
constexpr qint64 StageSize = 4 * 1024 * 1024;
constexpr qint64 Alignment = 4096;

const std::vector<char> &patternTable()
{
    static const std::vector<char> table = [] {
        std::vector<char> t(static_cast<size_t>(PatternPeriod));
        quint64 state = 0x5742454e4348ULL; // "WBENCH"
        for (size_t i = 0; i < t.size(); i += 8) {
            // splitmix64: cheap, well mixed, no state beyond one word
            quint64 z = (state += 0x9e3779b97f4a7c15ULL);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            z ^= z >> 31;
            std::memcpy(t.data() + i, &z, std::min<size_t>(8, t.size() - i));
        }
        return t;
    }();
    return table;
}

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

bool isDiskFull(int err)
{
    return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

int openMaybeDirect(const QByteArray &path, int flags, bool wantDirect, bool *direct, mode_t mode = 0644)
{
    *direct = false;
#ifdef O_DIRECT
    if (wantDirect) {
        int fd = ::open(path.constData(), flags | O_DIRECT | O_CLOEXEC, mode);
        if (fd >= 0) {
            *direct = true;
            return fd;
        }
        if (errno != EINVAL) // EINVAL: the file system does not do O_DIRECT (tmpfs); fall back to buffered
            return -1;
    }
#endif
    return ::open(path.constData(), flags | O_CLOEXEC, mode);
}

} // namespace

// ---------------------------------------------------------------------------------------------------

TransferSettings TransferSettings::fromParams(const TestParams &params)
{
    TransferSettings s;
    const QVariantMap &o = params.options;
    s.fileSource = o.value(QLatin1String(SourceKey)).toString() == QLatin1String("file");
    s.fileSink = o.value(QLatin1String(SinkKey)).toString() == QLatin1String("file");
    s.localPath = o.value(QLatin1String(LocalPathKey)).toString();
    s.unbuffered = o.value(QLatin1String(UnbufferedKey), false).toBool();
    s.verify = o.value(QLatin1String(VerifyKey), false).toBool();
    s.createSeed = o.value(QLatin1String(CreateSeedKey), true).toBool();
    s.maxRateBytesPerSecond = qMax<qint64>(0, o.value(QLatin1String(MaxRateKey), 0).toLongLong());
    return s;
}

QList<OptionSpec> TransferSettings::planOptions()
{
    using T = OptionSpec::Type;
    return {
        {QLatin1String(SourceKey), QStringLiteral("Upload source"), T::Choice, QStringLiteral("memory"),
         {QStringLiteral("memory"), QStringLiteral("file")},
         QStringLiteral("memory: generated test data; file: read the local file (its own read speed is reported)")},
        {QLatin1String(SinkKey), QStringLiteral("Download sink"), T::Choice, QStringLiteral("memory"),
         {QStringLiteral("memory"), QStringLiteral("file")},
         QStringLiteral("memory: data is discarded on arrival; file: written to the local file (its write speed is "
                        "reported)")},
        {QLatin1String(LocalPathKey), QStringLiteral("Local file"), T::Text, QString(), {},
         QStringLiteral("The local file used as source or sink")},
        {QLatin1String(UnbufferedKey), QStringLiteral("Unbuffered I/O (O_DIRECT)"), T::Bool, false, {},
         QStringLiteral("Bypass the page cache for local files and copy paths, so the cache does not flatter the figure")},
        {QLatin1String(VerifyKey), QStringLiteral("Verify content"), T::Bool, false, {},
         QStringLiteral("Compare every byte that arrived with what was sent (PUT/write: reads the file back afterwards)")},
        {QLatin1String(CreateSeedKey), QStringLiteral("Create the file on GET/read if missing"), T::Bool, true, {},
         QStringLiteral("Uploads a test file of the chosen size first when the server has none")},
        {QLatin1String(MaxRateKey), QStringLiteral("Rate limit (B/s, 0 = none)"), T::Integer, 0, {},
         QStringLiteral("Caps the transfer rate in bytes per second")},
    };
}

// ---------------------------------------------------------------------------------------------------

void TestPattern::fill(char *dst, qint64 offset, qint64 length)
{
    const std::vector<char> &table = patternTable();
    qint64 pos = offset % PatternPeriod;
    while (length > 0) {
        const qint64 n = std::min(length, PatternPeriod - pos);
        std::memcpy(dst, table.data() + pos, size_t(n));
        dst += n;
        length -= n;
        pos = 0;
    }
}

qint64 TestPattern::firstMismatch(const char *data, qint64 offset, qint64 length)
{
    const std::vector<char> &table = patternTable();
    qint64 pos = offset % PatternPeriod;
    qint64 done = 0;
    while (done < length) {
        const qint64 n = std::min(length - done, PatternPeriod - pos);
        if (std::memcmp(data + done, table.data() + pos, size_t(n)) != 0) {
            for (qint64 i = 0; i < n; ++i) {
                if (data[done + i] != table[size_t(pos + i)])
                    return offset + done + i;
            }
        }
        done += n;
        pos = 0;
    }
    return -1;
}

// ---------------------------------------------------------------------------------------------------

AlignedBuffer::AlignedBuffer(qint64 size)
{
    void *p = nullptr;
    if (posix_memalign(&p, Alignment, size_t(size)) == 0) {
        m_data = static_cast<char *>(p);
        m_size = size;
    }
}

AlignedBuffer::~AlignedBuffer()
{
    std::free(m_data);
}

// ---------------------------------------------------------------------------------------------------

LocalSource::~LocalSource()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_refFd >= 0)
        ::close(m_refFd);
}

bool LocalSource::open(const TransferSettings &settings, qint64 size, QString *error)
{
    m_size = size;
    m_position = 0;
    if (!settings.fileSource)
        return true;
    m_path = settings.localPath;
    if (m_path.isEmpty()) {
        *error = QStringLiteral("no local source file is set: choose a local file or the memory source");
        return false;
    }
    const QByteArray path = QFile::encodeName(m_path);
    struct stat st {};
    if (::stat(path.constData(), &st) != 0 || st.st_size < size) {
        // Make the source file once, outside the timed transfer.
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            *error = QStringLiteral("cannot create the local source file %1 (%2): check the folder and its permissions")
                         .arg(m_path, errnoText(errno));
            return false;
        }
        std::vector<char> chunk(static_cast<size_t>(StageSize));
        for (qint64 off = 0; off < size;) {
            const qint64 n = std::min<qint64>(StageSize, size - off);
            TestPattern::fill(chunk.data(), off, n);
            const ssize_t w = ::write(fd, chunk.data(), size_t(n));
            if (w <= 0) {
                const int err = errno;
                ::close(fd);
                *error = isDiskFull(err)
                    ? QStringLiteral("the local disk is full while creating the source file %1 (%2 B of %3 B written)")
                          .arg(m_path)
                          .arg(off)
                          .arg(size)
                    : QStringLiteral("cannot write the local source file %1 (%2)").arg(m_path, errnoText(err));
                return false;
            }
            off += w;
        }
        ::fdatasync(fd);
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); // so the timed read comes from the disk
        ::close(fd);
        m_created = true;
    }
    m_fd = openMaybeDirect(path, O_RDONLY, settings.unbuffered, &m_direct);
    m_refFd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0 || m_refFd < 0) {
        *error = QStringLiteral("cannot open the local source file %1 (%2): check its permissions")
                     .arg(m_path, errnoText(errno));
        return false;
    }
    m_buffer = std::make_unique<AlignedBuffer>(StageSize);
    m_bufferStart = 0;
    m_bufferFill = 0;
    return !m_buffer->isNull();
}

bool LocalSource::refill(QString *error)
{
    m_bufferStart += m_bufferFill;
    m_bufferFill = 0;
    const qint64 t0 = nowNs();
    while (m_bufferFill < StageSize) {
        const ssize_t r = ::read(m_fd, m_buffer->data() + m_bufferFill, size_t(StageSize - m_bufferFill));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *error = QStringLiteral("reading the local source file %1 failed (%2)").arg(m_path, errnoText(errno));
            return false;
        }
        if (r == 0)
            break;
        m_bufferFill += r;
        if (m_direct && (r % Alignment) != 0)
            break; // end of file
    }
    m_disk.nanoseconds += nowNs() - t0;
    m_disk.bytes += m_bufferFill;
    return true;
}

qint64 LocalSource::read(char *dst, qint64 maxLength, QString *error)
{
    const qint64 left = m_size - m_position;
    const qint64 want = std::min(maxLength, left);
    if (want <= 0)
        return 0;
    if (m_fd < 0) {
        TestPattern::fill(dst, m_position, want);
        m_position += want;
        return want;
    }
    qint64 done = 0;
    while (done < want) {
        if (m_position >= m_bufferStart + m_bufferFill) {
            if (!refill(error))
                return -1;
            if (m_bufferFill == 0) {
                *error = QStringLiteral("the local source file %1 ended early").arg(m_path);
                return -1;
            }
        }
        const qint64 inBuffer = m_bufferStart + m_bufferFill - m_position;
        const qint64 n = std::min(want - done, inBuffer);
        std::memcpy(dst + done, m_buffer->data() + (m_position - m_bufferStart), size_t(n));
        done += n;
        m_position += n;
    }
    return done;
}

bool LocalSource::reference(char *dst, qint64 offset, qint64 length, QString *error)
{
    if (m_refFd < 0) {
        TestPattern::fill(dst, offset, length);
        return true;
    }
    qint64 done = 0;
    while (done < length) {
        const ssize_t r = ::pread(m_refFd, dst + done, size_t(length - done), off_t(offset + done));
        if (r <= 0) {
            *error = QStringLiteral("re-reading the local source file %1 failed").arg(m_path);
            return false;
        }
        done += r;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------

LocalSink::~LocalSink()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool LocalSink::open(const TransferSettings &settings, QString *error)
{
    m_verify = settings.verify;
    m_position = 0;
    if (!settings.fileSink)
        return true;
    m_path = settings.localPath;
    if (m_path.isEmpty()) {
        *error = QStringLiteral("no local sink file is set: choose a local file or the memory sink");
        return false;
    }
    m_fd = openMaybeDirect(QFile::encodeName(m_path), O_WRONLY | O_CREAT | O_TRUNC, settings.unbuffered, &m_direct);
    if (m_fd < 0) {
        *error = QStringLiteral("cannot create the local file %1 (%2): check the folder and its permissions")
                     .arg(m_path, errnoText(errno));
        return false;
    }
    m_buffer = std::make_unique<AlignedBuffer>(StageSize);
    return !m_buffer->isNull();
}

bool LocalSink::write(const char *data, qint64 length, QString *error)
{
    if (m_verify && m_mismatch < 0) {
        const qint64 at = TestPattern::firstMismatch(data, m_position, length);
        if (at >= 0) {
            m_mismatch = at;
            *error = QStringLiteral("content differs from the Wirebench test pattern at byte %1: the file was "
                                    "corrupted in transit or was not made by Wirebench (delete it to have it re-created)")
                         .arg(at);
            return false;
        }
    }
    m_position += length;
    if (m_fd < 0)
        return true;
    while (length > 0) {
        const qint64 n = std::min(length, StageSize - m_bufferFill);
        std::memcpy(m_buffer->data() + m_bufferFill, data, size_t(n));
        m_bufferFill += n;
        data += n;
        length -= n;
        if (m_bufferFill == StageSize && !flushBuffer(false, error))
            return false;
    }
    return true;
}

bool LocalSink::flushBuffer(bool final, QString *error)
{
    const qint64 t0 = nowNs();
    qint64 done = 0;
    while (done < m_bufferFill) {
        qint64 n = m_bufferFill - done;
#ifdef O_DIRECT
        if (m_direct && (n % Alignment) != 0) {
            if (n >= Alignment) {
                n -= n % Alignment;
            } else {
                // The unaligned tail of the file: O_DIRECT cannot write it, so finish buffered.
                ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_DIRECT);
                m_direct = false;
            }
        }
#endif
        const ssize_t w = ::write(m_fd, m_buffer->data() + done, size_t(n));
        if (w < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            m_diskFull = isDiskFull(err);
            *error = m_diskFull ? QStringLiteral("the local disk is full while writing %1 (%2 B stored of %3 B received)")
                                      .arg(m_path)
                                      .arg(m_disk.bytes + done)
                                      .arg(m_position)
                                : QStringLiteral("writing the local file %1 failed (%2)").arg(m_path, errnoText(err));
            return false;
        }
        done += w;
    }
    m_disk.bytes += m_bufferFill;
    m_bufferFill = 0;
    if (final && ::fdatasync(m_fd) != 0) {
        const int err = errno;
        m_diskFull = isDiskFull(err);
        *error = m_diskFull ? QStringLiteral("the local disk is full while flushing %1 (%2 B written)").arg(m_path).arg(m_disk.bytes)
                            : QStringLiteral("flushing the local file %1 failed (%2)").arg(m_path, errnoText(err));
        m_disk.nanoseconds += nowNs() - t0;
        return false;
    }
    m_disk.nanoseconds += nowNs() - t0;
    return true;
}

bool LocalSink::finish(QString *error)
{
    if (m_fd < 0)
        return true;
    return flushBuffer(true, error);
}

// ---------------------------------------------------------------------------------------------------

void RateLimiter::start()
{
    m_startNs = nowNs();
}

void RateLimiter::throttle(qint64 totalBytes, int maxWaitMs)
{
    if (m_rate <= 0)
        return;
    const qint64 dueNs = m_startNs + qint64(double(totalBytes) / double(m_rate) * 1e9);
    const qint64 waitNs = std::min<qint64>(dueNs - nowNs(), qint64(maxWaitMs) * 1000000);
    if (waitNs > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(waitNs));
}

} // namespace wb
