#include "LocalDiskRate.h"

#include "AlignedBuffer.h"
#include "LocalFileIo.h"
#include "TestPattern.h"
#include "platform/Platform.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace wb {

namespace {

LocalDiskRate::Rate measured(qint64 bytes, qint64 ns, bool direct)
{
    LocalDiskRate::Rate rate;
    rate.bytes = bytes;
    rate.direct = direct;
    rate.MBps = ns > 0 ? double(bytes) * 1e3 / double(ns) : 0;
    return rate;
}

LocalDiskRate::Rate problem(const QString &what)
{
    LocalDiskRate::Rate rate;
    rate.problem = what;
    return rate;
}

/// O_DIRECT moves whole blocks: a sample of at least one, in whole blocks.
qint64 sampleSize(qint64 bytes)
{
    const qint64 capped = std::min(bytes, LocalDiskRate::kMaxSampleBytes);
    return std::max(LocalFileIo::Alignment, capped / LocalFileIo::Alignment * LocalFileIo::Alignment);
}

} // namespace

LocalDiskRate::Rate LocalDiskRate::readOf(const QString &path, qint64 bytes, bool wantDirect,
                                          const std::function<bool()> &stop)
{
    const QByteArray name = QFile::encodeName(path);
    // The transfer just read the file: without this the page cache, not the disk, would answer.
    if (const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC); fd >= 0) {
        ::fdatasync(fd);
        platform::Platform::pageCache().evict(fd);
        ::close(fd);
    }
    bool direct = false;
    const int fd = LocalFileIo::openMaybeDirect(name, O_RDONLY, wantDirect, &direct);
    if (fd < 0)
        return problem(QStringLiteral("cannot open %1 (%2)").arg(path, LocalFileIo::errnoText(errno)));
    AlignedBuffer buffer(LocalFileIo::StageBytes);
    const qint64 want = sampleSize(bytes);
    qint64 got = 0;
    const qint64 start = LocalFileIo::nowNs();
    while (got < want && !stop()) {
        const ssize_t r = ::read(fd, buffer.data(), size_t(std::min(LocalFileIo::StageBytes, want - got)));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += r;
    }
    const qint64 ns = LocalFileIo::nowNs() - start;
    ::close(fd);
    if (got < want)
        return problem(stop() ? QStringLiteral("stopped")
                              : QStringLiteral("read %1 of %2 bytes of %3").arg(got).arg(want).arg(path));
    return measured(got, ns, direct);
}

LocalDiskRate::Rate LocalDiskRate::writeBeside(const QString &path, qint64 bytes, bool wantDirect,
                                               const std::function<bool()> &stop)
{
    const QFileInfo sink(path);
    // A name of its own (O_EXCL), so that only what this wrote is removed.
    QByteArray sample;
    int fd = -1;
    bool direct = false;
    for (int n = 0; fd < 0 && n < 100; ++n) {
        sample = QFile::encodeName(sink.absolutePath()
                                   + QStringLiteral("/.wirebench-disk-sample-%1-%2").arg(::getpid()).arg(n));
        fd = LocalFileIo::openMaybeDirect(sample, O_WRONLY | O_CREAT | O_EXCL, wantDirect, &direct, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return problem(QStringLiteral("cannot create a sample file in %1 (%2)")
                           .arg(sink.absolutePath(), LocalFileIo::errnoText(errno)));
    AlignedBuffer buffer(LocalFileIo::StageBytes);
    const qint64 want = sampleSize(bytes);
    qint64 written = 0;
    int err = 0;
    const qint64 start = LocalFileIo::nowNs();
    while (written < want && !stop()) {
        const qint64 n = std::min(LocalFileIo::StageBytes, want - written);
        TestPattern::fill(buffer.data(), written, n);
        const ssize_t w = ::write(fd, buffer.data(), size_t(n));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            err = w < 0 ? errno : ENOSPC;
            break;
        }
        written += w;
    }
    if (err == 0 && written == want && ::fdatasync(fd) != 0)
        err = errno;
    const qint64 ns = LocalFileIo::nowNs() - start;
    ::close(fd);
    ::unlink(sample.constData());
    if (err != 0)
        return problem(
            QStringLiteral("writing a sample in %1 failed (%2)").arg(sink.absolutePath(), LocalFileIo::errnoText(err)));
    if (written < want)
        return problem(QStringLiteral("stopped"));
    return measured(written, ns, direct);
}

} // namespace wb
