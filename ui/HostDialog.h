#pragma once

#include "identity/ServerEvidence.h"
#include "model/Host.h"

#include <QDialog>
#include <QMap>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
template <typename T>
class QFutureWatcher;

namespace wb {

class CredentialStore;
class OptionForm;

/// Adds or edits one host: name, address, server type and port, OS label, link speed, and the per-host
/// settings of every protocol family (one tab each, built from ProtocolInfo::hostOptions). Passwords and keys
/// are password fields; they go to the CredentialStore, never into Host::options.
class HostDialog : public QDialog
{
    Q_OBJECT
public:
    /// credentials may be null (no secrets are then shown or kept).
    explicit HostDialog(const Host &host, QWidget *parent = nullptr, CredentialStore *credentials = nullptr);

    /// The host as edited; its options never hold a secret.
    Host host() const;
    /// Secret option key -> text as typed (empty = none).
    QMap<QString, QString> secrets() const;
    /// Empty when the input is acceptable; otherwise one sentence.
    QString problem() const;
    /// The tab of a family ("wirebenchd", "FTP", "SMB", "Copy", "iperf3") or null.
    OptionForm *familyForm(const QString &title) const { return m_forms.value(title); }
    QTabWidget *tabs() const { return m_tabs; }

    void accept() override;

    /// What the last "Detect" found (empty before and while it runs).
    ServerEvidenceList detectedEvidence() const { return m_evidence; }

public slots:
    /// Asks the host's servers who they are (FTP, SMB, wirebenchd hello) on a worker thread; the table fills
    /// when they answered and detectionFinished() follows.
    void detectIdentity();
    /// Puts the selected row's suggestion (else the best one) into the OS label field.
    void useDetectedLabel();

signals:
    void detectionFinished();

private:
    // The constructor's parts, in the order the widgets are made (it is the tab order).
    QFormLayout *buildGeneralForm(const Host &host);
    void buildOptionTabs(const Host &host);
    void buildCredentialLabel();
    QHBoxLayout *buildDetectArea();
    void updatePortText();
    void updateCredentialText();
    void showEvidence(const ServerEvidenceList &evidence);
    QString chosenSuggestion() const;

    Host m_host;
    CredentialStore *m_credentials = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_address = nullptr;
    QSpinBox *m_port = nullptr;
    QComboBox *m_os = nullptr;
    QComboBox *m_serverType = nullptr;
    QDoubleSpinBox *m_linkSpeed = nullptr;
    QTabWidget *m_tabs = nullptr;
    QMap<QString, OptionForm *> m_forms;
    QLabel *m_credentialLabel = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_detectButton = nullptr;
    QPushButton *m_useButton = nullptr;
    QTableWidget *m_identityTable = nullptr;
    QLabel *m_detectStatus = nullptr;
    QFutureWatcher<ServerEvidenceList> *m_detectWatcher = nullptr;
    ServerEvidenceList m_evidence;
};

} // namespace wb
