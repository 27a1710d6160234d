#pragma once

#include "platform/SocketCalls.h"

namespace wb::platform {

/// send(2) with MSG_NOSIGNAL, accept4(2), setsockopt(TCP_CONGESTION), ioctl(SIOCINQ); zero copy by memfd_create(2),
/// sendfile(2) and recv(2)'s MSG_TRUNC.
class LinuxSocketCalls : public SocketCalls
{
public:
    ssize_t send(int fd, const void *data, std::size_t size, int flags) const override;
    int accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const override;
    bool setCongestionControl(int fd, const char *name, std::size_t length) const override;
    bool unreadBytes(int fd, int *bytes) const override;
    int memoryFile(const void *content, std::size_t size) const override;
    ssize_t sendFile(int fd, int file, long long offset, std::size_t size) const override;
    int discardFlag() const override;
};

} // namespace wb::platform
