#include "LinuxPageCache.h"

#include <fcntl.h>

namespace wb::platform {

int LinuxPageCache::openUncached(const char *path, int flags, mode_t mode) const
{
    return ::open(path, flags | O_DIRECT, mode);
}

void LinuxPageCache::endUncached(int fd) const
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_DIRECT);
}

void LinuxPageCache::evict(int fd) const
{
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

} // namespace wb::platform
