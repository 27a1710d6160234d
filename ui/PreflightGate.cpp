#include "PreflightGate.h"

#include "PreflightDialog.h"
#include "RunControlPanel.h"

#include <QWidget>

namespace wb {

PreflightGate::PreflightGate(QWidget *window, RunControlPanel *run)
    : QObject(window)
    , m_dialog(new PreflightDialog(window))
{
    connect(this, &PreflightGate::status, run, &RunControlPanel::setStatus);
    connect(this, &PreflightGate::stopped, run, [run](const QString &why) {
        run->setRunning(false);
        run->setStatus(why);
    });
    m_dialog->setWindowModality(Qt::WindowModal);
    connect(m_dialog, &QDialog::accepted, this, [this] { emit passed(m_plan, m_report); });
    connect(m_dialog, &QDialog::rejected, this,
            [this] { emit stopped(tr("Not started: fix the problems the check found, then press Start again.")); });
}

bool PreflightGate::isBusy() const
{
    return m_check || m_dialog->isVisible();
}

void PreflightGate::check(const TestPlan &plan)
{
    m_plan = plan;
    // A check per Start: one cancelled a moment ago may still be waiting for its timeouts.
    m_check = new Preflight(this);
    connect(m_check, &Preflight::finished, this, &PreflightGate::onChecked);
    m_check->start(plan);
    QStringList hosts;
    for (const Host &h : plan.hosts)
        hosts << h.displayName();
    emit status(tr("Checking %1 for %2 protocol(s) before the first run (a few seconds at most)...")
                    .arg(hosts.join(QStringLiteral(", ")))
                    .arg(plan.protocols.size()));
}

void PreflightGate::onChecked(const PreflightReport &report)
{
    m_check->deleteLater();
    m_check = nullptr;
    m_report = report;
    m_plan = report.planToRun(m_plan); // the run count without the reference streams that cannot run
    if (report.isClean()) {
        emit passed(m_plan, m_report);
        return;
    }
    m_dialog->setReport(report, m_plan);
    emit status(
        tr("The check before the first run found %n problem(s): see the list.", nullptr, int(report.problems.size())));
    m_dialog->open();
}

void PreflightGate::cancel()
{
    if (m_check) {
        disconnect(m_check, nullptr, this, nullptr);
        connect(m_check, &Preflight::finished, m_check, &QObject::deleteLater);
        m_check = nullptr;
        emit stopped(tr("Not started: stopped during the check before the first run."));
    } else if (m_dialog->isVisible()) {
        m_dialog->reject();
    }
}

} // namespace wb
