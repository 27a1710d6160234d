#include "LinuxSocketCalls.h"

#include <cerrno>
#include <cstdlib>

#include <fcntl.h>

#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <unistd.h>

namespace wb::platform {

ssize_t LinuxSocketCalls::send(int fd, const void *data, std::size_t size, int flags) const
{
    return ::send(fd, data, size, flags | MSG_NOSIGNAL);
}

int LinuxSocketCalls::accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const
{
    return ::accept4(listenFd, peer, peerLength, SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0));
}

bool LinuxSocketCalls::setCongestionControl(int fd, const char *name, std::size_t length) const
{
    return ::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, socklen_t(length)) == 0;
}

bool LinuxSocketCalls::unreadBytes(int fd, int *bytes) const
{
    return ::ioctl(fd, SIOCINQ, bytes) == 0;
}

namespace {

/// Writes all of content to fd; false (errno set, fd closed) when it cannot.
bool fill(int fd, const void *content, std::size_t size)
{
    const char *p = static_cast<const char *>(content);
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, p + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : EIO;
            ::close(fd);
            errno = err;
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

} // namespace

int LinuxSocketCalls::memoryFile(const void *content, std::size_t size) const
{
    // First an unnamed file in the temporary folder (O_TMPFILE: gone when closed, as iperf3 -Z's unlinked mkstemp
    // file): sendfile from a regular file's page cache looks its pages up in batches, from shmem (memfd) one by
    // one, which perf showed as 14% of the sender's CPU against 9% for iperf3's file. The block stays in the page
    // cache while it is sent. Where the folder refuses (tmpfs without O_TMPFILE, full, read-only): memfd_create.
    const char *dir = std::getenv("TMPDIR");
    if (dir == nullptr || *dir == '\0')
        dir = "/tmp";
    int fd = ::open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 && fill(fd, content, size))
        return fd;
    fd = ::memfd_create("wirebench-block", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    return fill(fd, content, size) ? fd : -1;
}

ssize_t LinuxSocketCalls::sendFile(int fd, int file, long long offset, std::size_t size) const
{
    off_t at = off_t(offset);
    return ::sendfile(fd, file, &at, size);
}

int LinuxSocketCalls::discardFlag() const
{
    return MSG_TRUNC;
}

} // namespace wb::platform
