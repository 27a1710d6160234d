#include "PreflightDialog.h"

#include "protocols/DriverRegistry.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QScreen>
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
    m_copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    m_copy->setObjectName(QStringLiteral("copyProblemsButton"));
    m_copy->setToolTip(tr("Copy the problems as text, one line each"));
    connect(m_copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(problemsText()); });
    // The rows follow the problem column's width: wrapped text, as tall as it needs, no taller.
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section) {
        if (section == ProblemColumn)
            fitRows();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(900, 420);
}

void PreflightDialog::fitRows()
{
    m_table->resizeRowsToContents();
}

void PreflightDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    fitRows(); // the columns have their real widths now
    // Room for six problems at once where the screen has it.
    const int rows = qMin(m_table->rowCount(), 6);
    int wanted = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth();
    for (int row = 0; row < rows; ++row)
        wanted += m_table->rowHeight(row);
    const int extra = wanted - m_table->viewport()->height() - m_table->horizontalHeader()->height();
    if (extra > 0) {
        const QRect screen = this->screen() ? this->screen()->availableGeometry() : QRect();
        const int height
            = screen.isValid() ? qMin(this->height() + extra, screen.height() * 9 / 10) : this->height() + extra;
        resize(width(), height);
    }
}

QString PreflightDialog::problemsText() const
{
    QStringList lines{m_summary->text()};
    for (int row = 0; row < m_table->rowCount(); ++row) {
        lines << QStringLiteral("%1: %2: %3")
                     .arg(m_table->item(row, HostColumn)->text(), m_table->item(row, ProtocolColumn)->text(),
                          m_table->item(row, ProblemColumn)->text());
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
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
