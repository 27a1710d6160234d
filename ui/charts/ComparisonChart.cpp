#include "ComparisonChart.h"

#include "ChartStyle.h"
#include "ChartTextElement.h"
#include "ExportExtras.h"
#include "GroupedBars.h"
#include "model/Frame.h"
#include "plan/TestPlan.h"
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
    m_plot->setMinimumSize(320, 170); // 170 px: the window must fit a 1280x720 screen
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
    m_bars = std::make_unique<GroupedBars>(m_plot, GroupedBars::Style{4, true});
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

ComparisonChart::~ComparisonChart() = default;

QCPBars *ComparisonChart::barsForHost(const QString &hostName) const
{
    return m_bars->bars(hostName);
}

QCPErrorBars *ComparisonChart::errorBarsForHost(const QString &hostName) const
{
    return m_bars->errors(hostName);
}

QStringList ComparisonChart::valueLabels() const
{
    return m_bars->labelTexts();
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
    if (TestPlan::isReference(result.spec))
        return; // a reference stream is in the results table, not in the comparison
    m_results.append(result);
    rebuild();
}

void ComparisonChart::setResults(const RunResultList &results)
{
    m_results.clear();
    for (const RunResult &r : results)
        if (!TestPlan::isReference(r.spec))
            m_results << r;
    rebuild();
}

namespace {

// The tests on the x axis in order, with the MSS values their hosts used, whether any run ran, and their runs.
struct TestGroups
{
    QStringList keys;
    QList<QList<int>> mss;
    QList<bool> ran;
    QList<RunResultList> runs; // for the frame the runs really used (Frame)
    QList<Host> hosts;
    int maxReps = 0;
};

TestGroups groupsOf(const QList<TestSummary> &summaries, const RunResultList &results)
{
    TestGroups g;
    QStringList hostKeys;
    for (const TestSummary &t : summaries) {
        const QString key = testKeyOf(t.label(), t.frameSize); // both directions at once: a group each
        if (!g.keys.contains(key)) {
            g.keys << key;
            g.mss << QList<int>();
            g.ran << false;
            g.runs << RunResultList();
        }
        const qsizetype i = g.keys.indexOf(key);
        if (t.mss > 0 && !g.mss[i].contains(t.mss))
            g.mss[i] << t.mss;
        for (const RunResult &r : results) {
            if (sameTest(t, r) && r.status != RunStatus::NotRun)
                g.ran[i] = true;
            if (sameTest(t, r))
                g.runs[i] << r;
        }
        if (!hostKeys.contains(hostKey(t.host))) {
            hostKeys << hostKey(t.host);
            g.hosts << t.host;
        }
        g.maxReps = std::max(g.maxReps, t.okRuns + t.failedRuns);
    }
    return g;
}

// One fact per line: groups stay narrow enough for several tests side by side. Labelled by the frame the runs
// used, which their MSS tells (an SMB run cannot clamp it).
QString tickLabelOf(const TestGroups &g, int i)
{
    const QString protocol = g.keys.at(i).section(QLatin1String(" @ "), 0, 0);
    const QString frame = g.keys.at(i).section(QLatin1String(" @ "), 1);
    QStringList mss;
    for (int m : g.mss.at(i))
        mss << QString::number(m);
    const QList<int> used = Frame::usedFrames(g.runs.at(i));
    QString label = protocol + QLatin1Char('\n') + ComparisonChart::tr("%1 B frame").arg(frame);
    if (!used.isEmpty() && used != QList<int>{frame.toInt()}) {
        QStringList usedText;
        for (int f : used)
            usedText << QString::number(f);
        label = protocol + QLatin1Char('\n') + ComparisonChart::tr("%1 B frame").arg(usedText.join(QLatin1Char('/')))
            + QLatin1Char('\n') + ComparisonChart::tr("(%1 B planned)").arg(frame);
    }
    if (!mss.isEmpty())
        label += QLatin1Char('\n') + ComparisonChart::tr("MSS %1 B").arg(mss.join(QLatin1Char('/')));
    else if (!g.ran.at(i))
        label += QLatin1Char('\n') + ComparisonChart::tr("not run");
    return label;
}

// What one host's runs of one test say beside their figures.
struct TestRuns
{
    RunResultList runs;
    QStringList warnings;
    QList<double> percents;
    bool allNotRun = true;
    QString notRunReason;
};

TestRuns runsOfTest(const TestSummary &t, const RunResultList &results)
{
    TestRuns out;
    for (const RunResult &r : results) {
        if (!sameTest(t, r))
            continue;
        out.runs << r;
        for (const QString &w : r.warnings) {
            if (!out.warnings.contains(w))
                out.warnings << w;
        }
        if (r.status == RunStatus::NotRun) {
            if (out.notRunReason.isEmpty())
                out.notRunReason = r.error;
        } else {
            out.allNotRun = false;
        }
        if (r.ok() && r.extra.contains(t.percentKey()))
            out.percents << r.extra.value(t.percentKey()).toDouble();
    }
    return out;
}

} // namespace

void ComparisonChart::rebuild()
{
    for (QCPItemRect *rect : std::as_const(m_outlines))
        m_plot->removeItem(rect);
    m_outlines.clear();
    m_markers.clear();
    m_bars->clear();
    m_tickLabels.clear();

    const QList<TestSummary> summaries = TestSummary::byDirection(TestSummary::build(m_results));
    const TestGroups groups = groupsOf(summaries, m_results);
    m_testKeys = groups.keys;
    setTitle(groups.maxReps);
    m_hint->setVisible(summaries.isEmpty());
    m_plot->legend->setVisible(!summaries.isEmpty());
    for (int i = 0; i < m_testKeys.size(); ++i)
        m_tickLabels << tickLabelOf(groups, i);
    m_bars->setGroups(m_tickLabels, int(groups.hosts.size()));

    QStringList noteLines;
    for (const Host &host : groups.hosts) {
        const QString os = host.osLabel;
        m_bars->addSeries(host.displayName(),
                          os.isEmpty() ? host.displayName() : tr("%1 (%2)").arg(host.displayName(), os),
                          ChartStyle::hostColor(host.displayName()));
        for (const TestSummary &t : summaries) {
            if (hostKey(t.host) == hostKey(host))
                drawTest(t, host, &noteLines);
        }
    }
    setNote(noteLines);
    // Head room for the labels above the highest error bar.
    const bool narrow = m_bars->narrow();
    m_bars->finish(narrow ? (m_showPercent ? 1.9 : 1.45) : (m_showPercent ? 1.25 : 1.15));
    fitTickLabels();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ComparisonChart::setTitle(int maxReps)
{
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
}

// One host's bar of one test: the figure with its error bar and label, a warning's outline, or a labelled gap.
void ComparisonChart::drawTest(const TestSummary &t, const Host &host, QStringList *noteLines)
{
    const QString testKey = testKeyOf(t.label(), t.frameSize);
    const int group = int(m_testKeys.indexOf(testKey));
    const double key = m_bars->keyOf(group);
    const double width = m_bars->drawnWidth();
    const TestRuns runs = runsOfTest(t, m_results);
    if (t.okRuns == 0) {
        if (runs.allNotRun) {
            // A visible gap, not a zero bar: nothing was measured.
            m_bars->addGap({group, tr("not run"), kNotRunColor, true});
            m_markers << Marker{host.displayName(), testKey,
                                runs.notRunReason.isEmpty() ? tr("no reason given") : runs.notRunReason,
                                QRectF(key - width / 2, -1e300, width, 2e300), true};
        } else {
            m_bars->addGap({group, tr("failed"), QColor(190, 30, 30), false});
        }
        return;
    }
    const bool ci = m_errorBars == ErrorBars::Ci95;
    const auto unit = [this](double MBps) { return Units::fromBytesPerSecond(MBps * 1e6, m_unit); };
    const double center = ci ? t.MBps.mean : t.MBps.median;
    const double value = unit(center);
    const double hi = unit(ci ? t.MBps.ciHigh() : t.MBps.max);
    // One repetition has no spread: no error bar at all, not a flat one that reads as "no variation".
    const bool spread = t.okRuns > 1;
    GroupedBars::Bar bar;
    bar.group = group;
    bar.value = value;
    bar.minus = spread ? value - unit(ci ? t.MBps.ciLow() : t.MBps.min) : qQNaN();
    bar.plus = spread ? hi - value : qQNaN();
    bar.top = hi;
    bar.labelAt = std::max(hi, value);
    bar.label = Units::format(center * 1e6, m_unit);
    if (m_showPercent && !runs.percents.isEmpty()) {
        const double pct = median(runs.percents);
        bar.label += m_bars->narrow() ? tr(", %1% of ceiling").arg(pct, 0, 'f', 0)
                                      : tr("\n%1% of ceiling").arg(pct, 0, 'f', 0);
    }
    if (!runs.warnings.isEmpty()) {
        bar.label = QLatin1String("! ") + bar.label;
        bar.labelColor = kWarnColor;
    }
    m_bars->addBar(bar);
    if (runs.warnings.isEmpty())
        return;
    auto *outline = new QCPItemRect(m_plot);
    outline->topLeft->setCoords(key - width / 2, value);
    outline->bottomRight->setCoords(key + width / 2, 0);
    outline->setPen(QPen(kWarnColor, 2.5));
    outline->setBrush(Qt::NoBrush);
    outline->setClipToAxisRect(true);
    m_outlines << outline;
    m_markers << Marker{host.displayName(), testKey, runs.warnings.join(QLatin1Char('\n')),
                        QRectF(key - width / 2, 0, width, std::max(hi, value)), false};
    *noteLines << tr("! %1, %2 B frame, %3: %4")
                      .arg(t.protocol, Frame::frameText(runs.runs))
                      .arg(host.displayName(), runs.warnings.first());
}

// Few lines under the legend; the full text is in the tooltip and the summary table.
void ComparisonChart::setNote(QStringList lines)
{
    constexpr int kNoteLines = 3;
    if (lines.size() > kNoteLines) {
        const qsizetype more = lines.size() - kNoteLines;
        lines = lines.mid(0, kNoteLines);
        // No "hover": the chart is also printed. The summary table and the report's Warnings list each in full.
        lines << tr("... and %n more bar(s) with a warning (red outline): each warning is in the summary per test "
                    "and in the report's Warnings",
                    nullptr, int(more));
    }
    m_note->setText(lines.join(QLatin1Char('\n')));
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
