#include "StoreSwitcher.h"

#include "CredentialStore.h"
#include "SettingsDialog.h"
#include "storage/ResultStore.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

namespace wb {

StoreSwitcher::StoreSwitcher(ResultStore *store, const QString &localPath, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_localPath(localPath)
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &StoreSwitcher::probe);
}

StoreSwitcher::~StoreSwitcher() = default;

void StoreSwitcher::useServer(const StoreLocation &server)
{
    m_server = server;
    m_wantServer = true;
    ++m_generation;
    m_retry.stop();
    setStatus(tr("Result store: connecting to %1; results go to this computer's store until it answers")
                  .arg(server.display()));
    probe();
}

void StoreSwitcher::useServer(const StoreLocation &server, CredentialStore *credentials)
{
    const QString owner = SettingsDialog::passwordOwner(server);
    auto go = [this, server, credentials, owner] {
        StoreLocation withPassword = server;
        withPassword.setPassword(credentials->secret(owner, SettingsDialog::passwordKey()));
        useServer(withPassword);
    };
    credentials->load(owner, SettingsDialog::passwordKey());
    if (!credentials->isBusy()) {
        go();
        return;
    }
    setStatus(tr("Result store: reading the password of %1 from the keychain").arg(server.display()));
    connect(credentials, &CredentialStore::idle, this, go, Qt::SingleShotConnection);
}

void StoreSwitcher::useLocal()
{
    m_wantServer = false;
    ++m_generation;
    m_retry.stop();
    if (m_store->isServer() || !m_store->isOpen()) {
        if (m_busy && m_busy()) {
            m_retry.start(5000);
            return;
        }
        QString error;
        m_store->open(m_localPath, &error);
        emit storeChanged();
    }
    setStatus(m_store->isOpen() ? tr("Result store: this computer (%1)").arg(m_store->path()) : m_store->lastError());
}

void StoreSwitcher::probe()
{
    if (!m_wantServer) {
        useLocal();
        return;
    }
    if (m_probing)
        return;
    m_probing = true;
    const StoreLocation server = m_server;
    const quint64 generation = m_generation;
    QPointer<StoreSwitcher> self(this);
    // A store of its own in the worker: its connection lives and ends in that thread.
    QThread *worker = QThread::create([self, server, generation] {
        QString error;
        bool ok = false;
        {
            ResultStore probe;
            ok = probe.open(server, &error);
        }
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, ok, error] {
                if (self)
                    self->probed(generation, ok, error);
            },
            Qt::QueuedConnection);
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

void StoreSwitcher::probed(quint64 generation, bool ok, const QString &error)
{
    m_probing = false;
    if (generation != m_generation || !m_wantServer) {
        probe(); // the choice changed meanwhile
        return;
    }
    if (ok && m_busy && m_busy()) {
        m_retry.start(5000); // the server answers; move once the plan ends
        return;
    }
    QString why = error;
    if (ok) {
        if (m_store->open(m_server, &why)) {
            setStatus(tr("Result store: %1 (a team's store, sessions of every computer)").arg(m_server.display()));
            emit storeChanged();
            return;
        }
        m_store->open(m_localPath); // it went away between the probe and now
        emit storeChanged();
    }
    setStatus(
        tr("%1. Results go to this computer's store until the server answers (tried again every minute).").arg(why));
    m_retry.start(kRetryMs);
}

void StoreSwitcher::setStatus(const QString &text)
{
    if (text == m_status)
        return;
    m_status = text;
    emit statusChanged(text);
}

} // namespace wb
