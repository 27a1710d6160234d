#pragma once

#include <QHostAddress>
#include <QList>
#include <QString>

namespace wb {

/// One established TCP socket as the kernel's sock_diag (INET_DIAG with the tcp_info attribute) reports it.
struct TcpSocketDiag
{
    QHostAddress local;
    quint16 localPort = 0;
    QHostAddress remote;
    quint16 remotePort = 0;
    quint64 inode = 0;
    int sndMss = 0;        ///< bytes (tcpi_snd_mss): the MSS this end sends with
    int rcvMss = 0;        ///< bytes (tcpi_rcv_mss): the kernel's estimate of the peer's
    int advMss = 0;        ///< bytes (tcpi_advmss): what this end announced
    quint32 rttUs = 0;     ///< smoothed RTT, microseconds
    quint32 totalRetrans = 0;
    bool timestamps = false; ///< TCPI_OPT_TIMESTAMPS negotiated
};

/// The MSS a connection really uses when the driver does not own the socket (libsmbclient), read from
/// the kernel (Linux sock_diag netlink; no subprocess, no traffic). Works for sockets of any process
/// in this network namespace; ownProcessOnly keeps to this process's sockets (matched by inode).
class SocketDiag
{
public:
    /// All established TCP sockets (IPv4 and IPv6) of this network namespace. Empty with *error set when
    /// sock_diag is not available (not Linux, or the kernel module is missing).
    static QList<TcpSocketDiag> establishedTcp(QString *error = nullptr);

    /// The send MSS (bytes) of the established connection to remoteAddress:remotePort (an IP literal;
    /// IPv4-mapped forms compare equal); 0 when there is none (*error says why). With several such
    /// connections the largest MSS counts (they share the route).
    static int observedMss(const QString &remoteAddress, quint16 remotePort, bool ownProcessOnly = true,
                           QString *error = nullptr, TcpSocketDiag *found = nullptr);

    /// Socket inodes this process holds (from /proc/self/fd).
    static QList<quint64> ownSocketInodes();
};

} // namespace wb
