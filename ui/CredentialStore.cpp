#include "CredentialStore.h"

#include "plan/Secrets.h"

#include <QPointer>

#ifdef WIREBENCH_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace wb {

namespace {
const QString kProbeKey = QStringLiteral("wirebench/.probe");
}

CredentialStore::CredentialStore(Mode mode, QObject *parent)
    : QObject(parent)
{
    setObjectName(QStringLiteral("credentialStore"));
#ifdef WIREBENCH_HAVE_QTKEYCHAIN
    if (mode == Mode::Auto && qEnvironmentVariableIntValue("WIREBENCH_NO_KEYCHAIN") == 0) {
        probe();
        return;
    }
    m_reason = tr("the keychain is switched off for this session");
#else
    Q_UNUSED(mode)
    m_reason = tr("this build has no keychain support (QtKeychain)");
#endif
    m_backend = Backend::SessionMemory;
}

CredentialStore::~CredentialStore() = default;

QString CredentialStore::entryKey(const QString &hostName, const QString &key)
{
    return Secrets::keychainEntry(hostName, key);
}

QStringList CredentialStore::secretKeys()
{
    return Secrets::keys();
}

QString CredentialStore::statusText() const
{
    switch (m_backend) {
    case Backend::Probing:
        return tr("Looking for the system keychain...");
    case Backend::Keychain:
        return tr("Passwords and keys are saved in the system keychain, never in Wirebench's settings or results.");
    case Backend::SessionMemory:
        break;
    }
    return tr("No system keychain available (%1): passwords and keys are kept in memory until Wirebench quits and "
              "are never written to disk. Enter them again next time, or start a Secret Service (e.g. "
              "gnome-keyring) or KWallet.")
        .arg(m_reason);
}

QString CredentialStore::secret(const QString &hostName, const QString &key) const
{
    return m_cache.value(entryKey(hostName, key));
}

void CredentialStore::setSecret(const QString &hostName, const QString &key, const QString &value)
{
    if (hostName.isEmpty() || key.isEmpty())
        return;
    const QString entry = entryKey(hostName, key);
    const bool had = m_cache.contains(entry);
    if (had && m_cache.value(entry) == value)
        return;
    if (!had && value.isEmpty() && m_backend == Backend::SessionMemory)
        return;
    if (value.isEmpty())
        m_cache.remove(entry);
    else
        m_cache.insert(entry, value);
    m_setThisSession.insert(entry);
    writeOne(hostName, key, value);
}

void CredentialStore::renameHost(const QString &oldName, const QString &newName)
{
    if (oldName == newName || oldName.isEmpty() || newName.isEmpty())
        return;
    for (const QString &key : secretKeys()) {
        const QString value = secret(oldName, key);
        if (value.isEmpty())
            continue;
        setSecret(newName, key, value);
        setSecret(oldName, key, QString());
    }
}

void CredentialStore::removeHost(const QString &hostName)
{
    for (const QString &key : secretKeys())
        setSecret(hostName, key, QString());
}

void CredentialStore::load(const QString &hostName)
{
    if (hostName.isEmpty() || m_backend == Backend::SessionMemory)
        return;
    for (const QString &key : secretKeys()) {
        if (!m_setThisSession.contains(entryKey(hostName, key)))
            readOne(hostName, key);
    }
}

void CredentialStore::load(const QString &owner, const QString &key)
{
    if (owner.isEmpty() || m_backend == Backend::SessionMemory || m_setThisSession.contains(entryKey(owner, key)))
        return;
    readOne(owner, key);
}

Host CredentialStore::withSecrets(const Host &host) const
{
    Host out = host;
    for (const QString &key : secretKeys()) {
        const QString value = secret(host.displayName(), key);
        if (!value.isEmpty())
            out.options.insert(key, value);
    }
    return out;
}

Host CredentialStore::withoutSecrets(Host host)
{
    for (const QString &key : secretKeys())
        host.options.remove(key);
    return host;
}

void CredentialStore::fallBackToMemory(const QString &reason)
{
    if (m_backend == Backend::SessionMemory)
        return;
    m_backend = Backend::SessionMemory;
    m_reason = reason.isEmpty() ? tr("no Secret Service or KWallet answered") : reason;
    emit backendChanged();
}

void CredentialStore::jobDone(bool read)
{
    if (read && --m_pendingReads == 0)
        emit idle();
}

#ifdef WIREBENCH_HAVE_QTKEYCHAIN

namespace {
bool meansNoKeychain(QKeychain::Error error)
{
    return error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented
        || error == QKeychain::OtherError;
}
} // namespace

void CredentialStore::probe()
{
    // No parent: a job the store deleted with itself while the keychain (libsecret) still had its call in flight
    // would be called back after its deletion (a crash when a window closes quickly); autoDelete ends it when done.
    auto *job = new QKeychain::ReadPasswordJob(QLatin1String(ServiceName), nullptr);
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never the plain-text QSettings store
    job->setKey(kProbeKey);
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job *j) {
        if (m_backend == Backend::Probing) {
            if (j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound) {
                m_backend = Backend::Keychain;
                emit backendChanged();
            } else {
                fallBackToMemory(j->errorString().simplified());
            }
        }
    });
    job->start();
}

void CredentialStore::readOne(const QString &hostName, const QString &key)
{
    ++m_pendingReads;
    const QString entry = entryKey(hostName, key);
    auto *job = new QKeychain::ReadPasswordJob(QLatin1String(ServiceName), nullptr);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(entry);
    connect(job, &QKeychain::Job::finished, this, [this, entry](QKeychain::Job *j) {
        auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
        if (read->error() == QKeychain::NoError) {
            if (!m_setThisSession.contains(entry))
                m_cache.insert(entry, read->textData());
        } else if (meansNoKeychain(read->error())) {
            fallBackToMemory(read->errorString().simplified());
        } else if (read->error() != QKeychain::EntryNotFound) {
            emit failed(tr("Keychain: could not read %1: %2").arg(entry, read->errorString().simplified()));
        }
        jobDone(true);
    });
    job->start();
}

void CredentialStore::writeOne(const QString &hostName, const QString &key, const QString &value)
{
    if (m_backend == Backend::SessionMemory)
        return;
    const QString entry = entryKey(hostName, key);
    QKeychain::Job *job = nullptr;
    if (value.isEmpty()) {
        job = new QKeychain::DeletePasswordJob(QLatin1String(ServiceName), nullptr);
    } else {
        auto *write = new QKeychain::WritePasswordJob(QLatin1String(ServiceName), nullptr);
        write->setTextData(value);
        job = write;
    }
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(entry);
    const bool deleting = value.isEmpty();
    connect(job, &QKeychain::Job::finished, this, [this, entry, deleting](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError || (deleting && j->error() == QKeychain::EntryNotFound)) {
            // saved or removed
        } else if (meansNoKeychain(j->error())) {
            fallBackToMemory(j->errorString().simplified()); // the value stays in the session cache
        } else {
            emit failed(tr("Keychain: could not %1 %2: %3 (kept in memory for this session)")
                            .arg(deleting ? tr("remove") : tr("save"), entry, j->errorString().simplified()));
        }
    });
    job->start();
}

#else

void CredentialStore::probe() { }
void CredentialStore::readOne(const QString &, const QString &) { }
void CredentialStore::writeOne(const QString &, const QString &, const QString &) { }

#endif

} // namespace wb
