#include "StoreTypes.h"

namespace wb {

QString sessionStateName(SessionState state)
{
    switch (state) {
    case SessionState::Running:
        return QStringLiteral("running");
    case SessionState::Finished:
        return QStringLiteral("finished");
    case SessionState::Cancelled:
        return QStringLiteral("cancelled");
    case SessionState::Interrupted:
        return QStringLiteral("interrupted");
    }
    return QStringLiteral("interrupted");
}

SessionState sessionStateFromName(const QString &name, bool *ok)
{
    static const SessionState all[]
        = {SessionState::Running, SessionState::Finished, SessionState::Cancelled, SessionState::Interrupted};
    for (SessionState s : all) {
        if (sessionStateName(s) == name) {
            if (ok)
                *ok = true;
            return s;
        }
    }
    if (ok)
        *ok = false;
    return SessionState::Interrupted;
}

QStringList SessionInfo::hostNames() const
{
    QStringList names;
    for (const Host &h : hosts)
        names << h.displayName();
    return names;
}

} // namespace wb
