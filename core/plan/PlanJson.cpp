#include "PlanJson.h"

#include "Secrets.h"

#include <QJsonArray>

#include <algorithm>

namespace wb {

namespace {

// TestParams' whole numbers and their keys: written and read by one table.
struct IntParam
{
    const char *key;
    int TestParams::*member;
};
constexpr IntParam kIntParams[] = {
    {"duration_ms", &TestParams::durationMs},
    {"message_size", &TestParams::messageSize},
    {"send_buffer", &TestParams::sendBufferBytes},
    {"recv_buffer", &TestParams::recvBufferBytes},
    {"sample_interval_ms", &TestParams::sampleIntervalMs},
    {"warmup_ms", &TestParams::warmupMs},
    {"streams", &TestParams::streams},
    {"min_repetitions", &TestParams::minRepetitions},
};

} // namespace

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
    for (const IntParam &field : kIntParams)
        o[QLatin1String(field.key)] = p.*field.member;
    o[QLatin1String("file_size")] = double(p.fileSizeBytes);
    o[QLatin1String("stop_on_error")] = p.stopOnError;
    o[QLatin1String("stable_target_percent")] = p.stableTargetPercent;
    o[QLatin1String("options")] = QJsonObject::fromVariantMap(Secrets::without(p.options));
    return o;
}

TestParams PlanJson::paramsFromJson(const QJsonObject &o)
{
    TestParams p;
    for (const IntParam &field : kIntParams)
        p.*field.member = o.value(QLatin1String(field.key)).toInt(p.*field.member);
    p.fileSizeBytes = qint64(o.value(QLatin1String("file_size")).toDouble(double(p.fileSizeBytes)));
    p.stopOnError = o.value(QLatin1String("stop_on_error")).toBool(p.stopOnError);
    p.stableTargetPercent = o.value(QLatin1String("stable_target_percent")).toDouble(p.stableTargetPercent);
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
    // Which hosts answer is asked where the plan runs (the editor, the check before the first run), not kept.
    o[QLatin1String("reference_streams")] = plan.referenceStreams;
    o[QLatin1String("reference_ms")] = plan.referenceMs;
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
    plan.referenceStreams = o.value(QLatin1String("reference_streams")).toBool();
    plan.referenceMs = std::clamp(o.value(QLatin1String("reference_ms")).toInt(TestPlan::kReferenceMs),
                                  TestPlan::kReferenceMinMs, TestPlan::kReferenceMaxMs);
    plan.params = paramsFromJson(o.value(QLatin1String("params")).toObject());
    return plan;
}

} // namespace wb
