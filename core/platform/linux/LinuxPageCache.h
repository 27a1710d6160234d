#pragma once

#include "platform/PageCache.h"

namespace wb::platform {

/// O_DIRECT (set at open(2), cleared with fcntl(2)) and posix_fadvise(POSIX_FADV_DONTNEED).
class LinuxPageCache : public PageCache
{
public:
    int openUncached(const char *path, int flags, mode_t mode) const override;
    void endUncached(int fd) const override;
    void evict(int fd) const override;
};

} // namespace wb::platform
