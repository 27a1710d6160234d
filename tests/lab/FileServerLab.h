#pragma once

#include "model/Host.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace wb::test {

class FileServerFixture;
class LabFileServers;
class LabSession;

/// The lab of the accuracy tests that meet vsftpd and smbd (tests/accuracy): the servers' folders on a tmpfs
/// (a FileServerFixture), their LabFileServers configs and a LabSession, brought up in initTestCase's steps and
/// taken down in the one order that works. Each step answers false with why, for the test's own check.
class FileServerLab
{
public:
    /// How a test names its files: fileName("get", size) and so on.
    using FileNamer = QString (*)(const QString &kind, qint64 size);

    FileServerLab();
    ~FileServerLab();
    FileServerLab(const FileServerLab &) = delete;
    FileServerLab &operator=(const FileServerLab &) = delete;

    /// The servers' folders on a tmpfs (LabFileServers::tmpfsFixture).
    bool prepare(QString *why);
    /// The servers' configs written, then the lab `idPrefix` up at MTU 1500 and `rate` ("1gbit").
    bool up(const QString &idPrefix, const QString &rate, QString *why);
    /// "lab.sh serve" for `first`, vsftpd and smbd on the configs, then `then`: empty, or what did not start.
    QString serve(const QList<QStringList> &first, const QList<QStringList> &then = {}) const;
    /// For each of sizes, the file an ftp-get and an smb-read read (in each server's root, named by
    /// fileName("get" or "read", size)), made once more so that every page is resident.
    bool makeReadFiles(const QList<qint64> &sizes, FileNamer fileName, QString *why) const;
    /// The lab's server as a host, "lab-srv" at the line's speed.
    Host labHost() const;
    /// labHost() for an FTP or SMB protocol with the servers' options: a read (ftp-get, smb-read) reads the file
    /// makeReadFiles made, a write writes fileName("put", size).
    Host fileHost(const QString &protocol, qint64 size, FileNamer fileName) const;
    /// The lab first (back to our own namespace: "lab.sh down" kills every process inside the lab), then the
    /// servers, then the fixture (it removes the user and the tmpfs folder).
    void tearDown();

    FileServerFixture &fixture() const { return *m_fixture; }
    LabFileServers &servers() const { return *m_servers; }
    LabSession &lab() const { return *m_lab; }

private:
    std::unique_ptr<FileServerFixture> m_fixture;
    std::unique_ptr<LabFileServers> m_servers;
    std::unique_ptr<LabSession> m_lab;
};

} // namespace wb::test
