#include "PlanFileActions.h"

#include "HostListPanel.h"
#include "PlanEditorPanel.h"
#include "plan/PlanFile.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>

namespace wb {

namespace {

QString filter()
{
    return QObject::tr("Wirebench plans (*.wbplan.json);;JSON (*.json)");
}

} // namespace

PlanFileActions::PlanFileActions(HostListPanel *hosts, PlanEditorPanel *editor, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_hosts(hosts)
    , m_editor(editor)
    , m_dialogParent(dialogParent)
{
}

bool PlanFileActions::open(const QString &path, QString *message)
{
    TestPlan plan;
    if (!PlanFile::read(path, &plan, message))
        return false;
    const QStringList added = apply(plan);
    m_lastPath = path;
    *message
        = tr("Plan loaded from %1: %n host(s)", nullptr, int(plan.hosts.size())).arg(QDir::toNativeSeparators(path));
    if (!added.isEmpty())
        *message += tr(" (added to the list: %1)").arg(added.join(QStringLiteral(", ")));
    *message += tr(", %n run(s).", nullptr, plan.runCount());
    const QStringList problems = plan.validate();
    if (!problems.isEmpty())
        *message += QLatin1Char(' ') + problems.join(QLatin1Char(' '));
    return true;
}

QStringList PlanFileActions::apply(const TestPlan &plan)
{
    m_editor->setPlan(plan);
    return m_hosts->applyPlanHosts(plan.hosts);
}

void PlanFileActions::useStoredPlan(const TestPlan &plan)
{
    const QStringList added = apply(plan);
    emit status(added.isEmpty()
                    ? tr("The plan from History is ready: press Start to run it again.")
                    : tr("The plan from History is ready (added to the host list: %1): press Start to run it "
                         "again.")
                          .arg(added.join(QStringLiteral(", "))));
}

bool PlanFileActions::save(const QString &path, QString *message)
{
    TestPlan plan = m_editor->plan();
    plan.hosts = m_hosts->selectedHosts(); // without secrets: those stay in the keychain
    if (!PlanFile::write(path, plan, message))
        return false;
    m_lastPath = path;
    *message = tr("Plan saved to %1 (%n host(s), passwords not included).", nullptr, int(plan.hosts.size()))
                   .arg(QDir::toNativeSeparators(path));
    return true;
}

QString PlanFileActions::folder() const
{
    if (!m_lastPath.isEmpty())
        return QFileInfo(m_lastPath).absolutePath();
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return documents.isEmpty() || !QDir(documents).exists() ? QDir::homePath() : documents;
}

void PlanFileActions::openWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Open plan"), folder(), filter());
    if (path.isEmpty())
        return;
    QString message;
    if (!open(path, &message)) {
        QMessageBox::warning(m_dialogParent, tr("Open plan"), message);
        return;
    }
    emit status(message);
}

void PlanFileActions::saveWithDialog()
{
    const QString suggested = m_lastPath.isEmpty()
        ? QDir(folder()).filePath(QStringLiteral("plan") + QLatin1String(PlanFile::kSuffix))
        : m_lastPath;
    QString path = QFileDialog::getSaveFileName(m_dialogParent, tr("Save plan"), suggested, filter());
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        path += QLatin1String(PlanFile::kSuffix);
    QString message;
    if (!save(path, &message)) {
        QMessageBox::warning(m_dialogParent, tr("Save plan"), message);
        return;
    }
    emit status(message);
}

} // namespace wb
