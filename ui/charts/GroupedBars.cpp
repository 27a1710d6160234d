#include "GroupedBars.h"

#include <qcustomplot.h>

#include <algorithm>

namespace wb {

GroupedBars::GroupedBars(QCustomPlot *plot, Style style)
    : m_plot(plot)
    , m_style(style)
{
}

void GroupedBars::clear()
{
    for (QCPItemText *label : std::as_const(m_labels))
        m_plot->removeItem(label);
    m_labels.clear();
    m_plot->clearPlottables();
    m_series.clear();
    m_yMax = 0;
}

void GroupedBars::setGroups(const QStringList &tickLabels, int seriesCount)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < tickLabels.size(); ++i)
        ticker->addTick(i + 1, tickLabels.at(i));
    m_plot->xAxis->setTicker(ticker);
    m_groups = int(tickLabels.size());
    m_seriesCount = seriesCount;
    const double groupWidth = 0.8;
    m_barWidth = seriesCount > 0 ? groupWidth / seriesCount : groupWidth;
    m_narrow = seriesCount * std::max(1, m_groups) > 6;
}

void GroupedBars::addSeries(const QString &key, const QString &legend, const QColor &color)
{
    Series s;
    s.key = key;
    s.bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    s.bars->setName(legend);
    s.bars->setPen(QPen(color.darker(130)));
    s.bars->setBrush(color);
    s.bars->setWidth(drawnWidth());
    s.errors = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
    s.errors->removeFromLegend();
    s.errors->setDataPlottable(s.bars);
    s.errors->setPen(QPen(QColor(40, 40, 40), 1.5));
    s.errors->setWhiskerWidth(10);
    m_series << s;
}

double GroupedBars::keyOf(int group) const
{
    const qsizetype index = m_series.size() - 1;
    const double offset = (index - (m_seriesCount - 1) / 2.0) * m_barWidth;
    return group + 1 + offset;
}

QCPItemText *GroupedBars::newLabel(double key, double y)
{
    auto *label = new QCPItemText(m_plot);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->setClipToAxisRect(true);
    label->position->setCoords(key, y);
    m_labels << label;
    return label;
}

void GroupedBars::standUp(QCPItemText *label, int padding) const
{
    label->setRotation(-90);
    label->setPositionAlignment(Qt::AlignVCenter | Qt::AlignLeft);
    label->setPadding(QMargins(padding, 0, 0, 0));
}

QCPItemText *GroupedBars::addBar(const Bar &bar)
{
    Series &s = m_series.last();
    const double key = keyOf(bar.group);
    s.keys << key;
    s.values << bar.value;
    s.minus << bar.minus;
    s.plus << bar.plus;
    m_yMax = std::max(m_yMax, bar.top);
    QCPItemText *label = newLabel(key, bar.labelAt);
    if (bar.labelColor.isValid())
        label->setColor(bar.labelColor);
    label->setText(bar.label);
    if (m_narrow) {
        standUp(label, m_style.uprightPadding);
    } else {
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->setPadding(QMargins(0, 0, 0, 4));
    }
    return label;
}

QCPItemText *GroupedBars::addGap(const Gap &gap)
{
    QCPItemText *label = newLabel(keyOf(gap.group), 0);
    label->setText(gap.label);
    label->setColor(gap.color);
    if (gap.italic) {
        QFont italic = label->font();
        italic.setItalic(true);
        label->setFont(italic);
    }
    if (m_narrow && m_style.uprightGaps)
        standUp(label, 4);
    else
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    return label;
}

void GroupedBars::finish(double headRoom)
{
    for (Series &s : m_series) {
        s.bars->setData(s.keys, s.values, true);
        s.errors->setData(s.minus, s.plus);
    }
    m_plot->xAxis->setRange(0.4, std::max(1, m_groups) + 0.6);
    m_plot->yAxis->setRange(0, m_yMax > 0 ? m_yMax * headRoom : 100);
}

QCPBars *GroupedBars::bars(const QString &key) const
{
    for (const Series &s : m_series) {
        if (s.key == key)
            return s.bars;
    }
    return nullptr;
}

QCPErrorBars *GroupedBars::errors(const QString &key) const
{
    for (const Series &s : m_series) {
        if (s.key == key)
            return s.errors;
    }
    return nullptr;
}

QStringList GroupedBars::labelTexts() const
{
    QStringList texts;
    for (const QCPItemText *label : m_labels)
        texts << label->text();
    return texts;
}

} // namespace wb
