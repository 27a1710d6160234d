#include "ComparisonChart.h"

#include "history/ExportExtras.h"

#include "ChartExporter.h"
#include "ChartStyle.h"
#include "ChartTextElement.h"
#include "analysis/FrameRule.h"
#include "stats/TestSummary.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

namespace {
const QString kIdleHint = QObject::tr("Press Start to measure.\nOne bar per host and test appears here as runs end.");
const QColor kWarnColor(200, 20, 20);
const QColor kNotRunColor(120, 120, 120);

QString hostKey(const Host &host)
{
    return host.displayName() + QLatin1Char('|') + host.address;
}

QString testKeyOf(const QString &protocol, int frameSize)
{
    return protocol + QLatin1String(" @ ") + QString::number(frameSize);
}

// Same grouping as TestSummary::build: host name, address and port, protocol, frame size.
bool sameTest(const TestSummary &t, const RunResult &r)
{
    return t.host.displayName() == r.spec.host.displayName() && t.host.address == r.spec.host.address
           && t.host.port == r.spec.host.port && t.protocol == r.spec.protocol && t.frameSize == r.spec.frameSize;
}

double median(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2;
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
    m_plot->xAxis->setLabel(tr("Test (protocol, Ethernet frame size, TCP MSS used)"));
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLength(0, 4);
    ChartStyle::placeLegendBelow(m_plot);
    m_plot->legend->setVisible(false);
    // The warning note sits under the legend, so exports carry it too; its lines break at the chart's width.
    const int noteRow = m_plot->plotLayout()->rowCount();
    m_note = new ChartTextElement(m_plot, QString());
    m_note->setTextColor(kWarnColor);
    m_note->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_note->setMargins(QMargins(12, 0, 12, 4));
    m_plot->plotLayout()->addElement(noteRow, 0, m_note);
    m_plot->plotLayout()->setRowStretchFactor(noteRow, 0.001);
    m_hint = ChartStyle::addHint(m_plot, kIdleHint);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->installEventFilter(this);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ComparisonChart::showContextMenu);

    m_errorCombo = new QComboBox(this);
    m_errorCombo->setObjectName(QStringLiteral("errorBarCombo"));
    m_errorCombo->addItem(tr("median, min-max"), int(ErrorBars::MinMax));
    m_errorCombo->addItem(tr("mean, 95% CI"), int(ErrorBars::Ci95));
    m_errorCombo->setToolTip(tr("Bar height and error bars: the median with the smallest and largest repetition, "
                                "or the mean with its 95% confidence interval (Student's t)"));
    connect(m_errorCombo, &QComboBox::currentIndexChanged, this,
            [this] { setErrorBars(ErrorBars(m_errorCombo->currentData().toInt())); });
    m_percentCheck = new QCheckBox(tr("% of ceiling"), this);
    m_percentCheck->setObjectName(QStringLiteral("percentOfCeilingCheck"));
    m_percentCheck->setToolTip(tr("Add to each value label the result as a percentage of the line-rate ceiling "
                                  "(known only when the link speed is known)"));
    connect(m_percentCheck, &QCheckBox::toggled, this, &ComparisonChart::setShowPercentOfCeiling);

    m_unitCombo = new UnitComboBox(this);
    connect(m_unitCombo, &UnitComboBox::unitChanged, this, &ComparisonChart::setUnit);
    auto *header = new QHBoxLayout;
    header->addStretch(1);
    auto *barsLabel = new QLabel(tr("Bars:"), this);
    barsLabel->setBuddy(m_errorCombo);
    header->addWidget(barsLabel);
    header->addWidget(m_errorCombo);
    header->addSpacing(8);
    header->addWidget(m_percentCheck);
    header->addSpacing(8);
    ChartStyle::stackUnderHeader(this, header, m_unitCombo, m_plot);
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

QString ComparisonChart::warningNote() const
{
    return m_note->text();
}

QString ComparisonChart::toolTipAt(double key, double value) const
{
    for (const Marker &m : m_markers) {
        if (m.area.contains(QPointF(key, value)))
            return m.notRun ? tr("%1, %2: not run\n%3").arg(m.host, m.test, m.text)
                            : tr("%1, %2: warning\n%3").arg(m.host, m.test, m.text);
    }
    return {};
}

bool ComparisonChart::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        fitTickLabels();
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const double key = m_plot->xAxis->pixelToCoord(help->pos().x());
        const double value = m_plot->yAxis->pixelToCoord(help->pos().y());
        const QString text = toolTipAt(key, value);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, m_plot);
        return true;
    }
    return QWidget::eventFilter(watched, event);
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

void ComparisonChart::setErrorBars(ErrorBars mode)
{
    const int index = m_errorCombo->findData(int(mode));
    if (index >= 0 && index != m_errorCombo->currentIndex())
        m_errorCombo->setCurrentIndex(index); // comes back here through the signal
    if (mode == m_errorBars)
        return;
    m_errorBars = mode;
    rebuild();
}

void ComparisonChart::setShowPercentOfCeiling(bool show)
{
    if (m_percentCheck->isChecked() != show)
        m_percentCheck->setChecked(show);
    if (show == m_showPercent)
        return;
    m_showPercent = show;
    rebuild();
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
    for (QCPItemRect *rect : std::as_const(m_outlines))
        m_plot->removeItem(rect);
    m_outlines.clear();
    m_markers.clear();
    m_plot->clearPlottables();
    m_hostBars.clear();
    m_testKeys.clear();
    m_tickLabels.clear();

    const QList<TestSummary> summaries = TestSummary::build(m_results);
    QStringList hostKeys;
    QList<Host> hosts;
    int maxReps = 0;
    // Per test group: the MSS values used by its hosts, and whether any of its runs ran at all.
    QList<QList<int>> groupMss;
    QList<bool> groupRan;
    QList<RunResultList> groupRuns; // for the frame the runs really used (FrameRule)
    for (const TestSummary &t : summaries) {
        const QString key = testKeyOf(t.protocol, t.frameSize);
        if (!m_testKeys.contains(key)) {
            m_testKeys << key;
            groupMss << QList<int>();
            groupRan << false;
            groupRuns << RunResultList();
        }
        const qsizetype g = m_testKeys.indexOf(key);
        if (t.mss > 0 && !groupMss[g].contains(t.mss))
            groupMss[g] << t.mss;
        for (const RunResult &r : m_results) {
            if (sameTest(t, r) && r.status != RunStatus::NotRun)
                groupRan[g] = true;
            if (sameTest(t, r))
                groupRuns[g] << r;
        }
        if (!hostKeys.contains(hostKey(t.host))) {
            hostKeys << hostKey(t.host);
            hosts << t.host;
        }
        maxReps = std::max(maxReps, t.okRuns + t.failedRuns);
    }

    const bool ci = m_errorBars == ErrorBars::Ci95;
    m_plot->yAxis->setLabel(tr("Throughput (%1)").arg(Units::label(m_unit)));
    QString subtitle;
    if (maxReps > 1) {
        subtitle = ci ? tr("mean of %1 repetitions, error bars: 95% confidence interval of the mean").arg(maxReps)
                      : tr("median of %1 repetitions, error bars from min to max").arg(maxReps);
    } else if (maxReps == 1) {
        subtitle = ci ? tr("1 repetition: no confidence interval") : tr("1 repetition: no error bars");
    }
    m_title->setText(subtitle.isEmpty() ? tr("Throughput per test") : tr("Throughput per test\n%1").arg(subtitle));
    m_hint->setVisible(summaries.isEmpty());
    m_plot->legend->setVisible(!summaries.isEmpty());

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < m_testKeys.size(); ++i) {
        const QString protocol = m_testKeys.at(i).section(QLatin1String(" @ "), 0, 0);
        const QString frame = m_testKeys.at(i).section(QLatin1String(" @ "), 1);
        QStringList mss;
        for (int m : groupMss.at(i))
            mss << QString::number(m);
        // One fact per line: groups stay narrow enough for several tests side by side.
        // Labelled by the frame the runs used, which their MSS tells (an SMB run cannot clamp it).
        const QList<int> used = FrameRule::usedFrames(groupRuns.at(i));
        QString label = protocol + QLatin1Char('\n') + tr("%1 B frame").arg(frame);
        if (!used.isEmpty() && used != QList<int>{frame.toInt()}) {
            QStringList usedText;
            for (int f : used)
                usedText << QString::number(f);
            label = protocol + QLatin1Char('\n') + tr("%1 B frame").arg(usedText.join(QLatin1Char('/')))
                    + QLatin1Char('\n') + tr("(%1 B planned)").arg(frame);
        }
        if (!mss.isEmpty())
            label += QLatin1Char('\n') + tr("MSS %1 B").arg(mss.join(QLatin1Char('/')));
        else if (!groupRan.at(i))
            label += QLatin1Char('\n') + tr("not run");
        m_tickLabels << label;
        ticker->addTick(i + 1, label);
    }
    m_plot->xAxis->setTicker(ticker);

    const int nHosts = int(hosts.size());
    const double groupWidth = 0.8;
    const double barWidth = nHosts > 0 ? groupWidth / nHosts : groupWidth;
    const double drawnWidth = barWidth * 0.92;
    // Labels that do not fit across a bar are drawn upright along it.
    const bool narrow = nHosts * std::max<qsizetype>(1, m_testKeys.size()) > 6;
    double yMax = 0;
    QStringList noteLines;
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
        hb.bars->setWidth(drawnWidth);
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
            const QString testKey = testKeyOf(t.protocol, t.frameSize);
            const double key = m_testKeys.indexOf(testKey) + 1 + offset;
            QStringList warnings;
            QList<double> percents;
            bool allNotRun = true;
            QString notRunReason;
            RunResultList testRuns;
            for (const RunResult &r : m_results) {
                if (!sameTest(t, r))
                    continue;
                testRuns << r;
                for (const QString &w : r.warnings) {
                    if (!warnings.contains(w))
                        warnings << w;
                }
                if (r.status == RunStatus::NotRun) {
                    if (notRunReason.isEmpty())
                        notRunReason = r.error;
                } else {
                    allNotRun = false;
                }
                if (r.ok() && r.extra.contains(QStringLiteral("percent_of_ceiling")))
                    percents << r.extra.value(QStringLiteral("percent_of_ceiling")).toDouble();
            }
            auto *label = new QCPItemText(m_plot);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->setClipToAxisRect(true);
            if (t.okRuns == 0) {
                label->position->setCoords(key, 0);
                if (allNotRun) {
                    // A visible gap, not a zero bar: nothing was measured.
                    label->setText(tr("not run"));
                    label->setColor(kNotRunColor);
                    QFont italic = label->font();
                    italic.setItalic(true);
                    label->setFont(italic);
                    m_markers << Marker{host.displayName(), testKey,
                                        notRunReason.isEmpty() ? tr("no reason given") : notRunReason,
                                        QRectF(key - drawnWidth / 2, -1e300, drawnWidth, 2e300), true};
                } else {
                    label->setText(tr("failed"));
                    label->setColor(QColor(190, 30, 30));
                }
                if (narrow) {
                    label->setRotation(-90);
                    label->setPositionAlignment(Qt::AlignVCenter | Qt::AlignLeft);
                    label->setPadding(QMargins(4, 0, 0, 0));
                } else {
                    label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
                }
                m_labels << label;
                continue;
            }
            const auto unit = [this](double MBps) { return Units::fromBytesPerSecond(MBps * 1e6, m_unit); };
            const double center = ci ? t.MBps.mean : t.MBps.median;
            const double lowMBps = ci ? t.MBps.ciLow() : t.MBps.min;
            const double highMBps = ci ? t.MBps.ciHigh() : t.MBps.max;
            const double value = unit(center);
            const double hi = unit(highMBps);
            keys << key;
            values << value;
            // One repetition has no spread: no error bar at all, not a flat one that reads as "no variation".
            const bool spread = t.okRuns > 1;
            minus << (spread ? value - unit(lowMBps) : qQNaN());
            plus << (spread ? hi - value : qQNaN());
            yMax = std::max(yMax, hi);
            label->position->setCoords(key, std::max(hi, value));
            QString text = Units::format(center * 1e6, m_unit);
            if (m_showPercent && !percents.isEmpty()) {
                const double pct = median(percents);
                text += narrow ? tr(", %1% of ceiling").arg(pct, 0, 'f', 0)
                               : tr("\n%1% of ceiling").arg(pct, 0, 'f', 0);
            }
            if (!warnings.isEmpty()) {
                text = QLatin1String("! ") + text;
                label->setColor(kWarnColor);
                auto *outline = new QCPItemRect(m_plot);
                outline->topLeft->setCoords(key - drawnWidth / 2, value);
                outline->bottomRight->setCoords(key + drawnWidth / 2, 0);
                outline->setPen(QPen(kWarnColor, 2.5));
                outline->setBrush(Qt::NoBrush);
                outline->setClipToAxisRect(true);
                m_outlines << outline;
                m_markers << Marker{host.displayName(), testKey, warnings.join(QLatin1Char('\n')),
                                    QRectF(key - drawnWidth / 2, 0, drawnWidth, std::max(hi, value)), false};
                noteLines << tr("! %1, %2 B frame, %3: %4")
                                 .arg(t.protocol, FrameRule::frameText(testRuns))
                                 .arg(host.displayName(), warnings.first());
            }
            label->setText(text);
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
    // Few lines under the legend; the full text is in the tooltip and the summary table.
    constexpr int kNoteLines = 3;
    if (noteLines.size() > kNoteLines) {
        const qsizetype more = noteLines.size() - kNoteLines;
        noteLines = noteLines.mid(0, kNoteLines);
        noteLines << tr("... and %n more bar(s) with a warning (red outline): hover a bar for its warning", nullptr,
                        int(more));
    }
    m_note->setText(noteLines.join(QLatin1Char('\n')));
    m_plot->xAxis->setRange(0.4, std::max<qsizetype>(1, m_testKeys.size()) + 0.6);
    // Head room for the labels above the highest error bar.
    const double headRoom = narrow ? (m_showPercent ? 1.9 : 1.45) : (m_showPercent ? 1.25 : 1.15);
    m_plot->yAxis->setRange(0, yMax > 0 ? yMax * headRoom : 100);
    fitTickLabels();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ComparisonChart::fitTickLabels()
{
    QFont font = m_plot->font();
    const double groups = std::max<qsizetype>(1, m_testKeys.size());
    // The axis rect before the first layout is unknown: the plot's width less the y axis is close enough.
    const int axisWidth = m_plot->axisRect()->width() > 50 ? m_plot->axisRect()->width() : m_plot->width() - 80;
    const double perGroup = axisWidth / groups - 6;
    for (double pt = font.pointSizeF(); pt >= 6.5; pt -= 0.5) {
        font.setPointSizeF(pt);
        const QFontMetrics metrics(font);
        int widest = 0;
        for (const QString &label : std::as_const(m_tickLabels)) {
            for (const QString &line : label.split(QLatin1Char('\n')))
                widest = std::max(widest, metrics.horizontalAdvance(line));
        }
        if (widest <= perGroup)
            break;
    }
    if (font != m_plot->xAxis->tickLabelFont()) {
        m_plot->xAxis->setTickLabelFont(font);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void ComparisonChart::showContextMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addAction(tr("Export comparison chart..."), this, [this] {
        ExportExtras::exportWithDialog(this, m_plot, QStringLiteral("wirebench-comparison"),
                                       ExportExtras::footnoteFor(m_results));
    });
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace wb
