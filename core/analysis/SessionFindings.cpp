#include "SessionFindings.h"

#include "model/Frame.h"
#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TransferSettings.h"
#include "stats/TestSummary.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// A file transfer within 5% of the TCP stream is limited by what limits the stream; below 80% of it,
// something beyond the network costs a fifth or more. Between the two the protocol and the server take
// a visible share, and the sentence says so without blaming either alone.
constexpr double kNetworkLimited = 0.95;
constexpr double kServerLimited = 0.80;

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
        text = text.left(open) + QStringLiteral(" B (") + text.mid(open + 2).replace(QStringLiteral(" planned)"), QStringLiteral(" B planned)"));
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
    const QList<TestSummary> tests = TestSummary::build(results);
    FindingList found = networkOrServer(tests, results, where);
    found << frameSizes(tests, results) << servers(tests, results);
    return found;
}

FindingList SessionFindings::networkOrServer(const QList<TestSummary> &tests, const RunResultList &results, const QString &where)
{
    FindingList found;
    for (const TestSummary &t : tests) {
        const ProtocolInfo *info = DriverRegistry::find(t.protocol);
        if (!info || info->rawTcp || info->timed || t.okRuns == 0)
            continue;
        // The TCP stream to the same host in the same direction: at the same frame size when there is one,
        // else the fastest at any frame size.
        const auto rank = [&t](const TestSummary &c) { return std::pair{c.frameSize == t.frameSize, c.MBps.median}; };
        const TestSummary *tcp = nullptr;
        for (const TestSummary &c : tests) {
            const ProtocolInfo *ci = DriverRegistry::find(c.protocol);
            if (!ci || !ci->rawTcp || ci->flow != info->flow || c.okRuns == 0 || !sameHost(c.host, t.host))
                continue;
            if (!tcp || rank(c) > rank(*tcp))
                tcp = &c;
        }
        if (!tcp || tcp->MBps.median <= 0)
            continue;
        const double ratio = t.MBps.median / tcp->MBps.median;
        const QString stream = QStringLiteral("the %1 that a TCP stream (%2, median of %3) reached to this host %4")
                                   .arg(mbps(tcp->MBps.median), testLabel(*tcp, results))
                                   .arg(tcp->okRuns)
                                   .arg(where);
        QString sentence = QStringLiteral("%1 %2: ").arg(testLabel(t, results), mbps(t.MBps.median));
        if (ratio >= kNetworkLimited) {
            sentence += QStringLiteral("within %1% of %2: the network is the limit")
                            .arg(QString::number(std::abs(1 - ratio) * 100, 'f', 0), stream);
        } else if (ratio < kServerLimited) {
            QString who = serviceWords(info);
            if (usedLocalFile(t, results, info->flow))
                who += info->flow == ProtocolInfo::Flow::ToServer ? QStringLiteral(", or this computer's disk that it read from")
                                                                  : QStringLiteral(", or this computer's disk that it wrote to");
            sentence += QStringLiteral("%1% of %2: %3 limits it, not the network")
                            .arg(QString::number(ratio * 100, 'f', 0), stream, who);
        } else {
            sentence += QStringLiteral("%1% below %2: the file protocol and the server cost that much; the network is "
                                       "not the limit")
                            .arg(QString::number((1 - ratio) * 100, 'f', 0), stream);
        }
        found << Finding{Finding::Kind::NetworkOrServer, t.host.displayName(), t.protocol, sentence + QLatin1Char('.')};
    }
    return found;
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
            QString sentence = QStringLiteral("%1, %2: %3 frames against %4: throughput %5 (%6)")
                                   .arg(base.host.displayName(), base.protocol, frameLabel(runs), frameLabel(baseRuns),
                                        signedPercent(o->MBps.median / base.MBps.median - 1, 1),
                                        noise(base.MBps, o->MBps));
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
            found << Finding{Finding::Kind::FrameSizes, base.host.displayName(), base.protocol, sentence + QLatin1Char('.')};
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
            const QString sentence = QStringLiteral("%1: %2 (%3) %4 against %5 (%6) %7: %8, %9.")
                                         .arg(testLabel(*top, results), top->host.displayName(), osOf(*top, results), mbps(top->MBps.median),
                                              other->host.displayName(), osOf(*other, results), mbps(other->MBps.median),
                                              signedPercent(top->MBps.median / other->MBps.median - 1, 0),
                                              noise(top->MBps, other->MBps));
            found << Finding{Finding::Kind::Servers, top->host.displayName(), t.protocol, sentence};
        }
    }
    return found;
}

} // namespace wb
