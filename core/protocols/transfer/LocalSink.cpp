#include "LocalSink.h"

#include "LocalFileIo.h"
#include "TestPattern.h"
#include "platform/Platform.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

LocalSink::~LocalSink()
{
    if (!m_finished)
        discard();
    if (m_fd >= 0)
        ::close(m_fd);
}

QString LocalSink::discard()
{
    if (m_fd < 0)
        return {};
    struct stat st = {};
    const bool regular = ::fstat(m_fd, &st) == 0 && S_ISREG(st.st_mode);
    QString done;
    if (m_created) {
        if (::unlink(QFile::encodeName(m_path).constData()) == 0)
            done = QStringLiteral("the partial file was removed");
    } else if (regular && ::ftruncate(m_fd, 0) == 0) {
        done = QStringLiteral("the partial download in it was removed (the file is empty)");
    }
    ::close(m_fd);
    m_fd = -1;
    m_discarded = true;
    return done;
}

QString LocalSink::diskFullError(const QString &doing, qint64 stored)
{
    QString text = QStringLiteral("the local disk is full while %1 %2 (%3 B stored of %4 B received)")
                       .arg(doing, m_path)
                       .arg(stored)
                       .arg(m_position);
    const QString removed = discard();
    if (!removed.isEmpty())
        text += QStringLiteral("; ") + removed;
    return text;
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
    // O_EXCL first, to know whether the file is ours to remove should the download not finish.
    const QByteArray path = QFile::encodeName(m_path);
    m_fd = LocalFileIo::openMaybeDirect(path, O_WRONLY | O_CREAT | O_EXCL, settings.unbuffered, &m_direct);
    m_created = m_fd >= 0;
    if (m_fd < 0 && errno == EEXIST)
        m_fd = LocalFileIo::openMaybeDirect(path, O_WRONLY | O_TRUNC, settings.unbuffered, &m_direct);
    if (m_fd < 0) {
        *error = QStringLiteral("cannot create the local file %1 (%2): check the folder and its permissions")
                     .arg(m_path, LocalFileIo::errnoText(errno));
        return false;
    }
    m_buffer = std::make_unique<AlignedBuffer>(LocalFileIo::StageBytes);
    return !m_buffer->isNull();
}

bool LocalSink::write(const char *data, qint64 length, QString *error)
{
    if (m_verify && m_mismatch < 0) {
        const qint64 at = TestPattern::firstMismatch(data, m_position, length);
        if (at >= 0) {
            m_mismatch = at;
            *error
                = QStringLiteral("content differs from the Wirebench test pattern at byte %1: the file was "
                                 "corrupted in transit or was not made by Wirebench (delete it to have it re-created)")
                      .arg(at);
            return false;
        }
    }
    m_position += length;
    if (m_fd < 0)
        return true;
    while (length > 0) {
        const qint64 n = std::min(length, LocalFileIo::StageBytes - m_bufferFill);
        std::memcpy(m_buffer->data() + m_bufferFill, data, size_t(n));
        m_bufferFill += n;
        data += n;
        length -= n;
        if (m_bufferFill == LocalFileIo::StageBytes && !flushBuffer(false, error))
            return false;
    }
    return true;
}

bool LocalSink::flushBuffer(bool final, QString *error)
{
    const qint64 t0 = LocalFileIo::nowNs();
    qint64 done = 0;
    while (done < m_bufferFill) {
        qint64 n = m_bufferFill - done;
        if (m_direct && (n % LocalFileIo::Alignment) != 0) {
            if (n >= LocalFileIo::Alignment) {
                n -= n % LocalFileIo::Alignment;
            } else {
                // The unaligned tail of the file cannot go past the page cache, so finish buffered.
                platform::Platform::pageCache().endUncached(m_fd);
                m_direct = false;
            }
        }
        const ssize_t w = ::write(m_fd, m_buffer->data() + done, size_t(n));
        if (w < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            m_diskFull = LocalFileIo::isDiskFull(err);
            *error = m_diskFull
                ? diskFullError(QStringLiteral("writing"), m_disk.bytes + done)
                : QStringLiteral("writing the local file %1 failed (%2)").arg(m_path, LocalFileIo::errnoText(err));
            return false;
        }
        done += w;
    }
    m_disk.bytes += m_bufferFill;
    m_bufferFill = 0;
    if (final && ::fdatasync(m_fd) != 0) {
        const int err = errno;
        m_diskFull = LocalFileIo::isDiskFull(err);
        *error = m_diskFull
            ? diskFullError(QStringLiteral("flushing"), m_disk.bytes)
            : QStringLiteral("flushing the local file %1 failed (%2)").arg(m_path, LocalFileIo::errnoText(err));
        m_disk.nanoseconds += LocalFileIo::nowNs() - t0;
        return false;
    }
    m_disk.nanoseconds += LocalFileIo::nowNs() - t0;
    return true;
}

bool LocalSink::finish(QString *error)
{
    if (m_discarded) {
        *error = QStringLiteral("the local file %1 was removed after an earlier error").arg(m_path);
        return false;
    }
    m_finished = m_fd < 0 || flushBuffer(true, error);
    return m_finished;
}

} // namespace wb
