#include "SessionQuery.h"

#include "SessionSearch.h"
#include "StoreDialect.h"
#include "StoreRows.h"
#include "plan/PlanJson.h"

#include <QHash>
#include <QSqlQuery>

namespace wb {

namespace {

// A session's protocols: the plan's, then any others its runs used (so SessionInfo::protocols).
QString protocolIs(StoreDialect::Kind k)
{
    return QStringLiteral("((%1 AND EXISTS (SELECT 1 FROM %2 WHERE type = 'text' AND value = ?))"
                          " OR EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id AND runs.protocol = ?))")
        .arg(StoreDialect::planIsArray(k, "protocols"), StoreDialect::planValues(k, "protocols"));
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
    SessionQuery q; // its WHERE is portable
    q.require(QStringLiteral("sessions.id = ?"), {sessionId});
    return q;
}

SessionQuery SessionQuery::matching(const SessionFilter &filter, StoreDialect::Kind k)
{
    SessionQuery q;
    q.m_kind = k;
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
        q.require(protocolIs(k), {filter.protocol, filter.protocol});
    if (filter.frameSize > 0) {
        // A plan without frame sizes has TestPlan's default ones.
        QStringList defaults;
        for (int f : TestPlan().frameSizes)
            defaults << QString::number(f);
        q.require(QStringLiteral("((CASE WHEN %1 THEN ? IN (%2) ELSE %3 AND"
                                 " EXISTS (SELECT 1 FROM %4 WHERE type IN ('integer', 'real') AND value = ?) END)"
                                 " OR EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id"
                                 " AND runs.frame_size = ?))")
                      .arg(StoreDialect::planLacks(k, "frame_sizes"), defaults.join(QLatin1Char(',')),
                           StoreDialect::planIsArray(k, "frame_sizes"), StoreDialect::planValues(k, "frame_sizes")),
                  {filter.frameSize, filter.frameSize, filter.frameSize});
    }
    if (!filter.host.isEmpty())
        q.require(QStringLiteral("EXISTS (SELECT 1 FROM session_hosts h WHERE h.session_id = sessions.id"
                                 " AND (%1 OR %2))")
                      .arg(StoreDialect::same(k, QStringLiteral("h.name")),
                           StoreDialect::same(k, QStringLiteral("h.address"))),
                  {filter.host, filter.host});
    q.m_text = filter.text.trimmed();
    q.m_limit = filter.limit;
    return q;
}

// The text is looked for in the title, uuid, machine, state, protocols and the hosts' names, addresses and OS:
// through the search index (SessionSearch), whose text holds them a line each, or, for a text that holds a line break
// (which could span two of them there), in each.
bool SessionQuery::withText(QSqlDatabase &db, SessionQuery *out, QString *error) const
{
    *out = *this;
    if (m_text.isEmpty())
        return true;
    if (m_text.contains(QLatin1Char('\n'))) {
        out->addFieldsFilter(m_text);
        return true;
    }
    QString clause;
    QVariantList binds;
    if (!SessionSearch::condition(db, m_text, &clause, &binds, error))
        return false;
    out->require(clause, binds);
    return true;
}

void SessionQuery::addFieldsFilter(const QString &text)
{
    // Case-insensitive in every script, as QString::contains (StoreDialect::contains).
    auto has = [this](const char *column) { return StoreDialect::contains(m_kind, QLatin1String(column)); };
    const QString clause
        = QStringLiteral("(%1 OR %2 OR %3 OR %4"
                         " OR (%5 AND EXISTS (SELECT 1 FROM %6 WHERE type = 'text' AND %7))"
                         " OR EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id AND %8)"
                         " OR EXISTS (SELECT 1 FROM session_hosts h WHERE h.session_id = sessions.id"
                         " AND (%9 OR %10 OR %11)))")
              .arg(has("sessions.title"), has("sessions.uuid"), has("sessions.machine_hostname"), has("sessions.state"),
                   StoreDialect::planIsArray(m_kind, "protocols"), StoreDialect::planValues(m_kind, "protocols"),
                   has("value"), has("runs.protocol"), has("h.name"))
              .arg(has("h.address"), has("h.os"));
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
    SessionQuery q;
    if (!withText(db, &q, error) || !q.readSessions(db, out, error))
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
    SessionQuery query;
    if (!withText(db, &query, error))
        return false;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM sessions") + query.whereClause());
    for (const QVariant &b : query.m_binds)
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
    r.prepare(
        QStringLiteral("SELECT session_id, protocol, frame_size, COUNT(*),"
                       " SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END),"
                       " SUM(CASE WHEN status IN ('ok', 'failed') THEN 1 ELSE 0 END) FROM runs WHERE session_id IN (%1)"
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
