#pragma once

#include "settings/Config.h"

#include <QList>
#include <QMap>
#include <QWidget>

class QPushButton;
class QTableWidget;

namespace wb {

class CredentialStore;

/// The list of hosts to measure against (name, address, port, OS label, server type), a checkbox per host
/// to choose which run, Add/Edit/Remove through HostDialog. Every change is saved through Config; passwords and
/// keys go to the CredentialStore (keychain), never into the hosts Config saves.
class HostListPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column { Name, Address, Port, Os, ServerType, ColumnCount };

    /// Without a credential store one is made (system keychain when it answers, else session memory).
    explicit HostListPanel(Config *config, QWidget *parent = nullptr, CredentialStore *credentials = nullptr);

    QList<HostEntry> entries() const { return m_entries; }
    /// The checked hosts, in list order.
    QList<Host> selectedHosts() const;
    /// The checked hosts with their secrets filled into Host::options, for the engine's copy of a plan only.
    QList<Host> selectedHostsWithSecrets() const;
    CredentialStore *credentials() const { return m_credentials; }
    QTableWidget *table() const { return m_table; }

public slots:
    void setEntries(const QList<HostEntry> &entries);
    void addHost(const wb::Host &host);
    void replaceHost(int row, const wb::Host &host);
    void removeHost(int row);
    void setSelected(int row, bool selected);
    /// A plan's hosts (from a plan file): ticks exactly these and unticks the rest. A plan host takes the place
    /// of the entry with the same name (its passwords, kept by name, stay) or, when embedded, of the built-in
    /// host; the others are added. Returns the names of the hosts that were added.
    QStringList applyPlanHosts(const QList<wb::Host> &hosts);
    /// The embedded responder's state: its port once it listens, or why it could not start.
    void setEmbeddedState(quint16 port, const QString &error);

    /// Button handlers (open HostDialog).
    void addWithDialog();
    void editWithDialog();
    void removeCurrent();

signals:
    void hostsChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// The host name keeps the width it needs; a long OS label or server state gives way (elided, whole in
    /// its tooltip).
    void fitColumns();
    void refresh();
    void save();
    void updateButtons();
    /// Moves secrets found in host.options into the credential store and strips them.
    Host absorbSecrets(const Host &host);
    void storeSecrets(const QString &oldName, const Host &host, const QMap<QString, QString> &secrets);

    Config *m_config = nullptr;
    CredentialStore *m_credentials = nullptr;
    QList<HostEntry> m_entries;
    QTableWidget *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_remove = nullptr;
    quint16 m_embeddedPort = 0;
    QString m_embeddedError;
    bool m_refreshing = false;
};

} // namespace wb
