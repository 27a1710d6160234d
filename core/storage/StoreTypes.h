#pragma once

#include "model/Host.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace wb {

/// Life of a stored session. `Interrupted` = the app died while it was `Running` (set at the next open).
enum class SessionState { Running, Finished, Cancelled, Interrupted };

QString sessionStateName(SessionState state); ///< "running", "finished", "cancelled", "interrupted"
SessionState sessionStateFromName(const QString &name, bool *ok = nullptr);

/// One stored session as the history list shows it.
struct SessionInfo
{
    qint64 id = 0;
    QString uuid;
    QDateTime startedAt; ///< UTC
    QDateTime endedAt;   ///< UTC; invalid while running or when interrupted before any run
    SessionState state = SessionState::Running;
    QString title;           ///< empty for measured sessions; "iperf3 import: file.json" for imports
    QList<Host> hosts;       ///< the hosts as they were (secrets removed)
    QStringList protocols;   ///< planned ones first, then any others found in the runs
    QList<int> frameSizes;   ///< idem, in bytes
    int runCount = 0;        ///< runs stored
    int okRuns = 0;          ///< of which status ok
    int doneRuns = 0;        ///< of which ok or failed (not cancelled mid-run, not "not run")
    int plannedRuns = 0;     ///< TestPlan::runCount() of the plan
    QString machineHostname; ///< the machine that ran the plan
    QString machineOs;       ///< QSysInfo::prettyProductName() there
    QString wirebenchVersion;
    TestPlan plan; ///< the plan as it was run (secrets removed)

    QStringList hostNames() const;
};

using SessionInfoList = QList<SessionInfo>;

/// A stored run with the session it belongs to (ResultStore::runsBetween).
struct StoredRun
{
    qint64 sessionId = 0;
    RunResult run; ///< without samples; the host as the run named it (name, address, port, server type, OS label)
};

using StoredRunList = QList<StoredRun>;

/// What the history panel asks for. Empty fields do not filter.
struct SessionFilter
{
    QString text;               ///< case-insensitive substring of host name/address/OS, protocol, title, uuid
    QList<SessionState> states; ///< any of these
    QString protocol;           ///< exact protocol id
    int frameSize = 0;          ///< sessions that include this frame size
    QString host;               ///< host name or address (exact, case-insensitive)
    QDateTime from;             ///< started at or after
    QDateTime to;               ///< started before
    int limit = 0;              ///< 0 = all; newest first
};

} // namespace wb

Q_DECLARE_METATYPE(wb::SessionInfo)
Q_DECLARE_METATYPE(wb::SessionInfoList)
