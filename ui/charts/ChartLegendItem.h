#pragma once

#include <qcustomplot.h>

namespace wb {

/// A legend entry whose name breaks into lines at a maximum width (ChartLegendRow sets it from the chart's
/// width), so that a long host name and OS label stays whole inside the chart instead of running past its edge.
class ChartLegendItem : public QCPPlottableLegendItem
{
    Q_OBJECT
    Q_PROPERTY(QString shownText READ shownText) // for tests that check what is drawn
public:
    ChartLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable);

    /// Pixels the name may take on one line; 0 = no limit.
    void setMaxTextWidth(int pixels) { m_maxTextWidth = pixels; }
    int maxTextWidth() const { return m_maxTextWidth; }
    /// The plottable's name broken into the lines it is drawn with.
    QString shownText() const;

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    int m_maxTextWidth = 0;
};

} // namespace wb
