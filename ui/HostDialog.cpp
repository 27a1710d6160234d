#include "HostDialog.h"

#include "net/Responder.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace wb {

HostDialog::HostDialog(const Host &host, QWidget *parent)
    : QDialog(parent)
    , m_host(host)
{
    setObjectName(QStringLiteral("hostDialog"));
    setWindowTitle(host.address.isEmpty() && !host.embedded ? tr("Add host") : tr("Edit host"));

    m_name = new QLineEdit(host.name, this);
    m_name->setObjectName(QStringLiteral("hostNameEdit"));
    m_name->setPlaceholderText(tr("e.g. fileserver-linux"));
    m_address = new QLineEdit(host.address, this);
    m_address->setObjectName(QStringLiteral("hostAddressEdit"));
    m_address->setPlaceholderText(tr("host name, IPv4 or IPv6 address"));
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("hostPortSpin"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("default (%1)").arg(ResponderConfig::kDefaultPort));
    m_port->setValue(host.port);
    m_os = new QComboBox(this);
    m_os->setObjectName(QStringLiteral("hostOsCombo"));
    m_os->setEditable(true);
    m_os->addItems({QStringLiteral("Linux"), QStringLiteral("Windows"), QStringLiteral("Windows Server 2003"),
                    QStringLiteral("Windows Server 2022"), QStringLiteral("macOS"), QStringLiteral("FreeBSD")});
    m_os->setCurrentText(host.osLabel);
    m_serverType = new QComboBox(this);
    m_serverType->setObjectName(QStringLiteral("hostServerTypeCombo"));
    m_serverType->addItem(tr("wirebenchd"), QStringLiteral("wirebenchd"));
    m_serverType->addItem(tr("iperf3 server"), QStringLiteral("iperf3"));
    m_serverType->setCurrentIndex(std::max(0, m_serverType->findData(host.serverType)));
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("hostProblemLabel"));
    m_problem->setStyleSheet(QStringLiteral("color: #b01e1e"));
    m_problem->setWordWrap(true);
    m_problem->hide();

    if (host.embedded) {
        // The built-in host is served by the in-process responder: its address and port are not the user's.
        m_address->setEnabled(false);
        m_port->setEnabled(false);
        m_serverType->setEnabled(false);
        m_port->setSpecialValueText(tr("chosen at start"));
    }

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &HostDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout(this);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Address:"), m_address);
    form->addRow(tr("&Port:"), m_port);
    form->addRow(tr("&OS label:"), m_os);
    form->addRow(tr("&Server type:"), m_serverType);
    form->addRow(m_problem);
    form->addRow(buttons);
}

Host HostDialog::host() const
{
    Host h = m_host;
    h.name = m_name->text().trimmed();
    if (!h.embedded) {
        h.address = m_address->text().trimmed();
        h.port = quint16(m_port->value());
        h.serverType = m_serverType->currentData().toString();
    }
    h.osLabel = m_os->currentText().trimmed();
    return h;
}

QString HostDialog::problem() const
{
    const Host h = host();
    if (h.embedded)
        return {};
    if (h.address.isEmpty())
        return tr("Enter the host's name or IP address.");
    static const QRegularExpression hostName(QStringLiteral("^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$"));
    if (QHostAddress(h.address).isNull() && !hostName.match(h.address).hasMatch())
        return tr("\"%1\" is neither an IP address nor a host name: check for spaces or typos.").arg(h.address);
    return {};
}

void HostDialog::accept()
{
    const QString text = problem();
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
    if (text.isEmpty())
        QDialog::accept();
}

} // namespace wb
