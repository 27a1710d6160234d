#include "ResultTabs.h"

#include "FindingsPanel.h"
#include "LinkCheckPanel.h"
#include "ResultsTable.h"
#include "SummaryTable.h"

namespace wb {

ResultTabs::ResultTabs(QWidget *parent)
    : QTabWidget(parent)
{
    setObjectName(QStringLiteral("resultTabs"));
    m_results = new ResultsTable(this);
    m_summary = new SummaryTable(this);
    m_findings = new FindingsPanel(this);
    m_findings->setObjectName(QStringLiteral("findingsPanel"));
    m_linkCheck = new LinkCheckPanel(this);
    addTab(m_results, tr("Runs"));
    addTab(m_summary, tr("Summary per test"));
    addTab(m_findings, tr("Findings"));
    addTab(m_linkCheck, tr("Link check (MTU, speed)"));
}

void ResultTabs::addResult(const RunResult &result)
{
    m_results->addResult(result);
    m_summary->addResult(result);
    m_findings->addResult(result);
}

void ResultTabs::clearResults()
{
    m_results->clearResults();
    m_summary->clearResults();
    m_findings->clearResults();
}

} // namespace wb
