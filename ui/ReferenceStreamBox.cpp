#include "ReferenceStreamBox.h"

#include "wire/iperf3/Iperf3Protocol.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTcpSocket>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace wb {

namespace {

quint16 controlPort(const Host &host)
{
    if (host.port != 0)
        return host.port;
    return host.serverType == QLatin1String("iperf3") ? iperf3::kDefaultPort : control::kDefaultPort;
}

QString serverName(const Host &host)
{
    return host.serverType == QLatin1String("iperf3") ? QStringLiteral("iperf3") : QStringLiteral("wirebenchd");
}

} // namespace

ReferenceStreamBox::ReferenceStreamBox(QWidget *parent)
    : QWidget(parent)
{
    m_check = new QCheckBox(tr("Reference TCP streams of"), this);
    m_check->setObjectName(QStringLiteral("referenceStreamsCheck"));
    m_check->setToolTip(tr("A short tcp-send and tcp-recv per host and frame size, before the plan's own runs: the "
                           "network's capacity that the findings judge each file transfer by (network or server, "
                           "this computer's disk). Shown in the results, left out of the comparison chart."));
    m_seconds = new QDoubleSpinBox(this);
    m_seconds->setObjectName(QStringLiteral("referenceSecondsSpin"));
    m_seconds->setRange(TestPlan::kReferenceMinMs / 1000.0, TestPlan::kReferenceMaxMs / 1000.0);
    m_seconds->setDecimals(1);
    m_seconds->setSingleStep(1);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setValue(TestPlan::kReferenceMs / 1000.0);
    m_seconds->setToolTip(
        tr("Length of each reference stream. 3 s is enough on a LAN; a long or slow path may need more "
           "for TCP to reach its rate."));
    m_seconds->setEnabled(false);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("referenceStreamsLabel"));
    m_label->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    row->addWidget(m_check);
    row->addWidget(m_seconds);
    row->addWidget(new QLabel(tr("each"), this));
    row->addStretch(1);
    layout->addLayout(row);
    layout->addWidget(m_label);
    connect(m_check, &QCheckBox::toggled, this, [this](bool on) {
        m_seconds->setEnabled(on);
        probe();
        emit changed();
    });
    connect(m_seconds, &QDoubleSpinBox::valueChanged, this, &ReferenceStreamBox::changed);
    refresh();
}

bool ReferenceStreamBox::isChecked() const
{
    return m_check->isChecked();
}

void ReferenceStreamBox::setChecked(bool on)
{
    m_check->setChecked(on); // toggled() probes when it changes
}

int ReferenceStreamBox::durationMs() const
{
    return int(std::lround(m_seconds->value() * 1000));
}

void ReferenceStreamBox::setDurationMs(int ms)
{
    m_seconds->setValue(ms / 1000.0);
}

QString ReferenceStreamBox::text() const
{
    return m_label->text();
}

void ReferenceStreamBox::setHosts(const QList<Host> &hosts)
{
    if (hosts == m_hosts)
        return;
    m_hosts = hosts;
    probe();
}

void ReferenceStreamBox::probe()
{
    ++m_generation;
    m_skipped.clear();
    m_pending = 0;
    if (m_check->isChecked()) {
        for (const Host &host : std::as_const(m_hosts)) {
            if (host.embedded || host.address.trimmed().isEmpty())
                continue; // the built-in responder answers whenever Wirebench runs
            auto *socket = new QTcpSocket(this);
            const int generation = m_generation;
            ++m_pending;
            connect(socket, &QTcpSocket::connected, this, [this, host, socket, generation] {
                if (generation == m_generation)
                    answered(host, socket, QString());
            });
            connect(socket, &QTcpSocket::errorOccurred, this, [this, host, socket, generation] {
                if (generation == m_generation)
                    answered(host, socket, socket->errorString());
            });
            QTimer::singleShot(kProbeMs, socket, [this, host, socket, generation] {
                if (generation == m_generation && socket->state() != QAbstractSocket::ConnectedState)
                    answered(host, socket, tr("no answer within %1 s").arg(kProbeMs / 1000));
            });
            socket->connectToHost(host.address, controlPort(host));
        }
    }
    refresh();
}

void ReferenceStreamBox::answered(const Host &host, QTcpSocket *socket, const QString &problem)
{
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater();
    if (!problem.isEmpty())
        m_skipped << ReferenceSkip{
            host.name, host.address,
            tr("its %1 port %2 does not answer (%3)").arg(serverName(host)).arg(controlPort(host)).arg(problem)};
    --m_pending;
    refresh();
    emit changed();
}

void ReferenceStreamBox::refresh()
{
    m_label->setVisible(m_check->isChecked());
    if (!m_check->isChecked())
        return;
    QString text = tr("A short tcp-send and tcp-recv per host and frame size, as the network's capacity that the "
                      "findings judge the file transfers by; not part of the comparison.");
    if (m_pending > 0) {
        m_label->setText(text + tr(" Asking the hosts' TCP servers whether they answer..."));
        return;
    }
    QStringList none;
    for (const ReferenceSkip &s : std::as_const(m_skipped))
        none << tr("%1: %2").arg(s.name.isEmpty() ? s.address : s.name, s.reason);
    if (!none.isEmpty())
        text += tr(" No reference stream for %1; its transfers are judged by a TCP stream to it from the hour "
                   "before, when the result store has one.")
                    .arg(none.join(QStringLiteral("; ")));
    m_label->setText(text);
}

} // namespace wb
