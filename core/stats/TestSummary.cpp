#include "TestSummary.h"

namespace wb {

QList<TestSummary> TestSummary::build(const RunResultList &results)
{
    QList<TestSummary> out;
    QList<QList<double>> values;
    QList<QList<double>> reverseValues;
    QList<QList<double>> idle, loaded; // latency medians, ms
    for (const RunResult &r : results) {
        qsizetype at = -1;
        for (qsizetype i = 0; i < out.size(); ++i) {
            if (out.at(i).matches(r)) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            TestSummary t;
            t.host = r.spec.host;
            t.protocol = r.spec.protocol;
            t.frameSize = r.spec.frameSize;
            out.append(t);
            values.append(QList<double>());
            reverseValues.append(QList<double>());
            idle.append(QList<double>());
            loaded.append(QList<double>());
            at = out.size() - 1;
        }
        TestSummary &t = out[at];
        if (r.ok()) {
            ++t.okRuns;
            values[at].append(r.megabytesPerSecond());
            if (r.reverse) {
                t.bothWays = true;
                reverseValues[at].append(r.reverse->megabytesPerSecond());
            }
            if (r.mss > 0)
                t.mss = r.mss;
            if (r.latency.measured()) {
                idle[at].append(r.latency.idle.medianMs);
                loaded[at].append(r.latency.loaded.medianMs);
            }
            if (!r.serverOs.isEmpty() && t.host.osLabel.isEmpty())
                t.host.osLabel = r.serverOs;
        } else {
            ++t.failedRuns;
            if (!r.error.isEmpty() && !t.errors.contains(r.error))
                t.errors.append(r.error);
        }
    }
    for (qsizetype i = 0; i < out.size(); ++i) {
        out[i].MBps = Statistics::summarize(values.at(i));
        out[i].reverseMBps = Statistics::summarize(reverseValues.at(i));
        out[i].idleLatencyMs = Statistics::summarize(idle.at(i));
        out[i].loadedLatencyMs = Statistics::summarize(loaded.at(i));
    }
    return out;
}

QString TestSummary::label() const
{
    switch (direction) {
    case Direction::Send:
        return protocol + QStringLiteral(" send");
    case Direction::Receive:
        return protocol + QStringLiteral(" receive");
    case Direction::Only:
        break;
    }
    return protocol;
}

QList<TestSummary> TestSummary::byDirection(const QList<TestSummary> &summaries)
{
    QList<TestSummary> out;
    for (const TestSummary &t : summaries) {
        if (!t.bothWays) {
            out.append(t);
            continue;
        }
        TestSummary send = t;
        send.direction = Direction::Send;
        TestSummary receive = t;
        receive.direction = Direction::Receive;
        receive.MBps = t.reverseMBps;
        out << send << receive;
    }
    return out;
}

QString TestSummary::percentKey() const
{
    return direction == Direction::Receive ? QStringLiteral("reverse_percent_of_ceiling")
                                           : QStringLiteral("percent_of_ceiling");
}

bool TestSummary::matches(const RunResult &r) const
{
    // The port too: two responders on one address (a lab, loopback tests) are two hosts.
    return host.displayName() == r.spec.host.displayName() && host.address == r.spec.host.address
        && host.port == r.spec.host.port && protocol == r.spec.protocol && frameSize == r.spec.frameSize;
}

RunResultList TestSummary::runsOf(const RunResultList &results) const
{
    RunResultList out;
    for (const RunResult &r : results) {
        if (matches(r))
            out.append(r);
    }
    return out;
}

} // namespace wb
