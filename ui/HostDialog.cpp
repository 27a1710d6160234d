#include "HostDialog.h"

#include "CredentialStore.h"
#include "OptionForm.h"
#include "net/Responder.h"
#include "protocols/DriverRegistry.h"
#include "protocols/iperf3/Iperf3Protocol.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace wb {

namespace {

QString familyTitle(const QString &family)
{
    if (family == QLatin1String("tcp"))
        return QStringLiteral("wirebenchd");
    if (family == QLatin1String("ftp"))
        return QStringLiteral("FTP");
    if (family == QLatin1String("smb"))
        return QStringLiteral("SMB");
    if (family == QLatin1String("copy"))
        return QStringLiteral("Copy");
    return family;
}

struct Family
{
    QString title;
    QStringList protocolTitles;
    QList<OptionSpec> options;
};

// Families in registration order, each with the union of its protocols' host options.
QList<Family> families()
{
    QList<Family> out;
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        const QString title = familyTitle(info.family.isEmpty() ? info.id : info.family);
        auto it = std::find_if(out.begin(), out.end(), [&](const Family &f) { return f.title == title; });
        if (it == out.end()) {
            out.append(Family{title, {}, {}});
            it = out.end() - 1;
        }
        it->protocolTitles << info.title;
        for (const OptionSpec &option : info.hostOptions) {
            if (std::none_of(it->options.cbegin(), it->options.cend(),
                             [&](const OptionSpec &o) { return o.key == option.key; }))
                it->options << option;
        }
    }
    for (Family &f : out) {
        if (f.title != QLatin1String("wirebenchd"))
            continue;
        for (const OptionSpec &option : CredentialStore::wirebenchdOptions()) {
            if (std::none_of(f.options.cbegin(), f.options.cend(), [&](const OptionSpec &o) { return o.key == option.key; }))
                f.options << option;
        }
    }
    return out;
}

} // namespace

HostDialog::HostDialog(const Host &host, QWidget *parent, CredentialStore *credentials)
    : QDialog(parent)
    , m_host(host)
    , m_credentials(credentials)
{
    setObjectName(QStringLiteral("hostDialog"));
    setWindowTitle(host.address.isEmpty() && !host.embedded ? tr("Add host") : tr("Edit host"));

    m_name = new QLineEdit(host.name, this);
    m_name->setObjectName(QStringLiteral("hostNameEdit"));
    m_name->setPlaceholderText(tr("e.g. fileserver-linux"));
    m_address = new QLineEdit(host.address, this);
    m_address->setObjectName(QStringLiteral("hostAddressEdit"));
    m_address->setPlaceholderText(tr("host name, IPv4 or IPv6 address"));
    m_serverType = new QComboBox(this);
    m_serverType->setObjectName(QStringLiteral("hostServerTypeCombo"));
    m_serverType->addItem(tr("wirebenchd (default port %1)").arg(ResponderConfig::kDefaultPort),
                          QStringLiteral("wirebenchd"));
    m_serverType->addItem(tr("iperf3 server (default port %1)").arg(iperf3::kDefaultPort), QStringLiteral("iperf3"));
    m_serverType->setCurrentIndex(std::max(0, m_serverType->findData(host.serverType)));
    m_serverType->setToolTip(tr("The server the TCP tests talk to on this host. FTP, SMB and copy use their own "
                                "ports (tabs below)."));
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("hostPortSpin"));
    m_port->setRange(0, 65535);
    m_port->setValue(host.port);
    m_port->setToolTip(tr("Control port of the server type; 0 = its default"));
    m_os = new QComboBox(this);
    m_os->setObjectName(QStringLiteral("hostOsCombo"));
    m_os->setEditable(true);
    m_os->addItems({QStringLiteral("Linux"), QStringLiteral("Windows"), QStringLiteral("Windows Server 2003"),
                    QStringLiteral("Windows Server 2022"), QStringLiteral("macOS"), QStringLiteral("FreeBSD")});
    m_os->setCurrentText(host.osLabel);
    m_os->setToolTip(tr("The label the charts use to tell servers apart (e.g. Linux next to Windows)"));
    m_linkSpeed = new QDoubleSpinBox(this);
    m_linkSpeed->setObjectName(QStringLiteral("hostLinkSpeedSpin"));
    m_linkSpeed->setRange(0, 1e6);
    m_linkSpeed->setDecimals(0);
    m_linkSpeed->setSingleStep(100);
    m_linkSpeed->setSuffix(tr(" Mbit/s"));
    m_linkSpeed->setSpecialValueText(tr("detect"));
    m_linkSpeed->setValue(host.linkSpeedMbps);
    m_linkSpeed->setToolTip(tr("The link rate to compare results with (10^6 bit/s); 0 = detect from the interface"));

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
    } else {
        updatePortText();
        connect(m_serverType, &QComboBox::currentIndexChanged, this, &HostDialog::updatePortText);
    }

    auto *general = new QFormLayout;
    general->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    general->addRow(tr("&Name:"), m_name);
    general->addRow(tr("&Address:"), m_address);
    general->addRow(tr("&Server type:"), m_serverType);
    general->addRow(tr("&Port:"), m_port);
    general->addRow(tr("&OS label:"), m_os);
    general->addRow(tr("&Link speed:"), m_linkSpeed);

    // One tab per protocol family, built from what the drivers declare.
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("hostOptionTabs"));
    for (const Family &family : families()) {
        auto *page = new QWidget(m_tabs);
        auto *pageLayout = new QVBoxLayout(page);
        auto *used = new QLabel(tr("Used by: %1").arg(family.protocolTitles.join(QStringLiteral("; "))), page);
        used->setWordWrap(true);
        used->setStyleSheet(QStringLiteral("color: palette(mid)"));
        pageLayout->addWidget(used);
        auto *form = new OptionForm(family.options, page);
        form->setObjectName(QStringLiteral("optionForm_") + family.title);
        form->formLayout()->setContentsMargins(0, 0, 0, 0);
        form->setValues(host.options);
        if (m_credentials) {
            const auto keys = form->secrets().keys();
            for (const QString &key : keys)
                form->setSecret(key, m_credentials->secret(host.displayName(), key));
        }
        pageLayout->addWidget(form);
        if (family.options.isEmpty()) {
            auto *none = new QLabel(
                family.title == QLatin1String("iperf3")
                    ? tr("No settings of its own: choose the server type \"iperf3 server\" above; the port above is "
                         "iperf3's (default %1).")
                          .arg(iperf3::kDefaultPort)
                    : tr("No per-host settings."),
                page);
            none->setWordWrap(true);
            pageLayout->addWidget(none);
        }
        pageLayout->addStretch(1);
        m_tabs->addTab(page, family.title);
        m_forms.insert(family.title, form);
    }

    m_credentialLabel = new QLabel(this);
    m_credentialLabel->setObjectName(QStringLiteral("credentialStatusLabel"));
    m_credentialLabel->setWordWrap(true);
    updateCredentialText();
    if (m_credentials) {
        connect(m_credentials, &CredentialStore::backendChanged, this, &HostDialog::updateCredentialText);
        // Secrets still being read from the keychain: fill the fields the user has not typed in yet.
        connect(m_credentials, &CredentialStore::idle, this, [this] {
            const QString hostName = m_host.displayName();
            for (OptionForm *form : std::as_const(m_forms)) {
                const auto current = form->secrets();
                for (auto it = current.cbegin(); it != current.cend(); ++it) {
                    if (it.value().isEmpty())
                        form->setSecret(it.key(), m_credentials->secret(hostName, it.key()));
                }
            }
        });
    }

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &HostDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(general);
    layout->addSpacing(6);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_credentialLabel);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

void HostDialog::updatePortText()
{
    const bool iperf = m_serverType->currentData().toString() == QLatin1String("iperf3");
    m_port->setSpecialValueText(tr("default (%1)").arg(iperf ? iperf3::kDefaultPort : ResponderConfig::kDefaultPort));
}

void HostDialog::updateCredentialText()
{
    if (!m_credentials) {
        m_credentialLabel->setText(tr("Passwords and keys are not kept (no credential store)."));
        return;
    }
    m_credentialLabel->setText(m_credentials->statusText());
    const bool memoryOnly = m_credentials->backend() == CredentialStore::Backend::SessionMemory;
    m_credentialLabel->setStyleSheet(memoryOnly ? QStringLiteral("color: #8a5a00") : QString());
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
    h.linkSpeedMbps = m_linkSpeed->value();
    // Keep options no form knows (a newer release's), replace the ones the forms edit.
    for (OptionForm *form : m_forms) {
        for (const OptionSpec &option : form->options())
            h.options.remove(option.key);
        const QVariantMap values = form->values();
        for (auto it = values.cbegin(); it != values.cend(); ++it)
            h.options.insert(it.key(), it.value());
    }
    return CredentialStore::withoutSecrets(h);
}

QMap<QString, QString> HostDialog::secrets() const
{
    QMap<QString, QString> out;
    for (OptionForm *form : m_forms)
        out.insert(form->secrets());
    return out;
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
