#include "ComparisonView.h"

#include "ChartStyle.h"
#include "ExportExtras.h"
#include "FindingsPanel.h"
#include "GroupedBars.h"
#include "HistoryText.h"
#include "RunOverlayChart.h"
#include "analysis/Bufferbloat.h"
#include "platform/ActivityMarker.h"
#include "stats/Statistics.h"
#include "storage/ResultStore.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

namespace {

constexpr int kSessionRole = Qt::UserRole + 1;
constexpr int kRunRole = Qt::UserRole + 2; // index into m_loaded[session]; -1 on session items
constexpr int kLoadedRole = Qt::UserRole + 3;

double medianOf(QList<double> values)
{
    return Statistics::summarize(std::move(values)).median;
}

/// Both directions at once: a run with two figures becomes two, "tcp-bidir send" and "tcp-bidir receive", each its
/// own figure and share of the ceiling, so that they stand as two bars side by side.
QList<ComparedRun> byDirection(const QList<ComparedRun> &runs)
{
    QList<ComparedRun> out;
    for (const ComparedRun &r : runs) {
        if (!r.run.reverse) {
            out << r;
            continue;
        }
        ComparedRun send = r;
        send.run.spec.protocol += QStringLiteral(" send");
        ComparedRun receive = r;
        receive.run.spec.protocol += QStringLiteral(" receive");
        receive.run.bytes = r.run.reverse->bytes;
        receive.run.seconds = r.run.reverse->seconds;
        receive.run.extra.insert(QStringLiteral("percent_of_ceiling"),
                                 r.run.extra.value(QStringLiteral("reverse_percent_of_ceiling")));
        if (!r.run.extra.contains(QStringLiteral("reverse_percent_of_ceiling")))
            receive.run.extra.remove(QStringLiteral("percent_of_ceiling"));
        out << send << receive;
    }
    return out;
}

} // namespace

ComparisonView::ComparisonView(ResultStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
{
    setObjectName(QStringLiteral("comparisonView"));
    m_rebuildTimer.setSingleShot(true);
    m_rebuildTimer.setInterval(0);
    connect(&m_rebuildTimer, &QTimer::timeout, this, &ComparisonView::rebuildNow);
    buildUi();
    reload();
    rebuildNow();
}

void ComparisonView::buildUi()
{
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("comparisonRunTree"));
    // Computer: the one that ran the session, which a team's shared store holds many of.
    m_tree->setHeaderLabels({tr("Session / run"), tr("Throughput"), tr("Computer")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setToolTip(tr("Tick runs or whole sessions to compare them"));
    m_tree->setMinimumWidth(260);
    connect(m_tree, &QTreeWidget::itemExpanded, this, &ComparisonView::loadSessionChildren);
    connect(m_tree, &QTreeWidget::itemChanged, this, &ComparisonView::onItemChanged);

    auto makeDimensionCombo = [this](const QString &name, CompareDimension initial) {
        auto *combo = new QComboBox(this);
        combo->setObjectName(name);
        for (CompareDimension d : {CompareDimension::Test, CompareDimension::Protocol, CompareDimension::FrameSize,
                                   CompareDimension::Host, CompareDimension::Os, CompareDimension::Session})
            combo->addItem(dimensionName(d), int(d));
        combo->setCurrentIndex(combo->findData(int(initial)));
        connect(combo, &QComboBox::currentIndexChanged, this, &ComparisonView::scheduleRebuild);
        return combo;
    };
    m_groupCombo = makeDimensionCombo(QStringLiteral("groupCombo"), CompareDimension::Test);
    m_barCombo = makeDimensionCombo(QStringLiteral("barCombo"), CompareDimension::Host);
    m_errorCombo = new QComboBox(this);
    m_errorCombo->setObjectName(QStringLiteral("errorBarCombo"));
    m_errorCombo->addItem(tr("min - max (bar: median)"), int(ErrorBarMode::MinMax));
    m_errorCombo->addItem(tr("95% confidence (bar: mean)"), int(ErrorBarMode::Ci95));
    m_errorCombo->addItem(tr("none (bar: median)"), int(ErrorBarMode::None));
    connect(m_errorCombo, &QComboBox::currentIndexChanged, this, &ComparisonView::scheduleRebuild);
    m_ceilingCheck = new QCheckBox(tr("% of line rate"), this);
    m_ceilingCheck->setObjectName(QStringLiteral("ceilingCheck"));
    m_ceilingCheck->setToolTip(tr("Add the share of the line-rate ceiling (where the runs measured it) to the labels"));
    connect(m_ceilingCheck, &QCheckBox::toggled, this, &ComparisonView::scheduleRebuild);
    m_latencyCheck = new QCheckBox(tr("latency under load"), this);
    m_latencyCheck->setObjectName(QStringLiteral("latencyCheck"));
    m_latencyCheck->setToolTip(
        tr("Add what the load added to the round trip (where the runs measured it) to the labels"));
    connect(m_latencyCheck, &QCheckBox::toggled, this, &ComparisonView::scheduleRebuild);
    m_unitCombo = new UnitComboBox(this);
    connect(m_unitCombo, &UnitComboBox::unitChanged, this, &ComparisonView::setUnit);

    auto *exportButton = new QPushButton(tr("Export..."), this);
    exportButton->setObjectName(QStringLiteral("comparisonExportButton"));
    connect(exportButton, &QPushButton::clicked, this, &ComparisonView::exportBars);
    auto *copyButton = new QPushButton(tr("Copy"), this);
    copyButton->setObjectName(QStringLiteral("comparisonCopyButton"));
    copyButton->setToolTip(tr("Copy the chart on screen to the clipboard"));
    connect(copyButton, &QPushButton::clicked, this, &ComparisonView::copyBars);

    // Two rows, so that the view fits a window of ordinary width.
    auto *controls = new QVBoxLayout;
    auto *row1 = new QHBoxLayout;
    auto *row2 = new QHBoxLayout;
    controls->addLayout(row1);
    controls->addLayout(row2);
    auto addLabelled = [this](QHBoxLayout *row, const QString &text, QWidget *w) {
        auto *label = new QLabel(text, this);
        label->setBuddy(w);
        row->addWidget(label);
        row->addWidget(w);
    };
    addLabelled(row1, tr("&Groups:"), m_groupCombo);
    addLabelled(row1, tr("&Bars:"), m_barCombo);
    row1->addStretch(1);
    addLabelled(row2, tr("&Error bars:"), m_errorCombo);
    row2->addWidget(m_ceilingCheck);
    row2->addWidget(m_latencyCheck);
    addLabelled(row2, tr("&Unit:"), m_unitCombo);
    row2->addStretch(1);
    row2->addWidget(exportButton);
    row2->addWidget(copyButton);

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("comparisonViewPlot"));
    m_plot->setMinimumSize(320, 200);
    m_title = ChartStyle::addTitle(m_plot, tr("Comparison"));
    ChartStyle::styleAxes(m_plot);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLength(0, 4);
    ChartStyle::placeLegendBelow(m_plot);
    m_hint = ChartStyle::addHint(m_plot, tr("Tick runs or sessions on the left to compare them."));
    m_bars = std::make_unique<GroupedBars>(m_plot, GroupedBars::Style{7, false});
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        menu.addAction(tr("Export chart..."), this, &ComparisonView::exportBars);
        menu.addAction(tr("Copy to clipboard"), this, &ComparisonView::copyBars);
        menu.exec(m_plot->mapToGlobal(pos));
    });
    m_overlay = new RunOverlayChart(this);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("comparisonTabs"));
    m_tabs->addTab(m_plot, tr("Bars"));
    m_tabs->addTab(m_overlay, tr("Live graphs overlaid"));

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(controls);
    rightLayout->addWidget(m_tabs, 1);
    // Under the chart, what the compared runs show together (network or server, frames, hosts), in full.
    m_findings = new FindingsPanel(right);
    m_findings->setObjectName(QStringLiteral("comparisonFindings"));
    m_findings->setComparedRuns(true);
    m_findings->setMaximumHeight(170);
    rightLayout->addWidget(m_findings);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({300, 900});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
}

QString ComparisonView::dimensionName(CompareDimension dimension)
{
    switch (dimension) {
    case CompareDimension::Test:
        return tr("Test (protocol @ frame)");
    case CompareDimension::Protocol:
        return tr("Protocol");
    case CompareDimension::FrameSize:
        return tr("Frame size");
    case CompareDimension::Host:
        return tr("Host");
    case CompareDimension::Os:
        return tr("OS");
    case CompareDimension::Session:
        return tr("Session");
    }
    return {};
}

QString ComparisonView::keyOf(const ComparedRun &run, CompareDimension dimension)
{
    const RunSpec &spec = run.run.spec;
    switch (dimension) {
    case CompareDimension::Test:
        return spec.testKey();
    case CompareDimension::Protocol:
        return spec.protocol;
    case CompareDimension::FrameSize:
        return QStringLiteral("%1 B").arg(spec.frameSize);
    case CompareDimension::Host:
        return spec.host.displayName();
    case CompareDimension::Os: {
        const QString os = !spec.host.osLabel.isEmpty() ? spec.host.osLabel : run.run.serverOs;
        return os.isEmpty() ? tr("unknown OS") : os;
    }
    case CompareDimension::Session:
        return run.sessionLabel.isEmpty() ? tr("session %1").arg(run.sessionId) : run.sessionLabel;
    }
    return {};
}

QList<ComparisonView::BarValue> ComparisonView::computeBars(const QList<ComparedRun> &runs, CompareDimension groups,
                                                            CompareDimension bars, ErrorBarMode mode,
                                                            QStringList *groupKeys, QStringList *barKeys)
{
    // Frame sizes (also inside a test key) sort by size; everything else keeps the order it was first seen in.
    QList<ComparedRun> ordered = byDirection(runs);
    if (groups == CompareDimension::FrameSize || groups == CompareDimension::Test
        || bars == CompareDimension::FrameSize)
        std::stable_sort(ordered.begin(), ordered.end(), [](const ComparedRun &a, const ComparedRun &b) {
            return a.run.spec.frameSize < b.run.spec.frameSize;
        });
    QStringList gKeys, bKeys;
    QHash<QString, QList<const ComparedRun *>> cells;
    for (const ComparedRun &r : std::as_const(ordered)) {
        const QString g = keyOf(r, groups);
        const QString b = keyOf(r, bars);
        if (!gKeys.contains(g))
            gKeys << g;
        if (!bKeys.contains(b))
            bKeys << b;
        cells[g + QChar(0x1f) + b] << &r;
    }
    QList<BarValue> result;
    for (const QString &g : std::as_const(gKeys)) {
        for (const QString &b : std::as_const(bKeys)) {
            const auto it = cells.constFind(g + QChar(0x1f) + b);
            if (it == cells.constEnd())
                continue;
            BarValue v;
            v.group = g;
            v.bar = b;
            QList<double> rates, percents, idle, loaded;
            for (const ComparedRun *r : *it) {
                if (!r->run.ok()) {
                    ++v.failedRuns;
                    continue;
                }
                ++v.okRuns;
                rates << r->run.bytesPerSecond();
                bool isNumber = false;
                const double pct = r->run.extra.value(QStringLiteral("percent_of_ceiling")).toDouble(&isNumber);
                if (isNumber && r->run.extra.contains(QStringLiteral("percent_of_ceiling")))
                    percents << pct;
                if (r->run.latency.measured()) {
                    idle << r->run.latency.idle.medianMs;
                    loaded << r->run.latency.loaded.medianMs;
                }
            }
            if (!rates.isEmpty()) {
                const Summary s = Statistics::summarize(rates);
                if (mode == ErrorBarMode::Ci95) {
                    v.value = s.mean;
                    v.low = s.ciLow();
                    v.high = s.ciHigh();
                } else {
                    v.value = s.median;
                    v.low = mode == ErrorBarMode::MinMax ? s.min : s.median;
                    v.high = mode == ErrorBarMode::MinMax ? s.max : s.median;
                }
            }
            if (!percents.isEmpty())
                v.percentOfCeiling = medianOf(percents);
            if (!loaded.isEmpty()) {
                v.idleLatencyMs = medianOf(idle);
                v.loadedLatencyMs = medianOf(loaded);
            }
            result << v;
        }
    }
    if (groupKeys)
        *groupKeys = gKeys;
    if (barKeys)
        *barKeys = bKeys;
    return result;
}

CompareDimension ComparisonView::groupDimension() const
{
    return CompareDimension(m_groupCombo->currentData().toInt());
}

CompareDimension ComparisonView::barDimension() const
{
    return CompareDimension(m_barCombo->currentData().toInt());
}

ErrorBarMode ComparisonView::errorBarMode() const
{
    return ErrorBarMode(m_errorCombo->currentData().toInt());
}

ComparisonView::~ComparisonView() = default;

QCPBars *ComparisonView::barsFor(const QString &barKey) const
{
    return m_bars->bars(barKey);
}

QCPErrorBars *ComparisonView::errorBarsFor(const QString &barKey) const
{
    return m_bars->errors(barKey);
}

QStringList ComparisonView::valueLabels() const
{
    return m_bars->labelTexts();
}

QString ComparisonView::title() const
{
    return m_title->text();
}

QString ComparisonView::footnote() const
{
    RunResultList runs;
    for (const ComparedRun &r : m_selected)
        runs << r.run;
    return ExportExtras::footnoteFor(runs);
}

void ComparisonView::reload()
{
    const ActivityMarker busy("compare: reload");
    QHash<qint64, bool> expanded;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_tree->topLevelItem(i);
        expanded.insert(item->data(0, kSessionRole).toLongLong(), item->isExpanded());
    }
    // Runs of sessions that are gone drop out of the selection.
    const QList<ComparedRun> previous = m_selected;
    m_updatingTree = true;
    m_tree->clear();
    m_updatingTree = false;
    m_loaded.clear();
    if (!m_store || !m_store->isOpen()) {
        collectSelection();
        return;
    }
    SessionFilter page;
    page.limit = kTreePage;
    SessionInfoList sessions = m_store->sessions(page);
    // Sessions compared from History stay, however old.
    QSet<qint64> listed;
    for (const SessionInfo &info : sessions)
        listed.insert(info.id);
    QSet<qint64> wanted(m_added.begin(), m_added.end());
    for (const ComparedRun &r : previous)
        wanted.insert(r.sessionId);
    for (qint64 id : std::as_const(wanted)) {
        if (SessionInfo info; !listed.contains(id) && m_store->session(id, &info))
            sessions.append(info);
    }
    m_updatingTree = true;
    for (const SessionInfo &info : std::as_const(sessions))
        addSessionItem(info);
    if (sessions.size() >= kTreePage) {
        if (const qint64 total = m_store->sessionCount(); total > sessions.size()) {
            auto *more = new QTreeWidgetItem(m_tree);
            more->setText(0,
                          tr("%1 older sessions: pick them in History and press Compare").arg(total - sessions.size()));
            more->setData(0, kSessionRole, -1);
            more->setFlags(Qt::NoItemFlags);
        }
    }
    m_updatingTree = false;
    // Re-check what was selected and still exists.
    for (const ComparedRun &r : previous) {
        for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = m_tree->topLevelItem(i);
            if (item->data(0, kSessionRole).toLongLong() != r.sessionId)
                continue;
            loadSessionChildren(item);
            const QList<ComparedRun> &runs = m_loaded.value(r.sessionId);
            for (int c = 0; c < item->childCount(); ++c) {
                const int index = item->child(c)->data(0, kRunRole).toInt();
                if (index >= 0 && index < runs.size() && runs.at(index).run.spec.index == r.run.spec.index
                    && runs.at(index).run.startedAt == r.run.startedAt)
                    item->child(c)->setCheckState(0, Qt::Checked);
            }
            item->setExpanded(expanded.value(r.sessionId));
        }
    }
    collectSelection();
}

QTreeWidgetItem *ComparisonView::addSessionItem(const SessionInfo &info)
{
    auto *item = new QTreeWidgetItem(m_tree);
    item->setText(0, QStringLiteral("%1 - %2").arg(historytext::sessionLabel(info), historytext::hostsText(info)));
    item->setText(1, tr("%n run(s)", nullptr, info.runCount));
    item->setText(2, info.machineHostname);
    item->setToolTip(0,
                     tr("%1; protocols %2; frame sizes %3; %4")
                         .arg(historytext::hostsText(info), info.protocols.join(QStringLiteral(", ")),
                              historytext::framesText(info), sessionStateName(info.state)));
    item->setData(0, kSessionRole, info.id);
    item->setData(0, kRunRole, -1);
    item->setData(0, Qt::UserRole + 4, historytext::sessionLabel(info));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
    item->setCheckState(0, Qt::Unchecked);
    item->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
    return item;
}

void ComparisonView::loadSessionChildren(QTreeWidgetItem *sessionItem)
{
    if (!sessionItem || sessionItem->parent() || sessionItem->data(0, kLoadedRole).toBool() || !m_store)
        return;
    const qint64 id = sessionItem->data(0, kSessionRole).toLongLong();
    QString error;
    const RunResultList runs = m_store->runs(id, &error);
    if (!error.isEmpty()) {
        sessionItem->setToolTip(0, error);
        return;
    }
    const QString label = sessionItem->data(0, Qt::UserRole + 4).toString();
    QList<ComparedRun> compared;
    const bool wasUpdating = m_updatingTree;
    m_updatingTree = true;
    const Qt::CheckState parentState = sessionItem->checkState(0);
    for (int i = 0; i < runs.size(); ++i) {
        const RunResult &run = runs.at(i);
        compared << ComparedRun{id, label, run};
        auto *child = new QTreeWidgetItem(sessionItem);
        child->setText(0,
                       tr("%1 %2 @ %3 B rep %4")
                           .arg(run.spec.host.displayName(), run.spec.protocol)
                           .arg(run.spec.frameSize)
                           .arg(run.spec.repetition));
        child->setText(1, run.ok() ? Units::format(run.bytesPerSecond(), m_unit) : runStatusName(run.status));
        if (!run.error.isEmpty())
            child->setToolTip(0, run.error);
        child->setData(0, kSessionRole, id);
        child->setData(0, kRunRole, i);
        child->setFlags(child->flags() | Qt::ItemIsUserCheckable);
        child->setCheckState(0, parentState == Qt::Checked ? Qt::Checked : Qt::Unchecked);
    }
    m_loaded.insert(id, compared);
    sessionItem->setData(0, kLoadedRole, true);
    m_updatingTree = wasUpdating;
}

void ComparisonView::onItemChanged(QTreeWidgetItem *item, int column)
{
    if (m_updatingTree || column != 0)
        return;
    m_manualSelection = false;
    // A session ticked before it was expanded: load its runs so that they can follow the tick.
    if (!item->parent() && item->checkState(0) == Qt::Checked && !item->data(0, kLoadedRole).toBool()) {
        loadSessionChildren(item);
    }
    scheduleRebuild();
}

void ComparisonView::addSession(qint64 sessionId)
{
    bool listed = false;
    for (int i = 0; i < m_tree->topLevelItemCount() && !listed; ++i)
        listed = m_tree->topLevelItem(i)->data(0, kSessionRole).toLongLong() == sessionId;
    if (SessionInfo info; !listed && m_store && m_store->session(sessionId, &info)) {
        // Older than the tree's page: it joins the tree (and stays on reload).
        m_added.append(sessionId);
        const bool wasUpdating = m_updatingTree;
        m_updatingTree = true;
        addSessionItem(info);
        // The line that counts the older sessions stays last.
        for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
            if (m_tree->topLevelItem(i)->data(0, kSessionRole).toLongLong() == -1) {
                m_tree->addTopLevelItem(m_tree->takeTopLevelItem(i));
                break;
            }
        }
        m_updatingTree = wasUpdating;
    }
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_tree->topLevelItem(i);
        if (item->data(0, kSessionRole).toLongLong() != sessionId)
            continue;
        loadSessionChildren(item);
        m_manualSelection = false;
        item->setCheckState(0, Qt::Checked);
        for (int c = 0; c < item->childCount(); ++c)
            item->child(c)->setCheckState(0, Qt::Checked);
    }
    scheduleRebuild();
}

void ComparisonView::setRuns(const QList<ComparedRun> &runs)
{
    m_updatingTree = true;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_tree->topLevelItem(i);
        item->setCheckState(0, Qt::Unchecked);
        for (int c = 0; c < item->childCount(); ++c)
            item->child(c)->setCheckState(0, Qt::Unchecked);
    }
    m_updatingTree = false;
    m_rebuildTimer.stop();
    m_manualSelection = true;
    m_selected = runs;
    rebuildBars();
    rebuildOverlay();
    emit selectionChanged(int(m_selected.size()));
}

void ComparisonView::collectSelection()
{
    QList<ComparedRun> selected;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_tree->topLevelItem(i);
        const QList<ComparedRun> &runs = m_loaded[item->data(0, kSessionRole).toLongLong()];
        for (int c = 0; c < item->childCount(); ++c) {
            QTreeWidgetItem *child = item->child(c);
            const int index = child->data(0, kRunRole).toInt();
            if (child->checkState(0) == Qt::Checked && index >= 0 && index < runs.size())
                selected << runs.at(index);
        }
    }
    const bool changed = selected.size() != m_selected.size();
    m_selected = selected;
    if (changed)
        emit selectionChanged(int(m_selected.size()));
}

void ComparisonView::setGrouping(CompareDimension groups, CompareDimension bars)
{
    m_groupCombo->setCurrentIndex(m_groupCombo->findData(int(groups)));
    m_barCombo->setCurrentIndex(m_barCombo->findData(int(bars)));
    rebuildNow();
}

void ComparisonView::setErrorBarMode(ErrorBarMode mode)
{
    m_errorCombo->setCurrentIndex(m_errorCombo->findData(int(mode)));
    rebuildNow();
}

void ComparisonView::setShowPercentOfCeiling(bool show)
{
    m_ceilingCheck->setChecked(show);
    rebuildNow();
}

void ComparisonView::setShowLatency(bool show)
{
    m_latencyCheck->setChecked(show);
    rebuildNow();
}

void ComparisonView::setUnit(RateUnit unit)
{
    m_unitCombo->setUnit(unit);
    if (unit == m_unit)
        return;
    m_unit = unit;
    m_overlay->setUnit(unit);
    rebuildNow();
}

void ComparisonView::scheduleRebuild()
{
    m_rebuildTimer.start();
}

void ComparisonView::rebuildNow()
{
    m_rebuildTimer.stop();
    // The tree is the selection unless setRuns() fed one (until the user ticks something).
    if (!m_manualSelection)
        collectSelection();
    rebuildBars();
    rebuildOverlay();
    RunResultList runs;
    for (const ComparedRun &r : std::as_const(m_selected))
        runs << r.run;
    m_findings->setResults(runs);
}

void ComparisonView::rebuildBars()
{
    m_bars->clear();
    const CompareDimension gDim = groupDimension();
    const CompareDimension bDim = barDimension();
    const ErrorBarMode mode = errorBarMode();
    const QList<BarValue> values = computeBars(m_selected, gDim, bDim, mode, &m_groupKeys, &m_barKeys);

    m_plot->xAxis->setLabel(dimensionName(gDim));
    m_plot->yAxis->setLabel(tr("Throughput (%1)").arg(Units::label(m_unit)));
    QString subtitle;
    switch (mode) {
    case ErrorBarMode::MinMax:
        subtitle = tr("bar: median of the runs, error bars from min to max");
        break;
    case ErrorBarMode::Ci95:
        subtitle = tr("bar: mean of the runs, error bars: 95% confidence interval");
        break;
    case ErrorBarMode::None:
        subtitle = tr("bar: median of the runs");
        break;
    }
    m_title->setText(tr("%1 per %2\n%3").arg(dimensionName(bDim), dimensionName(gDim).toLower(), subtitle));
    m_hint->setVisible(values.isEmpty());
    m_plot->legend->setVisible(!values.isEmpty());

    QStringList ticks;
    for (int i = 0; i < m_groupKeys.size(); ++i) {
        QString label = m_groupKeys.at(i);
        if (gDim == CompareDimension::Test)
            label = label.replace(QLatin1String(" @ "), QLatin1String("\n")) + QLatin1String(" B frame");
        ticks << label;
    }
    m_bars->setGroups(ticks, int(m_barKeys.size()));
    const bool withCeiling = m_ceilingCheck->isChecked();
    const bool withLatency = m_latencyCheck->isChecked();
    for (const QString &barKey : std::as_const(m_barKeys)) {
        m_bars->addSeries(barKey, legendOf(barKey, bDim), ChartStyle::hostColor(barKey));
        m_bars->errors(barKey)->setVisible(mode != ErrorBarMode::None);
        for (const BarValue &v : values) {
            if (v.bar != barKey)
                continue;
            const int group = int(m_groupKeys.indexOf(v.group));
            if (v.okRuns == 0) {
                m_bars->addGap({group, tr("failed"), QColor(190, 30, 30), false});
                continue;
            }
            GroupedBars::Bar bar;
            bar.group = group;
            bar.value = Units::fromBytesPerSecond(v.value, m_unit);
            const double lo = Units::fromBytesPerSecond(v.low, m_unit);
            const double hi = Units::fromBytesPerSecond(v.high, m_unit);
            bar.minus = std::max(0.0, bar.value - lo);
            bar.plus = std::max(0.0, hi - bar.value);
            bar.top = mode == ErrorBarMode::None ? bar.value : std::max(bar.value, hi);
            bar.labelAt = bar.top;
            bar.label = Units::format(v.value, m_unit);
            if (withCeiling && v.percentOfCeiling >= 0)
                bar.label += (m_bars->narrow() ? QStringLiteral(" ") : QStringLiteral("\n"))
                    + tr("%1% of line rate").arg(v.percentOfCeiling, 0, 'f', 0);
            if (withLatency && v.loadedLatencyMs >= 0) {
                const double added = v.loadedLatencyMs - v.idleLatencyMs;
                bar.label += (m_bars->narrow() ? QStringLiteral(" ") : QStringLiteral("\n"))
                    + tr("latency %1%2 (idle %3)")
                          .arg(added >= 0 ? QStringLiteral("+") : QString(), Bufferbloat::ms(added),
                               Bufferbloat::ms(v.idleLatencyMs));
            }
            m_bars->addBar(bar);
        }
    }
    m_bars->finish(
        m_bars->narrow() ? 1.5 : (withCeiling || withLatency ? 1.25 + (withCeiling && withLatency ? 0.1 : 0) : 1.15));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// The bar key, and for a host its OS label, as the live comparison chart shows it.
QString ComparisonView::legendOf(const QString &barKey, CompareDimension bars) const
{
    if (bars != CompareDimension::Host)
        return barKey;
    for (const ComparedRun &r : std::as_const(m_selected)) {
        if (r.run.spec.host.displayName() == barKey && !r.run.spec.host.osLabel.isEmpty())
            return tr("%1 (%2)").arg(barKey, r.run.spec.host.osLabel);
    }
    return barKey;
}

void ComparisonView::rebuildOverlay()
{
    QList<RunOverlayChart::Line> lines;
    const bool manySessions = [this] {
        QSet<qint64> ids;
        for (const ComparedRun &r : std::as_const(m_selected))
            ids.insert(r.sessionId);
        return ids.size() > 1;
    }();
    for (const ComparedRun &r : std::as_const(m_selected)) {
        if (r.run.samples.isEmpty())
            continue;
        QString label = RunOverlayChart::defaultLabel(r.run);
        if (manySessions)
            label += QStringLiteral(" [#%1]").arg(r.sessionId);
        lines << RunOverlayChart::Line{label, r.run};
    }
    m_overlay->setTitle(tr("Live graphs of %n run(s) on one time axis", nullptr, int(lines.size())));
    m_overlay->setLines(lines);
}

void ComparisonView::exportBars()
{
    const bool bars = m_tabs->currentIndex() == 0;
    ExportExtras::exportWithDialog(
        this, bars ? m_plot : m_overlay->plot(),
        bars ? QStringLiteral("wirebench-comparison") : QStringLiteral("wirebench-live-graphs"), footnote());
}

void ComparisonView::copyBars()
{
    QCustomPlot *plot = m_tabs->currentIndex() == 0 ? m_plot : m_overlay->plot();
    ChartExportOptions options;
    options.size = plot->size().expandedTo(QSize(800, 500));
    options.footnote = footnote();
    QString error;
    if (!ExportExtras::copyToClipboard(plot, options, &error))
        QMessageBox::warning(this, tr("Copy failed"), error);
}

} // namespace wb
