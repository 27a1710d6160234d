#pragma once

#include "storage/StoreLocation.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace wb {

class CredentialStore;
class ResultStore;

/// Moves the window's one ResultStore between this computer's file and a PostgreSQL server. The server is first
/// tried from a worker thread (a server that does not answer takes up to 5 s), so the window never waits on it;
/// while it cannot be reached the store stays on this computer and the server is tried again every minute. The
/// store moves only between plans (busy()).
class StoreSwitcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int kRetryMs = 60000;

    /// `localPath`: this computer's store (empty: the user's default one).
    StoreSwitcher(ResultStore *store, const QString &localPath, QObject *parent = nullptr);
    ~StoreSwitcher() override;

    /// While it returns true (a plan runs), the store is not moved.
    void setBusyCheck(std::function<bool()> busy) { m_busy = std::move(busy); }
    /// Uses the server from now on, as soon as it answers.
    void useServer(const StoreLocation &server);
    /// The same with the password the keychain keeps for it (SettingsDialog), read first when it is not yet.
    void useServer(const StoreLocation &server, CredentialStore *credentials);
    /// Back to this computer's store.
    void useLocal();
    /// One line for the status bar: which store the results go to, and why not the chosen one.
    QString statusText() const { return m_status; }

signals:
    /// The store moved (History and Compare re-read it).
    void storeChanged();
    void statusChanged(const QString &text);

private:
    void probe();
    void probed(quint64 generation, bool ok, const QString &error);
    void setStatus(const QString &text);

    ResultStore *m_store;
    QString m_localPath;
    StoreLocation m_server;
    bool m_wantServer = false;
    quint64 m_generation = 0; ///< a probe of a location since replaced is ignored
    bool m_probing = false;
    QTimer m_retry;
    std::function<bool()> m_busy;
    QString m_status;
};

} // namespace wb
