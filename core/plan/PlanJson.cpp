#include "PlanJson.h"

#include "Secrets.h"

#include <QJsonArray>

namespace wb {

QJsonObject PlanJson::hostToJson(const Host &host)
{
    QJsonObject o;
    o[QLatin1String("name")] = host.name;
    o[QLatin1String("address")] = host.address;
    o[QLatin1String("port")] = int(host.port);
    o[QLatin1String("os")] = host.osLabel;
    o[QLatin1String("server_type")] = host.serverType;
    o[QLatin1String("link_speed_Mbps")] = host.linkSpeedMbps;
    o[QLatin1String("embedded")] = host.embedded;
    o[QLatin1String("options")] = QJsonObject::fromVariantMap(Secrets::without(host.options));
    return o;
}

Host PlanJson::hostFromJson(const QJsonObject &o)
{
    Host host;
    host.name = o.value(QLatin1String("name")).toString();
    host.address = o.value(QLatin1String("address")).toString().trimmed();
    const int port = o.value(QLatin1String("port")).toInt();
    host.port = port > 0 && port <= 65535 ? quint16(port) : 0;
    host.osLabel = o.value(QLatin1String("os")).toString();
    host.serverType = o.value(QLatin1String("server_type")).toString(host.serverType);
    host.linkSpeedMbps = qMax(0.0, o.value(QLatin1String("link_speed_Mbps")).toDouble());
    host.embedded = o.value(QLatin1String("embedded")).toBool();
    host.options = Secrets::without(o.value(QLatin1String("options")).toObject().toVariantMap());
    return host;
}

QJsonObject PlanJson::paramsToJson(const TestParams &p)
{
    QJsonObject o;
    o[QLatin1String("duration_ms")] = p.durationMs;
    o[QLatin1String("message_size")] = p.messageSize;
    o[QLatin1String("send_buffer")] = p.sendBufferBytes;
    o[QLatin1String("recv_buffer")] = p.recvBufferBytes;
    o[QLatin1String("sample_interval_ms")] = p.sampleIntervalMs;
    o[QLatin1String("warmup_ms")] = p.warmupMs;
    o[QLatin1String("streams")] = p.streams;
    o[QLatin1String("file_size")] = double(p.fileSizeBytes);
    o[QLatin1String("stop_on_error")] = p.stopOnError;
    o[QLatin1String("stable_target_percent")] = p.stableTargetPercent;
    o[QLatin1String("min_repetitions")] = p.minRepetitions;
    o[QLatin1String("options")] = QJsonObject::fromVariantMap(Secrets::without(p.options));
    return o;
}

TestParams PlanJson::paramsFromJson(const QJsonObject &o)
{
    TestParams p;
    p.durationMs = o.value(QLatin1String("duration_ms")).toInt(p.durationMs);
    p.messageSize = o.value(QLatin1String("message_size")).toInt(p.messageSize);
    p.sendBufferBytes = o.value(QLatin1String("send_buffer")).toInt(p.sendBufferBytes);
    p.recvBufferBytes = o.value(QLatin1String("recv_buffer")).toInt(p.recvBufferBytes);
    p.sampleIntervalMs = o.value(QLatin1String("sample_interval_ms")).toInt(p.sampleIntervalMs);
    p.warmupMs = o.value(QLatin1String("warmup_ms")).toInt(p.warmupMs);
    p.streams = o.value(QLatin1String("streams")).toInt(p.streams);
    p.fileSizeBytes = qint64(o.value(QLatin1String("file_size")).toDouble(double(p.fileSizeBytes)));
    p.stopOnError = o.value(QLatin1String("stop_on_error")).toBool(p.stopOnError);
    p.stableTargetPercent = o.value(QLatin1String("stable_target_percent")).toDouble(p.stableTargetPercent);
    p.minRepetitions = o.value(QLatin1String("min_repetitions")).toInt(p.minRepetitions);
    p.options = Secrets::without(o.value(QLatin1String("options")).toObject().toVariantMap());
    return p;
}

QJsonObject PlanJson::planToJson(const TestPlan &plan)
{
    QJsonArray hosts;
    for (const Host &host : plan.hosts)
        hosts.append(hostToJson(host));
    QJsonArray frames;
    for (int frame : plan.frameSizes)
        frames.append(frame);
    QJsonObject o;
    o[QLatin1String("hosts")] = hosts;
    o[QLatin1String("protocols")] = QJsonArray::fromStringList(plan.protocols);
    o[QLatin1String("frame_sizes")] = frames;
    o[QLatin1String("repetitions")] = plan.repetitions;
    o[QLatin1String("interleave_hosts")] = plan.interleaveHosts;
    o[QLatin1String("params")] = paramsToJson(plan.params);
    return o;
}

TestPlan PlanJson::planFromJson(const QJsonObject &o)
{
    TestPlan plan;
    plan.hosts.clear();
    for (const QJsonValue &v : o.value(QLatin1String("hosts")).toArray())
        plan.hosts.append(hostFromJson(v.toObject()));
    for (const QJsonValue &v : o.value(QLatin1String("protocols")).toArray())
        plan.protocols.append(v.toString());
    if (o.contains(QLatin1String("frame_sizes"))) {
        plan.frameSizes.clear();
        for (const QJsonValue &v : o.value(QLatin1String("frame_sizes")).toArray())
            plan.frameSizes.append(v.toInt());
    }
    plan.repetitions = o.value(QLatin1String("repetitions")).toInt(plan.repetitions);
    plan.interleaveHosts = o.value(QLatin1String("interleave_hosts")).toBool();
    plan.params = paramsFromJson(o.value(QLatin1String("params")).toObject());
    return plan;
}

} // namespace wb
