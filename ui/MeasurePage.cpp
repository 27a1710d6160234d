#include "MeasurePage.h"

#include "ComparisonChart.h"
#include "HostListPanel.h"
#include "LatencyChart.h"
#include "PlanEditorPanel.h"
#include "ResultTabs.h"
#include "RunControlPanel.h"
#include "ThroughputChart.h"
#include "settings/Config.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QSplitter>
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
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_rightSplitter = splitter(Qt::Vertical, "rightSplitter", right);
    m_rightSplitter->addWidget(m_chartSplitter);
    m_rightSplitter->addWidget(m_tabs);
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

QList<QSplitter *> MeasurePage::splitters() const
{
    return {m_mainSplitter, m_rightSplitter, m_chartSplitter, m_liveSplitter};
}

void MeasurePage::restoreLayout(const Config &config)
{
    for (QSplitter *s : splitters())
        s->restoreState(config.splitterState(s->objectName()));
}

void MeasurePage::saveLayout(Config &config) const
{
    for (QSplitter *s : splitters())
        config.setSplitterState(s->objectName(), s->saveState());
}

} // namespace wb
