#include "PeerTools.h"

#include <QProcess>
#include <QRegularExpression>

namespace wb::test::PeerTools {

QString run(const QString &program, const QStringList &args, QString *error, int timeoutMs)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000) || !p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit
        || p.exitCode() != 0) {
        *error = QStringLiteral("%1 failed: %2").arg(program, QString::fromLocal8Bit(p.readAll()).trimmed());
        p.kill();
        p.waitForFinished();
        return {};
    }
    return QString::fromLocal8Bit(p.readAll());
}

double curlMBps(const QString &writeOut, double *wholeSessionMBps)
{
    const QStringList f = writeOut.trimmed().split(QLatin1Char(' '));
    if (f.size() < 4)
        return 0;
    const double bytes = f[0].toDouble();
    const double transfer = f[2].toDouble() - f[1].toDouble();
    if (wholeSessionMBps)
        *wholeSessionMBps = f[3].toDouble() / 1e6;
    return transfer > 0 ? bytes / transfer / 1e6 : 0;
}

double smbclientMBps(const QString &out)
{
    static const QRegularExpression rate(QStringLiteral("\\(([0-9.]+) (?:KiloBytes/sec|kb/s)\\)"));
    const QRegularExpressionMatch m = rate.match(out);
    return m.hasMatch() ? m.captured(1).toDouble() * 1024 / 1e6 : 0;
}

double transfer(const QString &protocol, const PeerTransfer &peer, QString *error)
{
    const QString cred = peer.user + QLatin1Char(':') + peer.password;
    const QString url = QStringLiteral("ftp://%1:%2/%3").arg(peer.address).arg(peer.ftpPort).arg(peer.remoteName);
    const QStringList smb{QStringLiteral("//%1/%2").arg(peer.address, peer.share),
                          QStringLiteral("-p"),
                          QString::number(peer.smbPort),
                          QStringLiteral("-U"),
                          peer.user + QLatin1Char('%') + peer.password,
                          QStringLiteral("-c")};
    if (protocol == QLatin1String("ftp-get"))
        return curlMBps(run(QStringLiteral("curl"),
                            {QStringLiteral("-sS"), QStringLiteral("-u"), cred, url, QStringLiteral("-o"),
                             QStringLiteral("/dev/null"), QStringLiteral("-w"),
                             QStringLiteral("%{size_download} %{time_pretransfer} %{time_total} %{speed_download}")},
                            error));
    if (protocol == QLatin1String("ftp-put"))
        return curlMBps(run(QStringLiteral("curl"),
                            {QStringLiteral("-sS"), QStringLiteral("-u"), cred, QStringLiteral("-T"), peer.localFile,
                             url, QStringLiteral("-w"),
                             QStringLiteral("%{size_upload} %{time_pretransfer} %{time_total} %{speed_upload}")},
                            error));
    if (protocol == QLatin1String("smb-read"))
        return smbclientMBps(run(QStringLiteral("smbclient"),
                                 smb + QStringList{QStringLiteral("get %1 /dev/null").arg(peer.remoteName)}, error));
    if (protocol == QLatin1String("smb-write"))
        return smbclientMBps(run(QStringLiteral("smbclient"),
                                 smb + QStringList{QStringLiteral("put %1 %2").arg(peer.localFile, peer.remoteName)},
                                 error));
    *error = QStringLiteral("no peer tool for ") + protocol;
    return 0;
}

} // namespace wb::test::PeerTools
