#include "HistoryPanel.h"

#include "ComparisonChart.h"
#include "ExportExtras.h"
#include "HistoryText.h"
#include "ReportWriter.h"
#include "ResultsTable.h"
#include "ThroughputChart.h"
#include "formats/CsvExport.h"
#include "formats/JsonExport.h"
#include "platform/ActivityMarker.h"
#include "storage/ResultStore.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace wb {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
}

HistoryPanel::HistoryPanel(ResultStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
{
    setObjectName(QStringLiteral("historyPanel"));
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(200);
    connect(&m_searchTimer, &QTimer::timeout, this, &HistoryPanel::refresh);
    m_watchTimer.setInterval(2000);
    connect(&m_watchTimer, &QTimer::timeout, this, [this] {
        if (isVisible() && m_store && m_store->isOpen() && m_store->changeMark() != m_seenMark)
            refresh();
    });
    m_watchTimer.start();
    buildUi();
    refresh();
}

void HistoryPanel::buildUi()
{
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("historySearchEdit"));
    m_search->setPlaceholderText(tr("Search hosts, OS, protocols, titles..."));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        m_pageLimit = kPage; // a new search starts from its newest page
        m_searchTimer.start();
    });
    m_stateCombo = new QComboBox(this);
    m_stateCombo->setObjectName(QStringLiteral("historyStateCombo"));
    m_stateCombo->addItem(tr("All states"), -1);
    for (SessionState s :
         {SessionState::Finished, SessionState::Running, SessionState::Cancelled, SessionState::Interrupted})
        m_stateCombo->addItem(sessionStateName(s), int(s));
    connect(m_stateCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_pageLimit = kPage;
        refresh();
    });
    auto *refreshButton = new QPushButton(tr("Refresh"), this);
    refreshButton->setObjectName(QStringLiteral("historyRefreshButton"));
    connect(refreshButton, &QPushButton::clicked, this, &HistoryPanel::refresh);
    auto *filterRow = new QHBoxLayout;
    auto *searchLabel = new QLabel(tr("&Search:"), this);
    searchLabel->setBuddy(m_search);
    filterRow->addWidget(searchLabel);
    filterRow->addWidget(m_search, 1);
    auto *stateLabel = new QLabel(tr("S&tate:"), this);
    stateLabel->setBuddy(m_stateCombo);
    filterRow->addWidget(stateLabel);
    filterRow->addWidget(m_stateCombo);
    filterRow->addWidget(refreshButton);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("historySessionTable"));
    m_table->setHorizontalHeaderLabels({tr("Date"), tr("Hosts"), tr("Protocols"), tr("Frame sizes"), tr("State"),
                                        tr("Runs (ok/stored)"), tr("Computer")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Hosts, QHeaderView::Stretch);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &HistoryPanel::onCurrentRowChanged);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("historyStatusLabel"));
    m_status->setWordWrap(true);
    // A store grows by tens of thousands of sessions; the list reads a page of the newest at a time.
    m_moreButton = new QPushButton(tr("Show %1 older").arg(kPage), this);
    m_moreButton->setObjectName(QStringLiteral("historyMoreButton"));
    m_moreButton->setToolTip(tr("List the next %1 older sessions that match the search").arg(kPage));
    m_moreButton->setVisible(false);
    connect(m_moreButton, &QPushButton::clicked, this, [this] {
        m_pageLimit += kPage;
        refresh();
    });

    auto makeButton = [this](const QString &text, const QString &name) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(name);
        return b;
    };
    m_compareButton = makeButton(tr("Compare"), QStringLiteral("historyCompareButton"));
    m_compareButton->setToolTip(tr("Put the selected sessions side by side in the comparison view"));
    connect(m_compareButton, &QPushButton::clicked, this, [this] { emit compareRequested(selectedSessionIds()); });
    m_reportButton = makeButton(tr("Report..."), QStringLiteral("historyReportButton"));
    m_reportButton->setToolTip(tr("Write the open session's report as HTML and PDF"));
    connect(m_reportButton, &QPushButton::clicked, this, &HistoryPanel::askReport);
    m_exportButton = makeButton(tr("Export data..."), QStringLiteral("historyExportButton"));
    m_exportButton->setToolTip(tr("Write the open session's runs as CSV or JSON (the documented schema)"));
    connect(m_exportButton, &QPushButton::clicked, this, &HistoryPanel::askExportData);
    m_usePlanButton = makeButton(tr("Use this plan"), QStringLiteral("historyUsePlanButton"));
    m_usePlanButton->setToolTip(tr("Put the open session's plan and hosts into the Measure tab, to run it again"));
    connect(m_usePlanButton, &QPushButton::clicked, this, [this] {
        SessionInfo info;
        QString error;
        if (m_store && m_store->session(m_openId, &info, &error))
            emit planRequested(info.plan);
        else
            m_status->setText(tr("The plan of session #%1 cannot be read: %2").arg(m_openId).arg(error));
    });
    m_deleteButton = makeButton(tr("Delete..."), QStringLiteral("historyDeleteButton"));
    connect(m_deleteButton, &QPushButton::clicked, this, &HistoryPanel::askDelete);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_status, 1);
    buttonRow->addWidget(m_moreButton);
    buttonRow->addWidget(m_compareButton);
    buttonRow->addWidget(m_reportButton);
    buttonRow->addWidget(m_exportButton);
    buttonRow->addWidget(m_usePlanButton);
    buttonRow->addWidget(m_deleteButton);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(filterRow);
    topLayout->addWidget(m_table, 1);
    topLayout->addLayout(buttonRow);

    m_sessionLabel = new QLabel(tr("Select a session to see its results."), this);
    m_sessionLabel->setObjectName(QStringLiteral("historySessionLabel"));
    m_sessionLabel->setWordWrap(true);
    m_results = new ResultsTable(this);
    m_results->setObjectName(QStringLiteral("historyResultsTable"));
    m_testCombo = new QComboBox(this);
    m_testCombo->setObjectName(QStringLiteral("historyTestCombo"));
    connect(m_testCombo, &QComboBox::currentIndexChanged, this, &HistoryPanel::showTest);
    m_throughput = new ThroughputChart(this);
    m_throughput->setObjectName(QStringLiteral("historyThroughputChart"));
    auto *liveTab = new QWidget(this);
    auto *liveLayout = new QVBoxLayout(liveTab);
    auto *testRow = new QHBoxLayout;
    auto *testLabel = new QLabel(tr("T&est:"), liveTab);
    testLabel->setBuddy(m_testCombo);
    testRow->addWidget(testLabel);
    testRow->addWidget(m_testCombo, 1);
    liveLayout->addLayout(testRow);
    liveLayout->addWidget(m_throughput, 1);
    m_comparison = new ComparisonChart(this);
    m_comparison->setObjectName(QStringLiteral("historyComparisonChart"));
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("historyDetailTabs"));
    m_tabs->addTab(m_results, tr("Results"));
    m_tabs->addTab(liveTab, tr("Live graphs (replayed)"));
    m_tabs->addTab(m_comparison, tr("Comparison chart"));
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_sessionLabel);
    bottomLayout->addWidget(m_tabs, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    updateButtons();
}

QList<qint64> HistoryPanel::selectedSessionIds() const
{
    QList<qint64> ids;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows)
        ids << m_table->item(index.row(), Date)->data(kIdRole).toLongLong();
    return ids;
}

void HistoryPanel::refresh()
{
    const ActivityMarker busy("history: refresh");
    m_searchTimer.stop();
    m_seenMark = m_store ? m_store->changeMark() : QString();
    const qint64 keep = m_openId;
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    m_sessions.clear();
    if (!m_store || !m_store->isOpen()) {
        const QString why = m_store ? m_store->lastError() : QString();
        m_status->setText(tr("No result store: %1").arg(why.isEmpty() ? tr("history is off in this session") : why));
        updateButtons();
        return;
    }
    SessionFilter filter;
    filter.text = m_search->text().trimmed();
    const int state = m_stateCombo->currentData().toInt();
    if (state >= 0)
        filter.states << SessionState(state);
    filter.limit = m_pageLimit;
    QString error;
    m_sessions = m_store->sessions(filter, &error);
    m_moreButton->setVisible(false);
    if (!error.isEmpty()) {
        m_status->setText(error);
        updateButtons();
        return;
    }
    const QSignalBlocker blocker(m_table);
    m_table->setRowCount(int(m_sessions.size()));
    int keepRow = -1;
    for (int row = 0; row < m_sessions.size(); ++row) {
        const SessionInfo &info = m_sessions.at(row);
        auto set = [&](int column, const QString &text, bool number = false) {
            auto *item = new QTableWidgetItem(text);
            if (number)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
            return item;
        };
        QTableWidgetItem *date = set(Date, historytext::sessionLabel(info));
        date->setData(kIdRole, info.id);
        date->setToolTip(tr("Session %1, run on %2 (%3), Wirebench %4")
                             .arg(info.uuid, info.machineHostname, info.machineOs, info.wirebenchVersion));
        set(Hosts, historytext::hostsText(info));
        set(Protocols, info.protocols.join(QStringLiteral(", ")));
        set(FrameSizes, historytext::framesText(info));
        QTableWidgetItem *stateItem = set(State, sessionStateName(info.state));
        if (info.state == SessionState::Interrupted)
            stateItem->setToolTip(tr("Wirebench ended while this session ran; the finished runs are kept"));
        set(Runs,
            info.plannedRuns > 0 ? tr("%1/%2 of %3").arg(info.okRuns).arg(info.runCount).arg(info.plannedRuns)
                                 : tr("%1/%2").arg(info.okRuns).arg(info.runCount),
            true);
        set(Computer, info.machineHostname); // the one that ran it: a team's store holds many
        if (info.id == keep)
            keepRow = row;
    }
    m_status->setText(tr("%n session(s)", nullptr, int(m_sessions.size())));
    if (m_sessions.size() == m_pageLimit) {
        // A search is counted too: its index answers (SessionSearch), where it once read the whole store again.
        const qint64 total = m_store->sessionCount(filter, &error);
        if (total < 0) {
            m_status->setText(tr("The newest %1 sessions that match; there may be more").arg(m_sessions.size()));
            m_moreButton->setVisible(true);
        } else if (total > m_sessions.size()) {
            m_status->setText(filter.text.isEmpty()
                                  ? tr("The newest %1 of %2 sessions").arg(m_sessions.size()).arg(total)
                                  : tr("The newest %1 of %2 sessions that match").arg(m_sessions.size()).arg(total));
            m_moreButton->setVisible(true);
        }
    }
    if (keepRow >= 0)
        m_table->selectRow(keepRow);
    updateButtons();
}

void HistoryPanel::onCurrentRowChanged()
{
    const QList<qint64> ids = selectedSessionIds();
    if (ids.size() == 1 && ids.first() != m_openId)
        openSession(ids.first());
    updateButtons();
}

bool HistoryPanel::openSession(qint64 sessionId)
{
    if (!m_store || !m_store->isOpen())
        return false;
    SessionInfo info;
    QString error;
    if (!m_store->session(sessionId, &info, &error)) {
        m_sessionLabel->setText(error.isEmpty() ? tr("Session %1 is not in the store.").arg(sessionId) : error);
        return false;
    }
    m_openRuns = m_store->runs(sessionId, &error);
    if (!error.isEmpty()) {
        m_sessionLabel->setText(error);
        return false;
    }
    m_openId = sessionId;
    m_sessionLabel->setText(
        tr("<b>%1</b> - %2 - %3 - %4 - %5 on %6")
            .arg(historytext::sessionLabel(info).toHtmlEscaped(), historytext::hostsText(info).toHtmlEscaped(),
                 info.protocols.join(QStringLiteral(", ")).toHtmlEscaped(), historytext::framesText(info),
                 sessionStateName(info.state), info.machineHostname.toHtmlEscaped()));
    m_results->clearResults();
    for (const RunResult &run : std::as_const(m_openRuns))
        m_results->addResult(run);
    m_comparison->setResults(m_openRuns);

    const QSignalBlocker blocker(m_testCombo);
    m_testCombo->clear();
    QStringList keys;
    for (const RunResult &run : std::as_const(m_openRuns)) {
        const QString key = run.spec.host.displayName() + QLatin1Char('|') + run.spec.testKey();
        if (keys.contains(key))
            continue;
        keys << key;
        m_testCombo->addItem(
            tr("%1 - %2 @ %3 B frame").arg(run.spec.host.displayName(), run.spec.protocol).arg(run.spec.frameSize),
            key);
    }
    showTest(m_testCombo->count() > 0 ? 0 : -1);
    updateButtons();
    emit sessionOpened(sessionId);
    return true;
}

void HistoryPanel::showTest(int index)
{
    m_throughput->clear();
    if (index < 0 || index >= m_testCombo->count()) {
        m_throughput->replotNow();
        return;
    }
    if (m_testCombo->currentIndex() != index) {
        const QSignalBlocker blocker(m_testCombo);
        m_testCombo->setCurrentIndex(index);
    }
    const QString key = m_testCombo->itemData(index).toString();
    int replayIndex = 0;
    for (const RunResult &run : std::as_const(m_openRuns)) {
        if (run.spec.host.displayName() + QLatin1Char('|') + run.spec.testKey() != key)
            continue;
        // The chart tells runs apart by RunSpec::index: give every replayed run its own.
        RunSpec spec = run.spec;
        spec.index = replayIndex++;
        m_throughput->onRunStarted(spec);
        SampleList samples = run.samples;
        for (Sample &s : samples)
            s.runIndex = spec.index;
        m_throughput->addSamples(samples);
    }
    m_throughput->replotNow();
}

bool HistoryPanel::deleteSession(qint64 sessionId, bool askFirst)
{
    if (!m_store || !m_store->isOpen())
        return false;
    if (askFirst) {
        SessionInfo info;
        m_store->session(sessionId, &info);
        const auto answer = QMessageBox::question(
            this, tr("Delete session"),
            tr("Delete the session %1 (%2) with its %n run(s) and their samples? This cannot be undone.", nullptr,
               info.runCount)
                .arg(historytext::sessionLabel(info), historytext::hostsText(info)),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes)
            return false;
    }
    QString error;
    if (!m_store->deleteSession(sessionId, &error)) {
        m_status->setText(error);
        if (askFirst)
            QMessageBox::warning(this, tr("Delete failed"), error);
        return false;
    }
    if (sessionId == m_openId) {
        m_openId = 0;
        m_openRuns.clear();
        m_results->clearResults();
        m_comparison->clear();
        m_testCombo->clear();
        m_throughput->clear();
        m_throughput->replotNow();
        m_sessionLabel->setText(tr("Select a session to see its results."));
    }
    refresh();
    emit sessionDeleted(sessionId);
    return true;
}

void HistoryPanel::askDelete()
{
    const QList<qint64> ids = selectedSessionIds();
    for (qint64 id : ids) {
        if (!deleteSession(id, true))
            break;
    }
}

bool HistoryPanel::writeReport(const QString &htmlPath, const QString &pdfPath, QString *error)
{
    if (!m_store || m_openId == 0) {
        if (error)
            *error = tr("No session is open: select one in the list first.");
        return false;
    }
    return ReportWriter::write(*m_store, m_openId, htmlPath, pdfPath, error);
}

void HistoryPanel::askReport()
{
    if (m_openId == 0)
        return;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString suggested = QDir(folder.isEmpty() ? QDir::homePath() : folder)
                                  .filePath(QStringLiteral("wirebench-report-%1.html").arg(m_openId));
    const QString html = QFileDialog::getSaveFileName(this, tr("Report (HTML; a PDF is written beside it)"), suggested,
                                                      tr("HTML (*.html)"));
    if (html.isEmpty())
        return;
    const QFileInfo info(html);
    const QString pdf = info.absoluteDir().filePath(info.completeBaseName() + QLatin1String(".pdf"));
    QString error;
    if (!writeReport(html, pdf, &error))
        QMessageBox::warning(this, tr("Report failed"), error);
    else
        m_status->setText(
            tr("Report written: %1 and %2").arg(QDir::toNativeSeparators(html), QDir::toNativeSeparators(pdf)));
}

bool HistoryPanel::exportData(const QString &path, QString *error)
{
    if (m_openId == 0) {
        if (error)
            *error = tr("No session is open: select one in the list first.");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return CsvExport::write(path, m_openRuns, error);
    if (suffix == QLatin1String("json")) {
        JsonExport::Options options;
        options.includeSamples = true;
        return JsonExport::write(path, m_openRuns, options, error);
    }
    if (error)
        *error = tr("Unknown data format \"%1\": use a file name ending in .csv or .json.")
                     .arg(QFileInfo(path).fileName());
    return false;
}

void HistoryPanel::askExportData()
{
    if (m_openId == 0)
        return;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString suggested = QDir(folder.isEmpty() ? QDir::homePath() : folder)
                                  .filePath(QStringLiteral("wirebench-session-%1.csv").arg(m_openId));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data"), suggested,
                                                      tr("CSV (*.csv);;JSON, documented schema (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportData(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void HistoryPanel::updateButtons()
{
    const int selected = int(selectedSessionIds().size());
    m_compareButton->setEnabled(selected >= 1);
    m_deleteButton->setEnabled(selected >= 1);
    m_reportButton->setEnabled(m_openId != 0);
    m_exportButton->setEnabled(m_openId != 0);
    m_usePlanButton->setEnabled(m_openId != 0);
}

} // namespace wb
