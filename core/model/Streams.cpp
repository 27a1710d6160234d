#include "Streams.h"

#include <QStringList>

namespace wb {

QString Streams::label(int streams)
{
    return streams == 1 ? QStringLiteral("1 stream") : QStringLiteral("%1 streams").arg(streams);
}

int Streams::of(const RunResult &result)
{
    return qMax(1, result.extra.value(QStringLiteral("streams"), 1).toInt());
}

QString Streams::silentProblem(const QList<qint64> &bytesPerStream)
{
    QStringList silent;
    for (qsizetype i = 0; i < bytesPerStream.size(); ++i) {
        if (bytesPerStream.at(i) <= 0)
            silent << QString::number(i + 1);
    }
    if (bytesPerStream.size() < 2 || silent.isEmpty())
        return {};
    const QString which = silent.size() == 1
        ? QStringLiteral("stream %1 of %2 carried no").arg(silent.first()).arg(bytesPerStream.size())
        : silent.size() == bytesPerStream.size()
        ? QStringLiteral("none of the %1 streams carried").arg(bytesPerStream.size())
        : QStringLiteral("streams %1 and %2 of %3 carried no")
              .arg(silent.mid(0, silent.size() - 1).join(QStringLiteral(", ")), silent.last())
              .arg(bytesPerStream.size());
    return QStringLiteral("%1 data in the time all streams shared (nothing arrived on it, or it ended before the "
                          "last one began), so there is no figure: a firewall, NAT or the server may limit "
                          "connections per client; try fewer streams, or check the server's log")
        .arg(which);
}

} // namespace wb
