#include "LocalFileIo.h"

#include "platform/Platform.h"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>

namespace wb {

qint64 LocalFileIo::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QString LocalFileIo::errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

bool LocalFileIo::isDiskFull(int err)
{
    return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

int LocalFileIo::openMaybeDirect(const QByteArray &path, int flags, bool wantDirect, bool *direct, mode_t mode)
{
    *direct = false;
    if (wantDirect) {
        int fd = platform::Platform::pageCache().openUncached(path.constData(), flags | O_CLOEXEC, mode);
        if (fd >= 0) {
            *direct = true;
            return fd;
        }
        if (errno != EINVAL) // EINVAL: the file system cannot go past the page cache; fall back to buffered
            return -1;
    }
    return ::open(path.constData(), flags | O_CLOEXEC, mode);
}

} // namespace wb
