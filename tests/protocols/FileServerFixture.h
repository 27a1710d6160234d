#pragma once

#include "model/Host.h"
#include "protocols/ProtocolDriver.h"

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
    void stopAll();

    /// Kills the per-client processes of a server (its descendants), leaving the listener running.
    int killSessions(bool ftp);

    Host ftpHost() const;
    Host smbHost() const;
    QString user() const { return m_user; }
    QString password() const { return m_password; }
    QString ftpRoot() const { return m_dir->path() + QStringLiteral("/home"); }
    QString smbRoot() const { return m_dir->path() + QStringLiteral("/share"); }
    QString scratch() const { return m_dir->path() + QStringLiteral("/scratch"); }
    QString path() const { return m_dir->path(); }
    quint16 ftpPort() const { return m_ftpPort; }
    quint16 smbPort() const { return m_smbPort; }
    static quint16 freePort();
    static quint16 closedPort() { return freePort(); }

private:
    bool waitForPort(quint16 port, QProcess &process, QString *why);
    static bool run(const QString &program, const QStringList &args, const QByteArray &input, QString *output);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_user;
    QString m_password;
    bool m_userCreated = false;
    QProcess m_ftp;
    QProcess m_smb;
    quint16 m_ftpPort = 0;
    quint16 m_smbPort = 0;
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

/// Skips (developer machine) or fails (CI=true) when the servers cannot run.
#define WB_REQUIRE_SERVERS(ok, why)                                                                                \
    do {                                                                                                           \
        if (!(ok)) {                                                                                               \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                               \
                QFAIL(qPrintable(why));                                                                            \
            QSKIP(qPrintable(why));                                                                                \
        }                                                                                                          \
    } while (false)

} // namespace wb::test
