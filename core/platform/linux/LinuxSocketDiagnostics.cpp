#include "LinuxSocketDiagnostics.h"

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
#include <unistd.h>

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
        s.timestamps = (info.tcpi_options & TCPI_OPT_TIMESTAMPS) != 0;
    }
    return s;
}

bool dumpFamily(int family, std::vector<TcpSocketReading> *out, std::string *error)
{
    const int fd = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) {
        *error = std::string("sock_diag netlink is not available (") + std::strerror(errno) + ")";
        return false;
    }
    struct
    {
        nlmsghdr nlh;
        inet_diag_req_v2 req;
    } msg{};
    msg.nlh.nlmsg_len = sizeof(msg);
    msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    msg.req.sdiag_family = std::uint8_t(family);
    msg.req.sdiag_protocol = IPPROTO_TCP;
    msg.req.idiag_states = 1u << 1; // TCP_ESTABLISHED
    msg.req.idiag_ext = 1u << (INET_DIAG_INFO - 1);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (::sendto(fd, &msg, sizeof(msg), 0, reinterpret_cast<sockaddr *>(&kernel), sizeof(kernel)) < 0) {
        *error = std::string("sock_diag request failed (") + std::strerror(errno) + ")";
        ::close(fd);
        return false;
    }
    alignas(nlmsghdr) char buf[32768];
    bool done = false;
    bool ok = true;
    while (!done) {
        const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *error = std::string("sock_diag answer could not be read (") + std::strerror(n < 0 ? errno : EPIPE) + ")";
            ok = false;
            break;
        }
        int len = int(n);
        for (auto *h = reinterpret_cast<nlmsghdr *>(buf); NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
            if (h->nlmsg_type == NLMSG_DONE) {
                done = true;
                break;
            }
            if (h->nlmsg_type == NLMSG_ERROR) {
                const auto *e = static_cast<const nlmsgerr *>(NLMSG_DATA(h));
                *error = std::string("sock_diag refused the request (") + std::strerror(-e->error) + ")";
                done = true;
                ok = false;
                break;
            }
            if (h->nlmsg_len < NLMSG_LENGTH(sizeof(inet_diag_msg)))
                continue;
            out->push_back(readingOf(h));
        }
    }
    ::close(fd);
    return ok;
}

} // namespace

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
