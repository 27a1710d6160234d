#pragma once

#include "stats/Units.h"

#include <QColor>
#include <QComboBox>
#include <QString>

class QCustomPlot;
class QCPItemText;
class QHBoxLayout;
class QCPTextElement;

namespace wb {

/// Looks shared by every chart, so that a host has the same colour in every chart and every export.
class ChartStyle
{
public:
    /// A colour that stays the same for a host name for the life of the process and, as long as hosts
    /// do not collide in the palette, across runs of the program (the slot is derived from the name).
    static QColor hostColor(const QString &hostName);
    /// Colour of the n-th (0-based) repetition line in the live graph.
    static QColor seriesColor(int index);
    /// Title element at the top of the plot (exports carry it).
    static QCPTextElement *addTitle(QCustomPlot *plot, const QString &text);
    /// A centred grey text that explains an empty chart ("Press Start to measure...").
    static QCPItemText *addHint(QCustomPlot *plot, const QString &text);
    static void styleAxes(QCustomPlot *plot);
    /// Moves the legend out of the axis rect into a row under the plot, entries side by side as far as the
    /// chart's width allows, long names broken into lines (ChartLegendRow).
    static void placeLegendBelow(QCustomPlot *plot);
    /// text broken into lines of at most width pixels in font (a little less, for viewers with other metrics): at
    /// spaces and hyphens, or anywhere in a word longer than a line. Existing line breaks stay.
    static QString wrapText(const QString &text, const QFont &font, int width);
    /// Lays out a chart widget: header (ending in "Unit:" and unit) above plot, which takes the rest.
    static void stackUnderHeader(QWidget *chart, QHBoxLayout *header, QComboBox *unit, QCustomPlot *plot);
};

/// A combo box offering MB/s, MiB/s and Mbit/s (objectName "unitCombo").
class UnitComboBox : public QComboBox
{
    Q_OBJECT
public:
    explicit UnitComboBox(QWidget *parent = nullptr);
    RateUnit unit() const;
    void setUnit(RateUnit unit);

signals:
    void unitChanged(wb::RateUnit unit);
};

} // namespace wb
