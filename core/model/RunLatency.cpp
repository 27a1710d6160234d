#include "RunLatency.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

double nearestRank(const QList<double> &sorted, double percent)
{
    const qsizetype rank = qsizetype(std::ceil(percent / 100.0 * double(sorted.size())));
    return sorted.at(std::clamp<qsizetype>(rank - 1, 0, sorted.size() - 1));
}

} // namespace

LatencyStats LatencyStats::of(const LatencySampleList &samples, bool loaded)
{
    LatencyStats s;
    QList<double> rtts;
    for (const LatencySample &x : samples) {
        if (x.loaded != loaded)
            continue;
        if (x.lost())
            ++s.lost;
        else
            rtts.append(x.rttMs);
    }
    s.count = int(rtts.size());
    if (rtts.isEmpty())
        return s;
    std::sort(rtts.begin(), rtts.end());
    const qsizetype mid = rtts.size() / 2;
    s.medianMs = rtts.size() % 2 ? rtts.at(mid) : (rtts.at(mid - 1) + rtts.at(mid)) / 2.0;
    s.p90Ms = nearestRank(rtts, 90);
    s.p99Ms = nearestRank(rtts, 99);
    s.maxMs = rtts.back();
    return s;
}

QJsonObject LatencyStats::toJson() const
{
    return QJsonObject{{QStringLiteral("count"), count},        {QStringLiteral("lost"), lost},
                       {QStringLiteral("median_ms"), medianMs}, {QStringLiteral("p90_ms"), p90Ms},
                       {QStringLiteral("p99_ms"), p99Ms},       {QStringLiteral("max_ms"), maxMs}};
}

LatencyStats LatencyStats::fromJson(const QJsonObject &o)
{
    LatencyStats s;
    s.count = o.value(QStringLiteral("count")).toInt();
    s.lost = o.value(QStringLiteral("lost")).toInt();
    s.medianMs = o.value(QStringLiteral("median_ms")).toDouble();
    s.p90Ms = o.value(QStringLiteral("p90_ms")).toDouble();
    s.p99Ms = o.value(QStringLiteral("p99_ms")).toDouble();
    s.maxMs = o.value(QStringLiteral("max_ms")).toDouble();
    return s;
}

void RunLatency::summarize()
{
    idle = LatencyStats::of(samples, false);
    loaded = LatencyStats::of(samples, true);
}

QJsonObject RunLatency::toJson() const
{
    QJsonObject o{{QStringLiteral("method"), method},
                  {QStringLiteral("target"), target},
                  {QStringLiteral("rate_Hz"), rateHz},
                  {QStringLiteral("idle"), idle.toJson()},
                  {QStringLiteral("loaded"), loaded.toJson()}};
    if (measured())
        o.insert(QStringLiteral("increase_ms"), increaseMs());
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    QJsonArray list;
    for (const LatencySample &s : samples)
        list.append(QJsonArray{s.seconds, s.lost() ? QJsonValue() : QJsonValue(s.rttMs), s.loaded ? 1 : 0});
    o.insert(QStringLiteral("samples"), list);
    return o;
}

RunLatency RunLatency::fromJson(const QJsonObject &o, int runIndex)
{
    RunLatency l;
    l.method = o.value(QStringLiteral("method")).toString();
    l.target = o.value(QStringLiteral("target")).toString();
    l.rateHz = o.value(QStringLiteral("rate_Hz")).toInt();
    l.note = o.value(QStringLiteral("note")).toString();
    l.idle = LatencyStats::fromJson(o.value(QStringLiteral("idle")).toObject());
    l.loaded = LatencyStats::fromJson(o.value(QStringLiteral("loaded")).toObject());
    for (const QJsonValue &v : o.value(QStringLiteral("samples")).toArray()) {
        const QJsonArray a = v.toArray();
        LatencySample s;
        s.runIndex = runIndex;
        s.seconds = a.at(0).toDouble();
        s.rttMs = a.at(1).isDouble() ? a.at(1).toDouble() : -1;
        s.loaded = a.at(2).toInt() != 0;
        l.samples.append(s);
    }
    return l;
}

} // namespace wb
