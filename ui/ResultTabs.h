#pragma once

#include "model/RunResult.h"

#include <QTabWidget>

namespace wb {

class FindingsPanel;
class LinkCheckPanel;
class ResultsTable;
class SummaryTable;

/// The tabs under the charts: every run, the summary per test, what the tests show together and the link
/// check. A finished run goes to the first three at once.
class ResultTabs : public QTabWidget
{
    Q_OBJECT
public:
    explicit ResultTabs(QWidget *parent = nullptr);

    ResultsTable *results() const { return m_results; }
    SummaryTable *summary() const { return m_summary; }
    FindingsPanel *findings() const { return m_findings; }
    LinkCheckPanel *linkCheck() const { return m_linkCheck; }

public slots:
    void addResult(const wb::RunResult &result);
    void clearResults();

private:
    ResultsTable *m_results = nullptr;
    SummaryTable *m_summary = nullptr;
    FindingsPanel *m_findings = nullptr;
    LinkCheckPanel *m_linkCheck = nullptr;
};

} // namespace wb
