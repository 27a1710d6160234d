#include "SocketDiag.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <cerrno>
#include <cstring>

#ifdef Q_OS_LINUX
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace wb {

QList<quint64> SocketDiag::ownSocketInodes()
{
    QList<quint64> out;
#ifdef Q_OS_LINUX
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString &name : fds.entryList(QDir::System | QDir::NoDotAndDotDot)) {
        const QString target = QFileInfo(fds.filePath(name)).symLinkTarget();
        // readlink gives "socket:[12345]"; QFileInfo makes it an absolute path ending with that.
        const int at = target.lastIndexOf(QLatin1String("socket:["));
        if (at < 0 || !target.endsWith(QLatin1Char(']')))
            continue;
        bool ok = false;
        const quint64 inode = target.mid(at + 8, target.size() - at - 9).toULongLong(&ok);
        if (ok)
            out.append(inode);
    }
#endif
    return out;
}

#ifdef Q_OS_LINUX
namespace {

QHostAddress fromDiag(int family, const __be32 *addr)
{
    if (family == AF_INET)
        return QHostAddress(ntohl(addr[0]));
    Q_IPV6ADDR ip;
    std::memcpy(&ip, addr, sizeof(ip));
    return QHostAddress(ip);
}

bool dumpFamily(int family, QList<TcpSocketDiag> *out, QString *error)
{
    const int fd = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) {
        *error = QStringLiteral("sock_diag netlink is not available (%1)").arg(QString::fromLocal8Bit(std::strerror(errno)));
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
    msg.req.sdiag_family = quint8(family);
    msg.req.sdiag_protocol = IPPROTO_TCP;
    msg.req.idiag_states = 1u << 1; // TCP_ESTABLISHED
    msg.req.idiag_ext = 1u << (INET_DIAG_INFO - 1);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (::sendto(fd, &msg, sizeof(msg), 0, reinterpret_cast<sockaddr *>(&kernel), sizeof(kernel)) < 0) {
        *error = QStringLiteral("sock_diag request failed (%1)").arg(QString::fromLocal8Bit(std::strerror(errno)));
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
            *error = QStringLiteral("sock_diag answer could not be read (%1)")
                         .arg(QString::fromLocal8Bit(std::strerror(n < 0 ? errno : EPIPE)));
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
                *error = QStringLiteral("sock_diag refused the request (%1)")
                             .arg(QString::fromLocal8Bit(std::strerror(-e->error)));
                done = true;
                ok = false;
                break;
            }
            if (h->nlmsg_len < NLMSG_LENGTH(sizeof(inet_diag_msg)))
                continue;
            const auto *m = static_cast<const inet_diag_msg *>(NLMSG_DATA(h));
            TcpSocketDiag s;
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
            out->append(s);
        }
    }
    ::close(fd);
    return ok;
}

} // namespace
#endif

QList<TcpSocketDiag> SocketDiag::establishedTcp(QString *error)
{
    QList<TcpSocketDiag> out;
    QString e;
#ifdef Q_OS_LINUX
    QString e6;
    const bool v4 = dumpFamily(AF_INET, &out, &e);
    const bool v6 = dumpFamily(AF_INET6, &out, &e6);
    if (!v4 && !v6 && error)
        *error = e;
    else if (error)
        error->clear();
#else
    if (error)
        *error = QStringLiteral("this platform has no sock_diag: the MSS of a connection Wirebench does not own is unknown");
#endif
    return out;
}

int SocketDiag::observedMss(const QString &remoteAddress, quint16 remotePort, bool ownProcessOnly, QString *error,
                            TcpSocketDiag *found)
{
    QString e;
    QString text = remoteAddress.trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
        text = text.mid(1, text.size() - 2);
    const QHostAddress want(text);
    if (want.isNull()) {
        if (error)
            *error = QStringLiteral("\"%1\" is not an IP address: resolve it first").arg(remoteAddress.left(80));
        return 0;
    }
    const QList<TcpSocketDiag> all = establishedTcp(&e);
    QSet<quint64> mine;
    if (ownProcessOnly) {
        const QList<quint64> inodes = ownSocketInodes();
        mine = QSet<quint64>(inodes.begin(), inodes.end());
    }
    int best = 0;
    for (const TcpSocketDiag &s : all) {
        if (s.remotePort != remotePort || !s.remote.isEqual(want, QHostAddress::TolerantConversion))
            continue;
        if (ownProcessOnly && !mine.contains(s.inode))
            continue;
        if (s.dataMss() > best) {
            best = s.dataMss();
            if (found)
                *found = s;
        }
    }
    if (error) {
        if (best > 0)
            error->clear();
        else if (!e.isEmpty())
            *error = e;
        else
            *error = QStringLiteral("no established TCP connection %1to %2 port %3")
                         .arg(ownProcessOnly ? QStringLiteral("of this process ") : QString(), want.toString())
                         .arg(remotePort);
    }
    return best;
}

} // namespace wb
