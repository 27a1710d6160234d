#pragma once

#include "model/RunResult.h"
#include "model/RunSpec.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace wb::test {

class FileServerFixture;

/// The cases TestFtpDriver and TestSmbDriver run alike against their real server (FileServerFixture's vsftpd or
/// smbd), written once. Qt Test runs a base class's private slots as test functions too (before the family's
/// own), so each family's executable still runs every case. A family names its facts (Family) in its
/// constructor, starts its server in initTestCase (m_servers, m_ready, ...) and adds what it checks more in
/// the hooks; the fixture goes in cleanupTestCase.
class TransferDriverSuite : public QObject
{
    Q_OBJECT

public:
    static constexpr qint64 FourMiB = 4LL * 1024 * 1024;
    static constexpr qint64 SmallDiskBytes = 16LL * 1024 * 1024;

protected:
    /// One family's facts.
    struct Family
    {
        bool ftp = false;            ///< FileServerFixture's FTP server (its root, port, sessions), else its SMB server
        QString read;                ///< the protocol that reads: "ftp-get", "smb-read"
        QString write;               ///< the protocol that writes: "ftp-put", "smb-write"
        QString server;              ///< the host's name: "test-vsftpd", "test-samba"
        QString readWords;           ///< a read in an error: "FTP GET", "SMB read"
        QString writeWords;          ///< a write in an error: "FTP PUT", "SMB write"
        QString killedPath;          ///< the file serverKilledMidTransfer moves
        bool unbufferedSink = false; ///< readToLocalFile writes its file unbuffered
        QStringList foreignAlsoSays; ///< what the warning on someone else's file says besides the common words
    };

    explicit TransferDriverSuite(Family family);
    ~TransferDriverSuite() override;

    /// A run of protocol on the family's server: the file at path (in its root), size bytes (transferSpec).
    RunSpec spec(const QString &protocol, qint64 size, const QString &path) const;
    /// spec() of 64 MiB at path, slow enough (rateLimited) to be stopped, or lose its server, mid-transfer.
    virtual RunSpec slowSpec(const QString &protocol, const QString &path) const;
    /// The 16 MiB read at path of the local-disk-full cases.
    virtual RunSpec localDiskSpec(const QString &path) const;
    /// What the family checks more of a run that was stopped (killed false) or lost its server mid-transfer.
    virtual void checkEndedMidTransfer(const RunResult &r, bool killed) const;
    /// ... of a read that filled the local disk (/dev/full, or a small disk whose partial file went).
    virtual void checkLocalDiskFull(const RunResult &r) const;
    /// ... of the two runs that seeded and then replaced Wirebench's own test file.
    virtual void checkReplaced(const RunResult &small, const RunResult &big) const;
    /// ... of the error of a read whose test file of another size the server refused to replace.
    virtual void checkRefusedToReplace(const RunResult &r) const = 0;
    /// ... of the error of a read from the family's port given to the other file server.
    virtual void checkWrongService(const RunResult &r) const = 0;

    /// The family's server's root folder, and the start of its errors: "test-vsftpd (127.0.0.1:PORT): FTP GET: ".
    QString root() const;
    QString errorStart(bool reading) const;

    std::unique_ptr<FileServerFixture> m_servers;
    bool m_ready = false;
    bool m_smallDisk = false;
    QString m_why;
    QString m_smallDiskWhy;

private slots:
    void cleanupTestCase();
    void readToLocalFile();
    void stopMidTransfer();
    void serverKilledMidTransfer();
    void remoteDiskFull();
    void localDiskFull();
    void readsForeignFileAsItIs_data();
    void readsForeignFileAsItIs();
    void readReplacesItsOwnTestFile();
    void readOwnTestFileInReadOnlyFolder();
    void fullLocalDiskKeepsNoPartialFile();
    void writeKeepsForeignFile();
    void otherFileServerOnThePort();

private:
    Family m_family;
};

} // namespace wb::test
