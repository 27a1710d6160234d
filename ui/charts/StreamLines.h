#pragma once

#include <QList>
#include <QVector>

#include <functional>

class QColor;
class QCPGraph;
class QCustomPlot;

namespace wb {

/// The thin lines of each parallel stream under one repetition's line of the live graph (Sample::streamBytes).
/// They follow the repetition's points one for one: the same ends and intervals, merged in pairs when it is
/// decimated, so the streams' lines always add up to the sum drawn above them.
class StreamLines
{
public:
    /// bytes, interval in seconds -> the value drawn
    using Value = std::function<double(double bytes, double interval)>;

    int streams() const { return int(m_graphs.size()); }
    QCPGraph *graph(int stream) const { return stream >= 0 && stream < streams() ? m_graphs.at(stream) : nullptr; }
    /// One sample's shares, held until the repetition's line takes its next point (commit).
    /// reverse: of the second direction of a run both ways at once (dashed, named "receive").
    void addPending(QCustomPlot *plot, const QList<qint64> &bytes, int repetition, bool reverse);
    /// The repetition's line took a point at `end`: each stream takes its pending bytes as a point too.
    void commit(double end, double interval, const Value &value);
    /// The repetition's points were merged in pairs; oddLastPending: its odd last point became pending again.
    void mergePairs(bool oddLastPending);
    /// Redraws every line from its bytes (after a change of unit or a merge); intervals are the repetition's.
    void rebuild(const QVector<double> &ends, const QVector<double> &intervals, const Value &value);
    void setVisible(bool visible);

private:
    QList<QCPGraph *> m_graphs;
    QVector<QVector<double>> m_bytes; ///< [stream][point]
    QVector<double> m_pending;        ///< [stream]
    bool m_visible = false;
};

} // namespace wb
