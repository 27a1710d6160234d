#include "ChartStyle.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QVBoxLayout>

namespace wb {

namespace {

// Colour-blind friendly palette (Okabe-Ito, then Tableau extras).
const QList<QColor> &palette()
{
    static const QList<QColor> colors{
        QColor(0, 114, 178),  QColor(230, 159, 0),  QColor(0, 158, 115), QColor(204, 121, 167),
        QColor(213, 94, 0),   QColor(86, 180, 233), QColor(120, 120, 120), QColor(240, 200, 40),
        QColor(148, 103, 189), QColor(140, 86, 75),
    };
    return colors;
}

quint32 fnv1a(const QString &text)
{
    quint32 hash = 2166136261u;
    for (QChar c : text) {
        hash ^= c.unicode();
        hash *= 16777619u;
    }
    return hash;
}

} // namespace

QColor ChartStyle::hostColor(const QString &hostName)
{
    // First choice is the name's own slot; a later host whose slot is taken gets the next free one.
    static QHash<QString, int> assigned;
    auto it = assigned.constFind(hostName);
    if (it != assigned.constEnd())
        return palette().at(*it);
    const int n = int(palette().size());
    const int preferred = int(fnv1a(hostName) % quint32(n));
    int slot = preferred;
    if (assigned.size() < n) {
        const QList<int> taken = assigned.values();
        while (taken.contains(slot))
            slot = (slot + 1) % n;
    }
    assigned.insert(hostName, slot);
    return palette().at(slot);
}

QColor ChartStyle::seriesColor(int index)
{
    return palette().at(index % palette().size());
}

QCPTextElement *ChartStyle::addTitle(QCustomPlot *plot, const QString &text)
{
    plot->plotLayout()->insertRow(0);
    QFont font = plot->font();
    font.setPointSizeF(font.pointSizeF() * 1.25);
    font.setBold(true);
    auto *title = new QCPTextElement(plot, text, font);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

QCPItemText *ChartStyle::addHint(QCustomPlot *plot, const QString &text)
{
    auto *hint = new QCPItemText(plot);
    hint->setClipToAxisRect(false);
    hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    hint->position->setCoords(0.5, 0.5);
    hint->setPositionAlignment(Qt::AlignCenter);
    hint->setText(text);
    QFont font = plot->font();
    font.setPointSizeF(font.pointSizeF() * 1.2);
    hint->setFont(font);
    hint->setColor(QColor(110, 110, 110));
    hint->setLayer(QStringLiteral("overlay"));
    return hint;
}

void ChartStyle::placeLegendBelow(QCustomPlot *plot)
{
    // Below the axis rect the legend never hides data or value labels, in the window and in exports.
    // It sits between two empty elements: an empty legend reports a tiny maximum width, which would
    // otherwise squeeze the whole plot's column (QCustomPlot 2.1 layout rules).
    auto *legend = plot->legend;
    if (QCPLayoutInset *inset = plot->axisRect()->insetLayout(); inset->elementCount() > 0)
        inset->take(legend);
    QCPLayoutGrid *layout = plot->plotLayout();
    const int row = layout->rowCount();
    auto *legendRow = new QCPLayoutGrid;
    layout->addElement(row, 0, legendRow);
    layout->setRowStretchFactor(row, 0.001);
    legendRow->addElement(0, 0, new QCPLayoutElement(plot));
    legendRow->addElement(0, 1, legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(plot));
    legendRow->setColumnStretchFactors({1, 0.001, 1});
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(8, 2, 8, 4));
}

void ChartStyle::styleAxes(QCustomPlot *plot)
{
    QFont labelFont = plot->font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 1.05);
    plot->xAxis->setLabelFont(labelFont);
    plot->yAxis->setLabelFont(labelFont);
    plot->xAxis->grid()->setSubGridVisible(false);
    plot->yAxis->grid()->setSubGridVisible(true);
    plot->legend->setVisible(true);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->setNoAntialiasingOnDrag(true);
}

void ChartStyle::stackUnderHeader(QWidget *chart, QHBoxLayout *header, QComboBox *unit, QCustomPlot *plot)
{
    auto *unitLabel = new QLabel(QObject::tr("Unit:"), chart);
    unitLabel->setBuddy(unit);
    header->addWidget(unitLabel);
    header->addWidget(unit);
    auto *layout = new QVBoxLayout(chart);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(plot, 1);
}

UnitComboBox::UnitComboBox(QWidget *parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("unitCombo"));
    for (RateUnit u : {RateUnit::MBps, RateUnit::MiBps, RateUnit::Mbps})
        addItem(Units::label(u), QVariant::fromValue(int(u)));
    setToolTip(tr("MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s, Mbit/s = 10^6 bits/s"));
    connect(this, &QComboBox::currentIndexChanged, this, [this] { emit unitChanged(unit()); });
}

RateUnit UnitComboBox::unit() const
{
    return RateUnit(currentData().toInt());
}

void UnitComboBox::setUnit(RateUnit unit)
{
    const int index = findData(int(unit));
    if (index >= 0 && index != currentIndex())
        setCurrentIndex(index);
}

} // namespace wb
