#include "ChartLegendRow.h"

#include "ChartLegendItem.h"

#include <algorithm>

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

QList<QCPAbstractLegendItem *> ChartLegendRow::entries() const
{
    // itemCount() counts the grid's cells, and the last row of a wrapped legend may have empty ones.
    QList<QCPAbstractLegendItem *> items;
    for (int i = 0; i < m_legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_legend->item(i))
            items << item;
    }
    return items;
}

void ChartLegendRow::useChartItems()
{
    const QList<QCPAbstractLegendItem *> items = entries();
    const bool foreign = std::any_of(items.cbegin(), items.cend(), [](QCPAbstractLegendItem *item) {
        return !qobject_cast<ChartLegendItem *>(item);
    });
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
    const QList<QCPAbstractLegendItem *> items = entries();
    const int n = int(items.size());
    if (n == 0 || width <= 0)
        return;
    const QMargins legendMargins = m_legend->margins();
    for (QCPAbstractLegendItem *entry : items) {
        if (auto *item = qobject_cast<ChartLegendItem *>(entry)) {
            const int room = width - legendMargins.left() - legendMargins.right() - item->margins().left()
                - item->margins().right() - m_legend->iconSize().width() - m_legend->iconTextPadding();
            item->setMaxTextWidth(std::max(40, room));
        }
    }
    // The most entries side by side that fit (entry i in column i % columns); one column of broken names always
    // does. Measured here, so that the legend is rearranged only when the count changes.
    QList<int> widths;
    for (QCPAbstractLegendItem *item : items)
        widths << static_cast<QCPLayoutElement *>(item)->minimumOuterSizeHint().width();
    int columns = std::min(n, kMaxColumns);
    for (; columns > 1; --columns) {
        QList<int> columnWidths(columns, 0);
        for (int i = 0; i < n; ++i)
            columnWidths[i % columns] = std::max(columnWidths[i % columns], widths.at(i));
        int total = legendMargins.left() + legendMargins.right() + (columns - 1) * m_legend->columnSpacing();
        for (int w : std::as_const(columnWidths))
            total += w;
        if (total <= width)
            break;
    }
    if (m_legend->wrap() != columns) {
        m_legend->setWrap(columns);
        m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

} // namespace wb
