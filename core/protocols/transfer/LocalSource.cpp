#include "LocalSource.h"

#include "LocalFileIo.h"
#include "TestPattern.h"
#include "platform/Platform.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

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
    struct stat st = {};
    if (::stat(path.constData(), &st) != 0 || st.st_size < size) {
        // Make the source file once, outside the timed transfer.
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            *error = QStringLiteral("cannot create the local source file %1 (%2): check the folder and its permissions")
                         .arg(m_path, LocalFileIo::errnoText(errno));
            return false;
        }
        std::vector<char> chunk(static_cast<size_t>(LocalFileIo::StageBytes));
        for (qint64 off = 0; off < size;) {
            const qint64 n = std::min<qint64>(LocalFileIo::StageBytes, size - off);
            TestPattern::fill(chunk.data(), off, n);
            const ssize_t w = ::write(fd, chunk.data(), size_t(n));
            if (w <= 0) {
                const int err = errno;
                ::close(fd);
                *error = LocalFileIo::isDiskFull(err)
                    ? QStringLiteral("the local disk is full while creating the source file %1 (%2 B of %3 B written)")
                          .arg(m_path)
                          .arg(off)
                          .arg(size)
                    : QStringLiteral("cannot write the local source file %1 (%2)")
                          .arg(m_path, LocalFileIo::errnoText(err));
                return false;
            }
            off += w;
        }
        ::fdatasync(fd);
        platform::Platform::pageCache().evict(fd); // so the timed read comes from the disk
        ::close(fd);
        m_created = true;
    }
    m_fd = LocalFileIo::openMaybeDirect(path, O_RDONLY, settings.unbuffered, &m_direct);
    m_refFd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0 || m_refFd < 0) {
        *error = QStringLiteral("cannot open the local source file %1 (%2): check its permissions")
                     .arg(m_path, LocalFileIo::errnoText(errno));
        return false;
    }
    m_buffer = std::make_unique<AlignedBuffer>(LocalFileIo::StageBytes);
    m_bufferStart = 0;
    m_bufferFill = 0;
    return !m_buffer->isNull();
}

bool LocalSource::refill(QString *error)
{
    m_bufferStart += m_bufferFill;
    m_bufferFill = 0;
    const qint64 t0 = LocalFileIo::nowNs();
    while (m_bufferFill < LocalFileIo::StageBytes) {
        const ssize_t r = ::read(m_fd, m_buffer->data() + m_bufferFill, size_t(LocalFileIo::StageBytes - m_bufferFill));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *error = QStringLiteral("reading the local source file %1 failed (%2)")
                         .arg(m_path, LocalFileIo::errnoText(errno));
            return false;
        }
        if (r == 0)
            break;
        m_bufferFill += r;
        if (m_direct && (r % LocalFileIo::Alignment) != 0)
            break; // end of file
    }
    m_disk.nanoseconds += LocalFileIo::nowNs() - t0;
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

} // namespace wb
