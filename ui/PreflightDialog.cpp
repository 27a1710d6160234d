#include "PreflightDialog.h"

#include "protocols/DriverRegistry.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace wb {

PreflightDialog::PreflightDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("preflightDialog"));
    setWindowTitle(tr("Before the first run"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("preflightSummaryLabel"));
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("preflightProblemTable"));
    m_table->setHorizontalHeaderLabels({tr("Host"), tr("Protocol"), tr("What failed, and what to fix")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(ProblemColumn, QHeaderView::Stretch);
    auto *buttons = new QDialogButtonBox(this);
    m_runRest = buttons->addButton(tr("Run the rest"), QDialogButtonBox::AcceptRole);
    m_runRest->setObjectName(QStringLiteral("runRestButton"));
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setDefault(true); // fixing is the usual answer
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(900, 360);
}

QString PreflightDialog::withoutHost(const PreflightProblem &problem)
{
    // "fs1 (10.0.0.5:21): FTP GET: ..." -> "FTP GET: ..."; an IPv6 address sits inside the brackets, before ": ".
    const QString &m = problem.message;
    const qsizetype at = m.indexOf(QLatin1String(": "));
    if (at > 0 && (m.startsWith(problem.host.displayName()) || m.startsWith(problem.host.address)))
        return m.mid(at + 2);
    return m;
}

void PreflightDialog::setReport(const PreflightReport &report, const TestPlan &plan)
{
    const int blocked = report.blockedRuns(plan);
    const int rest = plan.runCount() - blocked;
    QString text = tr("The check before the first run found %n problem(s); %1 of %2 runs cannot work.", nullptr,
                      int(report.problems.size()))
                       .arg(blocked)
                       .arg(plan.runCount());
    text += QLatin1Char(' ')
        + (rest > 0 ? tr("Cancel to fix them first (in the host's settings or the plan), or run the %1 other run(s): "
                         "the %2 are kept in the results as not run, each with its problem.")
                          .arg(rest)
                          .arg(blocked)
                    : tr("No run can work: Cancel to fix them (in the host's settings or the plan) and press Start "
                         "again, or keep the %1 runs in the results as not run, each with its problem.")
                          .arg(blocked));
    m_summary->setText(text);
    // With nothing left to run, the button still records the plan's runs and why they could not run.
    m_runRest->setText(rest > 0 ? tr("Run the other %n run(s)", nullptr, rest) : tr("Keep them as not run"));
    m_table->setRowCount(int(report.problems.size()));
    for (int row = 0; row < report.problems.size(); ++row) {
        const PreflightProblem &p = report.problems.at(row);
        const ProtocolInfo *info = DriverRegistry::find(p.protocol);
        auto *protocol = new QTableWidgetItem(info ? info->title : p.protocol);
        protocol->setData(Qt::UserRole, p.protocol);
        auto *problem = new QTableWidgetItem(withoutHost(p));
        problem->setToolTip(p.message);
        m_table->setItem(row, HostColumn, new QTableWidgetItem(p.host.displayName()));
        m_table->setItem(row, ProtocolColumn, protocol);
        m_table->setItem(row, ProblemColumn, problem);
    }
    m_table->resizeColumnToContents(HostColumn);
    m_table->resizeColumnToContents(ProtocolColumn);
    m_table->resizeRowsToContents();
}

QString PreflightDialog::summaryText() const
{
    return m_summary->text();
}

} // namespace wb
