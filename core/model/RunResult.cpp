#include "RunResult.h"

namespace wb {

QString runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok:
        return QStringLiteral("ok");
    case RunStatus::Failed:
        return QStringLiteral("failed");
    case RunStatus::Cancelled:
        return QStringLiteral("cancelled");
    case RunStatus::NotRun:
        return QStringLiteral("not-run");
    }
    return QStringLiteral("failed");
}

RunStatus runStatusFromName(const QString &name)
{
    if (name == QLatin1String("ok"))
        return RunStatus::Ok;
    if (name == QLatin1String("cancelled"))
        return RunStatus::Cancelled;
    if (name == QLatin1String("not-run"))
        return RunStatus::NotRun;
    return RunStatus::Failed;
}

} // namespace wb
