#include "SessionFindings.h"

#include "model/Frame.h"
#include "plan/TestPlan.h"
#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TransferSettings.h"
#include "stats/TestSummary.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <optional>

namespace wb {

namespace {

// A file transfer within 5% of the TCP stream is limited by what limits the stream; below 80% of it,
// something beyond the network costs a fifth or more. Between the two the protocol and the server take
// a visible share, and the sentence says so without blaming either alone.
constexpr double kNetworkLimited = 0.95;
constexpr double kServerLimited = 0.80;
// A transfer within 5% of what the local disk does alone on the same file, while the network carried more,
// went at the disk's pace.
constexpr double kDiskNear = 0.05;

bool sameHost(const Host &a, const Host &b)
{
    return a.name == b.name && a.address == b.address;
}

QString mbps(double v)
{
    return QString::number(v, 'f', 1) + QStringLiteral(" MB/s");
}

QString signedPercent(double fraction, int decimals)
{
    const double p = fraction * 100;
    const QString text = QString::number(std::abs(p), 'f', decimals);
    return (p < 0 ? QStringLiteral("-") : QStringLiteral("+")) + text + QLatin1Char('%');
}

/// "1500 B", "4000 B (1500 B planned)": the frames the runs used, in bytes.
QString frameLabel(const RunResultList &runs)
{
    QString text = Frame::frameText(runs);
    if (const qsizetype open = text.indexOf(QStringLiteral(" (")); open > 0)
        text = text.left(open) + QStringLiteral(" B (")
            + text.mid(open + 2).replace(QStringLiteral(" planned)"), QStringLiteral(" B planned)"));
    else
        text += QStringLiteral(" B");
    return text;
}

QString testLabel(const TestSummary &t, const RunResultList &results)
{
    return QStringLiteral("%1 @ %2").arg(t.protocol, frameLabel(t.runsOf(results)));
}

QString osOf(const TestSummary &t, const RunResultList &results)
{
    const RunResultList runs = t.runsOf(results);
    for (auto it = runs.crbegin(); it != runs.crend(); ++it)
        if (it->ok() && !it->serverOs.isEmpty())
            return it->serverOs;
    return t.host.osLabel;
}

/// The test read or wrote a file on this computer (not the memory source or sink).
bool usedLocalFile(const TestSummary &t, const RunResultList &results, ProtocolInfo::Flow flow)
{
    const char *key = flow == ProtocolInfo::Flow::ToServer ? TransferSettings::SourceKey : TransferSettings::SinkKey;
    for (const RunResult &r : t.runsOf(results))
        if (r.ok() && r.spec.params.options.value(QLatin1String(key)).toString() == QLatin1String("file"))
            return true;
    return false;
}

/// CPU per GB moved, per successful run: percent of the machine (or of its cores, as the end reports it)
/// times seconds, per 10^9 bytes. Only ratios of it are said, so its unit cancels.
Summary cpuPerGb(const RunResultList &runs, const QString &key)
{
    QList<double> values;
    for (const RunResult &r : runs) {
        const double cpu = r.extra.value(key, -1).toDouble();
        if (r.ok() && cpu > 0 && r.bytes > 0 && r.seconds > 0)
            values << cpu * r.seconds / (double(r.bytes) / 1e9);
    }
    return Statistics::summarize(values);
}

QString serviceWords(const ProtocolInfo *info)
{
    if (info->family == QLatin1String("copy"))
        return QStringLiteral("the server (its disk or its file service) or the mounted share's client");
    return QStringLiteral("the server (its disk or its %1 service)").arg(info->family.toUpper());
}

/// The bare TCP stream a transfer is judged by: its test, the runs it was summarized from and where it was
/// measured ("in this session", "23 minutes earlier (session 12)").
struct Stream
{
    TestSummary test;
    RunResultList runs;
    QString where;
};

bool isStreamFor(const TestSummary &t, ProtocolInfo::Flow flow, const TestSummary &c)
{
    const ProtocolInfo *ci = DriverRegistry::find(c.protocol);
    return ci && ci->rawTcp && ci->flow == flow && c.okRuns > 0 && sameHost(c.host, t.host);
}

/// The session's TCP stream to the transfer's host in its direction: at the same frame size when there is
/// one, else the fastest at any frame size.
std::optional<Stream> sessionStream(const TestSummary &t, ProtocolInfo::Flow flow, const QList<TestSummary> &tests,
                                    const RunResultList &results, const QString &where)
{
    const auto rank = [&t](const TestSummary &c) { return std::pair{c.frameSize == t.frameSize, c.MBps.median}; };
    const TestSummary *tcp = nullptr;
    for (const TestSummary &c : tests)
        if (isStreamFor(t, flow, c) && (!tcp || rank(c) > rank(*tcp)))
            tcp = &c;
    if (!tcp)
        return std::nullopt;
    return Stream{*tcp, results, where};
}

QDateTime firstStart(const RunResultList &runs)
{
    QDateTime first;
    for (const RunResult &r : runs)
        if (r.ok() && r.startedAt.isValid() && (!first.isValid() || r.startedAt < first))
            first = r.startedAt;
    return first;
}

QDateTime lastEnd(const RunResultList &runs)
{
    QDateTime last;
    for (const RunResult &r : runs) {
        const QDateTime end = r.startedAt.addMSecs(qint64(r.seconds * 1000));
        if (r.ok() && r.startedAt.isValid() && (!last.isValid() || end > last))
            last = end;
    }
    return last;
}

/// "23 minutes earlier (session 12)": how long before the transfer's first run the stream's last one ended.
QString earlierWords(const RunResultList &transfer, const RunResultList &stream, qint64 sessionId)
{
    const QDateTime from = lastEnd(stream);
    const QDateTime to = firstStart(transfer);
    QString when = QStringLiteral("before this session");
    if (from.isValid() && to.isValid() && from <= to) {
        const qint64 minutes = qRound64(double(from.secsTo(to)) / 60);
        when = minutes < 1
            ? QStringLiteral("less than a minute earlier")
            : QStringLiteral("%1 minute%2 earlier").arg(minutes).arg(minutes == 1 ? QString() : QStringLiteral("s"));
    }
    return QStringLiteral("%1 (session %2)").arg(when).arg(sessionId);
}

/// A stream the result store kept from before the session (StoredStreams): at the transfer's frame size when
/// there is one, else the latest; one stored session's runs make one test.
std::optional<Stream> storedStream(const TestSummary &t, ProtocolInfo::Flow flow, const RunResultList &transfer,
                                   const StoredRunList &earlier)
{
    QMap<qint64, RunResultList> bySession;
    for (const StoredRun &s : earlier)
        bySession[s.sessionId] << s.run;
    std::optional<Stream> best;
    const auto rank = [&t](const Stream &s) {
        return std::pair{s.test.frameSize == t.frameSize, lastEnd(s.test.runsOf(s.runs))};
    };
    for (auto it = bySession.cbegin(); it != bySession.cend(); ++it) {
        for (const TestSummary &c : TestSummary::build(it.value())) {
            if (!isStreamFor(t, flow, c))
                continue;
            Stream candidate{c, it.value(), earlierWords(transfer, c.runsOf(it.value()), it.key())};
            if (!best || rank(candidate) > rank(*best))
                best = candidate;
        }
    }
    return best;
}

} // namespace

QString SessionFindings::noise(const Summary &a, const Summary &b)
{
    if (a.n < 2 || b.n < 2)
        return a.n < 2 && b.n < 2 ? QStringLiteral("one run each, too few to tell it from noise")
                                  : QStringLiteral("too few runs to tell it from noise");
    const bool apart = a.ciHigh() < b.ciLow() || b.ciHigh() < a.ciLow();
    return apart ? QStringLiteral("beyond the noise") : QStringLiteral("within the noise");
}

FindingList SessionFindings::of(const RunResultList &results, const QString &where)
{
    return find(results, where, {});
}

FindingList SessionFindings::of(const RunResultList &results, const StoredRunList &earlier)
{
    return find(results, QStringLiteral("in this session"), earlier);
}

FindingList SessionFindings::find(const RunResultList &results, const QString &where, const StoredRunList &earlier)
{
    const QList<TestSummary> tests = TestSummary::build(results);
    FindingList found = networkOrServer(tests, results, where, earlier);
    // The shoot-out's reference streams judge the transfers; they are not compared among themselves.
    QList<TestSummary> compared;
    for (const TestSummary &t : tests) {
        const RunResultList runs = t.runsOf(results);
        if (runs.isEmpty() || !TestPlan::isReference(runs.first().spec))
            compared << t;
    }
    found << frameSizes(compared, results) << servers(compared, results);
    return found;
}

FindingList SessionFindings::networkOrServer(const QList<TestSummary> &tests, const RunResultList &results,
                                             const QString &where, const StoredRunList &earlier)
{
    FindingList found;
    for (const TestSummary &t : tests) {
        const ProtocolInfo *info = DriverRegistry::find(t.protocol);
        if (!info || info->rawTcp || info->timed || t.okRuns == 0)
            continue;
        // The session's own stream first; only without one, a stream the store kept from shortly before.
        std::optional<Stream> tcp = sessionStream(t, info->flow, tests, results, where);
        if (!tcp)
            tcp = storedStream(t, info->flow, t.runsOf(results), earlier);
        if (!tcp || tcp->test.MBps.median <= 0)
            continue;
        const double ratio = t.MBps.median / tcp->test.MBps.median;
        const QString stream = QStringLiteral("the %1 that a TCP stream (%2, median of %3) reached to this host %4")
                                   .arg(mbps(tcp->test.MBps.median), testLabel(tcp->test, tcp->runs))
                                   .arg(tcp->test.okRuns)
                                   .arg(tcp->where);
        QString sentence = QStringLiteral("%1 %2: ").arg(testLabel(t, results), mbps(t.MBps.median));
        if (ratio >= kNetworkLimited) {
            sentence += QStringLiteral("within %1% of %2: the network is the limit")
                            .arg(QString::number(std::abs(1 - ratio) * 100, 'f', 0), stream);
        } else if (ratio < kServerLimited) {
            QString who = serviceWords(info);
            if (usedLocalFile(t, results, info->flow))
                who += info->flow == ProtocolInfo::Flow::ToServer
                    ? QStringLiteral(", or this computer's disk that it read from")
                    : QStringLiteral(", or this computer's disk that it wrote to");
            sentence += QStringLiteral("%1% of %2: %3 limits it, not the network")
                            .arg(QString::number(ratio * 100, 'f', 0), stream, who);
        } else {
            sentence += QStringLiteral("%1% below %2: the file protocol and the server cost that much; the network is "
                                       "not the limit")
                            .arg(QString::number((1 - ratio) * 100, 'f', 0), stream);
        }
        found << Finding{Finding::Kind::NetworkOrServer, t.host.displayName(), t.protocol, sentence + QLatin1Char('.')};
        if (const QString disk = localDisk(t, results, tcp->test.MBps.median, tcp->where); !disk.isEmpty())
            found << Finding{Finding::Kind::LocalDisk, t.host.displayName(), t.protocol, disk};
    }
    return found;
}

QString SessionFindings::localDisk(const TestSummary &t, const RunResultList &results, double networkMBps,
                                   const QString &where)
{
    QList<double> rates;
    QString op;
    for (const RunResult &r : t.runsOf(results)) {
        const double rate = r.extra.value(QStringLiteral("local_disk_rate_MBps"), 0).toDouble();
        if (r.ok() && rate > 0) {
            rates << rate;
            op = r.extra.value(QStringLiteral("local_disk_rate_op")).toString();
        }
    }
    if (rates.isEmpty())
        return {};
    const double disk = Statistics::summarize(rates).median;
    const double transfer = t.MBps.median;
    if (std::abs(transfer / disk - 1) > kDiskNear || transfer >= networkMBps * kNetworkLimited)
        return {};
    return QStringLiteral("%1 %2: the local disk was the bottleneck (%3 %4 on its own; the network carried %5 to "
                          "this host %6).")
        .arg(testLabel(t, results), mbps(transfer),
             op == QLatin1String("read") ? QStringLiteral("reads") : QStringLiteral("writes"), mbps(disk),
             mbps(networkMBps), where);
}

FindingList SessionFindings::frameSizes(const QList<TestSummary> &tests, const RunResultList &results)
{
    FindingList found;
    for (const TestSummary &base : tests) {
        if (base.okRuns == 0)
            continue;
        // base is the smallest frame of its host and protocol; each larger one is compared with it.
        bool smallest = true;
        QList<const TestSummary *> larger;
        for (const TestSummary &o : tests) {
            if (&o == &base || o.okRuns == 0 || o.protocol != base.protocol || !sameHost(o.host, base.host))
                continue;
            if (o.frameSize < base.frameSize)
                smallest = false;
            else if (o.frameSize > base.frameSize)
                larger << &o;
        }
        if (!smallest)
            continue;
        const RunResultList baseRuns = base.runsOf(results);
        for (const TestSummary *o : larger) {
            const RunResultList runs = o->runsOf(results);
            QString sentence
                = QStringLiteral("%1, %2: %3 frames against %4: throughput %5 (%6)")
                      .arg(base.host.displayName(), base.protocol, frameLabel(runs), frameLabel(baseRuns),
                           signedPercent(o->MBps.median / base.MBps.median - 1, 1), noise(base.MBps, o->MBps));
            const struct
            {
                const char *key;
                const char *where;
            } ends[] = {{"cpu_local_percent", "on this computer"}, {"cpu_remote_percent", "on the server"}};
            for (const auto &end : ends) {
                const Summary a = cpuPerGb(baseRuns, QLatin1String(end.key));
                const Summary b = cpuPerGb(runs, QLatin1String(end.key));
                if (a.n == 0 || b.n == 0 || a.median <= 0)
                    continue;
                sentence += QStringLiteral(", CPU per GB %1 %2 (%3)")
                                .arg(QLatin1String(end.where), signedPercent(b.median / a.median - 1, 0), noise(a, b));
            }
            found << Finding{Finding::Kind::FrameSizes, base.host.displayName(), base.protocol,
                             sentence + QLatin1Char('.')};
        }
    }
    return found;
}

FindingList SessionFindings::servers(const QList<TestSummary> &tests, const RunResultList &results)
{
    FindingList found;
    // Per test (protocol and frame), the fastest host against each of the others.
    QList<QString> done;
    for (const TestSummary &t : tests) {
        const QString key = t.protocol + QLatin1Char('@') + QString::number(t.frameSize);
        if (t.okRuns == 0 || done.contains(key))
            continue;
        done << key;
        QList<const TestSummary *> hosts;
        for (const TestSummary &o : tests)
            if (o.okRuns > 0 && o.protocol == t.protocol && o.frameSize == t.frameSize)
                hosts << &o;
        if (hosts.size() < 2)
            continue;
        std::stable_sort(hosts.begin(), hosts.end(),
                         [](const TestSummary *a, const TestSummary *b) { return a->MBps.median > b->MBps.median; });
        const TestSummary *top = hosts.first();
        for (qsizetype i = 1; i < hosts.size(); ++i) {
            const TestSummary *other = hosts.at(i);
            if (other->MBps.median <= 0)
                continue;
            const QString sentence
                = QStringLiteral("%1: %2 (%3) %4 against %5 (%6) %7: %8, %9.")
                      .arg(testLabel(*top, results), top->host.displayName(), osOf(*top, results),
                           mbps(top->MBps.median), other->host.displayName(), osOf(*other, results),
                           mbps(other->MBps.median), signedPercent(top->MBps.median / other->MBps.median - 1, 0),
                           noise(top->MBps, other->MBps));
            found << Finding{Finding::Kind::Servers, top->host.displayName(), t.protocol, sentence};
        }
    }
    return found;
}

} // namespace wb
