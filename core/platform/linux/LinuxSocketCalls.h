#pragma once

#include "platform/SocketCalls.h"

namespace wb::platform {

/// send(2) with MSG_NOSIGNAL, accept4(2), setsockopt(TCP_CONGESTION) and ioctl(SIOCINQ).
class LinuxSocketCalls : public SocketCalls
{
public:
    ssize_t send(int fd, const void *data, std::size_t size, int flags) const override;
    int accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const override;
    bool setCongestionControl(int fd, const char *name, std::size_t length) const override;
    bool unreadBytes(int fd, int *bytes) const override;
};

} // namespace wb::platform
