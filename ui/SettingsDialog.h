#pragma once

#include "storage/StoreLocation.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace wb {

class Config;
class CredentialStore;

/// Settings > "Result store: this computer / a PostgreSQL server": the server's host, port, database and user go
/// to the settings (Config), its password to the keychain (CredentialStore), never to the settings file.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    SettingsDialog(Config *config, CredentialStore *credentials, QWidget *parent = nullptr);

    /// The keychain's owner and key of the store's password (one per server address).
    static QString passwordOwner(const StoreLocation &store);
    static QString passwordKey() { return QStringLiteral("store.password"); }

    /// What the form says now (with the password typed).
    StoreLocation location() const;

    QRadioButton *localRadio() const { return m_local; }
    QRadioButton *serverRadio() const { return m_server; }
    QLineEdit *hostEdit() const { return m_host; }
    QSpinBox *portSpin() const { return m_port; }
    QLineEdit *databaseEdit() const { return m_database; }
    QLineEdit *userEdit() const { return m_user; }
    QLineEdit *passwordEdit() const { return m_password; }
    QLabel *messageLabel() const { return m_message; }

signals:
    /// Accepted: the store to use from now on (with its password).
    void storeChosen(const StoreLocation &store);

public slots:
    void accept() override;

private:
    void updateEnabled();

    Config *m_config;
    CredentialStore *m_credentials;
    QRadioButton *m_local = nullptr;
    QRadioButton *m_server = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_database = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_message = nullptr;
};

} // namespace wb
