#pragma once

#include <QCoreApplication>

class QMenuBar;
class QTabWidget;

namespace wb {

class MeasurePage;

/// The menus that give every action of the Measure page a keyboard path, with the shortcut shown beside it:
/// Run (Start F5 or Ctrl+R, Stop Esc, the presets), Hosts (add Ctrl+N, edit F2, remove) and View (the pages
/// Ctrl+1..3, the charts' tabs Ctrl+Shift+1..2 where the window is narrow).
class WindowMenus
{
    Q_DECLARE_TR_FUNCTIONS(WindowMenus)

public:
    static void add(QMenuBar *bar, MeasurePage *page, QTabWidget *pages);
};

} // namespace wb
