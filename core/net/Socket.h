#pragma once

#include "SocketApi.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace wb::net {

/// An owned socket descriptor (closed on destruction).
class Fd
{
public:
    Fd() = default;
    explicit Fd(int fd)
        : m_fd(fd)
    {
    }
    Fd(Fd &&o) noexcept
        : m_fd(o.release())
    {
    }
    Fd &operator=(Fd &&o) noexcept;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }

    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    int release();
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

/// Nanoseconds on the monotonic clock: the one clock of the responders and the bulk loops.
inline std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// CPU seconds (user + system) the calling thread has used so far; -1 when unknown.
double threadCpuSeconds();

/// errno as text ("Connection refused").
std::string errnoText(int err);
bool setIntOption(int fd, int level, int option, int value, std::string *error = nullptr);
bool setNonBlocking(int fd, bool on);
/// SO_SNDTIMEO and SO_RCVTIMEO, so a blocking data loop wakes up to look at the clock and the stop flag.
void setIoTimeouts(int fd, int ms);
/// Lets a bulk receiver sleep until a useful amount has arrived (SO_RCVLOWAT) rather than wake for every
/// segment: fewer wake-ups on both ends, so the tool costs less and the link shows more. The amount is
/// receiveLowWater(recvBufferBytes); a read still returns early at the SO_RCVTIMEO timeout or the end of
/// the stream, so no byte waits and the last one is timed when it comes. Call it after the first read,
/// so that the first arrival is timed as it happens. Returns the amount set, 0 if the kernel refused it.
int setReceiveLowWater(int fd, int recvBufferBytes);
/// 128 KiB, or a quarter of an explicit receive buffer (recvBufferBytes > 0), so it never holds back the window.
int receiveLowWater(int recvBufferBytes);
/// "192.0.2.1:5301", "[::1]:5301"
std::string endpointText(const sockaddr_storage &addr);
std::string hostText(const sockaddr_storage &addr);
std::uint16_t portOf(const sockaddr_storage &addr);
bool sameHost(const sockaddr_storage &a, const sockaddr_storage &b);

} // namespace wb::net
