#pragma once

#include "platform/SocketCalls.h"

namespace wb::platform {

/// send and accept in Winsock 2 (no SIGPIPE to avoid; MSG_DONTWAIT emulated by a zero-timeout WSAPoll; a
/// non-blocking accepted socket by ioctlsocket(FIONBIO)), FIONREAD; Windows has no per-socket congestion
/// control to choose.
class WindowsSocketCalls : public SocketCalls
{
public:
    ssize_t send(int fd, const void *data, std::size_t size, int flags) const override;
    int accept(int listenFd, sockaddr *peer, socklen_t *peerLength, bool nonBlocking) const override;
    bool setCongestionControl(int fd, const char *name, std::size_t length) const override;
    bool unreadBytes(int fd, int *bytes) const override;
    /// TransmitFile would be Windows's sendfile; not used yet: -1 with ENOSYS, and no discard flag.
    int memoryFile(const void *content, std::size_t size) const override;
    ssize_t sendFile(int fd, int file, long long offset, std::size_t size) const override;
    int discardFlag() const override { return 0; }
};

} // namespace wb::platform
