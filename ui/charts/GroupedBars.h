#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

class QCustomPlot;
class QCPBars;
class QCPErrorBars;
class QCPItemText;

namespace wb {

/// The grouped bar chart drawn on a QCustomPlot: groups along the x axis (group i at key i + 1), one series of
/// bars per host (or OS, session, ...) side by side within a group, error bars, a value label on each bar and a
/// labelled gap where a bar has no value. The Measure tab's ComparisonChart and the history's ComparisonView
/// both draw through it; what a bar means (median, mean, which error) is theirs.
class GroupedBars
{
public:
    struct Style
    {
        int uprightPadding = 4;  ///< pixels between the bar top and an upright (narrow) label
        bool uprightGaps = true; ///< gap labels turn upright too when the chart is narrow
    };

    /// One bar; values in the chart's unit.
    struct Bar
    {
        int group = 0;
        double value = 0;
        double minus = qQNaN(); ///< error bar below the value; NaN = none
        double plus = qQNaN();  ///< error bar above it; NaN = none
        double top = 0;         ///< how high the bar reaches, for the y range
        double labelAt = 0;     ///< where its value label sits
        QString label;
        QColor labelColor; ///< invalid = the plot's default
    };

    /// A group without a bar of this series: only a label at the axis ("failed", "not run").
    struct Gap
    {
        int group = 0;
        QString label;
        QColor color;
        bool italic = false;
    };

    GroupedBars(QCustomPlot *plot, Style style);

    /// Removes every bar, error bar and label.
    void clear();
    /// The x ticks (one per group) and how many series will share each group.
    void setGroups(const QStringList &tickLabels, int seriesCount);
    /// A series: its bars take `color` (outlined darker) and `legend` names them.
    void addSeries(const QString &key, const QString &legend, const QColor &color);
    QCPItemText *addBar(const Bar &bar);
    QCPItemText *addGap(const Gap &gap);
    /// Hands each series its bars and sets the ranges: x around the groups, y to the highest bar x headRoom.
    void finish(double headRoom);

    /// Key (x) of the current series' bar in `group`.
    double keyOf(int group) const;
    double drawnWidth() const { return m_barWidth * 0.92; }
    /// Labels that do not fit across a bar are drawn upright along it.
    bool narrow() const { return m_narrow; }

    QCPBars *bars(const QString &key) const;
    QCPErrorBars *errors(const QString &key) const;
    QStringList labelTexts() const;

private:
    struct Series
    {
        QString key;
        QCPBars *bars = nullptr;
        QCPErrorBars *errors = nullptr;
        QVector<double> keys, values, minus, plus;
    };

    QCPItemText *newLabel(double key, double y);
    void standUp(QCPItemText *label, int padding) const;

    QCustomPlot *m_plot = nullptr;
    Style m_style;
    QList<Series> m_series;
    QList<QCPItemText *> m_labels;
    int m_groups = 0;
    int m_seriesCount = 0;
    double m_barWidth = 0.8;
    bool m_narrow = false;
    double m_yMax = 0;
};

} // namespace wb
