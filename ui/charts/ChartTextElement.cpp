#include "ChartTextElement.h"

#include "ChartStyle.h"

namespace wb {

ChartTextElement::ChartTextElement(QCustomPlot *plot, const QString &text, const QFont &font)
    : QCPTextElement(plot, text, font)
{
}

ChartTextElement::ChartTextElement(QCustomPlot *plot, const QString &text)
    : QCPTextElement(plot, text)
{
}

int ChartTextElement::availableWidth() const
{
    return std::max(1, mParentPlot->viewport().width() - mMargins.left() - mMargins.right());
}

QSize ChartTextElement::wrappedSize() const
{
    if (mText.isEmpty())
        return {0, 0};
    const QString wrapped = ChartStyle::wrapText(mText, mFont, availableWidth());
    return QFontMetrics(mFont).boundingRect(0, 0, 0, 0, Qt::TextDontClip, wrapped).size();
}

QSize ChartTextElement::minimumOuterSizeHint() const
{
    QSize size = wrappedSize();
    size.rwidth() = std::min(size.width(), availableWidth()) + mMargins.left() + mMargins.right();
    size.rheight() += mMargins.top() + mMargins.bottom();
    return size;
}

QSize ChartTextElement::maximumOuterSizeHint() const
{
    return {QWIDGETSIZE_MAX, wrappedSize().height() + mMargins.top() + mMargins.bottom()};
}

void ChartTextElement::draw(QCPPainter *painter)
{
    painter->setFont(mainFont());
    painter->setPen(QPen(mainTextColor()));
    m_shown = ChartStyle::wrapText(mText, mainFont(), mRect.width());
    painter->drawText(mRect, mTextFlags, m_shown, &mTextBoundingRect);
}

} // namespace wb
