#include "StoreRows.h"

#include "StoreDialect.h"
#include "plan/PlanJson.h"
#include "plan/Secrets.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace wb {

QVariant StoreRows::str(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

QVariant StoreRows::nullIfEmpty(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

QString StoreRows::isoUtc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime StoreRows::fromIso(const QString &s)
{
    if (s.isEmpty())
        return QDateTime();
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : t;
}

QString StoreRows::jsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString StoreRows::jsonText(const QJsonArray &a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QJsonObject StoreRows::jsonObject(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

QString StoreRows::sqlError(const QSqlQuery &q)
{
    return q.lastError().text().simplified();
}

bool StoreRows::insertHost(QSqlDatabase &db, qint64 sessionId, int position, const Host &host, QString *error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO session_hosts (session_id, position, name, address, port, os, server_type,"
                             " link_speed_Mbps, embedded, options_json) VALUES (?,?,?,?,?,?,?,?,?,?)"));
    q.addBindValue(sessionId);
    q.addBindValue(position);
    q.addBindValue(str(host.name));
    q.addBindValue(str(host.address));
    q.addBindValue(int(host.port));
    q.addBindValue(str(host.osLabel));
    q.addBindValue(str(host.serverType));
    q.addBindValue(host.linkSpeedMbps);
    q.addBindValue(host.embedded ? 1 : 0);
    q.addBindValue(jsonText(QJsonObject::fromVariantMap(Secrets::without(host.options))));
    if (!q.exec()) {
        *error = sqlError(q);
        return false;
    }
    return true;
}

QString StoreRows::hostColumns()
{
    return QStringLiteral("name, address, port, os, server_type, link_speed_Mbps, embedded, options_json");
}

Host StoreRows::hostAt(const QSqlQuery &q, int first)
{
    Host host;
    host.name = q.value(first).toString();
    host.address = q.value(first + 1).toString();
    host.port = quint16(q.value(first + 2).toUInt());
    host.osLabel = q.value(first + 3).toString();
    host.serverType = q.value(first + 4).toString();
    host.linkSpeedMbps = q.value(first + 5).toDouble();
    host.embedded = q.value(first + 6).toInt() != 0;
    host.options = jsonObject(q.value(first + 7).toString()).toVariantMap();
    return host;
}

qint64 StoreRows::insertRun(QSqlDatabase &db, qint64 sessionId, const RunResult &r, QString *error)
{
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral(
            "INSERT INTO runs (session_id, run_index, host, address, port, server_type, os, server_os, protocol,"
            " frame_size, mss, repetition, bytes, seconds, sender_bytes, throughput_MBps, status, error, warnings_json,"
            " started_at, params_json, extra_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        + StoreDialect::returningId(StoreDialect::of(db)));
    q.addBindValue(sessionId);
    q.addBindValue(r.spec.index);
    q.addBindValue(str(r.spec.host.name));
    q.addBindValue(str(r.spec.host.address));
    q.addBindValue(int(r.spec.host.port));
    q.addBindValue(str(r.spec.host.serverType));
    q.addBindValue(str(r.spec.host.osLabel));
    q.addBindValue(str(r.serverOs));
    q.addBindValue(str(r.spec.protocol));
    q.addBindValue(r.spec.frameSize);
    q.addBindValue(r.mss);
    q.addBindValue(r.spec.repetition);
    q.addBindValue(r.bytes);
    q.addBindValue(r.seconds);
    q.addBindValue(r.senderBytes);
    q.addBindValue(r.megabytesPerSecond());
    q.addBindValue(runStatusName(r.status));
    q.addBindValue(str(r.error));
    q.addBindValue(jsonText(QJsonArray::fromStringList(r.warnings)));
    q.addBindValue(nullIfEmpty(isoUtc(r.startedAt)));
    q.addBindValue(jsonText(PlanJson::paramsToJson(r.spec.params)));
    q.addBindValue(jsonText(QJsonObject::fromVariantMap(r.extra)));
    if (!q.exec()) {
        *error = sqlError(q);
        return 0;
    }
    const qint64 runId = StoreDialect::insertedId(StoreDialect::of(db), q);
    if (runId <= 0) {
        *error = QStringLiteral("the database gave the run no id");
        return 0;
    }
    if (r.reverse && !insertReverse(db, runId, *r.reverse, error))
        return 0;
    if (!updateLatency(db, runId, r.latency, error))
        return 0;
    QSqlQuery s(db);
    s.prepare(QStringLiteral("INSERT INTO samples (run_id, end_seconds, interval_seconds, bytes) VALUES (?,?,?,?)"));
    for (const Sample &sample : r.samples) {
        s.bindValue(0, runId);
        s.bindValue(1, sample.endSeconds);
        s.bindValue(2, sample.intervalSeconds);
        s.bindValue(3, sample.bytes);
        if (!s.exec()) {
            *error = sqlError(s);
            return 0;
        }
    }
    return runId;
}

bool StoreRows::insertReverse(QSqlDatabase &db, qint64 runId, const RunResult::Reverse &reverse, QString *error)
{
    QJsonArray samples;
    for (const Sample &sample : reverse.samples)
        samples.append(QJsonArray{sample.endSeconds, sample.intervalSeconds, double(sample.bytes)});
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE runs SET reverse_bytes = ?, reverse_seconds = ?, reverse_sender_bytes = ?,"
                             " reverse_throughput_MBps = ?, reverse_samples_json = ? WHERE id = ?"));
    q.addBindValue(reverse.bytes);
    q.addBindValue(reverse.seconds);
    q.addBindValue(reverse.senderBytes);
    q.addBindValue(reverse.megabytesPerSecond());
    q.addBindValue(jsonText(samples));
    q.addBindValue(runId);
    if (!q.exec()) {
        *error = sqlError(q);
        return false;
    }
    return true;
}

bool StoreRows::updateLatency(QSqlDatabase &db, qint64 runId, const RunLatency &latency, QString *error)
{
    if (latency.method.isEmpty() && latency.note.isEmpty())
        return true;
    const auto figure
        = [](double ms, bool valid) { return valid ? QVariant(ms) : QVariant(QMetaType(QMetaType::Double)); };
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("UPDATE runs SET latency_method = ?, latency_idle_median_ms = ?, latency_loaded_median_ms = ?,"
                       " latency_loaded_p99_ms = ?, latency_added_ms = ?, latency_json = ? WHERE id = ?"));
    q.addBindValue(latency.method);
    q.addBindValue(figure(latency.idle.medianMs, latency.idle.valid()));
    q.addBindValue(figure(latency.loaded.medianMs, latency.loaded.valid()));
    q.addBindValue(figure(latency.loaded.p99Ms, latency.loaded.valid()));
    q.addBindValue(figure(latency.increaseMs(), latency.measured()));
    q.addBindValue(jsonText(latency.toJson()));
    q.addBindValue(runId);
    if (!q.exec()) {
        *error = sqlError(q);
        return false;
    }
    return true;
}

RunLatency StoreRows::latencyAt(const QSqlQuery &q, int runIndex)
{
    if (q.value(25).isNull())
        return {};
    return RunLatency::fromJson(jsonObject(q.value(25).toString()), runIndex);
}

QString StoreRows::runColumns()
{
    return QStringLiteral("id, run_index, host, address, port, server_type, os, server_os, protocol, frame_size, mss,"
                          " repetition, bytes, seconds, sender_bytes, status, error, warnings_json, started_at,"
                          " params_json, extra_json, reverse_bytes, reverse_seconds, reverse_sender_bytes,"
                          " reverse_samples_json, latency_json");
}

std::optional<RunResult::Reverse> StoreRows::reverseAt(const QSqlQuery &q, int runIndex)
{
    if (q.value(21).isNull())
        return std::nullopt;
    RunResult::Reverse reverse;
    reverse.bytes = q.value(21).toLongLong();
    reverse.seconds = q.value(22).toDouble();
    reverse.senderBytes = q.value(23).toLongLong();
    for (const QJsonValue &v : QJsonDocument::fromJson(q.value(24).toString().toUtf8()).array()) {
        const QJsonArray a = v.toArray();
        if (a.size() >= 3)
            reverse.samples.append(
                Sample{runIndex, a.at(0).toDouble(), a.at(1).toDouble(), qint64(a.at(2).toDouble())});
    }
    return reverse;
}

RunResult StoreRows::runAt(const QSqlQuery &q, const QList<Host> &hosts)
{
    RunResult r;
    r.spec.index = q.value(1).toInt();
    Host host;
    host.name = q.value(2).toString();
    host.address = q.value(3).toString();
    for (const Host &known : hosts) {
        if (known.name == host.name && known.address == host.address) {
            host = known;
            break;
        }
    }
    host.port = quint16(q.value(4).toUInt());
    if (!q.value(5).toString().isEmpty())
        host.serverType = q.value(5).toString();
    host.osLabel = q.value(6).toString(); // the label as it was when this run ran
    r.spec.host = host;
    r.serverOs = q.value(7).toString();
    r.spec.protocol = q.value(8).toString();
    r.spec.frameSize = q.value(9).toInt();
    r.mss = q.value(10).toInt();
    r.spec.repetition = q.value(11).toInt();
    r.bytes = q.value(12).toLongLong();
    r.seconds = q.value(13).toDouble();
    r.senderBytes = q.value(14).toLongLong();
    r.status = runStatusFromName(q.value(15).toString());
    r.error = q.value(16).toString();
    for (const QJsonValue &w : QJsonDocument::fromJson(q.value(17).toString().toUtf8()).array())
        r.warnings.append(w.toString());
    r.startedAt = fromIso(q.value(18).toString());
    r.spec.params = PlanJson::paramsFromJson(jsonObject(q.value(19).toString()));
    r.extra = jsonObject(q.value(20).toString()).toVariantMap();
    r.reverse = reverseAt(q, r.spec.index);
    r.latency = latencyAt(q, r.spec.index);
    return r;
}

} // namespace wb
