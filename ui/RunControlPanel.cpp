#include "RunControlPanel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QSpacerItem>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace wb {

RunControlPanel::RunControlPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("runControlPanel"));
    setAutoFillBackground(true);
    m_start = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"), this);
    m_start->setObjectName(QStringLiteral("startButton"));
    m_stop = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("Ready"));
    m_progress->setMinimumWidth(260);
    m_status = new QLabel(tr("Choose hosts and tests, then press Start."), this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_statusMeasure = new QLabel(m_status->text(), this);
    m_statusMeasure->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusMeasure->setWordWrap(true);
    m_statusMeasure->hide();

    connect(m_start, &QPushButton::clicked, this, &RunControlPanel::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &RunControlPanel::stopRequested);
    m_startAction = new QAction(m_start->icon(), tr("&Start"), this);
    m_startAction->setObjectName(QStringLiteral("startAction"));
    m_startAction->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    m_stopAction = new QAction(m_stop->icon(), tr("S&top"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    // Through the buttons, so that a key does exactly what a click does, and nothing when the button is disabled.
    connect(m_startAction, &QAction::triggered, m_start, &QPushButton::click);
    connect(m_stopAction, &QAction::triggered, m_stop, &QPushButton::click);
    m_start->setToolTip(tr("Run the plan: every chosen host x protocol x frame size, repeated (F5)"));
    m_stop->setToolTip(tr("End the current run within a second; finished runs stay (Esc)"));

    auto *row = new QHBoxLayout;
    row->addWidget(m_start);
    row->addWidget(m_stop);
    row->addWidget(m_progress, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    m_statusSpace = new QSpacerItem(0, 0, QSizePolicy::Minimum, QSizePolicy::Fixed);
    layout->addItem(m_statusSpace);
    setRunning(false);
    fitStatus();
}

void RunControlPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitStatus();
}

void RunControlPanel::fitStatus()
{
    const int w = std::max(1, width());
    const int h = m_statusMeasure->heightForWidth(w);
    if (m_status->minimumSize() != QSize(w, h) || m_status->maximumSize() != QSize(w, h))
        m_status->setFixedSize(w, h); // not in a layout: its size is the panel's business alone
    m_status->move(0, height() - h);
    if (m_statusSpace->sizeHint().height() != h) {
        m_statusSpace->changeSize(0, h, QSizePolicy::Minimum, QSizePolicy::Fixed);
        layout()->invalidate(); // the panel's height changes: the one case in which the window relayouts
    }
}

QString RunControlPanel::statusText() const
{
    return m_status->text();
}

QString RunControlPanel::progressText() const
{
    return m_progress->text();
}

QString RunControlPanel::formatDuration(double seconds)
{
    const qint64 total = std::isfinite(seconds) && seconds > 0 ? qint64(std::ceil(seconds)) : 0;
    const qint64 h = total / 3600, m = (total % 3600) / 60, s = total % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

void RunControlPanel::setRunning(bool running)
{
    if (running)
        m_okRuns = m_failedRuns = m_notRun = 0; // a plan starts (or its check does): no run has ended yet
    m_running = running;
    m_start->setEnabled(!running && m_startAllowed);
    m_stop->setEnabled(running);
    m_startAction->setEnabled(m_start->isEnabled());
    m_stopAction->setEnabled(running);
}

void RunControlPanel::setStartEnabled(bool enabled, const QString &reason)
{
    m_startAllowed = enabled;
    m_start->setEnabled(!m_running && enabled);
    m_startAction->setEnabled(m_start->isEnabled());
    m_start->setToolTip(enabled ? tr("Run the plan: every chosen host x protocol x frame size, repeated (F5)")
                                : reason);
}

void RunControlPanel::setProgress(int runsDone, int runsTotal, double secondsLeft)
{
    m_progress->setRange(0, std::max(1, runsTotal));
    m_progress->setValue(std::clamp(runsDone, 0, std::max(1, runsTotal)));
    if (runsTotal <= 0) {
        m_progress->setFormat(tr("Ready"));
    } else if (runsDone >= runsTotal) {
        m_progress->setFormat(tr("%1 of %2 runs done").arg(runsDone).arg(runsTotal));
    } else {
        m_progress->setFormat(
            tr("Run %1 of %2 - about %3 left").arg(runsDone + 1).arg(runsTotal).arg(formatDuration(secondsLeft)));
    }
}

void RunControlPanel::setStatus(const QString &text)
{
    m_statusMeasure->setText(text);
    m_status->setText(text);
    fitStatus();
}

void RunControlPanel::addResult(const RunResult &result)
{
    m_okRuns += result.ok() ? 1 : 0;
    m_failedRuns += result.status == RunStatus::Failed ? 1 : 0;
    m_notRun += result.status == RunStatus::NotRun ? 1 : 0;
    if (result.status == RunStatus::Failed)
        setStatus(result.error);
}

void RunControlPanel::showPlanFinished(bool cancelled)
{
    QString text = cancelled ? tr("Stopped. %1 run(s) finished ok, %2 failed") : tr("Done. %1 run(s) ok, %2 failed");
    text = text.arg(m_okRuns).arg(m_failedRuns);
    if (m_notRun > 0)
        text += tr(", %1 not run").arg(m_notRun);
    text += QLatin1Char('.');
    if (m_failedRuns + m_notRun > 0)
        text += tr(" The results table shows each reason.");
    setStatus(text);
}

} // namespace wb
