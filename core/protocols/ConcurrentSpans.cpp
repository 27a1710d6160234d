#include "ConcurrentSpans.h"

#include "protocols/ThroughputMeter.h"

#include <algorithm>
#include <limits>

namespace wb {

void ConcurrentSpans::add(qint64 bytes, qint64 fromNs, qint64 toNs)
{
    if (bytes <= 0)
        return;
    if (m_started)
        fromNs = std::max(fromNs, m_reportedTo); // cannot happen with a true settled time; kept exact anyway
    m_pending.push_back({bytes, fromNs, std::max(toNs, fromNs + 1), 0});
}

qint64 ConcurrentSpans::upTo(const Pending &p, qint64 t)
{
    if (t >= p.toNs)
        return p.bytes;
    if (t <= p.fromNs)
        return 0;
    return qint64(double(p.bytes) * double(t - p.fromNs) / double(p.toNs - p.fromNs));
}

void ConcurrentSpans::flush(qint64 settledNs, ThroughputMeter &meter)
{
    if (m_pending.empty())
        return;
    std::vector<qint64> cuts;
    for (const Pending &p : m_pending) {
        cuts.push_back(p.fromNs);
        cuts.push_back(p.toNs);
    }
    cuts.push_back(settledNs);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    qint64 from = m_started ? m_reportedTo : cuts.front();
    for (const qint64 to : cuts) {
        if (to <= from)
            continue;
        if (to > settledNs)
            break;
        qint64 bytes = 0;
        for (Pending &p : m_pending) {
            const qint64 now = upTo(p, to);
            bytes += now - p.given;
            p.given = now;
        }
        if (bytes > 0)
            meter.addSpan(bytes, from, to);
        from = to;
        m_reportedTo = to;
        m_started = true;
    }
    m_pending.erase(
        std::remove_if(m_pending.begin(), m_pending.end(), [](const Pending &p) { return p.given == p.bytes; }),
        m_pending.end());
}

void ConcurrentSpans::flushAll(ThroughputMeter &meter)
{
    qint64 end = std::numeric_limits<qint64>::min();
    for (const Pending &p : m_pending)
        end = std::max(end, p.toNs);
    flush(end, meter);
}

} // namespace wb
