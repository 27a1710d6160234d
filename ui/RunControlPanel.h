#pragma once

#include "model/RunResult.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QAction;
class QPushButton;
class QSpacerItem;

namespace wb {

/// Start and Stop, the progress of the whole matrix ("Run k of n - about m:ss left") and a status line.
/// A new status line relayouts the window only when its wrapped height changes: a QLabel in a layout would ask
/// every ancestor for a new layout on each setText, and the page tabs (QTabWidget) repaint the whole window on
/// that (each full repaint about 100-200 of Qt's thread-pool fills that the GUI thread waits for).
class RunControlPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunControlPanel(QWidget *parent = nullptr);

    bool isRunning() const { return m_running; }
    QString statusText() const;
    QString progressText() const;
    /// "1:05"; "0:07"; "1:02:03" for an hour and more.
    static QString formatDuration(double seconds);
    /// Start (F5, Ctrl+R) and Stop (Esc) for the menus: enabled exactly when their buttons are.
    QAction *startAction() const { return m_startAction; }
    QAction *stopAction() const { return m_stopAction; }

public slots:
    void setRunning(bool running);
    void setProgress(int runsDone, int runsTotal, double secondsLeft);
    void setStatus(const QString &text);
    void setStartEnabled(bool enabled, const QString &reason = {});
    /// Counts a finished run for the end-of-plan line; a failed one's error becomes the status line.
    void addResult(const wb::RunResult &result);
    /// "Done. 3 run(s) ok, 1 failed." (", 4 not run" when some were not), or "Stopped. ..." when cancelled.
    void showPlanFinished(bool cancelled);

protected:
    void resizeEvent(QResizeEvent *event) override;

signals:
    void startRequested();
    void stopRequested();

private:
    /// Gives the status label the panel's width and its text's wrapped height (a fixed size, so that its setText
    /// leaves the layouts alone), and the layout the same height, invalidated only when that height changes.
    void fitStatus();

    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QAction *m_startAction = nullptr;
    QAction *m_stopAction = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;           ///< outside the layout, placed under the row by fitStatus()
    QSpacerItem *m_statusSpace = nullptr; ///< the label's height in the layout
    /// A hidden twin of the label that measures the wrapped height (the label's own heightForWidth is never below
    /// its fixed size); hidden, its setText asks no layout.
    QLabel *m_statusMeasure = nullptr;
    bool m_running = false;
    bool m_startAllowed = true;
    int m_okRuns = 0;
    int m_failedRuns = 0;
    int m_notRun = 0;
};

} // namespace wb
