#include "MainWindow.h"

#include "ChartExporter.h"
#include "ComparisonChart.h"
#include "CredentialStore.h"
#include "SettingsDialog.h"
#include "StoreSwitcher.h"
#include "ExportExtras.h"
#include "FindingsPanel.h"
#include "HostListPanel.h"
#include "LinkCheckPanel.h"
#include "MeasurePage.h"
#include "PlanEditorPanel.h"
#include "PlanFileActions.h"
#include "PreflightGate.h"
#include "ResultsTable.h"
#include "RunControlPanel.h"
#include "ResultTabs.h"
#include "SummaryTable.h"
#include "LatencyChart.h"
#include "ThroughputChart.h"
#include "WindowMenus.h"
#include "history/ComparisonView.h"
#include "history/HistoryPanel.h"
#include "storage/ResultStore.h"
#include "storage/SessionRecorder.h"
#include "responder/Responder.h"
#include "settings/Config.h"

#include <qcustomplot.h>

#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>

namespace wb {

MainWindow::MainWindow(Config *config, ResultStore *store, QWidget *parent)
    : QMainWindow(parent)
    , m_config(config)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Wirebench %1").arg(QStringLiteral(WIREBENCH_VERSION)));

    m_measure = new MeasurePage(config, this);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("pageTabs"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(m_measure, tr("Measure"));
    setCentralWidget(m_pages);

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("responderStatusLabel"));
    statusBar()->addWidget(m_statusLabel, 1);

    buildMenus();
    connectEngine();

    const RateUnit unit = config->rateUnit();
    m_measure->live()->setUnit(unit);
    m_measure->comparison()->setUnit(unit);
    connect(m_measure->live(), &ThroughputChart::unitChanged, m_measure->comparison(), &ComparisonChart::setUnit);
    connect(m_measure->comparison(), &ComparisonChart::unitChanged, m_measure->live(), &ThroughputChart::setUnit);
    connect(m_measure->live(), &ThroughputChart::unitChanged, this, [config](RateUnit u) { config->setRateUnit(u); });
    connect(m_measure->hosts(), &HostListPanel::hostsChanged, this, &MainWindow::updateStartEnabled);
    connect(m_measure->plan(), &PlanEditorPanel::planChanged, this, &MainWindow::updateStartEnabled);
    m_measure->tabs()->summary()->setUnit(unit);
    connect(m_measure->comparison(), &ComparisonChart::unitChanged, m_measure->tabs()->summary(),
            &SummaryTable::setUnit);
    const auto updateLinkCheck = [this] {
        const TestPlan p = m_measure->plan()->plan();
        m_measure->tabs()->linkCheck()->setHosts(m_measure->hosts()->selectedHosts());
        m_measure->plan()->setHosts(m_measure->hosts()->selectedHosts());
        m_measure->tabs()->linkCheck()->setFrameSizes(p.frameSizes);
        m_measure->tabs()->linkCheck()->setWillSetInterfaceMtu(
            p.params.options.value(FramePlanCheck::setInterfaceMtuOption()).toBool());
    };
    connect(m_measure->hosts(), &HostListPanel::hostsChanged, this, updateLinkCheck);
    connect(m_measure->plan(), &PlanEditorPanel::planChanged, this, updateLinkCheck);
    updateLinkCheck();
    connect(m_measure->run(), &RunControlPanel::startRequested, this, &MainWindow::startPlan);
    connect(m_measure->run(), &RunControlPanel::stopRequested, this, &MainWindow::stopPlan);
    m_preflight
        = new PreflightGate(this, m_measure->run()); // between Start and the engine: the check before the first run
    connect(m_preflight, &PreflightGate::passed, this, &MainWindow::runCheckedPlan);

    startEmbeddedResponder();
    connectStore(store);
    WindowMenus::add(menuBar(), m_measure, m_pages);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Wirebench"), this, &MainWindow::showAbout)->setObjectName(QStringLiteral("aboutAction"));
    updateStartEnabled();

    placeOnScreen(config->windowGeometry());
    restoreState(config->windowState());
    m_measure->restoreLayout(*config);
}

void MainWindow::placeOnScreen(const QByteArray &saved)
{
    // The window fits a 1280x720 screen (1920x1080 at 150%): nothing below this asks for more.
    setMinimumSize(1000, 560);
    const QRect area = screen()->availableGeometry();
    if (restoreGeometry(saved) && area.contains(frameGeometry()))
        return;
    // First start, or a window saved on a larger screen: the screen's available area decides, up to 1600x1000
    // (a laptop's smaller screen is used whole).
    const bool small = area.width() < 1700 || area.height() < 1060;
    resize(small ? area.size() : QSize(std::min(1900, area.width() * 9 / 10), std::min(1150, area.height() * 9 / 10)));
    move(area.center() - rect().center());
    if (small)
        setWindowState(windowState() | Qt::WindowMaximized); // the window manager fits its frame in
}

void MainWindow::connectStore(ResultStore *store)
{
    const bool open = store && store->isOpen();
    // The store's writes leave the GUI thread: a run's end must not freeze the live graph while the disk catches up.
    m_recorder = new SessionRecorder(&m_engine, open ? store : nullptr, this, SessionRecorder::Writes::OnOwnThread);
    m_history = new HistoryPanel(store, this); // says why it is empty when the store could not be opened
    m_compareView = new ComparisonView(open ? store : nullptr, this);
    m_measure->tabs()->findings()->setStore(open ? store : nullptr);
    m_pages->addTab(m_history, tr("History"));
    m_pages->addTab(m_compareView, tr("Compare"));
    connect(m_recorder, &SessionRecorder::storeError, m_measure->run(), &RunControlPanel::setStatus);
    connect(m_recorder, &SessionRecorder::runStored, m_history, &HistoryPanel::refresh);
    connect(m_recorder, &SessionRecorder::runStored, this, [this](qint64 sessionId) {
        m_lastSessionId = sessionId;
        m_reportAction->setEnabled(true);
        m_exportDataAction->setEnabled(true);
    });
    connect(m_recorder, &SessionRecorder::sessionEnded, this, [this] {
        m_history->refresh();
        m_compareView->reload();
    });
    connect(m_history, &HistoryPanel::planRequested, m_planFiles, &PlanFileActions::useStoredPlan);
    connect(m_history, &HistoryPanel::planRequested, this, [this] { m_pages->setCurrentIndex(0); });
    connect(m_history, &HistoryPanel::compareRequested, this, [this](const QList<qint64> &ids) {
        for (qint64 id : ids)
            m_compareView->addSession(id);
        m_pages->setCurrentWidget(m_compareView);
    });
    if (!store)
        return;
    m_storeSwitcher = new StoreSwitcher(store, store->isServer() ? QString() : store->path(), this);
    m_storeSwitcher->setBusyCheck([this] { return m_engine.isRunning() || m_recorder->isWriting(); });
    m_storeLabel = new QLabel(this);
    m_storeLabel->setObjectName(QStringLiteral("storeStatusLabel"));
    statusBar()->addPermanentWidget(m_storeLabel);
    connect(m_storeSwitcher, &StoreSwitcher::statusChanged, m_storeLabel, &QLabel::setText);
    connect(m_storeSwitcher, &StoreSwitcher::statusChanged, this,
            [this](const QString &t) { statusBar()->showMessage(t); });
    connect(m_storeSwitcher, &StoreSwitcher::storeChanged, m_history, &HistoryPanel::refresh);
    connect(m_storeSwitcher, &StoreSwitcher::storeChanged, m_compareView, &ComparisonView::reload);
    if (!open)
        statusBar()->showMessage(store->lastError());
    else if (store->interruptedAtOpen() > 0)
        statusBar()->showMessage(tr("%n earlier session(s) ended without finishing (Wirebench was closed or crashed); "
                                    "their finished runs are under History, marked interrupted.",
                                    nullptr, store->interruptedAtOpen()));
}

void MainWindow::useConfiguredStore()
{
    if (const StoreLocation l = m_config->resultStore(); m_storeSwitcher && l.isServer())
        m_storeSwitcher->useServer(l, m_measure->hosts()->credentials());
}

MainWindow::~MainWindow()
{
    m_engine.stop();
}

bool MainWindow::openCurrentSessionInHistory()
{
    const qint64 id = m_lastSessionId;
    m_history->refresh();
    if (id == 0 || !m_history->openSession(id)) {
        m_measure->run()->setStatus(
            tr("This session is not in the result store (see the status bar): nothing to report or export."));
        return false;
    }
    m_pages->setCurrentWidget(m_history);
    return true;
}

quint16 MainWindow::embeddedPort() const
{
    return m_responder && m_responder->isRunning() ? m_responder->port() : 0;
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *settings = file->addAction(tr("Se&ttings..."), this, [this] {
        auto *dialog = new SettingsDialog(m_config, m_measure->hosts()->credentials(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &SettingsDialog::storeChosen, this, [this](const StoreLocation &l) {
            if (m_storeSwitcher)
                l.isServer() ? m_storeSwitcher->useServer(l) : m_storeSwitcher->useLocal();
        });
        dialog->open();
    });
    settings->setObjectName(QStringLiteral("settingsAction"));
    m_planFiles = new PlanFileActions(m_measure->hosts(), m_measure->plan(), this);
    connect(m_planFiles, &PlanFileActions::status, m_measure->run(), &RunControlPanel::setStatus);
    QAction *openPlan = file->addAction(tr("&Open plan..."), m_planFiles, &PlanFileActions::openWithDialog);
    openPlan->setShortcut(QKeySequence::Open);
    openPlan->setObjectName(QStringLiteral("openPlanAction"));
    QAction *savePlan = file->addAction(tr("&Save plan as..."), m_planFiles, &PlanFileActions::saveWithDialog);
    savePlan->setShortcut(QKeySequence::Save);
    savePlan->setObjectName(QStringLiteral("savePlanAction"));
    file->addSeparator();
    QAction *exportLive = file->addAction(tr("Export &live graph..."), this, [this] {
        ExportExtras::exportWithDialog(this, m_measure->live()->plot(), QStringLiteral("wirebench-live-graph"),
                                       ExportExtras::footnoteFor(m_measure->tabs()->results()->results()));
    });
    exportLive->setObjectName(QStringLiteral("exportLiveAction"));
    exportLive->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction *exportComparison = file->addAction(tr("Export &comparison chart..."), this, [this] {
        ExportExtras::exportWithDialog(this, m_measure->comparison()->plot(), QStringLiteral("wirebench-comparison"),
                                       ExportExtras::footnoteFor(m_measure->tabs()->results()->results()));
    });
    exportComparison->setObjectName(QStringLiteral("exportComparisonAction"));
    exportComparison->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Copy comparison chart to clipboard"), this, [this] {
        ChartExportOptions options;
        options.footnote = ExportExtras::footnoteFor(m_measure->tabs()->results()->results());
        QString error;
        if (!ExportExtras::copyToClipboard(m_measure->comparison()->plot(), options, &error))
            m_measure->run()->setStatus(error);
    });
    file->addSeparator();
    // The session just measured, through History, which has the report and the exporters.
    m_reportAction = file->addAction(tr("&Report of this session (HTML, PDF)..."), this, [this] {
        if (openCurrentSessionInHistory())
            m_history->askReport();
    });
    m_reportAction->setObjectName(QStringLiteral("reportAction"));
    m_reportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_exportDataAction = file->addAction(tr("Export this session's &data (CSV, JSON)..."), this, [this] {
        if (openCurrentSessionInHistory())
            m_history->askExportData();
    });
    m_exportDataAction->setObjectName(QStringLiteral("exportDataAction"));
    for (QAction *action : {m_reportAction, m_exportDataAction}) {
        action->setEnabled(false);
        action->setToolTip(tr("Run a plan first; earlier sessions are under History."));
    }
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setObjectName(QStringLiteral("quitAction"));
}

void MainWindow::startEmbeddedResponder()
{
    ResponderConfig rc;
    rc.address = QHostAddress::LocalHost;
    rc.port = 0;
    m_responder = std::make_unique<Responder>(rc);
    QString error;
    if (m_responder->start(&error)) {
        m_responderError.clear();
        m_measure->hosts()->setEmbeddedState(m_responder->port(), {});
        m_statusLabel->setText(
            tr("Built-in responder listening on 127.0.0.1:%1 (TCP) for \"This computer (loopback)\".")
                .arg(m_responder->port()));
    } else {
        m_responderError = error.isEmpty() ? tr("could not listen on 127.0.0.1") : error;
        m_measure->hosts()->setEmbeddedState(0, m_responderError);
        m_statusLabel->setText(tr("Built-in responder did not start: %1. The loopback host cannot be measured; "
                                  "untick it or start wirebenchd yourself and add it as a host.")
                                   .arg(m_responderError));
    }
}

void MainWindow::connectEngine()
{
    m_measure->live()->follow(&m_engine);
    m_measure->latency()->follow(&m_engine);
    m_measure->latency()->followTimeAxis(m_measure->live()->plot()->xAxis);
    connect(&m_engine, &Engine::runFinished, m_measure->tabs(), &ResultTabs::addResult);
    connect(&m_engine, &Engine::runFinished, m_measure->comparison(), &ComparisonChart::addResult);
    connect(&m_engine, &Engine::progressChanged, m_measure->run(), &RunControlPanel::setProgress);
    connect(&m_engine, &Engine::statusChanged, m_measure->run(), &RunControlPanel::setStatus);
    connect(&m_engine, &Engine::runStarted, this, [this](const RunSpec &spec) {
        m_measure->run()->setStatus(tr("Measuring %1 @ %2 B frame against %3, repetition %4...")
                                        .arg(spec.protocol)
                                        .arg(spec.frameSize)
                                        .arg(spec.host.displayName())
                                        .arg(spec.repetition));
    });
    connect(&m_engine, &Engine::runFinished, m_measure->run(), &RunControlPanel::addResult);
    connect(&m_engine, &Engine::planFinished, this, &MainWindow::onPlanFinished);
}

bool MainWindow::startPlan()
{
    if (m_engine.isRunning() || m_preflight->isBusy())
        return false;
    if (m_measure->hosts()->credentials()->isBusy()) {
        // Passwords still on their way from the keychain: start once they are in (no waiting on the GUI thread).
        m_measure->run()->setStatus(
            tr("Reading passwords from the system keychain; the plan starts as soon as they are in."));
        connect(m_measure->hosts()->credentials(), &CredentialStore::idle, this, &MainWindow::startPlan,
                Qt::SingleShotConnection);
        return true; // started as soon as the passwords are in
    }
    TestPlan plan = m_measure->plan()->plan();
    // Secrets go into the engine's copy of the plan only (memory), never into what Config saves.
    for (Host host : m_measure->hosts()->selectedHostsWithSecrets()) {
        if (host.embedded) {
            if (!embeddedPort()) {
                m_measure->run()->setStatus(
                    tr("%1: the built-in responder is not running (%2): untick the host or restart Wirebench.")
                        .arg(host.displayName(), m_responderError));
                return false;
            }
            host.address = QStringLiteral("127.0.0.1");
            host.port = embeddedPort();
        }
        plan.hosts << host;
    }
    const QStringList problems = plan.validate();
    if (!problems.isEmpty()) {
        m_measure->run()->setStatus(problems.join(QLatin1Char(' ')));
        return false;
    }
    m_measure->run()->setRunning(true); // Stop ends the check too
    m_preflight->check(plan); // runCheckedPlan() once nothing stands in the plan's way, or the user runs the rest
    return true;
}

void MainWindow::runCheckedPlan(const TestPlan &plan, const PreflightReport &report)
{
    m_measure->tabs()->clearResults();
    m_measure->comparison()->clear();
    m_recorder->begin(plan); // a session in the store, each run committed as it ends
    if (!m_engine.start(plan, report)) {
        m_measure->run()->setRunning(false);
        m_measure->run()->setStatus(tr("The engine did not accept the plan: a plan is still running."));
        return;
    }
    m_measure->run()->setRunning(true);
    m_measure->run()->setProgress(0, plan.runCount(), double(plan.runCount()) * plan.params.durationMs / 1000.0);
}

void MainWindow::stopPlan()
{
    if (m_preflight->isBusy())
        m_preflight->cancel();
    if (!m_engine.isRunning())
        return;
    m_measure->run()->setStatus(tr("Stopping: the current run ends within a second..."));
    m_engine.stop();
}

void MainWindow::onPlanFinished(bool cancelled)
{
    m_measure->run()->setRunning(false);
    updateStartEnabled();
    m_measure->run()->showPlanFinished(cancelled);
    emit planDone(cancelled);
}

void MainWindow::updateStartEnabled()
{
    QStringList problems = m_measure->plan()->problems();
    if (m_measure->hosts()->selectedHosts().isEmpty())
        problems.prepend(tr("Tick at least one host."));
    m_measure->run()->setStartEnabled(problems.isEmpty(), problems.join(QLatin1Char('\n')));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Wirebench"),
                       tr("<b>Wirebench %1</b><p>Measures network throughput (TCP stream, more to come) between "
                          "this computer and the hosts you list, and compares them.</p>"
                          "<p>MB/s = 10<sup>6</sup> bytes/s, MiB/s = 2<sup>20</sup> bytes/s, "
                          "Mbit/s = 10<sup>6</sup> bits/s.</p><p>Built with Qt %2 and QCustomPlot.</p>")
                           .arg(QStringLiteral(WIREBENCH_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_engine.stop();
    m_config->setWindowGeometry(saveGeometry());
    m_config->setWindowState(saveState());
    m_measure->saveLayout(*m_config);
    m_config->sync();
    event->accept();
}

} // namespace wb
