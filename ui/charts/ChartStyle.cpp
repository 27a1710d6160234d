#include "ChartStyle.h"

#include "ChartLegendRow.h"
#include "ChartTextElement.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QTextLayout>
#include <QVBoxLayout>

namespace wb {

namespace {

// Colour-blind friendly palette (Okabe-Ito, then Tableau extras).
const QList<QColor> &palette()
{
    static const QList<QColor> colors{
        QColor(0, 114, 178),  QColor(230, 159, 0),   QColor(0, 158, 115),  QColor(204, 121, 167), QColor(213, 94, 0),
        QColor(86, 180, 233), QColor(120, 120, 120), QColor(240, 200, 40), QColor(148, 103, 189), QColor(140, 86, 75),
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
    auto *title = new ChartTextElement(plot, text, font); // a long host name breaks into lines
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
    QCPLayoutGrid *layout = plot->plotLayout();
    const int row = layout->rowCount();
    layout->addElement(row, 0, new ChartLegendRow(plot));
    layout->setRowStretchFactor(row, 0.001);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setMargins(QMargins(8, 2, 8, 4));
}

QString ChartStyle::wrapText(const QString &text, const QFont &font, int width)
{
    if (width <= 0)
        return text;
    // A little short of the width: fractional advances round up, and a viewer of an SVG or PDF draws with its own
    // font's metrics, a few percent wider at small sizes than the screen's hinted ones.
    const qreal lineWidth = std::max(1.0, width * 0.96 - 1);
    QStringList lines;
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // a long host name has no spaces
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QTextLayout layout(paragraph, font);
        layout.setTextOption(option);
        layout.beginLayout();
        const qsizetype before = lines.size();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(lineWidth);
            QString part = paragraph.mid(line.textStart(), line.textLength());
            while (!part.isEmpty() && part.back().isSpace()) // the space a line broke at
                part.chop(1);
            lines << part;
        }
        layout.endLayout();
        if (lines.size() == before)
            lines << QString(); // an empty paragraph stays an empty line
    }
    return lines.join(QLatin1Char('\n'));
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
