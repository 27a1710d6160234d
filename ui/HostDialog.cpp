#include "HostDialog.h"

#include "CredentialStore.h"
#include "OptionForm.h"
#include "identity/ServerIdentity.h"
#include "wire/wirebenchd/ControlMessage.h"
#include "protocols/DriverRegistry.h"
#include "wire/iperf3/Iperf3Protocol.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QPromise>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <thread>

namespace wb {

namespace {

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
        const QString title = info.tabTitle.isEmpty() ? info.id : info.tabTitle;
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

    QFormLayout *general = buildGeneralForm(host);
    buildOptionTabs(host);
    buildCredentialLabel();
    QHBoxLayout *detectRow = buildDetectArea();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &HostDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(general);
    layout->addLayout(detectRow);
    layout->addWidget(m_identityTable);
    layout->addSpacing(6);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_credentialLabel);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

QFormLayout *HostDialog::buildGeneralForm(const Host &host)
{
    m_name = new QLineEdit(host.name, this);
    m_name->setObjectName(QStringLiteral("hostNameEdit"));
    m_name->setPlaceholderText(tr("e.g. fileserver-linux"));
    m_address = new QLineEdit(host.address, this);
    m_address->setObjectName(QStringLiteral("hostAddressEdit"));
    m_address->setPlaceholderText(tr("host name, IPv4 or IPv6 address"));
    m_serverType = new QComboBox(this);
    m_serverType->setObjectName(QStringLiteral("hostServerTypeCombo"));
    m_serverType->addItem(tr("wirebenchd (default port %1)").arg(control::kDefaultPort), QStringLiteral("wirebenchd"));
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
    m_detectButton = new QPushButton(tr("&Detect"), this);
    m_detectButton->setObjectName(QStringLiteral("hostDetectButton"));
    m_detectButton->setToolTip(tr("Ask this host's FTP, SMB and wirebenchd servers what they are (a few seconds; "
                                  "nothing is logged in except FTP with the user below, for SYST)"));
    connect(m_detectButton, &QPushButton::clicked, this, &HostDialog::detectIdentity);
    if (host.embedded) {
        m_detectButton->setEnabled(false);
        m_detectButton->setToolTip(tr("This computer: its OS is known"));
    }
    auto *osRow = new QHBoxLayout;
    osRow->addWidget(m_os, 1);
    osRow->addWidget(m_detectButton);
    auto *osLabel = new QLabel(tr("&OS label:"), this);
    osLabel->setBuddy(m_os); // a row of a layout gets no buddy from addRow()
    general->addRow(osLabel, osRow);
    general->addRow(tr("&Link speed:"), m_linkSpeed);
    return general;
}

void HostDialog::buildOptionTabs(const Host &host)
{
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
}

void HostDialog::buildCredentialLabel()
{
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
}

QHBoxLayout *HostDialog::buildDetectArea()
{
    // What Detect found: one row per source, failures with their message.
    m_identityTable = new QTableWidget(0, 3, this);
    m_identityTable->setObjectName(QStringLiteral("hostIdentityTable"));
    m_identityTable->setHorizontalHeaderLabels({tr("Source"), tr("The server said"), tr("Suggests")});
    m_identityTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_identityTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_identityTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_identityTable->verticalHeader()->hide();
    m_identityTable->verticalHeader()->setDefaultSectionSize(m_identityTable->fontMetrics().height() + 8);
    m_identityTable->setWordWrap(false); // one line per source; the tooltip holds the whole text
    m_identityTable->setTextElideMode(Qt::ElideRight);
    m_identityTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_identityTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_identityTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Interactive);
    m_identityTable->horizontalHeader()->resizeSection(2, 190);
    m_identityTable->setMinimumHeight(150);
    m_identityTable->setMaximumHeight(190);
    m_identityTable->hide();
    m_detectStatus = new QLabel(this);
    m_detectStatus->setObjectName(QStringLiteral("hostDetectStatusLabel"));
    m_detectStatus->setWordWrap(true);
    m_detectStatus->hide();
    m_useButton = new QPushButton(tr("&Use as OS label"), this);
    m_useButton->setObjectName(QStringLiteral("hostUseDetectedButton"));
    m_useButton->setToolTip(
        tr("Put the selected row's suggestion (else the best one) into the OS label; you can still edit it"));
    m_useButton->setEnabled(false);
    m_useButton->hide();
    connect(m_useButton, &QPushButton::clicked, this, &HostDialog::useDetectedLabel);
    m_detectWatcher = new QFutureWatcher<ServerEvidenceList>(this);
    connect(m_detectWatcher, &QFutureWatcher<ServerEvidenceList>::finished, this, [this] {
        const QFuture<ServerEvidenceList> f = m_detectWatcher->future();
        showEvidence(f.resultCount() > 0 ? f.result() : ServerEvidenceList{});
    });
    auto *detectRow = new QHBoxLayout;
    detectRow->addWidget(m_detectStatus, 1);
    detectRow->addWidget(m_useButton);
    return detectRow;
}

void HostDialog::updatePortText()
{
    const bool iperf = m_serverType->currentData().toString() == QLatin1String("iperf3");
    m_port->setSpecialValueText(tr("default (%1)").arg(iperf ? iperf3::kDefaultPort : control::kDefaultPort));
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

void HostDialog::detectIdentity()
{
    if (m_detectWatcher->isRunning())
        return;
    // The probes need what Host::options leaves out: the passwords typed here (SMB share list, FTP SYST).
    Host target = host();
    const QMap<QString, QString> typed = secrets();
    for (auto it = typed.cbegin(); it != typed.cend(); ++it) {
        if (!it.value().isEmpty())
            target.options.insert(it.key(), it.value());
    }
    if (target.address.isEmpty()) {
        m_detectStatus->setText(tr("Enter the host's address first."));
        m_detectStatus->show();
        return;
    }
    m_evidence.clear();
    m_detectButton->setEnabled(false);
    m_useButton->setEnabled(false);
    m_detectStatus->setText(
        tr("Asking %1 (FTP, SMB%2)…")
            .arg(target.address, target.serverType == QLatin1String("wirebenchd") ? tr(", wirebenchd") : QString()));
    m_detectStatus->show();
    // A detached thread with a promise: closing the dialog early drops the watcher, not the probes,
    // which end by themselves within their timeouts.
    QPromise<ServerEvidenceList> promise;
    m_detectWatcher->setFuture(promise.future());
    std::thread([promise = std::move(promise), target]() mutable {
        promise.start();
        promise.addResult(ServerIdentity::detect(target));
        promise.finish();
    }).detach();
}

void HostDialog::showEvidence(const ServerEvidenceList &evidence)
{
    m_evidence = evidence;
    m_detectButton->setEnabled(!m_host.embedded);
    const ServerEvidence *best = bestEvidence(evidence);
    m_identityTable->setRowCount(int(evidence.size()));
    for (int row = 0; row < evidence.size(); ++row) {
        const ServerEvidence &e = evidence.at(row);
        auto *source = new QTableWidgetItem(e.source);
        auto *said = new QTableWidgetItem(e.failed() ? e.error : e.said);
        said->setToolTip(said->text());
        auto *suggests = new QTableWidgetItem(e.suggests);
        suggests->setToolTip(e.suggests);
        if (e.failed())
            said->setForeground(QColor(0xb0, 0x1e, 0x1e));
        if (best == &e) {
            QFont bold = suggests->font();
            bold.setBold(true);
            suggests->setFont(bold);
            suggests->setToolTip(tr("%1 (the best suggestion)").arg(e.suggests));
        }
        m_identityTable->setItem(row, 0, source);
        m_identityTable->setItem(row, 1, said);
        m_identityTable->setItem(row, 2, suggests);
    }
    if (m_identityTable->isHidden() && width() < 800)
        resize(800, height()); // room for what the servers said
    m_identityTable->show();
    m_useButton->show();
    m_useButton->setEnabled(best != nullptr);
    m_detectStatus->setText(best ? tr("Best suggestion: %1 (from %2)").arg(best->suggests, best->source)
                                 : tr("No server on this host said what it is."));
    emit detectionFinished();
}

QString HostDialog::chosenSuggestion() const
{
    const int row = m_identityTable->currentRow();
    if (row >= 0 && row < m_evidence.size() && !m_evidence.at(row).suggests.isEmpty()
        && m_identityTable->selectionModel()->isRowSelected(row))
        return m_evidence.at(row).suggests;
    return bestOsLabel(m_evidence);
}

void HostDialog::useDetectedLabel()
{
    const QString label = chosenSuggestion();
    if (!label.isEmpty())
        m_os->setCurrentText(label);
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
