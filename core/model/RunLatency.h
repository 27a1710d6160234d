#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace wb {

/// One round trip of the latency probe (core/latency/LatencyProbe).
struct LatencySample
{
    int runIndex = 0;   ///< RunSpec::index
    double seconds = 0; ///< when the probe left, on the run's clock (the throughput samples'): negative before the load
    double rttMs = -1;  ///< the round trip in ms; negative: no answer within the probe's timeout (lost)
    bool loaded = false; ///< sent while the run moved data (else idle: before the driver started)
    bool lost() const { return rttMs < 0; }
};

using LatencySampleList = QList<LatencySample>;

/// Median, 90th, 99th percentile and maximum of one phase's round trips, in ms. Percentiles are nearest-rank
/// (the smallest value with at least p% of the values at or below it), so every figure is a measured round trip.
struct LatencyStats
{
    int count = 0; ///< answered probes
    int lost = 0;  ///< probes without an answer
    double medianMs = 0;
    double p90Ms = 0;
    double p99Ms = 0;
    double maxMs = 0;

    bool valid() const { return count > 0; }
    /// The figures of the samples of one phase (loaded or idle).
    static LatencyStats of(const LatencySampleList &samples, bool loaded);
    QJsonObject toJson() const;
    static LatencyStats fromJson(const QJsonObject &o);
    bool operator==(const LatencyStats &) const = default;
};

/// The round-trip time to the host before the run (idle) and while it moved data (loaded): what a queue on the path
/// adds at full load (bufferbloat; analysis/Bufferbloat judges it).
struct RunLatency
{
    QString method; ///< "udp-echo" (wirebenchd's echo) or "tcp-connect" (connect time to the service port); empty: none
    QString target; ///< "10.0.0.2 UDP port 5301"
    int rateHz = 0; ///< probes a second
    QString note;   ///< one line: why there is no figure, when there is none
    LatencyStats idle;
    LatencyStats loaded;
    LatencySampleList samples;

    bool measured() const { return idle.valid() && loaded.valid(); }
    /// Loaded median minus idle median (ms): what the load added; 0 without both.
    double increaseMs() const { return measured() ? loaded.medianMs - idle.medianMs : 0; }
    /// Fills idle and loaded from samples.
    void summarize();
    /// The JSON form (export, store): method, target, rate_Hz, note, idle, loaded, increase_ms, samples as
    /// [seconds, rtt_ms or null, 1 loaded / 0 idle].
    QJsonObject toJson() const;
    static RunLatency fromJson(const QJsonObject &o, int runIndex);
};

} // namespace wb

Q_DECLARE_METATYPE(wb::LatencySample)
Q_DECLARE_METATYPE(wb::LatencySampleList)
