// A team's server that checks passwords (scram-sha-256, as docs/SCALE.md sets one up), started by this test on
// 127.0.0.1: the CLI's password from PGPASSWORD and from ~/.pgpass, the window's from its keychain (a StoreLocation
// that carries it), and what each says when the password is missing, wrong or in a file libpq will not read.
#include "storage/ResultStore.h"
#include "storage/StoreLocation.h"
#include "support/CiRule.h"
#include "support/CliTestSupport.h"
#include "support/PostgresServer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

class TestServerPassword : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fromPgpassword();
    void fromPgpassFile();
    void missingPassword();
    void fromTheWindow();

private:
    /// The CLI's environment: HOME is a folder of this test's, no password unless `pgpassword` is given.
    QProcessEnvironment environment(const QString &pgpassword = QString()) const;
    clitest::Outcome sessions(const QProcessEnvironment &env) const;
    void writePgpass(const QString &password, QFile::Permissions permissions) const;
    /// The sentence's start for this server: which one, what failed.
    QString cannotConnect() const;

    test::PostgresServer m_server;
    QTemporaryDir m_home;
    QString m_url;
    QString m_database;
    const QString m_password = QStringLiteral("c0rrect-h0rse");
};

void TestServerPassword::initTestCase()
{
    m_server.requirePassword(m_password);
    QString why;
    m_url = m_server.startWithDatabase(&why);
    WB_REQUIRE(!m_url.isEmpty(), QStringLiteral("no PostgreSQL: %1").arg(why));
    m_database = m_url.section(QLatin1Char('/'), -1);
    QVERIFY(m_home.isValid());
}

QProcessEnvironment TestServerPassword::environment(const QString &pgpassword) const
{
    QProcessEnvironment env = clitest::sandboxEnvironment(m_home.path());
    env.remove(QStringLiteral("PGPASSFILE"));
    env.remove(QStringLiteral("PGPASSWORD"));
    if (!pgpassword.isEmpty())
        env.insert(QStringLiteral("PGPASSWORD"), pgpassword);
    return env;
}

clitest::Outcome TestServerPassword::sessions(const QProcessEnvironment &env) const
{
    return clitest::runCli({QStringLiteral("sessions"), QStringLiteral("--store"), m_url}, 120000, env);
}

void TestServerPassword::writePgpass(const QString &password, QFile::Permissions permissions) const
{
    QFile f(m_home.filePath(QStringLiteral(".pgpass")));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QStringLiteral("127.0.0.1:%1:%2:wirebench:%3\n").arg(m_server.port()).arg(m_database, password).toUtf8());
    f.close();
    QVERIFY(f.setPermissions(permissions));
}

QString TestServerPassword::cannotConnect() const
{
    return QStringLiteral("wirebench-cli: Result store %1: cannot connect to 127.0.0.1 port %2 (")
        .arg(m_url)
        .arg(m_server.port());
}

void TestServerPassword::fromPgpassword()
{
    QFile::remove(m_home.filePath(QStringLiteral(".pgpass")));
    clitest::Outcome r = sessions(environment(m_password));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.startsWith(QStringLiteral("No sessions in %1").arg(m_url)), qPrintable(r.out));

    r = sessions(environment(QStringLiteral("wrong-h0rse")));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith(cannotConnect()), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("password authentication failed")), qPrintable(r.err));
    QVERIFY2(
        r.err.contains(QStringLiteral("the server refused the password of wirebench: check the one in PGPASSWORD")),
        qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("wrong-h0rse")), qPrintable(r.err));
}

void TestServerPassword::fromPgpassFile()
{
    const QFile::Permissions own = QFile::ReadOwner | QFile::WriteOwner;
    // libpq reads ~/.pgpass only when no one else may: said so.
    writePgpass(m_password, own | QFile::ReadGroup | QFile::ReadOther);
    clitest::Outcome r = sessions(environment());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(cannotConnect()), qPrintable(r.err)); // after libpq's own warning
    QVERIFY2(r.err.contains(QStringLiteral("libpq ignores %1 because others may read it: chmod 0600 %1")
                                .arg(m_home.filePath(QStringLiteral(".pgpass")))),
             qPrintable(r.err));

    writePgpass(m_password, own);
    r = sessions(environment());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    writePgpass(QStringLiteral("wrong-h0rse"), own);
    r = sessions(environment());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("the server refused the password of wirebench: check the line "
                                           "127.0.0.1:%1:%2:wirebench:PASSWORD of %3")
                                .arg(m_server.port())
                                .arg(m_database, m_home.filePath(QStringLiteral(".pgpass")))),
             qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("wrong-h0rse")), qPrintable(r.err));
    QFile::remove(m_home.filePath(QStringLiteral(".pgpass")));
}

void TestServerPassword::missingPassword()
{
    QFile::remove(m_home.filePath(QStringLiteral(".pgpass")));
    const clitest::Outcome r = sessions(environment());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith(cannotConnect()), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("the server wants a password for wirebench: put it in PGPASSWORD or in "
                                           "~/.pgpass as 127.0.0.1:%1:%2:wirebench:PASSWORD (mode 0600); in the "
                                           "window, in Settings")
                                .arg(m_server.port())
                                .arg(m_database)),
             qPrintable(r.err));
}

// The window opens the server with the password from its keychain (SettingsDialog, StoreSwitcher): a location that
// carries it, which the store hands to libpq and never shows.
void TestServerPassword::fromTheWindow()
{
    StoreLocation location;
    QString why;
    QVERIFY2(StoreLocation::parse(m_url, &location, &why), qPrintable(why));
    location.setPassword(m_password);
    ResultStore store;
    QString error;
    QVERIFY2(store.open(location, &error), qPrintable(error));
    QVERIFY(store.beginSession(TestPlan()) > 0);
    QCOMPARE(store.path(), m_url);
    store.close();

    location.setPassword(QStringLiteral("wrong-h0rse"));
    QVERIFY(!store.open(location, &error));
    QVERIFY2(
        error.startsWith(
            QStringLiteral("Result store %1: cannot connect to 127.0.0.1 port %2 (").arg(m_url).arg(m_server.port())),
        qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("the server refused the password of wirebench: check the one saved in "
                                           "Settings (the keychain)")),
             qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("wrong-h0rse")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestServerPassword)
#include "TestServerPassword.moc"
