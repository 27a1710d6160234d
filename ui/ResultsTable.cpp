#include "ResultsTable.h"

#include <QHeaderView>

namespace wb {

ResultsTable::ResultsTable(QWidget *parent)
    : QTableWidget(0, ColumnCount, parent)
{
    setObjectName(QStringLiteral("resultsTable"));
    setHorizontalHeaderLabels({tr("#"), tr("Host"), tr("OS"), tr("Protocol"), tr("Frame (B)"), tr("MSS (B)"),
                               tr("Rep"), tr("MB/s"), tr("Mbit/s"), tr("Status"), tr("Error")});
    horizontalHeaderItem(MBps)->setToolTip(tr("Megabytes per second, 10^6 bytes/s, receiver's count over the receiver's time"));
    horizontalHeaderItem(Mbps)->setToolTip(tr("Megabits per second, 10^6 bits/s"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
}

void ResultsTable::clearResults()
{
    m_results.clear();
    setRowCount(0);
}

void ResultsTable::addResult(const RunResult &result)
{
    m_results.append(result);
    const int row = rowCount();
    insertRow(row);
    const RunSpec &spec = result.spec;
    auto set = [&](int column, const QString &text, bool number = false) {
        auto *item = new QTableWidgetItem(text);
        if (number)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(row, column, item);
        return item;
    };
    set(Index, QString::number(spec.index + 1), true);
    set(HostName, spec.host.displayName());
    set(Os, spec.host.osLabel.isEmpty() ? result.serverOs : spec.host.osLabel)->setToolTip(result.serverOs);
    set(Protocol, spec.protocol);
    set(Frame, QString::number(spec.frameSize), true);
    set(Mss, result.mss > 0 ? QString::number(result.mss) : tr("-"), true);
    set(Repetition, QString::number(spec.repetition), true);
    const bool ok = result.ok();
    set(MBps, ok ? QString::number(result.megabytesPerSecond(), 'f', 2) : tr("-"), true);
    set(Mbps, ok ? QString::number(result.megabitsPerSecond(), 'f', 1) : tr("-"), true);
    QTableWidgetItem *status = set(Status, runStatusName(result.status));
    QString error = result.error;
    if (!result.warnings.isEmpty())
        error += (error.isEmpty() ? QString() : QStringLiteral("; ")) + result.warnings.join(QStringLiteral("; "));
    QTableWidgetItem *errorItem = set(Error, error);
    errorItem->setToolTip(error);
    if (!ok) {
        const QColor color = result.status == RunStatus::Cancelled ? QColor(140, 100, 0) : QColor(190, 30, 30);
        status->setForeground(color);
        errorItem->setForeground(color);
    }
    scrollToItem(item(row, 0));
}

} // namespace wb
