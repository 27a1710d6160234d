#pragma once

#include "model/Host.h"
#include "plan/Secrets.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

namespace wb {

/// Passwords and keys of the hosts, kept in the system keychain through QtKeychain under the service
/// "wirebench" and the key "wirebench/<host name>/<option key>". Where no keychain service runs (no Secret
/// Service, no KWallet), secrets live in this object's memory for the session only: never on disk.
///
/// Every keychain call is an asynchronous QtKeychain job; the GUI thread never waits on one. Reads fill a
/// memory cache; callers that need the secrets (Start) check isBusy() and wait for idle().
class CredentialStore : public QObject
{
    Q_OBJECT
public:
    enum class Backend {
        Probing,       ///< asking the keychain whether it is there
        Keychain,      ///< secrets are saved in the system keychain
        SessionMemory, ///< no keychain: secrets last until Wirebench quits
    };
    enum class Mode { Auto, MemoryOnly };

    static constexpr const char *ServiceName = Secrets::kKeychainService;

    /// Auto uses the keychain when one answers (env WIREBENCH_NO_KEYCHAIN=1 forces MemoryOnly).
    explicit CredentialStore(Mode mode = Mode::Auto, QObject *parent = nullptr);
    ~CredentialStore() override;

    /// "wirebench/<host>/<key>" (Secrets::keychainEntry, which wirebench-cli reads too)
    static QString entryKey(const QString &hostName, const QString &key);
    /// Every secret option key (Secrets::keys: Type::Secret of any registered protocol, the wirebenchd key too).
    static QStringList secretKeys();

    Backend backend() const { return m_backend; }
    /// One or two sentences for the host dialog: where secrets go, and why.
    QString statusText() const;
    /// True while secrets are still being read from the keychain (not yet in the cache). Writes and the
    /// initial probe do not count: what was typed is in the cache at once.
    bool isBusy() const { return m_pendingReads > 0; }

    QString secret(const QString &hostName, const QString &key) const;
    /// Cached at once; written to (or, when empty, deleted from) the keychain in the background.
    void setSecret(const QString &hostName, const QString &key, const QString &value);
    /// Moves a host's secrets when the user renames it.
    void renameHost(const QString &oldName, const QString &newName);
    void removeHost(const QString &hostName);
    /// Starts reading the host's secrets from the keychain into the cache (no-op without a keychain).
    void load(const QString &hostName);
    /// The same for one secret of another owner than a host (the result store's password: SettingsDialog).
    void load(const QString &owner, const QString &key);
    /// A copy of host whose options hold its secrets (memory only: for the plan the engine runs).
    Host withSecrets(const Host &host) const;
    /// A copy of host with every secret option removed.
    static Host withoutSecrets(Host host);

signals:
    void backendChanged();
    /// No keychain read is left running.
    void idle();
    /// A keychain job failed for another reason than "no keychain"; one line.
    void failed(const QString &message);

private:
    void probe();
    void readOne(const QString &hostName, const QString &key);
    void writeOne(const QString &hostName, const QString &key, const QString &value);
    void jobDone(bool read);
    void fallBackToMemory(const QString &reason);

    Backend m_backend = Backend::Probing;
    QString m_reason;
    QHash<QString, QString> m_cache; ///< entryKey -> secret
    QSet<QString> m_setThisSession;  ///< entry keys a later keychain read must not overwrite
    int m_pendingReads = 0;
};

} // namespace wb
