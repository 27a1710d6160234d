#include "LinkCheckPanel.h"

#include "TableCell.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QHostAddress>
#include <QHostInfo>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

namespace {
const QColor kBadColor(190, 30, 30);
const QColor kOkColor(20, 120, 40);

QString addressOf(const Host &host)
{
    // The GUI's built-in responder listens on loopback (MainWindow::startPlan does the same).
    if (host.embedded)
        return QStringLiteral("127.0.0.1");
    QString address = host.address.trimmed();
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']')))
        address = address.mid(1, address.size() - 2);
    return address;
}
} // namespace

LinkCheckPanel::LinkCheckPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("linkCheckPanel"));
    m_delay = new QTimer(this);
    m_delay->setSingleShot(true);
    m_delay->setInterval(200); // one probe after a burst of edits
    connect(m_delay, &QTimer::timeout, this, &LinkCheckPanel::checkNow);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("linkCheckSummary"));
    m_summary->setWordWrap(true);
    m_again = new QPushButton(tr("Check again"), this);
    m_again->setObjectName(QStringLiteral("linkCheckAgainButton"));
    m_again->setToolTip(tr("Look at the route, the interface and the path MTU again (sends no packet)"));
    connect(m_again, &QPushButton::clicked, this, &LinkCheckPanel::checkNow);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("linkCheckTable"));
    m_table->setHorizontalHeaderLabels({tr("Host"), tr("Interface"), tr("Interface MTU (B)"), tr("Speed (Mbit/s)"),
                                        tr("Duplex"), tr("Path MTU (B)"), tr("Frame (B)"), tr("Can run"),
                                        tr("Why not / note")});
    m_table->horizontalHeaderItem(PathMtu)->setToolTip(tr("The largest IP packet the kernel will send to the host "
                                                          "without fragmenting (IP_MTU), bytes"));
    m_table->horizontalHeaderItem(Speed)->setToolTip(tr("Negotiated speed of the local interface in 10^6 bit/s, or the "
                                                        "host's override; in brackets where the figure comes from"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_again);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    refreshTable();
}

void LinkCheckPanel::setHosts(const QList<Host> &hosts)
{
    if (hosts == m_hosts)
        return;
    m_hosts = hosts;
    scheduleCheck();
}

void LinkCheckPanel::setFrameSizes(const QList<int> &frameSizes)
{
    if (frameSizes == m_frames)
        return;
    m_frames = frameSizes;
    scheduleCheck();
}

void LinkCheckPanel::setWillSetInterfaceMtu(bool on)
{
    if (on == m_setMtu)
        return;
    m_setMtu = on;
    scheduleCheck();
}

void LinkCheckPanel::scheduleCheck()
{
    m_delay->start();
}

void LinkCheckPanel::checkNow()
{
    m_delay->stop();
    const int generation = ++m_generation;
    m_checks = QList<HostFrameCheck>(m_hosts.size());
    m_have = QList<bool>(m_hosts.size(), false);
    m_pending = int(m_hosts.size());
    if (m_hosts.isEmpty()) {
        refreshTable();
        emit checked();
        return;
    }
    for (int i = 0; i < m_hosts.size(); ++i) {
        Host host = m_hosts.at(i);
        const QString address = addressOf(host);
        if (address.isEmpty() || !QHostAddress(address).isNull()) {
            // An IP literal: a connect() on a UDP socket, no DNS, no packet.
            host.address = address;
            store(i, FramePlanCheck::check(host, m_frames, m_setMtu));
            continue;
        }
        // A name: resolve off the GUI thread, then probe the address (names may block in DNS).
        QHostInfo::lookupHost(address, this, [this, i, host, generation](const QHostInfo &info) {
            if (generation != m_generation)
                return; // the hosts or frames changed meanwhile
            Host resolved = host;
            for (const QHostAddress &a : info.addresses()) {
                if (a.protocol() == QAbstractSocket::IPv4Protocol || a.protocol() == QAbstractSocket::IPv6Protocol) {
                    resolved.address = a.toString();
                    break;
                }
            }
            if (resolved.address == host.address) {
                // Not resolved: say so here rather than let the probe try again on this thread.
                HostFrameCheck failed;
                failed.host = host;
                failed.link.destination = host.address;
                failed.link.error = tr("%1: cannot resolve the name to look up its link (%2); check the address")
                                        .arg(host.address, info.errorString());
                for (int f : std::as_const(m_frames))
                    failed.frames.append(FramePlanCheck::verdict(failed.link, host, f, m_setMtu));
                store(i, failed);
                return;
            }
            if (resolved.name.isEmpty())
                resolved.name = host.address;
            HostFrameCheck c = FramePlanCheck::check(resolved, m_frames, m_setMtu);
            c.host = host;
            store(i, c);
        });
    }
    refreshTable();
}

void LinkCheckPanel::store(int index, const HostFrameCheck &check)
{
    if (index < 0 || index >= m_checks.size() || m_have.at(index))
        return;
    m_checks[index] = check;
    m_have[index] = true;
    --m_pending;
    if (m_pending == 0) {
        refreshTable();
        emit checked();
    }
}

void LinkCheckPanel::refreshTable()
{
    m_table->setRowCount(0);
    int bad = 0, total = 0;
    for (int h = 0; h < m_hosts.size(); ++h) {
        const Host &host = m_hosts.at(h);
        const bool have = h < m_have.size() && m_have.at(h);
        const HostFrameCheck c = have ? m_checks.at(h) : HostFrameCheck{};
        const int first = m_table->rowCount();
        const int rows = std::max<int>(1, int(m_frames.size()));
        m_table->setRowCount(first + rows);
        auto set = [&](int row, int column, const QString &text, bool number = false) {
            return TableCell::put(m_table, row, column, text, number);
        };
        const LinkInfo &l = c.link;
        set(first, HostName, host.displayName())->setToolTip(addressOf(host));
        if (!have) {
            set(first, Interface, tr("checking..."));
        } else if (!l.error.isEmpty()) {
            set(first, Interface, tr("-"));
            set(first, Reason, l.error)->setForeground(kBadColor);
        } else {
            set(first, Interface, l.interfaceName.isEmpty() ? tr("unknown") : l.interfaceName);
            set(first, InterfaceMtu, l.interfaceMtu > 0 ? QString::number(l.interfaceMtu) : tr("unknown"), true);
            const double speed = l.effectiveSpeedMbps();
            QTableWidgetItem *speedItem
                = set(first, Speed, speed > 0 ? tr("%1 (%2)").arg(speed).arg(l.speedSource()) : tr("unknown"), true);
            speedItem->setToolTip(speed > 0 ? c.linkSummary()
                                            : tr("%1. Set the link speed per host to compare results with line rate.")
                                                  .arg(l.speedNote.isEmpty() ? tr("speed unknown") : l.speedNote));
            set(first, Duplex, l.duplex);
            set(first, PathMtu, l.pathMtu > 0 ? QString::number(l.pathMtu) : tr("unknown"), true);
        }
        for (int f = 0; f < m_frames.size(); ++f) {
            const int row = first + f;
            set(row, Frame, QString::number(m_frames.at(f)), true);
            if (!have || f >= c.frames.size())
                continue;
            const FrameVerdict &v = c.frames.at(f);
            ++total;
            QTableWidgetItem *can = set(row, CanRun, v.ok ? tr("yes") : tr("no"));
            can->setForeground(v.ok ? kOkColor : kBadColor);
            can->setIcon(style()->standardIcon(v.ok ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxWarning));
            if (!v.reason.isEmpty() && l.error.isEmpty()) {
                QTableWidgetItem *why = set(row, Reason, v.reason);
                why->setToolTip(v.reason);
                if (!v.ok)
                    why->setForeground(kBadColor);
            }
            if (!v.ok)
                ++bad;
        }
        // The host's columns stay on its first row only: spans would defeat the columns' fit to contents.
    }
    if (m_hosts.isEmpty())
        m_summary->setText(tr("Tick a host to see its link: interface, MTU, speed and path MTU, and which frame sizes "
                              "can run."));
    else if (m_frames.isEmpty())
        m_summary->setText(tr("Choose a frame size in the test plan."));
    else if (m_pending > 0)
        m_summary->setText(tr("Checking the route to %n host(s)...", nullptr, m_pending));
    else if (bad == 0)
        m_summary->setText(tr("All %n host/frame combination(s) can run.", nullptr, total));
    else
        m_summary->setText(tr("%1 of %2 host/frame combination(s) cannot run: the plan marks them \"not run\" and "
                              "measures the rest.")
                               .arg(bad)
                               .arg(total));
    m_summary->setStyleSheet(bad > 0 ? QStringLiteral("color: rgb(190,30,30);") : QString());
}

} // namespace wb
