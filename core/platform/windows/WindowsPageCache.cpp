#include "WindowsPageCache.h"

#include <cerrno>

namespace wb::platform {

int WindowsPageCache::openUncached(const char *, int, mode_t) const
{
    errno = EINVAL; // the caller opens the file through the cache
    return -1;
}

void WindowsPageCache::endUncached(int) const { }

void WindowsPageCache::evict(int) const { }

} // namespace wb::platform
