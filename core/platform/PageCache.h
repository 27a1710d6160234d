#pragma once

#include <sys/types.h>

namespace wb::platform {

/// Files read and written past the page cache, so that a timed local read or write is the disk's and a file
/// read back comes from where it is stored. Linux: O_DIRECT and posix_fadvise(POSIX_FADV_DONTNEED); a macOS
/// port would set F_NOCACHE with fcntl(2), Windows would open with FILE_FLAG_NO_BUFFERING.
class PageCache
{
public:
    virtual ~PageCache() = default;
    /// open(2) of path with flags and mode, past the page cache: -1 with errno, EINVAL where the file system (or
    /// the OS) cannot (the caller then opens it through the cache). Its reads and writes must be aligned
    /// (LocalFileIo::Alignment).
    virtual int openUncached(const char *path, int flags, mode_t mode) const = 0;
    /// fd's reads and writes go through the page cache from now on: the unaligned tail of a file cannot pass it.
    virtual void endUncached(int fd) const = 0;
    /// Asks the OS to forget what the page cache holds of fd's file, where the file system obeys.
    virtual void evict(int fd) const = 0;
};

} // namespace wb::platform
