#pragma once

#include <QtGlobal>

#include <vector>

namespace wb {

class ThroughputMeter;

/// Byte spans that overlap in time (calls running at once on several connections) fed to a ThroughputMeter,
/// which takes spans one after the other: each call's bytes are spread evenly over its own span, the calls
/// summed, and the sum reported piece by piece in time order, up to a time before which no call can still
/// come (settled). Reported as they end instead, a call that started before the previous one ended would be
/// squeezed into the rest of its span, and the live graph would show a spike (up to 1.7x the line in a 100 ms
/// sample with two SMB write connections).
class ConcurrentSpans
{
public:
    void add(qint64 bytes, qint64 fromNs, qint64 toNs);
    /// Reports what lies before settledNs: every call yet to be added starts at or after it.
    void flush(qint64 settledNs, ThroughputMeter &meter);
    /// Reports everything (at the end).
    void flushAll(ThroughputMeter &meter);
    bool empty() const { return m_pending.empty(); }

private:
    struct Pending
    {
        qint64 bytes = 0;
        qint64 fromNs = 0;
        qint64 toNs = 0;
        qint64 given = 0; ///< bytes reported so far
    };
    /// The bytes of call p up to t (all of them from its end on).
    static qint64 upTo(const Pending &p, qint64 t);

    std::vector<Pending> m_pending;
    qint64 m_reportedTo = 0; ///< end of the last piece reported
    bool m_started = false;
};

} // namespace wb
