#include "StreamLines.h"

#include "ChartStyle.h"

#include <qcustomplot.h>

namespace wb {

void StreamLines::addPending(QCustomPlot *plot, const QList<qint64> &bytes, int repetition, bool reverse)
{
    if (m_graphs.isEmpty() && bytes.size() > 1) {
        // Lighter and thinner than the sum, in the repetition's colour; out of the legend (up to 128 of them).
        QColor color = ChartStyle::seriesColor(repetition - 1);
        color.setAlpha(130);
        QPen pen(color);
        pen.setWidthF(1);
        if (reverse)
            pen.setStyle(Qt::DashLine);
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            QCPGraph *g = plot->addGraph();
            g->setName(reverse ? QObject::tr("rep %1 receive, stream %2").arg(repetition).arg(i + 1)
                               : QObject::tr("rep %1, stream %2").arg(repetition).arg(i + 1));
            g->setPen(pen);
            g->setAdaptiveSampling(true);
            g->removeFromLegend();
            g->setVisible(m_visible);
            m_graphs.append(g);
        }
        m_bytes.resize(bytes.size());
        m_pending.fill(0.0, bytes.size());
    }
    for (qsizetype i = 0; i < qMin(bytes.size(), m_pending.size()); ++i)
        m_pending[i] += double(bytes.at(i));
}

void StreamLines::commit(double end, double interval, const Value &value)
{
    for (qsizetype i = 0; i < m_pending.size(); ++i) {
        m_bytes[i].append(m_pending.at(i));
        m_graphs.at(i)->addData(end, value(m_pending.at(i), interval));
        m_pending[i] = 0;
    }
}

void StreamLines::mergePairs(bool oddLastPending)
{
    for (qsizetype k = 0; k < m_bytes.size(); ++k) {
        QVector<double> &b = m_bytes[k];
        QVector<double> merged;
        merged.reserve(b.size() / 2);
        for (qsizetype i = 0; i + 1 < b.size(); i += 2)
            merged.append(b.at(i) + b.at(i + 1));
        if (oddLastPending && b.size() % 2)
            m_pending[k] += b.last();
        b = merged;
    }
}

void StreamLines::rebuild(const QVector<double> &ends, const QVector<double> &intervals, const Value &value)
{
    for (qsizetype k = 0; k < m_bytes.size(); ++k) {
        const QVector<double> &b = m_bytes.at(k);
        QVector<double> values(b.size());
        for (qsizetype i = 0; i < b.size(); ++i)
            values[i] = value(b.at(i), intervals.value(i));
        m_graphs.at(k)->setData(ends.mid(0, b.size()), values, true);
    }
}

void StreamLines::setVisible(bool visible)
{
    m_visible = visible;
    for (QCPGraph *g : m_graphs)
        g->setVisible(visible);
}

} // namespace wb
