#include "FileServerLab.h"

#include "../protocols/FileServerFixture.h"
#include "LabBench.h"
#include "LabFileServers.h"
#include "LabSession.h"

namespace wb::test {

FileServerLab::FileServerLab() = default;

FileServerLab::~FileServerLab()
{
    tearDown();
}

bool FileServerLab::prepare(QString *why)
{
    bool prepared = false;
    m_fixture = LabFileServers::tmpfsFixture(&prepared, why);
    return prepared;
}

bool FileServerLab::up(const QString &idPrefix, const QString &rate, QString *why)
{
    m_servers = std::make_unique<LabFileServers>(*m_fixture);
    if (!m_servers->writeConfigs(why))
        return false;
    m_lab = std::make_unique<LabSession>(LabBench::labScript(), idPrefix);
    return m_lab->up(1500, rate, why);
}

QString FileServerLab::serve(const QList<QStringList> &first, const QList<QStringList> &then) const
{
    QList<QStringList> serves = first;
    serves << QStringList{QStringLiteral("vsftpd"), m_servers->ftpConf()}
           << QStringList{QStringLiteral("smbd"), m_servers->smbConf()};
    serves << then;
    return LabBench::serveAll(*m_lab, serves);
}

bool FileServerLab::makeReadFiles(const QList<qint64> &sizes, FileNamer fileName, QString *why) const
{
    for (const qint64 size : sizes) {
        if (!m_servers->makeServerFile(m_fixture->ftpRoot() + QLatin1Char('/') + fileName(QStringLiteral("get"), size),
                                       size, why)
            || !m_servers->makeServerFile(
                m_fixture->smbRoot() + QLatin1Char('/') + fileName(QStringLiteral("read"), size), size, why))
            return false;
    }
    return true;
}

Host FileServerLab::labHost() const
{
    Host h;
    h.name = QStringLiteral("lab-srv");
    h.address = LabSession::serverAddress();
    h.linkSpeedMbps = m_lab->speedMbps();
    return h;
}

Host FileServerLab::fileHost(const QString &protocol, qint64 size, FileNamer fileName) const
{
    Host h = labHost();
    const bool reading = protocol == QLatin1String("ftp-get") || protocol == QLatin1String("smb-read");
    const bool ftp = protocol.startsWith(QLatin1String("ftp"));
    const QString file
        = fileName(reading ? (ftp ? QStringLiteral("get") : QStringLiteral("read")) : QStringLiteral("put"), size);
    h.options = ftp ? m_servers->ftpOptions(file) : m_servers->smbOptions(file);
    return h;
}

void FileServerLab::tearDown()
{
    m_lab.reset();
    m_servers.reset();
    m_fixture.reset();
}

} // namespace wb::test
