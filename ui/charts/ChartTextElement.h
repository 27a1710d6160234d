#pragma once

#include <qcustomplot.h>

namespace wb {

/// A text row of a chart (title, warning note, footnote) that breaks its lines to the chart's width instead of
/// running past its edge, on screen and in every export (the layout is computed for the size drawn).
/// QCPTextElement asks for its text's full width, which widens the whole plot layout past the viewport.
/// It must span the plot layout's whole width (a row of the top-level layout), as every chart row here does.
class ChartTextElement : public QCPTextElement
{
    Q_OBJECT
    Q_PROPERTY(QString shownText READ shownText) // for tests that check what is drawn
public:
    ChartTextElement(QCustomPlot *plot, const QString &text, const QFont &font);
    ChartTextElement(QCustomPlot *plot, const QString &text);

    /// The text as last drawn: broken into the lines that fit (text() keeps it as given).
    QString shownText() const { return m_shown; }

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

private:
    /// Width the text may take before the layout gives the element its rect: the plot's, less the margins.
    int availableWidth() const;
    QSize wrappedSize() const;

    QString m_shown;
};

} // namespace wb
