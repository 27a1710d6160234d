#pragma once

#include <qcustomplot.h>

namespace wb {

/// The row under a chart that holds its legend, centred between two empty elements (an empty legend reports a
/// tiny maximum width, which would otherwise squeeze the whole plot's column: QCustomPlot 2.1 layout rules).
/// Before each layout (on screen and in every export, at the size drawn) it fits the legend to the chart's width:
/// as many entries side by side as fit (at most kMaxColumns), and a name too long for one line broken into lines
/// (ChartLegendItem), so that every entry is whole. QCustomPlot's own entries are swapped for ChartLegendItems.
class ChartLegendRow : public QCPLayoutGrid
{
    Q_OBJECT
public:
    static constexpr int kMaxColumns = 4;

    /// Takes plot->legend out of wherever it is and holds it; add the row to the plot's layout.
    explicit ChartLegendRow(QCustomPlot *plot);

    void update(UpdatePhase phase) override;

private:
    QList<QCPAbstractLegendItem *> entries() const;
    void useChartItems();
    void fitTo(int width);

    QCPLegend *m_legend = nullptr;
};

} // namespace wb
