#pragma once

#include "Host.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace wb {

/// One thing the check before a plan's first run found in the way of a host and protocol: nothing listening, a
/// refused login, no share set, a missing folder. Plain value type.
struct PreflightProblem
{
    Host host;        ///< as in the plan
    QString protocol; ///< protocol id
    QString fault;    ///< transferFaultName() of the cause, when known ("not_listening", "no_such_share", ...)
    QString message;  ///< one line: the host, what failed and what to fix

    bool operator==(const PreflightProblem &) const = default;
};

using PreflightProblemList = QList<PreflightProblem>;

} // namespace wb

Q_DECLARE_METATYPE(wb::PreflightProblem)
Q_DECLARE_METATYPE(wb::PreflightProblemList)
