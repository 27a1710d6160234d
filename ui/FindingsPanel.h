#pragma once

#include "analysis/SessionFindings.h"
#include "model/RunResult.h"

#include <QWidget>

class QLabel;

namespace wb {

class ResultStore;

/// What the session's tests show together (SessionFindings), one sentence each with its figures, in full:
/// nothing to hover. Recomputed as runs end; the placeholder says which tests would give a finding.
class FindingsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FindingsPanel(QWidget *parent = nullptr);

    const FindingList &findings() const { return m_findings; }
    QString text() const; ///< what the panel shows, as plain text
    /// The Compare view's runs may come from several sessions: its heading and sentences say so.
    void setComparedRuns(bool compared);
    /// Where a TCP stream from the hour before the session is looked for when the session has none to a host
    /// (StoredStreams); nullptr: the session's own runs only. The store must outlive the panel.
    void setStore(const ResultStore *store);

public slots:
    void clearResults();
    void addResult(const wb::RunResult &result);
    void setResults(const wb::RunResultList &results);

private:
    void refresh();

    RunResultList m_results;
    FindingList m_findings;
    QLabel *m_label = nullptr;
    bool m_compared = false;
    const ResultStore *m_store = nullptr;
};

} // namespace wb
