#pragma once

#include "analysis/FramePlanCheck.h"
#include "model/Host.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QTimer;

namespace wb {

/// Before a plan runs: per chosen host, the local interface the route uses (its MTU, speed and duplex),
/// the path MTU, and whether each chosen frame size can run there and why not (FramePlanCheck).
/// Probing sends no packet; host names are resolved asynchronously, IP literals are probed at once.
/// Updates shortly after the hosts, frame sizes or the interface-MTU option change.
class LinkCheckPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column { HostName, Interface, InterfaceMtu, Speed, Duplex, PathMtu, Frame, CanRun, Reason, ColumnCount };

    explicit LinkCheckPanel(QWidget *parent = nullptr);

    QList<Host> hosts() const { return m_hosts; }
    QList<int> frameSizes() const { return m_frames; }
    /// The latest verdicts, one per host in host order (a host still being resolved is missing).
    QList<HostFrameCheck> checks() const { return m_checks; }
    QTableWidget *table() const { return m_table; }
    /// True while host names are being resolved.
    bool isChecking() const { return m_pending > 0; }

public slots:
    void setHosts(const QList<wb::Host> &hosts);
    void setFrameSizes(const QList<int> &frameSizes);
    /// The plan sets the local interface MTU per frame size (frames.set_interface_mtu).
    void setWillSetInterfaceMtu(bool on);
    /// Probes every host now (the button "Check again").
    void checkNow();

signals:
    /// All hosts have been probed (checks() is complete).
    void checked();

private:
    void scheduleCheck();
    void store(int index, const HostFrameCheck &check);
    void refreshTable();

    QList<Host> m_hosts;
    QList<int> m_frames;
    bool m_setMtu = false;
    QList<HostFrameCheck> m_checks; ///< index-aligned with m_hosts while checking, complete after
    QList<bool> m_have;
    int m_pending = 0;
    int m_generation = 0;
    QTimer *m_delay = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_again = nullptr;
    QTableWidget *m_table = nullptr;
};

} // namespace wb
