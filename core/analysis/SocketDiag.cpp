#include "SocketDiag.h"

#include "PlatformAddress.h"
#include "platform/Platform.h"

#include <QSet>

namespace wb {

QList<quint64> SocketDiag::ownSocketInodes()
{
    QList<quint64> out;
    for (const std::uint64_t inode : platform::Platform::processFiles().socketInodes())
        out.append(inode);
    return out;
}

QList<TcpSocketDiag> SocketDiag::establishedTcp(QString *error)
{
    std::string e;
    QList<TcpSocketDiag> out;
    for (const platform::TcpSocketReading &r : platform::Platform::socketDiagnostics().establishedTcp(&e)) {
        TcpSocketDiag s;
        s.local = PlatformAddress::toQt(r.local);
        s.localPort = r.localPort;
        s.remote = PlatformAddress::toQt(r.remote);
        s.remotePort = r.remotePort;
        s.inode = r.inode;
        s.sndMss = r.sndMss;
        s.rcvMss = r.rcvMss;
        s.advMss = r.advMss;
        s.rttUs = r.rttUs;
        s.totalRetrans = r.totalRetrans;
        s.timestamps = r.timestamps;
        out.append(s);
    }
    if (error)
        *error = QString::fromStdString(e);
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
