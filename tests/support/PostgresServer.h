#pragma once
// A real PostgreSQL for a test: initdb and pg_ctl of the system's `postgresql` package, in a temporary directory,
// on a free loopback port, as an unprivileged user (initdb refuses root: under root it runs as `postgres` through
// runuser, in a directory that user owns). Trust authentication on 127.0.0.1 only, or with requirePassword() a
// server that checks it (scram-sha-256 in pg_hba.conf, as a team's server is set up); the test's superuser is
// `wirebench`. Stopped and removed when the object goes.
#include "support/FreePort.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QUuid>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>

namespace wb::test {

class PostgresServer
{
public:
    PostgresServer() = default;
    PostgresServer(const PostgresServer &) = delete;
    PostgresServer &operator=(const PostgresServer &) = delete;
    ~PostgresServer() { stop(); }

    /// Before start(): the superuser gets `password`, and every connection over TCP must give it (scram-sha-256).
    void requirePassword(const QString &password) { m_password = password; }

    /// start() and createDatabase(): the new database's address, empty with *why.
    QString startWithDatabase(QString *why)
    {
        if (!start(why))
            return QString();
        return createDatabase(why);
    }

    /// Starts the server; false with what is missing and how to get it.
    bool start(QString *why)
    {
        m_bin = binDir();
        if (m_bin.isEmpty())
            return fail(why,
                        QStringLiteral("PostgreSQL's initdb is not installed (/usr/lib/postgresql/*/bin): "
                                       "apt-get install postgresql"));
        if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
            return fail(why,
                        QStringLiteral("Qt's PostgreSQL driver QPSQL is missing: apt-get install libqt6sql6-psql"));
        if (!m_dir.isValid())
            return fail(why, QStringLiteral("no temporary directory: %1").arg(m_dir.errorString()));
        if (::geteuid() == 0 && !giveToPostgres(why))
            return false;
        QString out;
        QStringList initdb{QStringLiteral("-D"),
                           dataDir(),
                           QStringLiteral("-U"),
                           QStringLiteral("wirebench"),
                           QStringLiteral("-E"),
                           QStringLiteral("UTF8"),
                           QStringLiteral("--locale=C.UTF-8"),
                           QStringLiteral("-N")};
        if (m_password.isEmpty()) {
            initdb << QStringLiteral("--auth=trust");
        } else {
            // The local socket stays trusted (nothing here uses it); TCP, which the store uses, checks the password.
            QFile pw(m_dir.filePath(QStringLiteral("superuser.pw")));
            if (!pw.open(QIODevice::WriteOnly) || pw.write(m_password.toUtf8() + '\n') < 0)
                return fail(why, QStringLiteral("cannot write %1").arg(pw.fileName()));
            pw.close();
            pw.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);
            initdb << QStringLiteral("--auth-local=trust") << QStringLiteral("--auth-host=scram-sha-256")
                   << QStringLiteral("--pwfile=%1").arg(pw.fileName());
        }
        if (!run(QStringLiteral("initdb"), initdb, &out))
            return fail(why, QStringLiteral("initdb failed: %1").arg(out));
        if (!m_password.isEmpty() && !hbaChecksPasswords())
            return fail(why, QStringLiteral("initdb's pg_hba.conf does not ask for scram-sha-256 on 127.0.0.1"));
        for (int attempt = 0; attempt < 3; ++attempt) {
            m_port = freeLoopbackPort();
            const QString options = QStringLiteral("-c listen_addresses=127.0.0.1 -p %1 -c unix_socket_directories=%2"
                                                   " -c fsync=off -c full_page_writes=off -c max_connections=60")
                                        .arg(m_port)
                                        .arg(m_dir.path());
            if (run(QStringLiteral("pg_ctl"),
                    {QStringLiteral("-D"), dataDir(), QStringLiteral("-o"), options, QStringLiteral("-l"),
                     m_dir.filePath(QStringLiteral("server.log")), QStringLiteral("-w"), QStringLiteral("-t"),
                     QStringLiteral("120"), QStringLiteral("start")},
                    &out)) {
                m_running = true;
                return true;
            }
        }
        QFile log(m_dir.filePath(QStringLiteral("server.log")));
        log.open(QIODevice::ReadOnly);
        return fail(why,
                    QStringLiteral("pg_ctl start failed: %1 %2").arg(out, QString::fromUtf8(log.readAll().right(600))));
    }

    void stop()
    {
        if (!m_running)
            return;
        QString out;
        run(QStringLiteral("pg_ctl"),
            {QStringLiteral("-D"), dataDir(), QStringLiteral("-m"), QStringLiteral("immediate"), QStringLiteral("-w"),
             QStringLiteral("stop")},
            &out);
        m_running = false;
    }

    bool isRunning() const { return m_running; }
    quint16 port() const { return m_port; }

    /// A new empty database; returns its store address (postgresql://wirebench@127.0.0.1:PORT/NAME), empty with
    /// *why when it cannot be made.
    QString createDatabase(QString *why)
    {
        const QString name
            = QStringLiteral("t%1_%2").arg(++m_databases).arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
        if (!exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(name), why))
            return QString();
        return url(name);
    }

    QString url(const QString &database) const
    {
        return QStringLiteral("postgresql://wirebench@127.0.0.1:%1/%2").arg(m_port).arg(database);
    }

    /// Runs one statement as the superuser in `database`.
    bool exec(const QString &database, const QString &sql, QString *why) const
    {
        const QString name = QStringLiteral("pg-fixture-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
        bool ok = false;
        {
            QSqlDatabase db = open(database, name);
            QSqlQuery q(db);
            ok = db.isOpen() && q.exec(sql);
            if (!ok && why)
                *why = db.isOpen() ? q.lastError().text() : db.lastError().text();
        }
        QSqlDatabase::removeDatabase(name);
        return ok;
    }

    /// A QPSQL connection named `name` to `database` as the superuser (remove it with QSqlDatabase::removeDatabase).
    QSqlDatabase open(const QString &database, const QString &name) const
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(QStringLiteral("127.0.0.1"));
        db.setPort(m_port);
        db.setDatabaseName(database);
        db.setUserName(QStringLiteral("wirebench"));
        db.setPassword(m_password);
        db.open();
        return db;
    }

private:
    static QString binDir()
    {
        QStringList versions = QDir(QStringLiteral("/usr/lib/postgresql")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        std::sort(versions.begin(), versions.end(),
                  [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
        for (const QString &v : versions) {
            const QString bin = QStringLiteral("/usr/lib/postgresql/%1/bin").arg(v);
            if (QFile::exists(bin + QStringLiteral("/initdb")) && QFile::exists(bin + QStringLiteral("/pg_ctl")))
                return bin;
        }
        return QString();
    }

    QString dataDir() const { return m_dir.filePath(QStringLiteral("data")); }

    // Every host line of pg_hba.conf checks a password (none trusts TCP).
    bool hbaChecksPasswords() const
    {
        QFile hba(m_dir.filePath(QStringLiteral("data/pg_hba.conf")));
        if (!hba.open(QIODevice::ReadOnly))
            return false;
        int host = 0;
        for (const QByteArray &raw : hba.readAll().split('\n')) {
            const QList<QByteArray> words = raw.simplified().split(' ');
            if (words.size() < 5 || !words.first().startsWith("host"))
                continue;
            ++host;
            if (words.last() != "scram-sha-256")
                return false;
        }
        return host > 0;
    }

    bool giveToPostgres(QString *why)
    {
        const passwd *pw = ::getpwnam("postgres");
        if (!pw)
            return fail(why,
                        QStringLiteral("running as root, and there is no user postgres to run initdb as "
                                       "(initdb refuses root): apt-get install postgresql"));
        if (::chown(QFile::encodeName(m_dir.path()).constData(), pw->pw_uid, pw->pw_gid) != 0)
            return fail(why, QStringLiteral("cannot give %1 to the user postgres").arg(m_dir.path()));
        m_asPostgres = true;
        return true;
    }

    bool run(const QString &tool, const QStringList &arguments, QString *out) const
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setWorkingDirectory(m_dir.path());
        const QString program = m_bin + QLatin1Char('/') + tool;
        if (m_asPostgres)
            p.start(QStringLiteral("runuser"),
                    QStringList{QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"), program}
                        + arguments);
        else
            p.start(program, arguments);
        const bool done = p.waitForFinished(180000);
        *out = QString::fromLocal8Bit(p.readAll()).simplified().right(600);
        return done && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    static bool fail(QString *why, const QString &message)
    {
        if (why)
            *why = message;
        return false;
    }

    QTemporaryDir m_dir;
    QString m_bin;
    QString m_password;
    quint16 m_port = 0;
    bool m_running = false;
    bool m_asPostgres = false;
    int m_databases = 0;
};

} // namespace wb::test
