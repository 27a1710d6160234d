#include "SessionQuery.h"

#include "StoreRows.h"
#include "plan/PlanJson.h"

#include <QHash>
#include <QSqlQuery>

namespace wb {

namespace {

// The session's plan as PlanJson reads it: a text that is not a JSON object reads as an empty plan.
const char kPlan[] = "(CASE WHEN json_valid(sessions.plan_json) AND json_type(sessions.plan_json) = 'object'"
                     " THEN sessions.plan_json ELSE '{}' END)";

QString planArray(const char *key)
{
    return QStringLiteral("json_type(%1, '$.%2') = 'array'").arg(QLatin1String(kPlan), QLatin1String(key));
}

QString planValues(const char *key)
{
    return QStringLiteral("json_each(%1, '$.%2')").arg(QLatin1String(kPlan), QLatin1String(key));
}

// A session's protocols: the plan's, then any others its runs used (so SessionInfo::protocols).
QString protocolIs()
{
    return QStringLiteral("((%1 AND EXISTS (SELECT 1 FROM %2 WHERE type = 'text' AND value = ?))"
                          " OR EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id AND runs.protocol = ?))")
        .arg(planArray("protocols"), planValues("protocols"));
}

// The sessions already read, by id: their hosts and runs are read without the filter running again (a search
// that reads the whole store would otherwise read it three times).
QString idList(const SessionInfoList &sessions)
{
    QStringList ids;
    ids.reserve(sessions.size());
    for (const SessionInfo &s : sessions)
        ids << QString::number(s.id);
    return ids.join(QLatin1Char(','));
}

} // namespace

SessionQuery SessionQuery::withId(qint64 sessionId)
{
    SessionQuery q;
    q.require(QStringLiteral("sessions.id = ?"), {sessionId});
    return q;
}

SessionQuery SessionQuery::matching(const SessionFilter &filter)
{
    SessionQuery q;
    if (filter.from.isValid())
        q.require(QStringLiteral("sessions.started_at >= ?"), {StoreRows::isoUtc(filter.from)});
    if (filter.to.isValid())
        q.require(QStringLiteral("sessions.started_at < ?"), {StoreRows::isoUtc(filter.to)});
    if (!filter.states.isEmpty()) {
        QStringList marks;
        QVariantList names;
        for (SessionState s : filter.states) {
            marks << QStringLiteral("?");
            names << sessionStateName(s);
        }
        q.require(QStringLiteral("sessions.state IN (%1)").arg(marks.join(QLatin1Char(','))), names);
    }
    if (!filter.protocol.isEmpty())
        q.require(protocolIs(), {filter.protocol, filter.protocol});
    if (filter.frameSize > 0) {
        // A plan without frame sizes has TestPlan's default ones.
        QStringList defaults;
        for (int f : TestPlan().frameSizes)
            defaults << QString::number(f);
        q.require(QStringLiteral("((CASE WHEN json_type(%1, '$.frame_sizes') IS NULL THEN ? IN (%2) ELSE %3 AND"
                                 " EXISTS (SELECT 1 FROM %4 WHERE type IN ('integer', 'real') AND value = ?) END)"
                                 " OR EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id"
                                 " AND runs.frame_size = ?))")
                      .arg(QLatin1String(kPlan), defaults.join(QLatin1Char(',')), planArray("frame_sizes"),
                           planValues("frame_sizes")),
                  {filter.frameSize, filter.frameSize, filter.frameSize});
    }
    if (!filter.host.isEmpty())
        q.require(QStringLiteral("EXISTS (SELECT 1 FROM session_hosts h WHERE h.session_id = sessions.id"
                                 " AND (wb_same(h.name, ?) OR wb_same(h.address, ?)))"),
                  {filter.host, filter.host});
    q.addTextFilter(filter.text.trimmed());
    q.m_limit = filter.limit;
    return q;
}

// The text is looked for in the title, uuid, machine, state, protocols and the hosts' names, addresses and OS.
void SessionQuery::addTextFilter(const QString &text)
{
    if (text.isEmpty())
        return;
    // wb_contains (StoreFunctions): case-insensitive in every script, as QString::contains.
    const QString clause =
        QStringLiteral("(wb_contains(sessions.title, ?) OR wb_contains(sessions.uuid, ?)"
                       " OR wb_contains(sessions.machine_hostname, ?) OR wb_contains(sessions.state, ?)"
                       " OR (%1 AND EXISTS (SELECT 1 FROM %2 WHERE type = 'text' AND wb_contains(value, ?)))"
                       " OR EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id AND wb_contains(runs.protocol, ?))"
                       " OR EXISTS (SELECT 1 FROM session_hosts h WHERE h.session_id = sessions.id"
                       " AND (wb_contains(h.name, ?) OR wb_contains(h.address, ?) OR wb_contains(h.os, ?))))")
            .arg(planArray("protocols"), planValues("protocols"));
    QVariantList binds;
    for (int i = 0; i < 9; ++i)
        binds << text;
    require(clause, binds);
}

void SessionQuery::require(const QString &clause, const QVariantList &binds)
{
    m_where << clause;
    m_binds += binds;
}

QString SessionQuery::whereClause() const
{
    return m_where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + m_where.join(QStringLiteral(" AND "));
}

QString SessionQuery::selectedIds() const
{
    QString sql = QStringLiteral("SELECT sessions.id FROM sessions") + whereClause();
    sql += QStringLiteral(" ORDER BY sessions.started_at DESC, sessions.id DESC");
    if (m_limit > 0)
        sql += QStringLiteral(" LIMIT %1").arg(m_limit);
    return sql;
}

bool SessionQuery::run(QSqlDatabase &db, SessionInfoList *out, QString *error) const
{
    out->clear();
    if (!readSessions(db, out, error))
        return false;
    if (out->isEmpty())
        return true;
    if (!readHosts(db, out, error) || !readRunCounts(db, out, error)) {
        out->clear();
        return false;
    }
    return true;
}

bool SessionQuery::count(QSqlDatabase &db, qint64 *n, QString *error) const
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM sessions") + whereClause());
    for (const QVariant &b : m_binds)
        q.addBindValue(b);
    if (!q.exec() || !q.next()) {
        *error = QStringLiteral("cannot count sessions (%1)").arg(StoreRows::sqlError(q));
        return false;
    }
    *n = q.value(0).toLongLong();
    return true;
}

bool SessionQuery::readSessions(QSqlDatabase &db, SessionInfoList *out, QString *error) const
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id, uuid, started_at, ended_at, state, plan_json, machine_hostname, machine_os,"
                             " wirebench_version, title FROM sessions WHERE id IN (%1)"
                             " ORDER BY started_at DESC, id DESC")
                  .arg(selectedIds()));
    for (const QVariant &b : m_binds)
        q.addBindValue(b);
    if (!q.exec()) {
        *error = QStringLiteral("cannot list sessions (%1)").arg(StoreRows::sqlError(q));
        return false;
    }
    while (q.next()) {
        SessionInfo s;
        s.id = q.value(0).toLongLong();
        s.uuid = q.value(1).toString();
        s.startedAt = StoreRows::fromIso(q.value(2).toString());
        s.endedAt = StoreRows::fromIso(q.value(3).toString());
        s.state = sessionStateFromName(q.value(4).toString());
        s.plan = PlanJson::planFromJson(StoreRows::jsonObject(q.value(5).toString()));
        s.machineHostname = q.value(6).toString();
        s.machineOs = q.value(7).toString();
        s.wirebenchVersion = q.value(8).toString();
        s.title = q.value(9).toString();
        s.protocols = s.plan.protocols;
        s.frameSizes = s.plan.frameSizes;
        s.plannedRuns = s.plan.runCount();
        out->append(s);
    }
    return true;
}

bool SessionQuery::readHosts(QSqlDatabase &db, SessionInfoList *out, QString *error) const
{
    QHash<qint64, qsizetype> at;
    for (qsizetype i = 0; i < out->size(); ++i)
        at.insert(out->at(i).id, i);
    QSqlQuery h(db);
    h.prepare(QStringLiteral("SELECT session_id, %1 FROM session_hosts WHERE session_id IN (%2)"
                             " ORDER BY session_id, position")
                  .arg(StoreRows::hostColumns(), idList(*out)));
    if (!h.exec()) {
        *error = QStringLiteral("cannot list hosts (%1)").arg(StoreRows::sqlError(h));
        return false;
    }
    while (h.next()) {
        const auto it = at.constFind(h.value(0).toLongLong());
        if (it != at.constEnd())
            (*out)[*it].hosts.append(StoreRows::hostAt(h, 1));
    }
    return true;
}

// Protocols and frame sizes the runs used beyond the plan's, and how many runs are stored, ok and done.
bool SessionQuery::readRunCounts(QSqlDatabase &db, SessionInfoList *out, QString *error) const
{
    QHash<qint64, qsizetype> at;
    for (qsizetype i = 0; i < out->size(); ++i)
        at.insert(out->at(i).id, i);
    QSqlQuery r(db);
    r.prepare(QStringLiteral("SELECT session_id, protocol, frame_size, COUNT(*), SUM(status = 'ok'),"
                             " SUM(status IN ('ok', 'failed')) FROM runs WHERE session_id IN (%1)"
                             " GROUP BY session_id, protocol, frame_size ORDER BY MIN(id)")
                  .arg(idList(*out)));
    if (!r.exec()) {
        *error = QStringLiteral("cannot count runs (%1)").arg(StoreRows::sqlError(r));
        return false;
    }
    while (r.next()) {
        const auto it = at.constFind(r.value(0).toLongLong());
        if (it == at.constEnd())
            continue;
        SessionInfo &s = (*out)[*it];
        const QString protocol = r.value(1).toString();
        const int frame = r.value(2).toInt();
        if (!s.protocols.contains(protocol))
            s.protocols.append(protocol);
        if (!s.frameSizes.contains(frame))
            s.frameSizes.append(frame);
        s.runCount += r.value(3).toInt();
        s.okRuns += r.value(4).toInt();
        s.doneRuns += r.value(5).toInt();
    }
    return true;
}

} // namespace wb
