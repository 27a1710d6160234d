#include "LinuxSocketDiagnostics.h"

#include "platform/linux/LinuxNetlink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace wb::platform {

namespace {

IpAddress fromDiag(int family, const __be32 *addr)
{
    IpAddress a;
    a.family = family == AF_INET ? IpAddress::Family::V4 : IpAddress::Family::V6;
    std::memcpy(a.bytes.data(), addr, family == AF_INET ? 4 : 16);
    return a;
}

TcpSocketReading readingOf(const nlmsghdr *h)
{
    const auto *m = static_cast<const inet_diag_msg *>(NLMSG_DATA(h));
    TcpSocketReading s;
    s.local = fromDiag(m->idiag_family, m->id.idiag_src);
    s.remote = fromDiag(m->idiag_family, m->id.idiag_dst);
    s.localPort = ntohs(m->id.idiag_sport);
    s.remotePort = ntohs(m->id.idiag_dport);
    s.inode = m->idiag_inode;
    int attrLen = int(h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
    for (auto *a = reinterpret_cast<rtattr *>(const_cast<inet_diag_msg *>(m) + 1); RTA_OK(a, attrLen);
         a = RTA_NEXT(a, attrLen)) {
        if (a->rta_type != INET_DIAG_INFO)
            continue;
        tcp_info info{};
        // Older kernels send a shorter struct: copy what is there, the rest stays 0.
        std::memcpy(&info, RTA_DATA(a), std::min<size_t>(RTA_PAYLOAD(a), sizeof(info)));
        s.sndMss = int(info.tcpi_snd_mss);
        s.rcvMss = int(info.tcpi_rcv_mss);
        s.advMss = int(info.tcpi_advmss);
        s.rttUs = info.tcpi_rtt;
        s.totalRetrans = info.tcpi_total_retrans;
        s.bytesAcked = info.tcpi_bytes_acked;       // 0 from a kernel before 4.1, whose tcp_info ends earlier
        s.bytesReceived = info.tcpi_bytes_received; // the same
        s.timestamps = (info.tcpi_options & TCPI_OPT_TIMESTAMPS) != 0;
    }
    return s;
}

bool dumpFamily(int family, std::vector<TcpSocketReading> *out, std::string *error)
{
    inet_diag_req_v2 req{};
    req.sdiag_family = std::uint8_t(family);
    req.sdiag_protocol = IPPROTO_TCP;
    req.idiag_states = 1u << 1; // TCP_ESTABLISHED
    req.idiag_ext = 1u << (INET_DIAG_INFO - 1);
    return LinuxNetlink::dump(
        NETLINK_SOCK_DIAG, SOCK_DIAG_BY_FAMILY, req, "sock_diag",
        [out](const nlmsghdr *h) {
            if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(inet_diag_msg)))
                out->push_back(readingOf(h));
        },
        error);
}

void putAddress(const IpAddress &a, __be32 *into)
{
    std::memcpy(into, a.bytes.data(), a.family == IpAddress::Family::V4 ? 4 : 16);
}

} // namespace

bool LinuxSocketDiagnostics::tcpSocket(const IpAddress &local, std::uint16_t localPort, const IpAddress &remote,
                                       std::uint16_t remotePort, TcpSocketReading *out, std::string *error) const
{
    std::string why;
    if (local.family == IpAddress::Family::None || local.family != remote.family) {
        if (error)
            *error = "sock_diag: the socket's two addresses are not of one family";
        return false;
    }
    inet_diag_req_v2 req{};
    req.sdiag_family = std::uint8_t(local.family == IpAddress::Family::V4 ? AF_INET : AF_INET6);
    req.sdiag_protocol = IPPROTO_TCP;
    req.idiag_ext = 1u << (INET_DIAG_INFO - 1);
    req.idiag_states = ~0u;
    req.id.idiag_sport = htons(localPort);
    req.id.idiag_dport = htons(remotePort);
    putAddress(local, req.id.idiag_src);
    putAddress(remote, req.id.idiag_dst);
    req.id.idiag_if = local.scopeId; // a link-local socket is bound to its interface, and found only with it
    req.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    bool found = false;
    int err = 0;
    const bool ok = LinuxNetlink::request(
        NETLINK_SOCK_DIAG, SOCK_DIAG_BY_FAMILY, req, "sock_diag",
        [&](const nlmsghdr *h) {
            if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY && h->nlmsg_len >= NLMSG_LENGTH(sizeof(inet_diag_msg))) {
                *out = readingOf(h);
                found = true;
            }
        },
        &why, &err);
    if (ok && !found)
        why = "sock_diag answered without the socket";
    else if (!ok && err == ENOENT)
        why = "no such TCP socket";
    if (error)
        *error = ok && found ? std::string() : why;
    return ok && found;
}

std::vector<TcpSocketReading> LinuxSocketDiagnostics::establishedTcp(std::string *error) const
{
    std::vector<TcpSocketReading> out;
    std::string e4, e6;
    const bool v4 = dumpFamily(AF_INET, &out, &e4);
    const bool v6 = dumpFamily(AF_INET6, &out, &e6);
    if (error)
        *error = !v4 && !v6 ? e4 : std::string();
    return out;
}

} // namespace wb::platform
