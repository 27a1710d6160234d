#include "Iperf3Import.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace wb {

namespace {

QJsonObject obj(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}

double num(const QJsonObject &o, const char *key, double fallback = 0)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : fallback;
}

qint64 bytesOf(const QJsonObject &o)
{
    const double b = num(o, "bytes");
    return std::isfinite(b) && b > 0 ? qint64(b) : 0;
}

bool isIperf3(const QJsonObject &doc)
{
    const QJsonObject start = obj(doc, "start");
    return start.contains(QLatin1String("version")) || start.contains(QLatin1String("test_start"))
           || start.contains(QLatin1String("connecting_to"))
           || (doc.contains(QLatin1String("error")) && doc.contains(QLatin1String("start")));
}

// One direction of one test: which end summaries and which interval sum to read.
struct Direction
{
    bool reverse = false;
    const char *sent = "sum_sent";
    const char *received = "sum_received";
    const char *interval = "sum";
};

} // namespace

QList<QByteArray> Iperf3Import::splitDocuments(const QByteArray &text)
{
    QList<QByteArray> out;
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    qsizetype begin = -1;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (depth++ == 0)
                begin = i;
        } else if (c == '}' || c == ']') {
            if (depth > 0 && --depth == 0 && begin >= 0) {
                out.append(text.mid(begin, i - begin + 1));
                begin = -1;
            }
        }
    }
    if (depth > 0 && begin >= 0)
        out.append(text.mid(begin)); // truncated: let the JSON parser name the problem
    return out;
}

bool Iperf3Import::fromFile(const QString &path, RunResultList *runs, QString *error, const Options &options)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("iperf3 result %1: cannot be read (%2); check the path and its permissions")
                         .arg(path, f.errorString());
        return false;
    }
    Options o = options;
    if (o.source.isEmpty())
        o.source = QFileInfo(path).fileName();
    return fromJson(f.readAll(), runs, error, o);
}

bool Iperf3Import::fromJson(const QByteArray &json, RunResultList *runs, QString *error, const Options &options)
{
    const QString source = options.source.isEmpty() ? QStringLiteral("iperf3 result") : options.source;
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(source, why);
        return false;
    };
    RunResultList out;
    QHash<QString, int> repetitions;
    QString firstProblem;
    const QList<QByteArray> docs = splitDocuments(json);
    for (qsizetype n = 0; n < docs.size(); ++n) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(docs.at(n), &parseError);
        if (!doc.isObject()) {
            if (firstProblem.isEmpty())
                firstProblem = QStringLiteral("test %1 is not valid JSON (%2 at byte %3)")
                                   .arg(n + 1)
                                   .arg(parseError.errorString())
                                   .arg(parseError.offset);
            continue;
        }
        const QJsonObject root = doc.object();
        if (!isIperf3(root)) {
            if (firstProblem.isEmpty())
                firstProblem = QStringLiteral("test %1 is JSON but not `iperf3 -J` output").arg(n + 1);
            continue;
        }
        const QJsonObject start = obj(root, "start");
        const QJsonObject end = obj(root, "end");
        const QJsonObject testStart = obj(start, "test_start");
        const QJsonObject connectingTo = obj(start, "connecting_to");
        const bool udp = testStart.value(QLatin1String("protocol")).toString().compare(QLatin1String("UDP"),
                                                                                        Qt::CaseInsensitive)
                         == 0;

        Host host;
        host.address = connectingTo.value(QLatin1String("host")).toString();
        const int port = int(num(connectingTo, "port"));
        host.port = port > 0 && port <= 65535 ? quint16(port) : 0;
        host.name = !options.hostName.isEmpty() ? options.hostName
                    : !host.address.isEmpty()   ? host.address
                                                : source;
        host.serverType = QStringLiteral("iperf3");
        const QString serverInfo = obj(obj(root, "server_output_json"), "start")
                                       .value(QLatin1String("system_info"))
                                       .toString();
        host.osLabel = !options.osLabel.isEmpty() ? options.osLabel : serverInfo.section(QLatin1Char(' '), 0, 0);

        TestParams params;
        params.durationMs = int(num(testStart, "duration") * 1000);
        params.messageSize = int(num(testStart, "blksize", params.messageSize));
        params.streams = std::max(1, int(num(testStart, "num_streams", 1)));
        params.warmupMs = int(num(testStart, "omit") * 1000);
        params.sendBufferBytes = int(num(start, "sock_bufsize"));
        params.recvBufferBytes = params.sendBufferBytes;

        const int forcedMss = int(num(start, "tcp_mss"));
        const int mss = forcedMss > 0 ? forcedMss : int(num(start, "tcp_mss_default"));
        int pmtu = 0;
        for (const QJsonValue &iv : root.value(QLatin1String("intervals")).toArray()) {
            for (const QJsonValue &sv : iv.toObject().value(QLatin1String("streams")).toArray())
                pmtu = std::max(pmtu, int(num(sv.toObject(), "pmtu")));
        }
        const int frame = options.frameSize > 0 ? options.frameSize
                          : forcedMss > 0       ? forcedMss + 40
                                                : pmtu;

        QList<Direction> directions;
        Direction forward;
        forward.reverse = num(testStart, "reverse") != 0;
        directions.append(forward);
        if (end.contains(QLatin1String("sum_sent_bidir_reverse"))) {
            Direction back;
            back.reverse = true;
            back.sent = "sum_sent_bidir_reverse";
            back.received = "sum_received_bidir_reverse";
            back.interval = "sum_bidir_reverse";
            directions.append(back);
        }

        const QString iperfError = root.value(QLatin1String("error")).toString();
        const qint64 timesecs = qint64(num(obj(start, "timestamp"), "timesecs"));
        for (const Direction &dir : std::as_const(directions)) {
            RunResult r;
            r.spec.host = host;
            r.spec.protocol = QStringLiteral("iperf3-%1%2").arg(udp ? QStringLiteral("udp-") : QString(),
                                                                dir.reverse ? QStringLiteral("recv")
                                                                            : QStringLiteral("send"));
            r.spec.frameSize = frame;
            r.spec.params = params;
            r.spec.index = int(out.size());
            r.spec.repetition = ++repetitions[host.name + QLatin1Char('\n') + host.address + QLatin1Char('\n')
                                              + r.spec.protocol];
            r.mss = udp ? 0 : mss;
            if (timesecs > 0)
                r.startedAt = QDateTime::fromSecsSinceEpoch(timesecs, Qt::UTC);

            // UDP summaries older than iperf3 3.x's sum_received live in end.sum (the receiver's view).
            QJsonObject sent = obj(end, dir.sent);
            QJsonObject received = obj(end, dir.received);
            if (received.isEmpty() && udp && !dir.reverse)
                received = obj(end, "sum");
            r.bytes = bytesOf(received);
            r.seconds = num(received, "seconds");
            if (!std::isfinite(r.seconds) || r.seconds < 0)
                r.seconds = 0;
            r.senderBytes = bytesOf(sent);

            bool sampleSideKnown = false;
            bool samplesFromSender = !dir.reverse;
            for (const QJsonValue &iv : root.value(QLatin1String("intervals")).toArray()) {
                const QJsonObject sum = iv.toObject().value(QLatin1String(dir.interval)).toObject();
                if (sum.isEmpty() || sum.value(QLatin1String("omitted")).toBool())
                    continue;
                Sample s;
                s.runIndex = r.spec.index;
                s.endSeconds = num(sum, "end");
                s.intervalSeconds = num(sum, "seconds");
                s.bytes = bytesOf(sum);
                if (sum.contains(QLatin1String("sender"))) {
                    sampleSideKnown = true;
                    samplesFromSender = sum.value(QLatin1String("sender")).toBool();
                }
                r.samples.append(s);
            }

            const QJsonObject cpu = obj(end, "cpu_utilization_percent");
            if (cpu.contains(QLatin1String("host_total")))
                r.extra.insert(QStringLiteral("cpu_local_percent"), num(cpu, "host_total"));
            if (cpu.contains(QLatin1String("remote_total")))
                r.extra.insert(QStringLiteral("cpu_remote_percent"), num(cpu, "remote_total"));
            if (sent.contains(QLatin1String("retransmits")))
                r.extra.insert(QStringLiteral("retransmits"), qint64(num(sent, "retransmits")));
            double rttSum = 0;
            int rttCount = 0;
            for (const QJsonValue &sv : end.value(QLatin1String("streams")).toArray()) {
                const QJsonObject sender = sv.toObject().value(QLatin1String("sender")).toObject();
                if (sender.contains(QLatin1String("mean_rtt"))) {
                    rttSum += num(sender, "mean_rtt");
                    ++rttCount;
                }
            }
            if (rttCount > 0 && !dir.reverse && directions.size() == 1)
                r.extra.insert(QStringLiteral("rtt_us"), rttSum / rttCount);
            if (udp) {
                const QJsonObject sum = obj(end, "sum");
                if (sum.contains(QLatin1String("jitter_ms")))
                    r.extra.insert(QStringLiteral("jitter_ms"), num(sum, "jitter_ms"));
                if (sum.contains(QLatin1String("lost_percent")))
                    r.extra.insert(QStringLiteral("lost_percent"), num(sum, "lost_percent"));
            }
            if (received.contains(QLatin1String("bits_per_second")))
                r.extra.insert(QStringLiteral("iperf3_receiver_Mbps"), num(received, "bits_per_second") / 1e6);
            r.extra.insert(QStringLiteral("iperf3_version"), start.value(QLatin1String("version")).toString());
            r.extra.insert(QStringLiteral("iperf3_client_system"), start.value(QLatin1String("system_info")).toString());
            if (!serverInfo.isEmpty())
                r.extra.insert(QStringLiteral("iperf3_server_system"), serverInfo);
            if (pmtu > 0)
                r.extra.insert(QStringLiteral("pmtu"), pmtu);
            r.extra.insert(QStringLiteral("iperf3_samples_side"), QString::fromLatin1(
                                                                    (sampleSideKnown ? samplesFromSender : !dir.reverse)
                                                                        ? "sender" : "receiver"));
            r.extra.insert(QStringLiteral("imported_from"), source);

            const QString where = host.address.isEmpty()
                                      ? host.name
                                      : QStringLiteral("%1 (%2:%3)").arg(host.name, host.address).arg(host.port);
            if (!iperfError.isEmpty()) {
                r.status = RunStatus::Failed;
                r.error = QStringLiteral("%1: iperf3 reported \"%2\"; check that `iperf3 -s` runs there and the port "
                                         "is open")
                              .arg(where, iperfError.simplified());
            } else if (r.bytes <= 0 || r.seconds <= 0) {
                r.status = RunStatus::Failed;
                r.error = QStringLiteral("%1: the iperf3 result holds no receiver byte count (end.%2); rerun "
                                         "iperf3 with -J until the test ends")
                              .arg(where, QString::fromLatin1(dir.received));
            } else {
                r.status = RunStatus::Ok;
            }
            out.append(r);
        }
    }
    if (out.isEmpty())
        return fail(firstProblem.isEmpty() ? QStringLiteral("holds no iperf3 result; produce one with `iperf3 -c "
                                                            "HOST -J > file.json`")
                                           : firstProblem);
    if (runs)
        *runs = out;
    if (error)
        *error = firstProblem.isEmpty() ? QString() : QStringLiteral("%1: %2 (skipped)").arg(source, firstProblem);
    return true;
}

} // namespace wb
