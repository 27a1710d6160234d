#pragma once

#include "model/Host.h"
#include "plan/TestPlan.h"

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QTcpSocket;

namespace wb {

/// The plan editor's reference streams (TestPlan::referenceStreams): a check box, and a line saying what they are
/// and which of the ticked hosts get one. A host whose TCP server does not answer on its control port (wirebenchd's,
/// or iperf3's for an iperf3 host) gets none, and the line says why; the built-in loopback host always answers.
/// The ports are asked again whenever the hosts change (a connect of at most kProbeMs each, never blocking).
/// The check before the first run asks them once more at Start (Preflight), so a host that stopped answering
/// since is left out the same way.
class ReferenceStreamBox : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kProbeMs = 3000;

    explicit ReferenceStreamBox(QWidget *parent = nullptr);

    bool isChecked() const;
    void setChecked(bool on);
    /// Length of each stream (TestPlan::referenceMs).
    int durationMs() const;
    void setDurationMs(int ms);
    /// The hosts found not to answer, with why.
    QList<ReferenceSkip> skipped() const { return m_skipped; }
    QString text() const;
    bool isProbing() const { return m_pending > 0; }

public slots:
    void setHosts(const QList<wb::Host> &hosts);

signals:
    void changed();

private:
    void probe();
    void answered(const Host &host, QTcpSocket *socket, const QString &problem);
    void refresh();

    QCheckBox *m_check = nullptr;
    QDoubleSpinBox *m_seconds = nullptr;
    QLabel *m_label = nullptr;
    QList<Host> m_hosts;
    QList<ReferenceSkip> m_skipped;
    int m_pending = 0;
    int m_generation = 0; ///< answers of an earlier host list are dropped
};

} // namespace wb
