#include "IdentityPeers.h"

#include <QDir>
#include <QFile>

#include <csignal>

#include <sys/types.h>
#include <unistd.h>

namespace wb::test {

bool IdentityPeers::start(QString *why)
{
    m_ready = m_fixture.prepare(&m_why) && m_fixture.startFtp(&m_why) && m_fixture.startSmb(&m_why);
    ResponderConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    m_responder = std::make_unique<Responder>(config);
    return m_responder->start(why);
}

void IdentityPeers::stop()
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_fixture.stopAll();
    if (m_ready)
        qInfo("samba helpers left by smbd, stopped: %d", killSambaLeftovers(m_fixture.path()));
    m_responder.reset();
}

int killSambaLeftovers(const QString &configPath)
{
    if (configPath.isEmpty())
        return 0;
    const QByteArray needle = configPath.toLocal8Bit();
    int killed = 0;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok || pid == getpid())
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray args = cmdline.readAll();
        const bool samba = args.startsWith("/usr/libexec/samba/") || args.contains("samba-dcerpcd");
        if (samba && args.contains(needle) && ::kill(pid_t(pid), SIGKILL) == 0)
            ++killed;
    }
    return killed;
}

} // namespace wb::test
