#pragma once

#include "storage/StoreTypes.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace wb::historytext {

/// "2024-05-01 14:03 (#12)", or the import's title with its id.
inline QString sessionLabel(const SessionInfo &info)
{
    const QString date = info.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    if (!info.title.isEmpty())
        return QStringLiteral("%1 %2 (#%3)").arg(date, info.title).arg(info.id);
    return QStringLiteral("%1 (#%2)").arg(date).arg(info.id);
}

inline QString hostsText(const SessionInfo &info)
{
    QStringList parts;
    for (const Host &h : info.hosts)
        parts << (h.osLabel.isEmpty() ? h.displayName() : QStringLiteral("%1 (%2)").arg(h.displayName(), h.osLabel));
    return parts.join(QStringLiteral(", "));
}

inline QString framesText(const SessionInfo &info)
{
    QStringList parts;
    for (int f : info.frameSizes)
        parts << QString::number(f);
    return parts.isEmpty() ? QString() : parts.join(QStringLiteral(", ")) + QStringLiteral(" B");
}

} // namespace wb::historytext
