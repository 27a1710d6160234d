#include "JsonExport.h"

#include "analysis/Bottleneck.h"
#include "analysis/Bufferbloat.h"
#include "model/Frame.h"
#include "stats/TestSummary.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>

namespace wb {

namespace {

const QString kUnitNote = QStringLiteral(
    "throughput_MBps is 10^6 bytes/s, throughput_Mbps is 10^6 bits/s; summary values are MB/s (10^6 bytes/s); "
    "bytes and seconds are the receiver's count and elapsed time; latency figures are round trips in ms");

QString osOf(const RunResult &r)
{
    return r.spec.host.osLabel.isEmpty() ? r.serverOs : r.spec.host.osLabel;
}

qint64 int64Of(const QJsonValue &v)
{
    // JSON numbers are doubles; byte counts up to 2^53 survive that exactly.
    return v.isDouble() ? qint64(v.toDouble()) : v.toString().toLongLong();
}

QJsonArray samplesToJson(const SampleList &list)
{
    QJsonArray samples;
    for (const Sample &s : list)
        samples.append(QJsonArray{s.endSeconds, s.intervalSeconds, double(s.bytes)});
    return samples;
}

SampleList samplesFromJson(const QJsonValue &value, int runIndex)
{
    SampleList list;
    for (const QJsonValue &v : value.toArray()) {
        const QJsonArray a = v.toArray();
        if (a.size() < 3)
            continue;
        Sample s;
        s.runIndex = runIndex;
        s.endSeconds = a.at(0).toDouble();
        s.intervalSeconds = a.at(1).toDouble();
        s.bytes = int64Of(a.at(2));
        list.append(s);
    }
    return list;
}

/// A run of both directions at once: the second direction's figure (server -> client), as the first is written.
QJsonObject reverseToJson(const RunResult::Reverse &reverse, bool includeSamples)
{
    QJsonObject o;
    o.insert(QStringLiteral("bytes"), double(reverse.bytes));
    o.insert(QStringLiteral("seconds"), reverse.seconds);
    o.insert(QStringLiteral("sender_bytes"), double(reverse.senderBytes));
    o.insert(QStringLiteral("throughput_MBps"), reverse.megabytesPerSecond());
    o.insert(QStringLiteral("throughput_Mbps"), reverse.megabytesPerSecond() * 8);
    if (includeSamples)
        o.insert(QStringLiteral("samples"), samplesToJson(reverse.samples));
    return o;
}

} // namespace

const QStringList &JsonExport::resultKeys()
{
    static const QStringList keys{QStringLiteral("run_index"),
                                  QStringLiteral("host"),
                                  QStringLiteral("address"),
                                  QStringLiteral("port"),
                                  QStringLiteral("server_type"),
                                  QStringLiteral("os"),
                                  QStringLiteral("os_label"),
                                  QStringLiteral("server_os"),
                                  QStringLiteral("protocol"),
                                  QStringLiteral("frame_size"),
                                  QStringLiteral("mss"),
                                  QStringLiteral("repetition"),
                                  QStringLiteral("bytes"),
                                  QStringLiteral("seconds"),
                                  QStringLiteral("sender_bytes"),
                                  QStringLiteral("throughput_MBps"),
                                  QStringLiteral("throughput_Mbps"),
                                  QStringLiteral("status"),
                                  QStringLiteral("error"),
                                  QStringLiteral("warnings"),
                                  QStringLiteral("started_at"),
                                  QStringLiteral("duration_s"),
                                  QStringLiteral("message_size"),
                                  QStringLiteral("send_buffer"),
                                  QStringLiteral("recv_buffer"),
                                  QStringLiteral("samples"),
                                  QStringLiteral("reverse"),
                                  QStringLiteral("latency")};
    return keys;
}

QJsonObject JsonExport::runToJson(const RunResult &r, bool includeSamples)
{
    QJsonObject o;
    // Extra facts first, so that a schema key can never be overwritten by a driver's extra.
    for (auto it = r.extra.cbegin(); it != r.extra.cend(); ++it)
        o.insert(it.key(), QJsonValue::fromVariant(it.value()));
    o.insert(QStringLiteral("run_index"), r.spec.index);
    o.insert(QStringLiteral("host"), r.spec.host.displayName());
    o.insert(QStringLiteral("address"), r.spec.host.address);
    o.insert(QStringLiteral("port"), int(r.spec.host.port));
    o.insert(QStringLiteral("server_type"), r.spec.host.serverType);
    o.insert(QStringLiteral("os"), osOf(r));
    o.insert(QStringLiteral("os_label"), r.spec.host.osLabel);
    o.insert(QStringLiteral("server_os"), r.serverOs);
    o.insert(QStringLiteral("protocol"), r.spec.protocol);
    o.insert(QStringLiteral("frame_size"), r.spec.frameSize);
    o.insert(QStringLiteral("mss"), r.mss);
    o.insert(QStringLiteral("repetition"), r.spec.repetition);
    o.insert(QStringLiteral("bytes"), double(r.bytes));
    o.insert(QStringLiteral("seconds"), r.seconds);
    o.insert(QStringLiteral("sender_bytes"), double(r.senderBytes));
    o.insert(QStringLiteral("throughput_MBps"), r.megabytesPerSecond());
    o.insert(QStringLiteral("throughput_Mbps"), r.megabitsPerSecond());
    o.insert(QStringLiteral("status"), runStatusName(r.status));
    o.insert(QStringLiteral("error"), r.error);
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings));
    o.insert(QStringLiteral("started_at"),
             r.startedAt.isValid() ? r.startedAt.toUTC().toString(Qt::ISODateWithMs) : QString());
    o.insert(QStringLiteral("duration_s"), r.spec.params.durationMs / 1000.0);
    o.insert(QStringLiteral("message_size"), r.spec.params.messageSize);
    o.insert(QStringLiteral("send_buffer"), r.spec.params.sendBufferBytes);
    o.insert(QStringLiteral("recv_buffer"), r.spec.params.recvBufferBytes);
    if (includeSamples)
        o.insert(QStringLiteral("samples"), samplesToJson(r.samples));
    if (r.reverse)
        o.insert(QStringLiteral("reverse"), reverseToJson(*r.reverse, includeSamples));
    if (!r.latency.method.isEmpty() || !r.latency.note.isEmpty()) {
        QJsonObject latency = r.latency.toJson();
        if (!includeSamples)
            latency.remove(QStringLiteral("samples"));
        // The graded words (Bufferbloat): "good", "note" (5 to 30 ms) or "warning" (from 30 ms) and the sentence.
        if (const Bufferbloat::Grade grade = Bufferbloat::gradeOf(r.latency); grade != Bufferbloat::Grade::Unmeasured)
            latency.insert(QStringLiteral("grade"), Bufferbloat::gradeName(grade));
        if (const QString sentence = Bufferbloat::sentence(r.latency); !sentence.isEmpty())
            latency.insert(QStringLiteral("sentence"), sentence);
        o.insert(QStringLiteral("latency"), latency);
    }
    return o;
}

QJsonObject JsonExport::summaryToJson(const TestSummary &t, const RunResultList &testRuns)
{
    QJsonObject o;
    o.insert(QStringLiteral("host"), t.host.displayName());
    o.insert(QStringLiteral("address"), t.host.address);
    o.insert(QStringLiteral("port"), int(t.host.port));
    o.insert(QStringLiteral("os"), t.host.osLabel);
    o.insert(QStringLiteral("protocol"), t.protocol);
    o.insert(QStringLiteral("frame_size"), t.frameSize);
    o.insert(QStringLiteral("mss"), t.mss);
    o.insert(QStringLiteral("reps"), t.okRuns + t.failedRuns);
    o.insert(QStringLiteral("ok_runs"), t.okRuns);
    o.insert(QStringLiteral("unit"), QStringLiteral("MB/s"));
    o.insert(QStringLiteral("min"), t.MBps.min);
    o.insert(QStringLiteral("median"), t.MBps.median);
    o.insert(QStringLiteral("mean"), t.MBps.mean);
    o.insert(QStringLiteral("max"), t.MBps.max);
    o.insert(QStringLiteral("stddev"), t.MBps.stddev);
    o.insert(QStringLiteral("ci95"), t.MBps.ci95HalfWidth);
    o.insert(QStringLiteral("ci95_low"), t.MBps.ciLow());
    o.insert(QStringLiteral("ci95_high"), t.MBps.ciHigh());
    if (t.bothWays) { // the second figure, server -> client; the ones above are the send direction's
        QJsonObject reverse;
        reverse.insert(QStringLiteral("min"), t.reverseMBps.min);
        reverse.insert(QStringLiteral("median"), t.reverseMBps.median);
        reverse.insert(QStringLiteral("mean"), t.reverseMBps.mean);
        reverse.insert(QStringLiteral("max"), t.reverseMBps.max);
        reverse.insert(QStringLiteral("stddev"), t.reverseMBps.stddev);
        o.insert(QStringLiteral("reverse"), reverse);
    }
    o.insert(QStringLiteral("errors"), QJsonArray::fromStringList(t.errors));
    if (t.loadedLatencyMs.n > 0) { // medians of the runs' round-trip medians, ms
        const double added = t.loadedLatencyMs.median - t.idleLatencyMs.median;
        o.insert(QStringLiteral("latency"),
                 QJsonObject{{QStringLiteral("idle_median_ms"), t.idleLatencyMs.median},
                             {QStringLiteral("loaded_median_ms"), t.loadedLatencyMs.median},
                             {QStringLiteral("increase_ms"), added},
                             {QStringLiteral("runs"), t.loadedLatencyMs.n},
                             {QStringLiteral("grade"), Bufferbloat::gradeName(Bufferbloat::gradeOf(added))},
                             {QStringLiteral("text"), Bufferbloat::testFigures(t.idleLatencyMs, t.loadedLatencyMs)}});
    }
    if (t.okRuns > 0 && !testRuns.isEmpty()) {
        const Evidence evidence = Bottleneck::evidenceFrom(testRuns);
        o.insert(QStringLiteral("bottleneck"), Bottleneck::sentence(evidence));
        const double percent = evidence.percentOfCeiling();
        if (percent >= 0)
            o.insert(QStringLiteral("percent_of_ceiling"), percent);
        if (evidence.ceilingBytesPerSecond() > 0) // of the frame the MSS made, which frames_used names
            o.insert(QStringLiteral("ceiling_MBps"), evidence.ceilingBytesPerSecond() / 1e6);
    }
    if (!testRuns.isEmpty()) {
        QJsonArray used;
        for (int f : Frame::usedFrames(testRuns))
            used.append(f);
        o.insert(QStringLiteral("frames_used"), used);
    }
    return o;
}

QJsonObject JsonExport::toJsonObject(const RunResultList &results, const Options &options)
{
    QJsonObject meta;
    meta.insert(QStringLiteral("generator"), QStringLiteral("wirebench"));
    meta.insert(QStringLiteral("wirebench_version"), QStringLiteral(WIREBENCH_VERSION));
    meta.insert(QStringLiteral("schema_version"), kSchemaVersion);
    const QDateTime created = options.createdAt.isValid() ? options.createdAt : QDateTime::currentDateTimeUtc();
    meta.insert(QStringLiteral("created_at"), created.toUTC().toString(Qt::ISODateWithMs));
    meta.insert(QStringLiteral("unit_note"), kUnitNote);

    QJsonArray runs;
    for (const RunResult &r : results)
        runs.append(runToJson(r, options.includeSamples));
    QJsonArray summary;
    for (const TestSummary &t : TestSummary::build(results))
        summary.append(summaryToJson(t, t.runsOf(results)));

    QJsonObject root;
    root.insert(QStringLiteral("meta"), meta);
    root.insert(QStringLiteral("results"), runs);
    root.insert(QStringLiteral("summary"), summary);
    return root;
}

QByteArray JsonExport::toJson(const RunResultList &results, const Options &options)
{
    return QJsonDocument(toJsonObject(results, options))
        .toJson(options.indented ? QJsonDocument::Indented : QJsonDocument::Compact);
}

bool JsonExport::write(const QString &path, const RunResultList &results, const Options &options, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("cannot write the JSON file %1: %2; check the folder and its permissions")
                         .arg(path, file.errorString());
        return false;
    }
    file.write(toJson(results, options));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write the JSON file %1: %2; check the free space and permissions")
                         .arg(path, file.errorString());
        return false;
    }
    return true;
}

RunResult JsonExport::runFromJson(const QJsonObject &o)
{
    RunResult r;
    r.spec.index = o.value(QStringLiteral("run_index")).toInt();
    const QString address = o.value(QStringLiteral("address")).toString();
    const QString host = o.value(QStringLiteral("host")).toString();
    r.spec.host.address = address.isEmpty() ? host : address;
    // displayName() falls back to the address: keep the name empty when it was that fallback.
    r.spec.host.name = host == r.spec.host.address ? QString() : host;
    r.spec.host.port = quint16(qBound(0, o.value(QStringLiteral("port")).toInt(), 65535));
    if (o.contains(QStringLiteral("server_type")))
        r.spec.host.serverType = o.value(QStringLiteral("server_type")).toString();
    r.spec.host.osLabel = o.contains(QStringLiteral("os_label")) ? o.value(QStringLiteral("os_label")).toString()
                                                                 : o.value(QStringLiteral("os")).toString();
    r.serverOs = o.value(QStringLiteral("server_os")).toString();
    r.spec.protocol = o.value(QStringLiteral("protocol")).toString();
    r.spec.frameSize = o.value(QStringLiteral("frame_size")).toInt(1500);
    r.mss = o.value(QStringLiteral("mss")).toInt();
    r.spec.repetition = o.value(QStringLiteral("repetition")).toInt(1);
    r.bytes = int64Of(o.value(QStringLiteral("bytes")));
    r.seconds = o.value(QStringLiteral("seconds")).toDouble();
    r.senderBytes = int64Of(o.value(QStringLiteral("sender_bytes")));
    if (r.bytes == 0 && r.seconds > 0 && o.value(QStringLiteral("throughput_MBps")).toDouble() > 0) {
        // A hand-made or foreign file that gives only the rate: keep the figure.
        r.bytes = qint64(o.value(QStringLiteral("throughput_MBps")).toDouble() * 1e6 * r.seconds + 0.5);
    }
    r.status = runStatusFromName(o.value(QStringLiteral("status")).toString());
    r.error = o.value(QStringLiteral("error")).toString();
    for (const QJsonValue &w : o.value(QStringLiteral("warnings")).toArray())
        r.warnings.append(w.toString());
    const QString started = o.value(QStringLiteral("started_at")).toString();
    if (!started.isEmpty())
        r.startedAt = QDateTime::fromString(started, Qt::ISODateWithMs);
    if (o.contains(QStringLiteral("duration_s")))
        r.spec.params.durationMs = int(o.value(QStringLiteral("duration_s")).toDouble() * 1000 + 0.5);
    if (o.contains(QStringLiteral("message_size")))
        r.spec.params.messageSize = o.value(QStringLiteral("message_size")).toInt();
    r.spec.params.sendBufferBytes = o.value(QStringLiteral("send_buffer")).toInt();
    r.spec.params.recvBufferBytes = o.value(QStringLiteral("recv_buffer")).toInt();
    r.samples = samplesFromJson(o.value(QStringLiteral("samples")), r.spec.index);
    if (o.value(QStringLiteral("reverse")).isObject()) {
        const QJsonObject v = o.value(QStringLiteral("reverse")).toObject();
        RunResult::Reverse reverse;
        reverse.bytes = int64Of(v.value(QStringLiteral("bytes")));
        reverse.seconds = v.value(QStringLiteral("seconds")).toDouble();
        reverse.senderBytes = int64Of(v.value(QStringLiteral("sender_bytes")));
        reverse.samples = samplesFromJson(v.value(QStringLiteral("samples")), r.spec.index);
        r.reverse = reverse;
    }
    if (o.contains(QStringLiteral("latency")))
        r.latency = RunLatency::fromJson(o.value(QStringLiteral("latency")).toObject(), r.spec.index);
    const QStringList &known = resultKeys();
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (!known.contains(it.key()))
            r.extra.insert(it.key(), it.value().toVariant());
    }
    return r;
}

bool JsonExport::fromJson(const QByteArray &json, RunResultList *results, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull())
        return fail(
            QStringLiteral("not valid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    QJsonArray entries;
    if (doc.isArray()) {
        entries = doc.array();
    } else {
        const QJsonValue runs = doc.object().value(QStringLiteral("results"));
        if (!runs.isArray())
            return fail(QStringLiteral("not a Wirebench result file: it has no \"results\" array"));
        entries = runs.toArray();
    }
    RunResultList out;
    out.reserve(entries.size());
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (!entries.at(i).isObject())
            return fail(QStringLiteral("result entry %1 is not an object").arg(i));
        out.append(runFromJson(entries.at(i).toObject()));
    }
    if (results)
        *results = out;
    return true;
}

bool JsonExport::read(const QString &path, RunResultList *results, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    QString why;
    if (!fromJson(file.readAll(), results, &why)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    }
    return true;
}

} // namespace wb
