#pragma once

#include <QString>
#include <QStringList>

namespace wb::test {

/// One file-server transfer with the peer tool of a protocol (curl for FTP, smbclient for SMB), the reference
/// a Wirebench figure is held against when the line's theory is out of reach of the server itself.
struct PeerTransfer
{
    QString address; ///< the server, e.g. 127.0.0.1 or a lab namespace's address
    int ftpPort = 21;
    int smbPort = 445;
    QString share; ///< SMB share
    QString user;
    QString password;
    QString remoteName; ///< the file read, or the name a write creates (the caller removes it)
    QString localFile;  ///< what a PUT or write uploads (a file of the transfer's size)
};

namespace PeerTools {

/// Runs a program to its end: its merged output, or "" and *error when it did not start, finish or exit 0.
QString run(const QString &program, const QStringList &args, QString *error, int timeoutMs = 600000);
/// curl's `-w "%{size_X} %{time_pretransfer} %{time_total} %{speed_X}"` line: size over (total - pretransfer),
/// like for like with Wirebench, in MB/s (10^6 B/s); *wholeSessionMBps, when given, curl's own figure.
double curlMBps(const QString &writeOut, double *wholeSessionMBps = nullptr);
/// smbclient's "(12345.6 KiloBytes/sec)" (get) or "(12345.6 kb/s)" (put), both KiB/s, in MB/s.
double smbclientMBps(const QString &out);
/// The peer tool's goodput in MB/s for `protocol` (ftp-get, ftp-put, smb-read, smb-write), 0 and *error when
/// it did not run.
double transfer(const QString &protocol, const PeerTransfer &peer, QString *error);

} // namespace PeerTools
} // namespace wb::test
