#pragma once

#include "model/RunResult.h"

#include <QTableWidget>

namespace wb {

/// One row per finished run, filled in as each run ends. A failed run shows its error; a run with
/// warnings carries a warning icon (the warnings in its tooltip); a run that was not started (a frame
/// larger than the path MTU, ...) is greyed out with the reason.
class ResultsTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column {
        Index,
        HostName,
        Os,
        Protocol,
        Frame,
        Mss,
        Repetition,
        Status,
        MBps,
        Mbps,
        PercentOfCeiling,
        CpuLocal,
        CpuRemote,
        Retransmits,
        RttMs,
        Error,
        ColumnCount
    };

    explicit ResultsTable(QWidget *parent = nullptr);
    const RunResultList &results() const { return m_results; }

public slots:
    void clearResults();
    void addResult(const wb::RunResult &result);

private:
    void showBothWays(int row, const wb::RunResult &result);
    RunResultList m_results;
};

} // namespace wb
