// TcpInfo::of on Windows: WSAIoctl(SIO_TCP_INFO), TCP_INFO_v0 (Windows 10 1703 / Server 2016 and later); not
// valid where the system (or wine) does not answer it.
// SIO_TCP_INFO and TCP_INFO_v0 are declared for Windows 10 1703 (NTDDI_WIN10_RS2) and later; the call fails
// cleanly on an older system, so this file alone asks for them.
#undef NTDDI_VERSION
#define NTDDI_VERSION 0x0A000003
#include "TcpInfo.h"

#include <winsock2.h>
#include <mstcpip.h>

namespace wb::net {

TcpInfo TcpInfo::of(int fd)
{
    TcpInfo t;
    DWORD version = 0;
    TCP_INFO_v0 info{};
    DWORD got = 0;
    if (fd < 0
        || ::WSAIoctl(SOCKET(fd), SIO_TCP_INFO, &version, sizeof(version), &info, sizeof(info), &got, nullptr, nullptr)
            != 0
        || got < sizeof(info))
        return t;
    t.valid = true;
    t.sndMss = int(info.Mss);
    t.rcvMss = int(info.Mss);
    t.rttUs = std::int64_t(info.RttUs);
    // Windows counts resent bytes, not segments: in segments of the MSS, rounded up.
    t.totalRetrans = info.Mss > 0 ? std::int64_t((info.BytesRetrans + info.Mss - 1) / info.Mss) : 0;
    t.sndCwndBytes = std::int64_t(info.Cwnd);
    // BytesOut and BytesIn count what was sent and received, not what was acknowledged in order: left unknown
    // (-1), as Linux before 4.1.
    return t;
}

} // namespace wb::net
