#pragma once

#include "plan/TestPlan.h"

#include <QObject>
#include <QString>

class QWidget;

namespace wb {

class HostListPanel;
class PlanEditorPanel;

/// File > Open plan and Save plan as: the plan editor's settings with the ticked hosts, in a plan file
/// (core's PlanFile, the same file `wirebench-cli run --plan` reads). Passwords stay in the keychain.
class PlanFileActions : public QObject
{
    Q_OBJECT
public:
    PlanFileActions(HostListPanel *hosts, PlanEditorPanel *editor, QWidget *dialogParent);

    /// Loads a plan file into the editor and the host list. False with a one-line reason in *message;
    /// true with what was loaded ("3 hosts (1 added), 40 runs") in *message.
    bool open(const QString &path, QString *message);
    /// Saves the editor's plan with the ticked hosts. *message says where, or why not.
    bool save(const QString &path, QString *message);

    /// Puts a plan into the editor and the host list (see HostListPanel::applyPlanHosts); returns the names
    /// of the hosts that were added to the list.
    QStringList apply(const TestPlan &plan);

public slots:
    void openWithDialog();
    void saveWithDialog();
    /// A plan from History, to be run again: applied, with a status line.
    void useStoredPlan(const wb::TestPlan &plan);

signals:
    /// A line for the status area: what was loaded or saved.
    void status(const QString &text);

private:
    QString folder() const;

    HostListPanel *m_hosts;
    PlanEditorPanel *m_editor;
    QWidget *m_dialogParent;
    QString m_lastPath;
};

} // namespace wb
