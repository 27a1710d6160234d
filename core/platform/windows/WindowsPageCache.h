#pragma once

#include "platform/PageCache.h"

namespace wb::platform {

/// Not ported (FILE_FLAG_NO_BUFFERING): only the client's local disk tests use it, and they do not run on Windows yet.
class WindowsPageCache : public PageCache
{
public:
    int openUncached(const char *path, int flags, mode_t mode) const override;
    void endUncached(int fd) const override;
    void evict(int fd) const override;
};

} // namespace wb::platform
