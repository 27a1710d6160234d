#pragma once

#include <QHostAddress>
#include <QList>
#include <QString>

namespace wb {

/// One established TCP socket as the kernel reports it (platform::SocketDiagnostics; Linux: sock_diag).
struct TcpSocketDiag
{
    QHostAddress local;
    quint16 localPort = 0;
    QHostAddress remote;
    quint16 remotePort = 0;
    quint64 inode = 0;
    int sndMss = 0;    ///< bytes (tcpi_snd_mss): the MSS this end sends with right now
    int rcvMss = 0;    ///< bytes (tcpi_rcv_mss): the largest segment seen from the peer (at most advMss)
    int advMss = 0;    ///< bytes (tcpi_advmss): what this end announced
    quint32 rttUs = 0; ///< smoothed RTT, microseconds
    quint32 totalRetrans = 0;
    bool timestamps = false; ///< TCPI_OPT_TIMESTAMPS negotiated

    /// The MSS the connection's data segments are cut to, whichever way the data flows: the larger of
    /// sndMss and rcvMss. sndMss alone is not it: Linux bounds it by half the largest window the peer has
    /// announced (tcp_bound_to_half_wnd), so on a connection that mostly receives (smb-read) or has only
    /// just opened it stays low (32768 on loopback, whose path MSS is 65483) while the data goes in full
    /// segments. Neither figure can exceed the path's MSS: rcvMss is capped by advMss.
    int dataMss() const { return sndMss > rcvMss ? sndMss : rcvMss; }
};

/// The MSS a connection really uses when the driver does not own the socket (libsmbclient), read from
/// the kernel (platform::SocketDiagnostics; no subprocess, no traffic). Works for sockets of any process
/// in this network namespace; ownProcessOnly keeps to this process's sockets (matched by inode).
class SocketDiag
{
public:
    /// All established TCP sockets (IPv4 and IPv6) of this network namespace. Empty with *error set when
    /// the kernel does not answer (Linux: the sock_diag module is missing).
    static QList<TcpSocketDiag> establishedTcp(QString *error = nullptr);

    /// The MSS (bytes, TcpSocketDiag::dataMss) of the established connection to remoteAddress:remotePort
    /// (an IP literal; IPv4-mapped forms compare equal); 0 when there is none (*error says why). With
    /// several such connections the largest MSS counts (they share the route).
    static int observedMss(const QString &remoteAddress, quint16 remotePort, bool ownProcessOnly = true,
                           QString *error = nullptr, TcpSocketDiag *found = nullptr);

    /// Socket inodes this process holds (platform::ProcessFiles).
    static QList<quint64> ownSocketInodes();
};

} // namespace wb
