#include "ChartLegendRow.h"

#include "ChartLegendItem.h"

namespace wb {

ChartLegendRow::ChartLegendRow(QCustomPlot *plot)
    : QCPLayoutGrid()
    , m_legend(plot->legend)
{
    if (QCPLayout *owner = m_legend->layout())
        owner->take(m_legend);
    addElement(0, 0, new QCPLayoutElement(plot));
    addElement(0, 1, m_legend);
    addElement(0, 2, new QCPLayoutElement(plot));
    setColumnStretchFactors({1, 0.001, 1});
    setMargins(QMargins(0, 0, 0, 0));
    setColumnSpacing(0); // the legend may take the whole width
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setWrap(kMaxColumns);
}

void ChartLegendRow::update(UpdatePhase phase)
{
    // Preparation comes before any element is asked for its size, and the viewport is the size being drawn.
    if (phase == upPreparation && mParentPlot && m_legend->visible()) {
        useChartItems();
        fitTo(mParentPlot->viewport().width() - mMargins.left() - mMargins.right());
    }
    QCPLayoutGrid::update(phase);
}

void ChartLegendRow::useChartItems()
{
    QList<QCPAbstractLegendItem *> items;
    bool foreign = false;
    for (int i = 0; i < m_legend->itemCount(); ++i) {
        items << m_legend->item(i);
        foreign = foreign || !qobject_cast<ChartLegendItem *>(items.last());
    }
    if (!foreign)
        return;
    // Taken out and put back in the same order, each plottable's entry now a ChartLegendItem.
    for (QCPAbstractLegendItem *item : std::as_const(items))
        m_legend->take(item);
    m_legend->simplify();
    for (QCPAbstractLegendItem *item : std::as_const(items)) {
        auto *plain = qobject_cast<QCPPlottableLegendItem *>(item);
        if (plain && !qobject_cast<ChartLegendItem *>(item)) {
            auto *own = new ChartLegendItem(m_legend, plain->plottable());
            own->setFont(plain->font());
            own->setTextColor(plain->textColor());
            delete plain;
            item = own;
        }
        m_legend->addItem(item);
    }
}

void ChartLegendRow::fitTo(int width)
{
    const int n = m_legend->itemCount();
    if (n == 0 || width <= 0)
        return;
    const QMargins legendMargins = m_legend->margins();
    for (int i = 0; i < n; ++i) {
        if (auto *item = qobject_cast<ChartLegendItem *>(m_legend->item(i))) {
            const int room = width - legendMargins.left() - legendMargins.right() - item->margins().left()
                             - item->margins().right() - m_legend->iconSize().width() - m_legend->iconTextPadding();
            item->setMaxTextWidth(std::max(40, room));
        }
    }
    // The most entries side by side that fit; one column of broken names always does.
    for (int columns = std::min(n, kMaxColumns); columns >= 1; --columns) {
        if (m_legend->wrap() != columns) {
            m_legend->setWrap(columns);
            m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
        if (columns == 1 || m_legend->minimumOuterSizeHint().width() <= width)
            break;
    }
}

} // namespace wb
