#include "WindowMenus.h"

#include "HostListPanel.h"
#include "MeasurePage.h"
#include "PlanEditorPanel.h"
#include "RunControlPanel.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

namespace wb {

void WindowMenus::add(QMenuBar *bar, MeasurePage *page, QTabWidget *pages)
{
    QMenu *run = bar->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    run->addAction(page->run()->startAction());
    run->addAction(page->run()->stopAction());
    run->addSeparator();
    QAction *shootout
        = run->addAction(tr("Preset: &file-server shoot-out"), page->plan(), &PlanEditorPanel::applyShootoutPreset);
    shootout->setObjectName(QStringLiteral("shootoutMenuAction"));
    QAction *netperf
        = run->addAction(tr("Preset: &netperf TCP_STREAM"), page->plan(), &PlanEditorPanel::applyNetperfPreset);
    netperf->setObjectName(QStringLiteral("netperfMenuAction"));

    QMenu *hosts = bar->addMenu(tr("H&osts"));
    hosts->setObjectName(QStringLiteral("hostsMenu"));
    QAction *addHost = hosts->addAction(tr("&Add host..."), page->hosts(), &HostListPanel::addWithDialog);
    addHost->setObjectName(QStringLiteral("addHostAction"));
    addHost->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    QAction *editHost = hosts->addAction(tr("&Edit selected host..."), page->hosts(), &HostListPanel::editWithDialog);
    editHost->setObjectName(QStringLiteral("editHostAction"));
    editHost->setShortcut(QKeySequence(Qt::Key_F2));
    QAction *removeHost = hosts->addAction(tr("&Remove selected host"), page->hosts(), &HostListPanel::removeCurrent);
    removeHost->setObjectName(QStringLiteral("removeHostAction"));

    QMenu *view = bar->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    for (int i = 0; i < pages->count() && i < 9; ++i) {
        QAction *a = view->addAction(pages->tabText(i).remove(QLatin1Char('&')), pages,
                                     [pages, i] { pages->setCurrentIndex(i); });
        a->setObjectName(QStringLiteral("pageAction%1").arg(i + 1));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    const QStringList charts{tr("Live graph (narrow window)"), tr("Comparison chart (narrow window)")};
    for (int i = 0; i < charts.size(); ++i) {
        QAction *a = view->addAction(charts.at(i), page, [page, pages, i] {
            pages->setCurrentWidget(page);
            if (page->isCompact())
                page->chartTabs()->setCurrentIndex(i);
        });
        a->setObjectName(QStringLiteral("chartAction%1").arg(i + 1));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key(Qt::Key_1 + i)));
    }
}

} // namespace wb
