#include "MeasurePage.h"

#include "ComparisonChart.h"
#include "HostListPanel.h"
#include "LatencyChart.h"
#include "PlanEditorPanel.h"
#include "ResultTabs.h"
#include "RunControlPanel.h"
#include "ThroughputChart.h"
#include "settings/Config.h"

#include "ResultsTable.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedLayout>
#include <QTabWidget>
#include <QVBoxLayout>

namespace wb {

namespace {
QWidget *boxed(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(content);
    return box;
}

QSplitter *splitter(Qt::Orientation orientation, const char *name, QWidget *parent)
{
    auto *s = new QSplitter(orientation, parent);
    s->setObjectName(QLatin1String(name));
    return s;
}
} // namespace

MeasurePage::MeasurePage(Config *config, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("measurePage"));
    m_hosts = new HostListPanel(config, this);
    m_plan = new PlanEditorPanel(config, this);
    m_run = new RunControlPanel(this);
    m_live = new ThroughputChart(this);
    m_latency = new LatencyChart(this);
    m_comparison = new ComparisonChart(this);
    m_tabs = new ResultTabs(this);

    auto *planScroll = new QScrollArea(this);
    planScroll->setWidgetResizable(true);
    planScroll->setFrameShape(QFrame::NoFrame);
    planScroll->setWidget(boxed(tr("Test plan"), m_plan, planScroll));
    auto *left = splitter(Qt::Vertical, "leftSplitter", this);
    left->addWidget(boxed(tr("Hosts"), m_hosts, left));
    left->addWidget(planScroll);
    left->setStretchFactor(1, 1);

    m_liveSplitter = splitter(Qt::Vertical, "liveSplitter", this); // the latency graph under the throughput graph
    m_liveSplitter->addWidget(m_live);
    m_liveSplitter->addWidget(m_latency);
    m_liveSplitter->setStretchFactor(0, 3);
    m_liveSplitter->setStretchFactor(1, 2);
    m_chartSplitter = splitter(Qt::Horizontal, "chartSplitter", this);
    m_chartSplitter->addWidget(m_liveSplitter);
    m_chartSplitter->addWidget(m_comparison);
    m_chartSplitter->setChildrenCollapsible(false);
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName(QStringLiteral("chartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartTabs->setAccessibleName(tr("Charts"));
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_rightSplitter = splitter(Qt::Vertical, "rightSplitter", right);
    auto *chartArea = new QWidget(m_rightSplitter);
    chartArea->setObjectName(QStringLiteral("chartArea"));
    m_chartStack = new QStackedLayout(chartArea);
    m_chartStack->addWidget(m_chartSplitter);
    m_chartStack->addWidget(m_chartTabs);
    m_rightSplitter->addWidget(chartArea);
    m_rightSplitter->addWidget(m_tabs);
    m_rightSplitter->setChildrenCollapsible(false);
    // The results table keeps at least five rows in sight under its header and tab bar, however small the screen.
    const int row = m_tabs->results()->verticalHeader()->defaultSectionSize();
    m_tabs->setMinimumHeight(7 * row + 12); // five rows, the table's header and the tab bar
    m_rightSplitter->setStretchFactor(0, 3);
    m_rightSplitter->setStretchFactor(1, 1);
    rightLayout->addWidget(m_run);
    rightLayout->addWidget(m_rightSplitter, 1);

    m_mainSplitter = splitter(Qt::Horizontal, "mainSplitter", this);
    m_mainSplitter->addWidget(left);
    m_mainSplitter->addWidget(right);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setSizes({480, 1120}); // the plan editor needs ~450 px without a horizontal scroll bar
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_mainSplitter);
}

void MeasurePage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    setCompact(event->size().width() < kCompactWidth);
}

void MeasurePage::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    if (compact) {
        m_chartTabs->addTab(m_liveSplitter, tr("Live"));
        m_chartTabs->addTab(m_comparison, tr("Comparison"));
        m_chartStack->setCurrentWidget(m_chartTabs);
        if (!m_layoutRestored) { // the user's own splitter positions stay as they were saved
            m_liveSplitter->setSizes({3000, 2000});
            m_rightSplitter->setSizes({3000, 1}); // the results table at its minimum: five rows
        }
    } else {
        const QList<int> sizes = m_chartSplitter->sizes();
        m_chartTabs->clear();
        m_chartSplitter->insertWidget(0, m_liveSplitter);
        m_chartSplitter->insertWidget(1, m_comparison);
        m_liveSplitter->show();
        m_comparison->show();
        m_chartSplitter->setSizes(sizes);
        m_chartStack->setCurrentWidget(m_chartSplitter);
    }
}

QList<QSplitter *> MeasurePage::splitters() const
{
    return {m_mainSplitter, m_rightSplitter, m_chartSplitter, m_liveSplitter};
}

void MeasurePage::restoreLayout(const Config &config)
{
    for (QSplitter *s : splitters())
        m_layoutRestored = s->restoreState(config.splitterState(s->objectName())) || m_layoutRestored;
}

void MeasurePage::saveLayout(Config &config) const
{
    for (QSplitter *s : splitters())
        config.setSplitterState(s->objectName(), s->saveState());
}

} // namespace wb
