#pragma once

#include <qcustomplot.h>

#include <QRegularExpression>
#include <QStringList>

/// What of a chart's legend entries and text rows (title, warning note, footnote), as last laid out, is not
/// whole inside `area` (the widget, or the size of the export just drawn): one line per problem, empty when all
/// is well. An element is whole when its rect lies inside the area, the rect holds the size the element asks for,
/// and the text it draws (the "shownText" property where the element breaks its lines, else its text) holds
/// every character of its text and no line wider than the rect.
inline QString chartTextOutside(QCustomPlot *plot, const QRect &area)
{
    // The sizes elements ask for depend on the width drawn: ask them at the area's (an export's) size.
    const QRect viewport = plot->viewport();
    plot->setViewport(area);
    QStringList problems;
    const auto squeezed = [](QString s) { return s.remove(QRegularExpression(QStringLiteral("\\s"))); };
    const auto check = [&](QCPLayoutElement *element, const QString &text, const QFont &font, int textWidth) {
        const QRect outer = element->outerRect();
        const QSize wanted = element->minimumOuterSizeHint();
        const QVariant shownProperty = element->property("shownText");
        const QString shown = shownProperty.isValid() ? shownProperty.toString() : text;
        const QString what = QStringLiteral("\"%1\"").arg(text.left(40));
        if (!area.contains(outer))
            problems << QStringLiteral("%1: rect (%2,%3 %4x%5) leaves the chart (%6x%7)")
                            .arg(what)
                            .arg(outer.x())
                            .arg(outer.y())
                            .arg(outer.width())
                            .arg(outer.height())
                            .arg(area.width())
                            .arg(area.height());
        if (wanted.width() > outer.width() || wanted.height() > outer.height())
            problems << QStringLiteral("%1: needs %2x%3, has %4x%5")
                            .arg(what)
                            .arg(wanted.width())
                            .arg(wanted.height())
                            .arg(outer.width())
                            .arg(outer.height());
        if (squeezed(shown) != squeezed(text))
            problems << QStringLiteral("%1: drawn as \"%2\"").arg(what, shown);
        const QFontMetrics metrics(font);
        for (const QString &line : shown.split(QLatin1Char('\n'))) {
            if (metrics.horizontalAdvance(line) > textWidth)
                problems << QStringLiteral("%1: line \"%2\" is %3 px wide in %4 px")
                                .arg(what, line)
                                .arg(metrics.horizontalAdvance(line))
                                .arg(textWidth);
        }
    };
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (!element)
            continue;
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(element)) {
            if (!item->parentLegend()->visible())
                continue;
            const QCPLegend *legend = item->parentLegend();
            check(item, item->plottable()->name(), item->font(),
                  item->rect().width() - legend->iconSize().width() - legend->iconTextPadding());
        } else if (auto *text = qobject_cast<QCPTextElement *>(element)) {
            if (!text->text().isEmpty())
                check(text, text->text(), text->font(), text->rect().width());
        } else if (auto *axes = qobject_cast<QCPAxisRect *>(element); axes && !area.contains(axes->outerRect())) {
            problems << QStringLiteral("the axis rect leaves the chart");
        }
    }
    plot->setViewport(viewport);
    return problems.join(QLatin1Char('\n'));
}
