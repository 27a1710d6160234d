#pragma once

#include "engine/Preflight.h"

#include <QObject>
#include <QPointer>

class QWidget;

namespace wb {

class PreflightDialog;
class RunControlPanel;

/// Between Start and the engine: checks the plan off the GUI thread (Preflight), lets it through when nothing
/// stands in its way, else shows every problem (PreflightDialog, window-modal, no nested event loop) and lets
/// it through with them ("Run the rest") or stops it there (Cancel).
class PreflightGate : public QObject
{
    Q_OBJECT
public:
    /// window: the dialog's parent; run shows what the check does, and goes back to idle when it stops the plan.
    PreflightGate(QWidget *window, RunControlPanel *run);

    /// A check runs or its problems are shown.
    bool isBusy() const;
    PreflightDialog *dialog() const { return m_dialog; }
    /// Checks plan; passed() or stopped() follows.
    void check(const TestPlan &plan);
    /// Stop pressed while checking or while the problems are shown: the plan does not start.
    void cancel();

signals:
    void status(const QString &text);
    /// Run plan, without the runs report's problems stand in the way of.
    void passed(const wb::TestPlan &plan, const wb::PreflightReport &report);
    void stopped(const QString &reason);

private:
    void onChecked(const PreflightReport &report);

    PreflightDialog *m_dialog = nullptr;
    QPointer<Preflight> m_check; ///< the running check; a cancelled one deletes itself when it ends
    TestPlan m_plan;
    PreflightReport m_report;
};

} // namespace wb
