#include "ResultsTable.h"

#include "TableCell.h"
#include "model/Frame.h"
#include "model/Streams.h"

#include <QHeaderView>
#include <QStyle>

#include <optional>

namespace wb {

namespace {
const QColor kNotRunColor(130, 130, 130);

/// The number under key in extra, or nothing when the run did not report it.
std::optional<double> extraNumber(const QVariantMap &extra, const char *key)
{
    const QVariant v = extra.value(QLatin1String(key));
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!v.isValid() || !ok)
        return std::nullopt;
    return d;
}
} // namespace

ResultsTable::ResultsTable(QWidget *parent)
    : QTableWidget(0, ColumnCount, parent)
{
    setObjectName(QStringLiteral("resultsTable"));
    setHorizontalHeaderLabels({tr("#"), tr("Host"), tr("OS"), tr("Protocol"), tr("Frame (B)"), tr("MSS (B)"), tr("Rep"),
                               tr("Status"), tr("MB/s"), tr("Mbit/s"), tr("% of ceiling"), tr("CPU local (%)"),
                               tr("CPU remote (%)"), tr("Retransmits (segments)"), tr("RTT (ms)"),
                               tr("Error / warnings")});
    horizontalHeaderItem(MBps)->setToolTip(
        tr("Megabytes per second, 10^6 bytes/s, receiver's count over the receiver's time"));
    horizontalHeaderItem(Mbps)->setToolTip(tr("Megabits per second, 10^6 bits/s"));
    horizontalHeaderItem(PercentOfCeiling)
        ->setToolTip(tr("The result as a percentage of the TCP goodput the link allows at this frame size "
                        "(blank when the link speed is unknown, e.g. loopback: set it per host)"));
    horizontalHeaderItem(CpuLocal)->setToolTip(tr("This computer, whole system, average over all cores (0-100 %)"));
    horizontalHeaderItem(CpuRemote)->setToolTip(tr("The server, as it reported it (100 % = one core)"));
    horizontalHeaderItem(Retransmits)->setToolTip(tr("TCP segments retransmitted by the sender (TCP_INFO)"));
    horizontalHeaderItem(RttMs)->setToolTip(tr("Smoothed round-trip time seen by TCP (TCP_INFO), milliseconds"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    setWordWrap(false);
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
        return TableCell::put(this, row, column, text, number);
    };
    auto setNumber = [&](int column, std::optional<double> value, int decimals) {
        set(column, value ? QString::number(*value, 'f', decimals) : tr("-"), true);
    };
    set(Index, QString::number(spec.index + 1), true);
    set(HostName, spec.host.displayName());
    set(Os, spec.host.osLabel.isEmpty() ? result.serverOs : spec.host.osLabel)->setToolTip(result.serverOs);
    // How many streams a run used is part of what it measured: "tcp-send (4 streams)".
    const int streams = Streams::of(result);
    const QString zeroCopy = result.extra.value(QStringLiteral("zero_copy")).toString();
    QStringList how;
    if (streams > 1)
        how << Streams::label(streams);
    if (!zeroCopy.isEmpty())
        how << tr("zero copy");
    QTableWidgetItem *protocol = set(
        Protocol, how.isEmpty() ? spec.protocol : tr("%1 (%2)").arg(spec.protocol, how.join(QStringLiteral(", "))));
    if (!zeroCopy.isEmpty())
        protocol->setToolTip(tr("Zero copy: this computer did not copy the data (%1)").arg(zeroCopy));
    if (streams > 1)
        protocol->setToolTip(
            tr("%1 at once; the figure is their sum over the time common to all").arg(Streams::label(streams)));
    if (const int connections = result.extra.value(QStringLiteral("smb_write_connections")).toInt(); connections > 1)
        protocol->setToolTip(
            tr("Written over %1 connections at once, each with one write in flight (smb.write_connections)")
                .arg(connections));
    if (const int connections = result.extra.value(QStringLiteral("smb_read_connections")).toInt(); connections > 1)
        protocol->setToolTip(
            tr("Read over %1 connections at once, each reading the next chunk of the file (smb.read_connections)")
                .arg(connections));
    set(Frame, Frame::frameText(result), true); // the frame its MSS made, and the plan's when they differ
    set(Mss, result.mss > 0 ? QString::number(result.mss) : tr("-"), true);
    set(Repetition, QString::number(spec.repetition), true);
    const bool ok = result.ok();
    set(MBps, ok ? QString::number(result.megabytesPerSecond(), 'f', 2) : tr("-"), true);
    set(Mbps, ok ? QString::number(result.megabitsPerSecond(), 'f', 1) : tr("-"), true);
    const QVariantMap &x = result.extra;
    setNumber(PercentOfCeiling, ok ? extraNumber(x, "percent_of_ceiling") : std::nullopt, 1);
    if (ok && x.contains(QStringLiteral("ceiling_MBps")))
        item(row, PercentOfCeiling)
            ->setToolTip(tr("Ceiling %1 MB/s at MTU %2 B")
                             .arg(x.value(QStringLiteral("ceiling_MBps")).toDouble(), 0, 'f', 1)
                             .arg(x.value(QStringLiteral("ceiling_mtu")).toInt()));
    if (ok && result.reverse)
        showBothWays(row, result);
    setNumber(CpuLocal, extraNumber(x, "cpu_local_percent"), 1);
    setNumber(CpuRemote, extraNumber(x, "cpu_remote_percent"), 1);
    setNumber(Retransmits, extraNumber(x, "retransmits"), 0);
    const std::optional<double> rtt = extraNumber(x, "rtt_us");
    setNumber(RttMs, rtt ? std::optional<double>(*rtt / 1000.0) : std::nullopt, 3);

    const bool notRun = result.status == RunStatus::NotRun;
    QTableWidgetItem *status = set(Status, notRun ? tr("not run") : runStatusName(result.status));
    QString error = result.error;
    if (!result.warnings.isEmpty())
        error += (error.isEmpty() ? QString() : QStringLiteral("; ")) + result.warnings.join(QStringLiteral("; "));
    QTableWidgetItem *errorItem = set(Error, error);
    errorItem->setToolTip(error);
    if (!result.warnings.isEmpty()) {
        status->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
        status->setToolTip(tr("Warning:\n%1").arg(result.warnings.join(QLatin1Char('\n'))));
        status->setData(Qt::UserRole, true); // marks "has warnings" for tests and delegates
    }
    if (notRun) {
        // Greyed out: nothing was measured, and the reason says why.
        for (int c = 0; c < ColumnCount; ++c) {
            if (QTableWidgetItem *it = item(row, c)) {
                it->setForeground(kNotRunColor);
                if (c != Error && c != Status)
                    it->setToolTip(tr("Not run: %1").arg(result.error));
            }
        }
        status->setToolTip(tr("Not run: %1").arg(result.error));
    } else if (!ok) {
        const QColor color = result.status == RunStatus::Cancelled ? QColor(140, 100, 0) : QColor(190, 30, 30);
        status->setForeground(color);
        errorItem->setForeground(color);
    }
    scrollToItem(item(row, 0));
}

// Both directions at once: the two figures side by side in each figure's cell, send first ("11.43 ↑ 11.42 ↓").
void ResultsTable::showBothWays(int row, const RunResult &result)
{
    const RunResult::Reverse &back = *result.reverse;
    const auto pair = [](double send, double receive, int decimals) {
        return tr("%1 \u2191 %2 \u2193").arg(send, 0, 'f', decimals).arg(receive, 0, 'f', decimals);
    };
    const QString both
        = tr("Both directions at once: \u2191 send (client \u2192 server), \u2193 receive (server \u2192 "
             "client), each the receiver's count over its own time");
    item(row, MBps)->setText(pair(result.megabytesPerSecond(), back.megabytesPerSecond(), 2));
    item(row, MBps)->setToolTip(both);
    item(row, Mbps)->setText(pair(result.megabitsPerSecond(), back.megabytesPerSecond() * 8, 1));
    item(row, Mbps)->setToolTip(both);
    const std::optional<double> send = extraNumber(result.extra, "percent_of_ceiling");
    const std::optional<double> receive = extraNumber(result.extra, "reverse_percent_of_ceiling");
    if (send && receive) {
        item(row, PercentOfCeiling)->setText(pair(*send, *receive, 1));
        item(row, PercentOfCeiling)
            ->setToolTip(tr("Of what each direction carries while the other direction's ACKs share "
                            "it (%1 MB/s)")
                             .arg(result.extra.value(QStringLiteral("ceiling_MBps")).toDouble(), 0, 'f', 2));
    }
}

} // namespace wb
