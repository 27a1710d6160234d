#include "RunOverlayChart.h"

#include "ChartStyle.h"
#include "ExportExtras.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSet>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

RunOverlayChart::RunOverlayChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("runOverlayChart"));
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("runOverlayPlot"));
    m_plot->setMinimumSize(320, 200);
    m_title = ChartStyle::addTitle(m_plot, tr("Live graphs"));
    ChartStyle::styleAxes(m_plot);
    m_plot->xAxis->setLabel(tr("Time since the run's start (s)"));
    ChartStyle::placeLegendBelow(m_plot);
    m_hint = ChartStyle::addHint(m_plot, tr("Select runs to see their live graphs on one time axis."));
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &RunOverlayChart::showContextMenu);

    m_unitCombo = new UnitComboBox(this);
    connect(m_unitCombo, &UnitComboBox::unitChanged, this, &RunOverlayChart::setUnit);
    auto *header = new QHBoxLayout;
    header->addStretch(1);
    ChartStyle::stackUnderHeader(this, header, m_unitCombo, m_plot);
    rebuild();
}

QString RunOverlayChart::title() const
{
    return m_title->text();
}

RunResultList RunOverlayChart::runs() const
{
    RunResultList list;
    for (const Line &line : m_lines)
        list << line.run;
    return list;
}

QString RunOverlayChart::defaultLabel(const RunResult &run)
{
    return tr("%1 %2 @ %3 B rep %4")
        .arg(run.spec.host.displayName(), run.spec.protocol)
        .arg(run.spec.frameSize)
        .arg(run.spec.repetition);
}

void RunOverlayChart::setLines(const QList<Line> &lines)
{
    m_lines = lines;
    rebuild();
}

void RunOverlayChart::setUnit(RateUnit unit)
{
    m_unitCombo->setUnit(unit);
    if (unit == m_unit)
        return;
    m_unit = unit;
    rebuild();
}

void RunOverlayChart::setTitle(const QString &title)
{
    m_title->setText(title);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RunOverlayChart::rebuild()
{
    m_plot->clearGraphs();
    m_graphs.clear();
    m_plot->yAxis->setLabel(tr("Throughput (%1)").arg(Units::label(m_unit)));
    static const Qt::PenStyle styles[]
        = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
    // Few hosts: the host's colour (as in the bar charts), a dash pattern per line of that host. Many lines of one
    // host: a colour per test, so that tests stay apart; then the legend names each test once.
    QStringList hosts, tests;
    for (const Line &line : std::as_const(m_lines)) {
        const QString host = line.run.spec.host.displayName();
        const QString test = host + QLatin1Char('|') + line.run.spec.testKey();
        if (!hosts.contains(host))
            hosts << host;
        if (!tests.contains(test))
            tests << test;
    }
    const bool byHost = tests.size() <= hosts.size() * 2 || m_lines.size() <= 5;
    const bool legendPerTest = m_lines.size() > 12;
    QHash<QString, int> perKey;
    QSet<QString> inLegend;
    double xMax = 0;
    double yMax = 0;
    for (const Line &line : std::as_const(m_lines)) {
        const QString host = line.run.spec.host.displayName();
        const QString test = host + QLatin1Char('|') + line.run.spec.testKey();
        QCPGraph *graph = m_plot->addGraph();
        graph->setName(line.label.isEmpty() ? defaultLabel(line.run) : line.label);
        const QString key = byHost ? host : test;
        QPen pen(byHost ? ChartStyle::hostColor(host) : ChartStyle::seriesColor(int(tests.indexOf(test))));
        pen.setWidthF(1.8);
        pen.setStyle(styles[perKey[key]++ % 5]);
        if (legendPerTest) {
            pen.setStyle(Qt::SolidLine);
            if (inLegend.contains(test)) {
                graph->removeFromLegend();
            } else {
                inLegend.insert(test);
                graph->setName(tr("%1 %2 @ %3 B").arg(host, line.run.spec.protocol).arg(line.run.spec.frameSize));
            }
        }
        graph->setPen(pen);
        graph->setAdaptiveSampling(true);
        QVector<double> keys, values;
        keys.reserve(line.run.samples.size());
        values.reserve(line.run.samples.size());
        for (const Sample &s : line.run.samples) {
            if (s.intervalSeconds <= 0)
                continue;
            keys << s.endSeconds;
            values << Units::fromBytesPerSecond(s.bytesPerSecond(), m_unit);
            xMax = std::max(xMax, s.endSeconds);
            yMax = std::max(yMax, values.last());
        }
        graph->setData(keys, values, true);
        m_graphs << graph;
    }
    m_hint->setVisible(m_graphs.isEmpty());
    m_plot->legend->setVisible(!m_graphs.isEmpty());
    m_plot->xAxis->setRange(0, xMax > 0 ? xMax : 10);
    m_plot->yAxis->setRange(0, yMax > 0 ? yMax * 1.1 : 100);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RunOverlayChart::showContextMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addAction(tr("Export live graphs..."), this, [this] {
        ExportExtras::exportWithDialog(this, m_plot, QStringLiteral("wirebench-live-graphs"),
                                       ExportExtras::footnoteFor(runs()));
    });
    menu.addAction(tr("Copy to clipboard"), this, [this] {
        ChartExportOptions options;
        options.size = m_plot->size();
        options.footnote = ExportExtras::footnoteFor(runs());
        ExportExtras::copyToClipboard(m_plot, options);
    });
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace wb
