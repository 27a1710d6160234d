#pragma once

#include "model/Host.h"
#include "protocols/ProtocolDriver.h"
#include "support/CiRule.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <atomic>
#include <functional>
#include <memory>

namespace wb::test {

/// Real vsftpd and smbd on 127.0.0.1, configured in a temporary folder, with a throw-away Unix user
/// (created with useradd, removed again in the destructor). Needs root.
class FileServerFixture
{
public:
    FileServerFixture();
    ~FileServerFixture();

    /// False (with the reason) when the servers cannot run here: not root, binaries missing, ...
    bool prepare(QString *why);
    bool startFtp(QString *why);
    bool startSmb(QString *why);
    /// Lines added at the end of smb.conf's [global] section by the next startSmb(), where they override the
    /// fixture's own (e.g. "server min protocol = NT1"). Empty by default.
    void setExtraSmbConf(const QStringList &lines) { m_extraSmbConf = lines; }
    /// A second vsftpd that requires explicit FTPS (AUTH TLS) with a server certificate signed by a
    /// throw-away CA that the fixture makes with the openssl CLI (caFile()). Same user and home as startFtp().
    bool startFtps(QString *why);
    void stopAll();

    /// Call before startFtp()/startSmb(): each server then runs in a private mount namespace of its own
    /// where a tmpfs of `bytes` is mounted on smallDisk(ftp) (only that server sees it), so that a
    /// transfer into it meets a full disk. False (with the reason) when this system cannot do it.
    bool useSmallDisk(qint64 bytes, QString *why);
    /// The folder on the small tmpfs, inside ftpRoot() or smbRoot(); its name relative to the root is "full".
    QString smallDisk(bool ftp) const { return (ftp ? ftpRoot() : smbRoot()) + QStringLiteral("/full"); }

    /// Kills the per-client processes of a server (its descendants), leaving the listener running.
    int killSessions(bool ftp);

    Host ftpHost() const;
    /// The FTPS server: ftp.tls on, the certificate trusted through the system's CAs (so: not trusted).
    Host ftpsHost() const;
    Host smbHost() const;
    /// The PEM file of the CA that signed the FTPS server's certificate.
    QString caFile() const { return m_dir->path() + QStringLiteral("/tls/ca.pem"); }
    QString user() const { return m_user; }
    QString password() const { return m_password; }
    QString ftpRoot() const { return m_dir->path() + QStringLiteral("/home"); }
    QString smbRoot() const { return m_dir->path() + QStringLiteral("/share"); }
    QString scratch() const { return m_dir->path() + QStringLiteral("/scratch"); }
    QString path() const { return m_dir->path(); }
    quint16 ftpPort() const { return m_ftpPort; }
    quint16 smbPort() const { return m_smbPort; }
    quint16 ftpsPort() const { return m_ftpsPort; }
    static quint16 freePort();
    static quint16 closedPort() { return freePort(); }

private:
    bool waitForPort(quint16 port, QProcess &process, QString *why);
    bool startVsftpd(QProcess &process, quint16 port, const QString &confName, const QByteArray &extra, QString *why);
    bool makeCertificates(QString *why);
    /// Starts program, inside a private mount namespace with the small tmpfs when one was asked for.
    void startServer(QProcess &process, const QString &program, const QStringList &args, bool ftp);
    static bool run(const QString &program, const QStringList &args, const QByteArray &input, QString *output);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_user;
    QString m_password;
    bool m_userCreated = false;
    QProcess m_ftp;
    QProcess m_ftps;
    QProcess m_smb;
    quint16 m_ftpPort = 0;
    quint16 m_ftpsPort = 0;
    quint16 m_smbPort = 0;
    qint64 m_smallDiskBytes = 0;
    QStringList m_extraSmbConf;
};

/// A RunObserver for tests: collects samples, can stop the run or do something after n samples.
class TestObserver : public RunObserver
{
public:
    void sample(const Sample &s) override
    {
        samples.append(s);
        if (onSample)
            onSample(samples.size());
    }
    bool stopRequested() const override { return stop.load(); }
    void status(const QString &text) override { statuses << text; }

    SampleList samples;
    QStringList statuses;
    std::atomic_bool stop{false};
    std::function<void(int)> onSample;
};

/// Empty when r failed with extra.fault == fault and one error line that starts with prefix and contains phrase,
/// keeping what it measured before the fault (bytes above 0 and below fileBytes, samples); otherwise what is wrong.
QString faultProblem(const RunResult &r, const QString &fault, const QString &prefix, const QString &phrase,
                     qint64 fileBytes);

/// Makes a GET/read write what it receives to a local file (the plan-wide transfer.sink=file).
void sinkToFile(RunSpec &spec, const QString &path);

/// Someone else's file: `bytes` random bytes at path (its folder made as needed), owned by owner (empty: root).
/// Returns the SHA-256 of its content, to check afterwards that nothing changed it.
QByteArray makeForeignFile(const QString &path, qint64 bytes, const QString &owner);
/// A Wirebench test file of `bytes` (TestPattern) at path, owned by owner (empty: root); its SHA-256.
QByteArray makeTestPatternFile(const QString &path, qint64 bytes, const QString &owner);
/// SHA-256 of a file's content (empty when it cannot be read).
QByteArray fileDigest(const QString &path);
/// A folder owned by root with mode 0755 (created as needed): a server that runs as the test user cannot write there.
bool makeReadOnlyFolder(const QString &path);

} // namespace wb::test
