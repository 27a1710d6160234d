#include "ComparisonChart.h"

#include "ChartExporter.h"
#include "ChartStyle.h"
#include "stats/TestSummary.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

namespace {
const QString kIdleHint = QObject::tr("Press Start to measure.\nOne bar per host and test appears here as runs end.");

QString hostKey(const Host &host)
{
    return host.displayName() + QLatin1Char('|') + host.address;
}
} // namespace

ComparisonChart::ComparisonChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("comparisonChart"));
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("comparisonPlot"));
    m_plot->setMinimumSize(320, 200);
    m_title = ChartStyle::addTitle(m_plot, tr("Throughput per test"));
    ChartStyle::styleAxes(m_plot);
    m_plot->xAxis->setLabel(tr("Test (protocol @ Ethernet frame size)"));
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLength(0, 4);
    ChartStyle::placeLegendBelow(m_plot);
    m_plot->legend->setVisible(false);
    m_hint = ChartStyle::addHint(m_plot, kIdleHint);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ComparisonChart::showContextMenu);

    m_unitCombo = new UnitComboBox(this);
    connect(m_unitCombo, &UnitComboBox::unitChanged, this, &ComparisonChart::setUnit);
    auto *header = new QHBoxLayout;
    header->addStretch(1);
    auto *unitLabel = new QLabel(tr("Unit:"), this);
    unitLabel->setBuddy(m_unitCombo);
    header->addWidget(unitLabel);
    header->addWidget(m_unitCombo);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_plot, 1);
    rebuild();
}

QCPBars *ComparisonChart::barsForHost(const QString &hostName) const
{
    for (const HostBars &h : m_hostBars) {
        if (h.name == hostName)
            return h.bars;
    }
    return nullptr;
}

QCPErrorBars *ComparisonChart::errorBarsForHost(const QString &hostName) const
{
    for (const HostBars &h : m_hostBars) {
        if (h.name == hostName)
            return h.errors;
    }
    return nullptr;
}

QStringList ComparisonChart::valueLabels() const
{
    QStringList texts;
    for (const QCPItemText *label : m_labels)
        texts << label->text();
    return texts;
}

QString ComparisonChart::title() const
{
    return m_title->text();
}

void ComparisonChart::setUnit(RateUnit unit)
{
    m_unitCombo->setUnit(unit);
    if (unit == m_unit)
        return;
    m_unit = unit;
    rebuild();
    emit unitChanged(unit);
}

void ComparisonChart::clear()
{
    m_results.clear();
    rebuild();
}

void ComparisonChart::addResult(const RunResult &result)
{
    m_results.append(result);
    rebuild();
}

void ComparisonChart::setResults(const RunResultList &results)
{
    m_results = results;
    rebuild();
}

void ComparisonChart::rebuild()
{
    for (QCPItemText *label : std::as_const(m_labels))
        m_plot->removeItem(label);
    m_labels.clear();
    m_plot->clearPlottables();
    m_hostBars.clear();
    m_testKeys.clear();

    const QList<TestSummary> summaries = TestSummary::build(m_results);
    QStringList hostKeys;
    QList<Host> hosts;
    int maxReps = 0;
    for (const TestSummary &t : summaries) {
        const QString key = t.protocol + QLatin1String(" @ ") + QString::number(t.frameSize);
        if (!m_testKeys.contains(key))
            m_testKeys << key;
        if (!hostKeys.contains(hostKey(t.host))) {
            hostKeys << hostKey(t.host);
            hosts << t.host;
        }
        maxReps = std::max(maxReps, t.okRuns + t.failedRuns);
    }

    m_plot->yAxis->setLabel(tr("Throughput (%1)").arg(Units::label(m_unit)));
    m_title->setText(maxReps > 1 ? tr("Throughput per test\nmedian of %1 repetitions, error bars from min to max").arg(maxReps)
                                 : tr("Throughput per test"));
    m_hint->setVisible(summaries.isEmpty());
    m_plot->legend->setVisible(!summaries.isEmpty());

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < m_testKeys.size(); ++i) {
        QString label = m_testKeys.at(i);
        label.replace(QLatin1String(" @ "), QLatin1String("\n"));
        ticker->addTick(i + 1, label + QLatin1String(" B frame"));
    }
    m_plot->xAxis->setTicker(ticker);

    const int nHosts = int(hosts.size());
    const double groupWidth = 0.8;
    const double barWidth = nHosts > 0 ? groupWidth / nHosts : groupWidth;
    // Labels that do not fit across a bar are drawn upright along it.
    const bool narrow = nHosts * std::max<qsizetype>(1, m_testKeys.size()) > 6;
    double yMax = 0;
    for (int h = 0; h < nHosts; ++h) {
        const Host &host = hosts.at(h);
        HostBars hb;
        hb.name = host.displayName();
        hb.bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        const QString os = host.osLabel;
        hb.bars->setName(os.isEmpty() ? host.displayName() : tr("%1 (%2)").arg(host.displayName(), os));
        const QColor color = ChartStyle::hostColor(host.displayName());
        hb.bars->setPen(QPen(color.darker(130)));
        hb.bars->setBrush(color);
        hb.bars->setWidth(barWidth * 0.92);
        hb.errors = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
        hb.errors->removeFromLegend();
        hb.errors->setDataPlottable(hb.bars);
        hb.errors->setPen(QPen(QColor(40, 40, 40), 1.5));
        hb.errors->setWhiskerWidth(10);
        QVector<double> keys, values, minus, plus;
        const double offset = (h - (nHosts - 1) / 2.0) * barWidth;
        for (const TestSummary &t : summaries) {
            if (hostKey(t.host) != hostKey(host))
                continue;
            const QString testKey = t.protocol + QLatin1String(" @ ") + QString::number(t.frameSize);
            const double key = m_testKeys.indexOf(testKey) + 1 + offset;
            auto *label = new QCPItemText(m_plot);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->setClipToAxisRect(true);
            if (t.okRuns == 0) {
                label->position->setCoords(key, 0);
                label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
                label->setText(tr("failed"));
                label->setColor(QColor(190, 30, 30));
                m_labels << label;
                continue;
            }
            const double median = Units::fromBytesPerSecond(t.MBps.median * 1e6, m_unit);
            const double lo = Units::fromBytesPerSecond(t.MBps.min * 1e6, m_unit);
            const double hi = Units::fromBytesPerSecond(t.MBps.max * 1e6, m_unit);
            keys << key;
            values << median;
            minus << median - lo;
            plus << hi - median;
            yMax = std::max(yMax, hi);
            label->position->setCoords(key, hi);
            label->setText(Units::format(t.MBps.median * 1e6, m_unit));
            if (narrow) {
                label->setRotation(-90);
                label->setPositionAlignment(Qt::AlignVCenter | Qt::AlignLeft);
                label->setPadding(QMargins(4, 0, 0, 0));
            } else {
                label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
                label->setPadding(QMargins(0, 0, 0, 4));
            }
            m_labels << label;
        }
        hb.bars->setData(keys, values, true);
        hb.errors->setData(minus, plus);
        m_hostBars << hb;
    }
    m_plot->xAxis->setRange(0.4, std::max<qsizetype>(1, m_testKeys.size()) + 0.6);
    // Head room for the labels above the highest error bar.
    m_plot->yAxis->setRange(0, yMax > 0 ? yMax * (narrow ? 1.45 : 1.15) : 100);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ComparisonChart::showContextMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addAction(tr("Export comparison chart..."), this, [this] {
        ChartExporter::exportWithDialog(this, m_plot, QStringLiteral("wirebench-comparison"));
    });
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace wb
