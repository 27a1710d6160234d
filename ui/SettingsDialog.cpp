#include "SettingsDialog.h"

#include "CredentialStore.h"
#include "settings/Config.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace wb {

SettingsDialog::SettingsDialog(Config *config, CredentialStore *credentials, QWidget *parent)
    : QDialog(parent)
    , m_config(config)
    , m_credentials(credentials)
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    auto *box = new QGroupBox(tr("Result store"), this);
    m_local = new QRadioButton(tr("This computer"), box);
    m_local->setObjectName(QStringLiteral("storeLocalRadio"));
    m_server = new QRadioButton(tr("A PostgreSQL server (a team's shared store)"), box);
    m_server->setObjectName(QStringLiteral("storeServerRadio"));
    m_host = new QLineEdit(box);
    m_host->setObjectName(QStringLiteral("storeHostEdit"));
    m_host->setPlaceholderText(tr("db.example.org"));
    m_port = new QSpinBox(box);
    m_port->setObjectName(QStringLiteral("storePortSpin"));
    m_port->setRange(1, 65535);
    m_database = new QLineEdit(box);
    m_database->setObjectName(QStringLiteral("storeDatabaseEdit"));
    m_user = new QLineEdit(box);
    m_user->setObjectName(QStringLiteral("storeUserEdit"));
    m_password = new QLineEdit(box);
    m_password->setObjectName(QStringLiteral("storePasswordEdit"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setToolTip(credentials ? credentials->statusText() : QString());
    auto *form = new QFormLayout;
    form->addRow(tr("Host"), m_host);
    form->addRow(tr("Port"), m_port);
    form->addRow(tr("Database"), m_database);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("Password"), m_password);
    auto *boxLayout = new QVBoxLayout(box);
    boxLayout->addWidget(m_local);
    boxLayout->addWidget(m_server);
    boxLayout->addLayout(form);
    auto *note = new QLabel(tr("Every computer that uses the same server sees the others' sessions in History and "
                               "Compare. The password is kept in the keychain, not in the settings."),
                            this);
    note->setWordWrap(true);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("settingsMessageLabel"));
    m_message->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(box);
    layout->addWidget(note);
    layout->addWidget(m_message);
    layout->addWidget(buttons);

    const StoreLocation now = config->resultStore();
    (now.isServer() ? m_server : m_local)->setChecked(true);
    m_host->setText(now.host());
    m_port->setValue(now.port());
    m_database->setText(now.database());
    m_user->setText(now.user());
    if (now.isServer() && credentials)
        m_password->setText(credentials->secret(passwordOwner(now), passwordKey()));
    connect(m_server, &QRadioButton::toggled, this, &SettingsDialog::updateEnabled);
    updateEnabled();
}

QString SettingsDialog::passwordOwner(const StoreLocation &store)
{
    return QStringLiteral("result store %1").arg(store.display());
}

StoreLocation SettingsDialog::location() const
{
    if (!m_server->isChecked())
        return StoreLocation::file(QString());
    StoreLocation l = StoreLocation::server(m_host->text().trimmed(), m_port->value(), m_database->text().trimmed(),
                                            m_user->text().trimmed());
    l.setPassword(m_password->text());
    return l;
}

void SettingsDialog::accept()
{
    const StoreLocation l = location();
    if (l.isServer() && (l.host().isEmpty() || l.database().isEmpty() || l.user().isEmpty())) {
        m_message->setText(tr("Name the server's host, the database and the user (ask the server's administrator)."));
        return;
    }
    m_config->setResultStore(l);
    m_config->sync();
    if (l.isServer() && m_credentials)
        m_credentials->setSecret(passwordOwner(l), passwordKey(), l.password());
    emit storeChosen(l);
    QDialog::accept();
}

void SettingsDialog::updateEnabled()
{
    for (QWidget *w :
         {static_cast<QWidget *>(m_host), static_cast<QWidget *>(m_port), static_cast<QWidget *>(m_database),
          static_cast<QWidget *>(m_user), static_cast<QWidget *>(m_password)})
        w->setEnabled(m_server->isChecked());
    m_message->clear();
}

} // namespace wb
