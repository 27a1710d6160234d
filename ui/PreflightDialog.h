#pragma once

#include "engine/PreflightReport.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace wb {

/// Every problem the check before the first run found, at once: host, protocol, what failed and what to fix,
/// with "Run the other N runs" (accept; "Keep them as not run" when none is left) and "Cancel" (reject, to fix
/// them first).
class PreflightDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column { HostColumn, ProtocolColumn, ProblemColumn, ColumnCount };

    explicit PreflightDialog(QWidget *parent = nullptr);

    void setReport(const PreflightReport &report, const TestPlan &plan);
    QTableWidget *table() const { return m_table; }
    QPushButton *runRestButton() const { return m_runRest; }
    QString summaryText() const;
    /// The summary and one line per problem ("host: protocol: what failed, and what to fix"), as Copy puts it on the
    /// clipboard for a mail or a ticket.
    QString problemsText() const;
    QPushButton *copyButton() const { return m_copy; }
    /// The message without its leading "host (address:port): ", which the Host column shows.
    static QString withoutHost(const PreflightProblem &problem);

private:
    QLabel *m_summary = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_runRest = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_copy = nullptr;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void fitRows(); ///< each row as tall as its wrapped text at the problem column's width now
};

} // namespace wb
