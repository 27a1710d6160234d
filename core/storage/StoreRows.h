#pragma once

#include "model/Host.h"
#include "model/RunResult.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QString>
#include <QVariant>

class QSqlQuery;

namespace wb {

/// How values become the store's columns and back: the bindings and readers that the schema's migration and
/// the store's queries share, so that a host or a run is written and read in one place.
class StoreRows
{
public:
    /// A null QString binds as SQL NULL; the text columns are NOT NULL DEFAULT ''.
    static QVariant str(const QString &s);
    static QVariant nullIfEmpty(const QString &s);
    static QString isoUtc(const QDateTime &t);
    static QDateTime fromIso(const QString &s);
    static QString jsonText(const QJsonObject &o);
    static QString jsonText(const QJsonArray &a);
    static QJsonObject jsonObject(const QString &text);
    static QString sqlError(const QSqlQuery &q);

    /// One row of session_hosts (the host as it was, secrets removed).
    static bool insertHost(QSqlDatabase &db, qint64 sessionId, int position, const Host &host, QString *error);
    /// The columns of session_hosts that hostAt() reads, in its order.
    static QString hostColumns();
    /// The host in the query's current row, its columns (hostColumns()) starting at `first`.
    static Host hostAt(const QSqlQuery &q, int first);

    /// One row of runs; returns the run's id, or 0 with the reason in *error.
    static qint64 insertRun(QSqlDatabase &db, qint64 sessionId, const RunResult &r, QString *error);
    /// The columns of runs that runAt() reads, in its order (the run's id first).
    static QString runColumns();
    /// The run in the query's current row (without samples); `hosts` are the session's, whose settings it takes.
    static RunResult runAt(const QSqlQuery &q, const QList<Host> &hosts);
    /// A run of both directions at once: its second figure (schema version 3's reverse_* columns).
    static bool insertReverse(QSqlDatabase &db, qint64 runId, const RunResult::Reverse &reverse, QString *error);
    /// The second figure of the run at q (runColumns), or none for a run of one direction.
    static std::optional<RunResult::Reverse> reverseAt(const QSqlQuery &q, int runIndex);
    /// A run's latency under load (schema version 4's latency_* columns); nothing to write for a run without a probe.
    static bool updateLatency(QSqlDatabase &db, qint64 runId, const RunLatency &latency, QString *error);
    /// The latency of the run at q (runColumns); empty for a run without a probe.
    static RunLatency latencyAt(const QSqlQuery &q, int runIndex);
};

} // namespace wb
