#pragma once

#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QString>
#include <QVariantMap>

#include <memory>

namespace wb::test {

class FileServerFixture;

/// vsftpd and smbd configured to serve a FileServerFixture's folders on the lab's server address (inside
/// the server namespace): the configs, the Samba password of the fixture's user, and files to read.
class LabFileServers
{
public:
    explicit LabFileServers(const FileServerFixture &fixture)
        : m_fixture(fixture)
    {
    }

    /// Writes both configs into the fixture's folder and adds the fixture's user to Samba's passdb.
    bool writeConfigs(QString *why);
    QString ftpConf() const { return m_ftpConf; }
    QString smbConf() const { return m_smbConf; }
    /// The share name and workgroup the config gives smbd.
    static QString share() { return QStringLiteral("wbshare"); }
    static QString workgroup() { return QStringLiteral("WBTEST"); }

    /// A FileServerFixture whose folders are on /dev/shm, so that no disk limits a transfer; `prepared` and
    /// `why` are its prepare()'s answer.
    static std::unique_ptr<FileServerFixture> tmpfsFixture(bool *prepared, QString *why);

    /// A file of `size` bytes of Wirebench's test pattern at path, owned by the fixture's user and read
    /// back once so that every page is resident before a run.
    bool makeServerFile(const QString &path, qint64 size, QString *why) const;

    /// A lab host's options to read or write path over FTP (the fixture's user, port 21) or SMB (the share, the
    /// fixture's user in the workgroup, port 445).
    QVariantMap ftpOptions(const QString &path) const;
    QVariantMap smbOptions(const QString &path) const;

    /// One run of each of protocols at frame, moving size bytes to hosts, with the client's disk out of it: data
    /// made in memory and thrown away, no seed written (the lab's files are made before the runs).
    static TestPlan memoryPlan(const QList<Host> &hosts, const QStringList &protocols, int frame, qint64 size);
    /// Runs plan, of one run, on an engine (its thread in the calling thread's namespace: the client's) and gives
    /// that run, or a result whose error says why there is none; then removes putFile from both servers' folders
    /// (what a write stored would only fill the tmpfs).
    RunResult runOne(const TestPlan &plan, const QString &putFile) const;

private:
    const FileServerFixture &m_fixture;
    QString m_ftpConf;
    QString m_smbConf;
};

} // namespace wb::test
