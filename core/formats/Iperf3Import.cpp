#include "Iperf3Import.h"

#include "model/Frame.h"

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

// What one `iperf3 -J` document says about its test, read once and shared by its directions' runs.
struct Iperf3Test
{
    QJsonObject root;
    QJsonObject start;
    QJsonObject end;
    bool udp = false;
    Host host;
    QString serverInfo;
    TestParams params;
    int mss = 0;
    int pmtu = 0;
    int frame = 0;
    QList<Direction> directions;
    QString iperfError;
    qint64 timesecs = 0;
};

Host hostOf(const Iperf3Test &test, const Iperf3ImportOptions &options, const QString &source)
{
    const QJsonObject connectingTo = obj(test.start, "connecting_to");
    Host host;
    host.address = connectingTo.value(QLatin1String("host")).toString();
    const int port = int(num(connectingTo, "port"));
    host.port = port > 0 && port <= 65535 ? quint16(port) : 0;
    host.name = !options.hostName.isEmpty() ? options.hostName : !host.address.isEmpty() ? host.address : source;
    host.serverType = QStringLiteral("iperf3");
    host.osLabel = !options.osLabel.isEmpty() ? options.osLabel : test.serverInfo.section(QLatin1Char(' '), 0, 0);
    return host;
}

TestParams paramsOf(const QJsonObject &start, const QJsonObject &testStart)
{
    TestParams params;
    params.durationMs = int(num(testStart, "duration") * 1000);
    params.messageSize = int(num(testStart, "blksize", params.messageSize));
    params.streams = std::max(1, int(num(testStart, "num_streams", 1)));
    params.warmupMs = int(num(testStart, "omit") * 1000);
    params.sendBufferBytes = int(num(start, "sock_bufsize"));
    params.recvBufferBytes = params.sendBufferBytes;
    return params;
}

// The forward direction, and with --bidir the reverse one.
QList<Direction> directionsOf(const QJsonObject &end, const QJsonObject &testStart)
{
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
    return directions;
}

Iperf3Test readTest(const QJsonObject &root, const Iperf3ImportOptions &options, const QString &source)
{
    Iperf3Test test;
    test.root = root;
    test.start = obj(root, "start");
    test.end = obj(root, "end");
    const QJsonObject testStart = obj(test.start, "test_start");
    test.udp
        = testStart.value(QLatin1String("protocol")).toString().compare(QLatin1String("UDP"), Qt::CaseInsensitive) == 0;
    test.serverInfo = obj(obj(root, "server_output_json"), "start").value(QLatin1String("system_info")).toString();
    test.host = hostOf(test, options, source);
    test.params = paramsOf(test.start, testStart);

    const int forcedMss = int(num(test.start, "tcp_mss"));
    test.mss = forcedMss > 0 ? forcedMss : int(num(test.start, "tcp_mss_default"));
    for (const QJsonValue &iv : root.value(QLatin1String("intervals")).toArray()) {
        for (const QJsonValue &sv : iv.toObject().value(QLatin1String("streams")).toArray())
            test.pmtu = std::max(test.pmtu, int(num(sv.toObject(), "pmtu")));
    }
    test.frame = options.frameSize > 0 ? options.frameSize
        : forcedMss > 0                ? Frame::frameOf(forcedMss, false, false)
                                       : test.pmtu;
    test.directions = directionsOf(test.end, testStart);
    test.iperfError = root.value(QLatin1String("error")).toString();
    test.timesecs = qint64(num(obj(test.start, "timestamp"), "timesecs"));
    return test;
}

// The interval sums of one direction as samples; returns whether iperf3 counted them on the sender.
bool readSamples(const Iperf3Test &test, const Direction &dir, RunResult *r)
{
    bool sampleSideKnown = false;
    bool samplesFromSender = !dir.reverse;
    for (const QJsonValue &iv : test.root.value(QLatin1String("intervals")).toArray()) {
        const QJsonObject sum = iv.toObject().value(QLatin1String(dir.interval)).toObject();
        if (sum.isEmpty() || sum.value(QLatin1String("omitted")).toBool())
            continue;
        Sample s;
        s.runIndex = r->spec.index;
        s.endSeconds = num(sum, "end");
        s.intervalSeconds = num(sum, "seconds");
        s.bytes = bytesOf(sum);
        if (sum.contains(QLatin1String("sender"))) {
            sampleSideKnown = true;
            samplesFromSender = sum.value(QLatin1String("sender")).toBool();
        }
        r->samples.append(s);
    }
    return sampleSideKnown ? samplesFromSender : !dir.reverse;
}

// CPU, retransmits, RTT, UDP jitter and loss, versions: what iperf3 measured beside the byte count.
void readExtras(const Iperf3Test &test, const Direction &dir, const QJsonObject &sent, const QJsonObject &received,
                RunResult *r)
{
    const QJsonObject &end = test.end;
    const QJsonObject cpu = obj(end, "cpu_utilization_percent");
    if (cpu.contains(QLatin1String("host_total")))
        r->extra.insert(QStringLiteral("cpu_local_percent"), num(cpu, "host_total"));
    if (cpu.contains(QLatin1String("remote_total")))
        r->extra.insert(QStringLiteral("cpu_remote_percent"), num(cpu, "remote_total"));
    if (sent.contains(QLatin1String("retransmits")))
        r->extra.insert(QStringLiteral("retransmits"), qint64(num(sent, "retransmits")));
    double rttSum = 0;
    int rttCount = 0;
    for (const QJsonValue &sv : end.value(QLatin1String("streams")).toArray()) {
        const QJsonObject sender = sv.toObject().value(QLatin1String("sender")).toObject();
        if (sender.contains(QLatin1String("mean_rtt"))) {
            rttSum += num(sender, "mean_rtt");
            ++rttCount;
        }
    }
    if (rttCount > 0 && !dir.reverse && test.directions.size() == 1)
        r->extra.insert(QStringLiteral("rtt_us"), rttSum / rttCount);
    if (test.udp) {
        const QJsonObject sum = obj(end, "sum");
        if (sum.contains(QLatin1String("jitter_ms")))
            r->extra.insert(QStringLiteral("jitter_ms"), num(sum, "jitter_ms"));
        if (sum.contains(QLatin1String("lost_percent")))
            r->extra.insert(QStringLiteral("lost_percent"), num(sum, "lost_percent"));
    }
    if (received.contains(QLatin1String("bits_per_second")))
        r->extra.insert(QStringLiteral("iperf3_receiver_Mbps"), num(received, "bits_per_second") / 1e6);
    r->extra.insert(QStringLiteral("iperf3_version"), test.start.value(QLatin1String("version")).toString());
    r->extra.insert(QStringLiteral("iperf3_client_system"), test.start.value(QLatin1String("system_info")).toString());
    if (!test.serverInfo.isEmpty())
        r->extra.insert(QStringLiteral("iperf3_server_system"), test.serverInfo);
    if (test.pmtu > 0)
        r->extra.insert(QStringLiteral("pmtu"), test.pmtu);
}

// Ok, or failed with iperf3's own error, or failed because the receiver's count is missing.
void judge(const Iperf3Test &test, const Direction &dir, RunResult *r)
{
    const Host &host = test.host;
    const QString where
        = host.address.isEmpty() ? host.name : QStringLiteral("%1 (%2:%3)").arg(host.name, host.address).arg(host.port);
    if (!test.iperfError.isEmpty()) {
        r->status = RunStatus::Failed;
        r->error = QStringLiteral("%1: iperf3 reported \"%2\"; check that `iperf3 -s` runs there and the port "
                                  "is open")
                       .arg(where, test.iperfError.simplified());
    } else if (r->bytes <= 0 || r->seconds <= 0) {
        r->status = RunStatus::Failed;
        r->error = QStringLiteral("%1: the iperf3 result holds no receiver byte count (end.%2); rerun "
                                  "iperf3 with -J until the test ends")
                       .arg(where, QString::fromLatin1(dir.received));
    } else {
        r->status = RunStatus::Ok;
    }
}

RunResult runFor(const Iperf3Test &test, const Direction &dir, const QString &source, int index)
{
    RunResult r;
    r.spec.index = index;
    r.spec.host = test.host;
    r.spec.protocol = QStringLiteral("iperf3-%1%2")
                          .arg(test.udp ? QStringLiteral("udp-") : QString(),
                               dir.reverse ? QStringLiteral("recv") : QStringLiteral("send"));
    r.spec.frameSize = test.frame;
    r.spec.params = test.params;
    r.mss = test.udp ? 0 : test.mss;
    if (test.timesecs > 0)
        r.startedAt = QDateTime::fromSecsSinceEpoch(test.timesecs, Qt::UTC);

    // UDP summaries older than iperf3 3.x's sum_received live in end.sum (the receiver's view).
    const QJsonObject sent = obj(test.end, dir.sent);
    QJsonObject received = obj(test.end, dir.received);
    if (received.isEmpty() && test.udp && !dir.reverse)
        received = obj(test.end, "sum");
    r.bytes = bytesOf(received);
    r.seconds = num(received, "seconds");
    if (!std::isfinite(r.seconds) || r.seconds < 0)
        r.seconds = 0;
    r.senderBytes = bytesOf(sent);

    const bool samplesFromSender = readSamples(test, dir, &r);
    readExtras(test, dir, sent, received, &r);
    r.extra.insert(QStringLiteral("iperf3_samples_side"),
                   QString::fromLatin1(samplesFromSender ? "sender" : "receiver"));
    r.extra.insert(QStringLiteral("imported_from"), source);
    judge(test, dir, &r);
    return r;
}

// The document as an iperf3 result, or an empty object and the reason in *problem.
QJsonObject parseDocument(const QByteArray &text, qsizetype n, QString *problem)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (!doc.isObject()) {
        *problem = QStringLiteral("test %1 is not valid JSON (%2 at byte %3)")
                       .arg(n + 1)
                       .arg(parseError.errorString())
                       .arg(parseError.offset);
        return {};
    }
    if (!isIperf3(doc.object())) {
        *problem = QStringLiteral("test %1 is JSON but not `iperf3 -J` output").arg(n + 1);
        return {};
    }
    return doc.object();
}

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
    RunResultList out;
    QHash<QString, int> repetitions;
    QString firstProblem;
    const QList<QByteArray> docs = splitDocuments(json);
    for (qsizetype n = 0; n < docs.size(); ++n) {
        QString problem;
        const QJsonObject root = parseDocument(docs.at(n), n, &problem);
        if (root.isEmpty()) {
            if (firstProblem.isEmpty())
                firstProblem = problem;
            continue;
        }
        const Iperf3Test test = readTest(root, options, source);
        for (const Direction &dir : test.directions) {
            RunResult r = runFor(test, dir, source, int(out.size()));
            r.spec.repetition = ++repetitions[test.host.name + QLatin1Char('\n') + test.host.address + QLatin1Char('\n')
                                              + r.spec.protocol];
            out.append(r);
        }
    }
    if (out.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(
                source,
                firstProblem.isEmpty() ? QStringLiteral("holds no iperf3 result; produce one with `iperf3 -c "
                                                        "HOST -J > file.json`")
                                       : firstProblem);
        return false;
    }
    if (runs)
        *runs = out;
    if (error)
        *error = firstProblem.isEmpty() ? QString() : QStringLiteral("%1: %2 (skipped)").arg(source, firstProblem);
    return true;
}

} // namespace wb
