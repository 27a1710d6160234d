#pragma once

#include "ProtocolDriver.h"

#include <QElapsedTimer>

namespace wb {

/// Turns a stream of byte counts into fixed-interval samples for a driver. Every driver uses it, so
/// that the live graph and the final figure are made of the same numbers.
class ThroughputMeter
{
public:
    ThroughputMeter(int runIndex, int intervalMs, RunObserver &observer);

    void start();                 ///< t = 0 (the receiver's clock for the figure)
    void add(qint64 bytes);       ///< count bytes; emits every interval that has ended
    void finish();                ///< emits the last, possibly shorter, interval; stops the clock
    /// Use a byte count that arrived from elsewhere (the far end) for the total, keeping the samples.
    void setTotal(qint64 bytes) { m_total = bytes; }

    qint64 total() const { return m_total; }
    double elapsedSeconds() const;
    const SampleList &samples() const { return m_samples; }

private:
    void emitUntil(qint64 nowNs, bool final);

    int m_runIndex;
    qint64 m_intervalNs;
    RunObserver &m_observer;
    QElapsedTimer m_clock;
    qint64 m_total = 0;
    qint64 m_pending = 0;     ///< bytes in the interval not yet emitted
    qint64 m_lastEmitNs = 0;
    qint64 m_finishedNs = -1;
    SampleList m_samples;
};

} // namespace wb
