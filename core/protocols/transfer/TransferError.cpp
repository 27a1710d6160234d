#include "TransferError.h"

#include "TestFile.h"

#include <cerrno>

namespace wb {

namespace {

QString advice(TransferFault fault, int port)
{
    switch (fault) {
    case TransferFault::LoginRefused:
        return QStringLiteral("check the user name and password");
    case TransferFault::NoSuchPath:
        return QStringLiteral("check the path and the user's rights on it");
    case TransferFault::NoSuchShare:
        return QStringLiteral("check the share name (smbclient -L HOST lists the shares)");
    case TransferFault::PermissionDenied:
        return QStringLiteral("check the user's rights on that path on the server");
    case TransferFault::NotListening:
        return QStringLiteral("check that the server is running and listening on port %1").arg(port);
    case TransferFault::Unreachable:
        return QStringLiteral("check the address and the network path to the host");
    case TransferFault::TimedOut:
        return QStringLiteral("check the address, the firewall and that the server answers");
    case TransferFault::ClosedMidTransfer:
        return QStringLiteral("check the server's log and that the server is still running");
    case TransferFault::RemoteDiskFull:
        return QStringLiteral("free space on the server or choose a smaller file size");
    case TransferFault::LocalDiskFull:
        return QStringLiteral(
            "free space on this computer, choose a local file on another disk or use the memory sink");
    case TransferFault::LocalError:
        return QStringLiteral("check the local file and its folder");
    case TransferFault::TlsFailed:
        return QStringLiteral("check the server's TLS settings and log (protocol versions, ciphers, session reuse)");
    case TransferFault::TlsUntrusted:
        return QStringLiteral("choose a CA file that signed the server's certificate in the host's FTP settings, or "
                              "\"accept any certificate (insecure)\" only on a network you trust");
    case TransferFault::TlsNotOffered:
        return QStringLiteral("turn TLS on in the server (vsftpd: ssl_enable=YES) or turn off explicit FTPS for this "
                              "host");
    case TransferFault::TlsRequired:
        return QStringLiteral("turn on \"Explicit FTPS (AUTH TLS)\" in the host's FTP settings");
    case TransferFault::Mismatch:
        return QStringLiteral("check the server's disk and the network path; run again");
    case TransferFault::WrongService:
        return QStringLiteral("check the port in the host's settings: port %1 belongs to another service").arg(port);
    case TransferFault::Smb1Only:
        return QStringLiteral("turn on \"Allow SMB1 (NT1)\" in the host's SMB settings (wirebench-cli: --set "
                              "smb.allow_smb1=yes), or better turn on SMB2 or later in the server: SMB1 is old and "
                              "insecure");
    case TransferFault::ForeignFile:
        return QStringLiteral("choose another file name (a path ending in / gets %1), or move that file away yourself")
            .arg(TestFile::defaultName());
    case TransferFault::Other:
    case TransferFault::None:
        break;
    }
    return QStringLiteral("check the server's log");
}

} // namespace

QString transferErrorLine(const RunSpec &spec, int port, const QString &protocolTitle, TransferFault fault,
                          const QString &what)
{
    QString where = spec.host.address;
    if (where.contains(QLatin1Char(':')))
        where = QLatin1Char('[') + where + QLatin1Char(']');
    if (port > 0)
        where += QLatin1Char(':') + QString::number(port);
    const QString host = where.isEmpty() || where == spec.host.displayName()
        ? spec.host.displayName()
        : QStringLiteral("%1 (%2)").arg(spec.host.displayName(), where);
    QString line = QStringLiteral("%1: %2: %3: %4").arg(host, protocolTitle, what, advice(fault, port));
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    line.remove(QLatin1Char('\r'));
    return line;
}

QString transferFaultName(TransferFault fault)
{
    switch (fault) {
    case TransferFault::None:
        return QStringLiteral("none");
    case TransferFault::LoginRefused:
        return QStringLiteral("login_refused");
    case TransferFault::NoSuchPath:
        return QStringLiteral("no_such_path");
    case TransferFault::NoSuchShare:
        return QStringLiteral("no_such_share");
    case TransferFault::PermissionDenied:
        return QStringLiteral("permission_denied");
    case TransferFault::NotListening:
        return QStringLiteral("not_listening");
    case TransferFault::Unreachable:
        return QStringLiteral("unreachable");
    case TransferFault::TimedOut:
        return QStringLiteral("timed_out");
    case TransferFault::ClosedMidTransfer:
        return QStringLiteral("closed_mid_transfer");
    case TransferFault::RemoteDiskFull:
        return QStringLiteral("remote_disk_full");
    case TransferFault::LocalDiskFull:
        return QStringLiteral("local_disk_full");
    case TransferFault::LocalError:
        return QStringLiteral("local_error");
    case TransferFault::TlsFailed:
        return QStringLiteral("tls_failed");
    case TransferFault::TlsUntrusted:
        return QStringLiteral("tls_untrusted");
    case TransferFault::TlsNotOffered:
        return QStringLiteral("tls_not_offered");
    case TransferFault::TlsRequired:
        return QStringLiteral("tls_required");
    case TransferFault::Mismatch:
        return QStringLiteral("mismatch");
    case TransferFault::WrongService:
        return QStringLiteral("wrong_service");
    case TransferFault::Smb1Only:
        return QStringLiteral("smb1_only");
    case TransferFault::ForeignFile:
        return QStringLiteral("foreign_file");
    case TransferFault::Other:
        return QStringLiteral("other");
    }
    return QStringLiteral("other");
}

TransferFault transferFaultFromName(const QString &name)
{
    if (name.isEmpty())
        return TransferFault::None;
    for (int f = int(TransferFault::None); f <= int(TransferFault::Other); ++f) {
        if (transferFaultName(TransferFault(f)) == name)
            return TransferFault(f);
    }
    return TransferFault::Other;
}

TransferFault connectFault(int err)
{
    switch (err) {
    case ECONNREFUSED:
        return TransferFault::NotListening;
    case ETIMEDOUT:
        return TransferFault::TimedOut;
    case EHOSTUNREACH:
    case ENETUNREACH:
        return TransferFault::Unreachable;
    default:
        return TransferFault::Other;
    }
}

bool repeatCannotCure(TransferFault fault)
{
    switch (fault) {
    case TransferFault::NotListening:
    case TransferFault::Unreachable:
    case TransferFault::LoginRefused:
    case TransferFault::NoSuchShare:
    case TransferFault::NoSuchPath:
    case TransferFault::PermissionDenied:
    case TransferFault::TlsUntrusted:
    case TransferFault::TlsNotOffered:
    case TransferFault::TlsRequired:
    case TransferFault::WrongService:
    case TransferFault::Smb1Only:
    case TransferFault::ForeignFile:
        return true;
    default:
        return false;
    }
}

} // namespace wb
