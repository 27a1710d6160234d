#include "ChartLegendItem.h"

#include "ChartStyle.h"

namespace wb {

ChartLegendItem::ChartLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable)
    : QCPPlottableLegendItem(legend, plottable)
{
}

QString ChartLegendItem::shownText() const
{
    if (!mPlottable)
        return {};
    return m_maxTextWidth > 0 ? ChartStyle::wrapText(mPlottable->name(), getFont(), m_maxTextWidth)
                              : mPlottable->name();
}

QSize ChartLegendItem::minimumOuterSizeHint() const
{
    if (!mPlottable)
        return {};
    const QSize icon = mParentLegend->iconSize();
    const QRect text = QFontMetrics(getFont()).boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, shownText());
    return {icon.width() + mParentLegend->iconTextPadding() + text.width() + mMargins.left() + mMargins.right(),
            std::max(text.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
}

namespace {
// QCPAbstractPlottable::drawLegendIcon is protected (only QCustomPlot's own legend item class is its friend); a
// using-declaration in a derived class names it publicly, and the call through the pointer stays virtual.
struct LegendIcon : QCPAbstractPlottable
{
    using QCPAbstractPlottable::drawLegendIcon;
};
} // namespace

void ChartLegendItem::draw(QCPPainter *painter)
{
    // QCPPlottableLegendItem::draw with the name in lines: the icon at the top left, the lines beside it.
    if (!mPlottable)
        return;
    painter->setFont(getFont());
    painter->setPen(QPen(getTextColor()));
    const QString text = shownText();
    const QSize icon = mParentLegend->iconSize();
    const QRect textRect = painter->fontMetrics().boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, text);
    painter->drawText(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(), textRect.width(),
                      std::max(textRect.height(), icon.height()), Qt::TextDontClip, text);
    const QRect iconRect(mRect.topLeft(), icon);
    painter->save();
    painter->setClipRect(iconRect, Qt::IntersectClip);
    (mPlottable->*(&LegendIcon::drawLegendIcon))(painter, iconRect);
    painter->restore();
    if (getIconBorderPen().style() != Qt::NoPen) {
        painter->setPen(getIconBorderPen());
        painter->setBrush(Qt::NoBrush);
        const int halfPen = qCeil(painter->pen().widthF() * 0.5) + 1;
        painter->setClipRect(mOuterRect.adjusted(-halfPen, -halfPen, halfPen, halfPen));
        painter->drawRect(iconRect);
    }
}

} // namespace wb
