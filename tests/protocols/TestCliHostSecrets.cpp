// The two-server shoot-out headless: a plan of two hosts, each a real vsftpd and smbd with its own user and
// password, run by wirebench-cli with each host's passwords from --set HOST:KEY=@FILE, from a secrets file, and
// from the keychain the window saved them in (a real gnome-keyring on a D-Bus session bus of the test's own).
// The passwords reach the servers and nothing else: not the output, the JSON, the result store.
#include "FileServerFixture.h"
#include "CredentialStore.h"
#include "plan/PlanFile.h"
#include "plan/TestPlan.h"
#include "support/CliTestSupport.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

using clitest::Outcome;

const QString kLinux = QStringLiteral("linux-server");
const QString kWindows = QStringLiteral("windows-server");

/// The shoot-out's four transfers to each host: 8 runs of a 1 MiB file.
const QStringList kShootout{QStringLiteral("--reps"), QStringLiteral("1"),     QStringLiteral("--file-size"),
                            QStringLiteral("1M"),     QStringLiteral("--set"), QStringLiteral("latency.idle_ms=0")};

bool writeFile(const QString &path, const QByteArray &content, QFileDevice::Permissions mode)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(content) == content.size()
        && f.setPermissions(mode);
}

/// Each host's runs by status ("linux-server ok" -> 4) from the JSON the CLI wrote.
QMap<QString, int> statusesOf(const QString &jsonPath)
{
    QFile f(jsonPath);
    QMap<QString, int> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QJsonArray results = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("results")).toArray();
    for (const QJsonValue &v : results) {
        const QJsonObject o = v.toObject();
        const QString host = o.value(QLatin1String("host")).toString();
        out[host + QLatin1Char(' ') + o.value(QLatin1String("status")).toString()] += 1;
    }
    return out;
}

} // namespace

class TestCliHostSecrets : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void onePasswordForBothFailsTheOther();
    void eachHostItsOwnBySet();
    void eachHostItsOwnFromASecretsFile();
    void secretsFileOthersMayReadIsRefused();
    void noKeychainSaysSoAtOnce();
    void fromTheKeychainTheWindowSavedThemIn();
    void cleanupTestCase();

private:
    /// The CLI on the shoot-out plan with these options, its JSON into json.
    Outcome shootout(const QStringList &options, const QString &json,
                     const QProcessEnvironment &env = clitest::defaultSandbox()) const;
    /// Neither password in text (what the CLI said, a file it wrote).
    bool holdsNoPassword(const QByteArray &text) const;
    bool startKeychain(QString *why);

    QTemporaryDir m_dir;
    std::unique_ptr<test::FileServerFixture> m_linux;
    std::unique_ptr<test::FileServerFixture> m_windows;
    QString m_plan;
    QString m_linuxPw;   ///< file holding linux-server's password
    QString m_windowsPw; ///< file holding windows-server's password
    QProcess m_bus;
    QProcess m_keyring;
    QString m_busAddress;
};

void TestCliHostSecrets::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_linux = std::make_unique<test::FileServerFixture>();
    m_windows = std::make_unique<test::FileServerFixture>();
    QString why;
    const bool ok = m_linux->prepare(&why) && m_linux->startFtp(&why) && m_linux->startSmb(&why)
        && m_windows->prepare(&why) && m_windows->startFtp(&why) && m_windows->startSmb(&why);
    WB_REQUIRE(ok, why);
    QVERIFY(m_linux->password() != m_windows->password() && m_linux->user() != m_windows->user());
    // The plan the window saves: hosts, users, ports, never a password. Both servers run on 127.0.0.1 (smbd binds
    // only to an address an interface has), each host on its own ports.
    TestPlan plan;
    plan.protocols = {QStringLiteral("ftp-put"), QStringLiteral("ftp-get"), QStringLiteral("smb-write"),
                      QStringLiteral("smb-read")};
    for (const auto &[name, servers] : {std::pair{kLinux, m_linux.get()}, std::pair{kWindows, m_windows.get()}}) {
        Host h;
        h.name = name;
        h.address = QStringLiteral("127.0.0.1");
        h.options = {{QStringLiteral("ftp.user"), servers->user()},
                     {QStringLiteral("ftp.port"), servers->ftpPort()},
                     {QStringLiteral("smb.user"), servers->user()},
                     {QStringLiteral("smb.port"), servers->smbPort()},
                     {QStringLiteral("smb.share"), QStringLiteral("wbshare")},
                     {QStringLiteral("smb.domain"), QStringLiteral("WBTEST")}};
        plan.hosts << h;
    }
    m_plan = m_dir.filePath(QStringLiteral("shootout.wbplan.json"));
    QVERIFY2(PlanFile::write(m_plan, plan, &why), qPrintable(why));
    m_linuxPw = m_dir.filePath(QStringLiteral("linux.pw"));
    m_windowsPw = m_dir.filePath(QStringLiteral("windows.pw"));
    const auto owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    QVERIFY(writeFile(m_linuxPw, m_linux->password().toUtf8() + "\n", owner));
    QVERIFY(writeFile(m_windowsPw, m_windows->password().toUtf8() + "\n", owner));
}

Outcome TestCliHostSecrets::shootout(const QStringList &options, const QString &json,
                                     const QProcessEnvironment &env) const
{
    return clitest::runCli(
        QStringList{QStringLiteral("run"), QStringLiteral("--plan"), m_plan, QStringLiteral("--json"), json} + kShootout
            + options,
        180000, env);
}

bool TestCliHostSecrets::holdsNoPassword(const QByteArray &text) const
{
    return !text.contains(m_linux->password().toUtf8()) && !text.contains(m_windows->password().toUtf8());
}

void TestCliHostSecrets::onePasswordForBothFailsTheOther()
{
    // Before: --set KEY=VALUE gives every host the same value, so the second server refuses it.
    const QString json = m_dir.filePath(QStringLiteral("same.json"));
    const Outcome r
        = shootout({QStringLiteral("--set"), QStringLiteral("ftp.password=@") + m_linuxPw, QStringLiteral("--set"),
                    QStringLiteral("smb.password=@") + m_linuxPw, QStringLiteral("--no-store")},
                   json);
    QCOMPARE(r.exitCode, 1);
    const QMap<QString, int> statuses = statusesOf(json);
    QCOMPARE(statuses.value(kLinux + QStringLiteral(" ok")), 4);
    QCOMPARE(statuses.value(kWindows + QStringLiteral(" ok")), 0);
    QVERIFY2(r.out.contains(QStringLiteral("windows-server (127.0.0.1:%1): FTP").arg(m_windows->ftpPort())),
             qPrintable(r.out));
    QVERIFY(holdsNoPassword((r.out + r.err).toUtf8()));
    qInfo("%s", qPrintable(r.out.section(QLatin1Char('\n'), 0, 3)));
}

void TestCliHostSecrets::eachHostItsOwnBySet()
{
    const QString json = m_dir.filePath(QStringLiteral("set.json"));
    const QString store = m_dir.filePath(QStringLiteral("set.sqlite"));
    const Outcome r = shootout({QStringLiteral("--set"), kLinux + QStringLiteral(":ftp.password=@") + m_linuxPw,
                                QStringLiteral("--set"), kLinux + QStringLiteral(":smb.password=@") + m_linuxPw,
                                QStringLiteral("--set"), kWindows + QStringLiteral(":ftp.password=@") + m_windowsPw,
                                QStringLiteral("--set"), kWindows + QStringLiteral(":smb.password=@") + m_windowsPw,
                                QStringLiteral("--store"), store},
                               json);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QMap<QString, int> statuses = statusesOf(json);
    QCOMPARE(statuses.value(kLinux + QStringLiteral(" ok")), 4);
    QCOMPARE(statuses.value(kWindows + QStringLiteral(" ok")), 4);
    QFile j(json);
    QVERIFY(j.open(QIODevice::ReadOnly));
    QVERIFY(holdsNoPassword(j.readAll()));
    QVERIFY(holdsNoPassword((r.out + r.err).toUtf8()));
    for (const QString &file : QDir(m_dir.path()).entryList({QStringLiteral("set.sqlite*")})) {
        QFile f(m_dir.filePath(file)); // the store and its journal
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(holdsNoPassword(f.readAll()), qPrintable(file));
    }
    qInfo("%s", qPrintable(r.out.section(QStringLiteral("Summary"), 1).left(700)));
}

void TestCliHostSecrets::eachHostItsOwnFromASecretsFile()
{
    const QString secrets = m_dir.filePath(QStringLiteral("shootout.secrets"));
    const QByteArray text = "# host  key=value\n" + kLinux.toUtf8() + " ftp.password=" + m_linux->password().toUtf8()
        + "\n" + kLinux.toUtf8() + "\tsmb.password=" + m_linux->password().toUtf8() + "\n127.0.0.9 ftp.password=other\n"
        + kWindows.toUtf8() + " ftp.password=" + m_windows->password().toUtf8() + "\r\n" + kWindows.toUtf8()
        + " smb.password=" + m_windows->password().toUtf8() + "\n";
    QVERIFY(writeFile(secrets, text, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    const QString json = m_dir.filePath(QStringLiteral("secrets.json"));
    const Outcome r = shootout({QStringLiteral("--secrets"), secrets, QStringLiteral("--no-store")}, json);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QMap<QString, int> statuses = statusesOf(json);
    QCOMPARE(statuses.value(kLinux + QStringLiteral(" ok")), 4);
    QCOMPARE(statuses.value(kWindows + QStringLiteral(" ok")), 4);
    // The line of a host this plan does not have is left, and said.
    QVERIFY2(r.out.contains(QStringLiteral("the plan has no host 127.0.0.9")), qPrintable(r.out));
    QVERIFY(holdsNoPassword((r.out + r.err).toUtf8()));
}

void TestCliHostSecrets::secretsFileOthersMayReadIsRefused()
{
    const QString secrets = m_dir.filePath(QStringLiteral("open.secrets"));
    QVERIFY(
        writeFile(secrets, kLinux.toUtf8() + " ftp.password=" + m_linux->password().toUtf8() + "\n",
                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    const Outcome r = shootout({QStringLiteral("--secrets"), secrets, QStringLiteral("--no-store")},
                               m_dir.filePath(QStringLiteral("open.json")));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("other users can read it (mode 0644)"))
                 && r.err.contains(QStringLiteral("chmod 600 ") + secrets),
             qPrintable(r.err));
    QVERIFY(holdsNoPassword((r.out + r.err).toUtf8()));
    qInfo("%s", qPrintable(r.err.trimmed()));
}

void TestCliHostSecrets::noKeychainSaysSoAtOnce()
{
    // As under ssh or cron: no session bus. The CLI says so, names the options, and runs without the passwords.
    QProcessEnvironment env = clitest::defaultSandbox();
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    env.remove(QStringLiteral("WIREBENCH_NO_KEYCHAIN"));
    const QString json = m_dir.filePath(QStringLiteral("nokeychain.json"));
    const Outcome r = shootout({QStringLiteral("--no-store")}, json, env);
    QCOMPARE(r.exitCode, 1);
    QString note;
    for (const QString &line : r.out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("note: no keychain")))
            note = line;
    }
    QVERIFY2(note.contains(QStringLiteral("no D-Bus session bus"))
                 && note.contains(QStringLiteral("ftp.password of linux-server"))
                 && note.contains(QStringLiteral("smb.password of windows-server"))
                 && note.contains(QStringLiteral("--set HOST:KEY=@FILE"))
                 && note.contains(QStringLiteral("--secrets FILE")),
             qPrintable(r.out));
    QCOMPARE(statusesOf(json).value(kLinux + QStringLiteral(" ok")), 0);
    qInfo("%s", qPrintable(note));
}

bool TestCliHostSecrets::startKeychain(QString *why)
{
    const QString dbus = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
    const QString keyring = QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon"));
    if (dbus.isEmpty() || keyring.isEmpty()) {
        *why = QStringLiteral("dbus-daemon and gnome-keyring-daemon are needed (apt-get install dbus-daemon "
                              "gnome-keyring libsecret-1-0)");
        return false;
    }
    const QString run = m_dir.filePath(QStringLiteral("run"));
    QDir().mkpath(run);
    QFile::setPermissions(run, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_busAddress = QStringLiteral("unix:path=%1/bus").arg(run);
    m_bus.start(dbus,
                {QStringLiteral("--session"), QStringLiteral("--nofork"), QStringLiteral("--address"), m_busAddress});
    QProcessEnvironment env = clitest::sandboxEnvironment(m_dir.filePath(QStringLiteral("keyring-home")));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), run);
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_busAddress);
    env.remove(QStringLiteral("DISPLAY"));
    m_keyring.setProcessEnvironment(env);
    m_keyring.setProcessChannelMode(QProcess::MergedChannels);
    if (!m_bus.waitForStarted(10000)) {
        *why = QStringLiteral("dbus-daemon did not start: ") + m_bus.errorString();
        return false;
    }
    // A login keyring of the test's own, unlocked with the password on standard input.
    m_keyring.start(
        keyring, {QStringLiteral("--foreground"), QStringLiteral("--unlock"), QStringLiteral("--components=secrets")});
    if (!m_keyring.waitForStarted(10000)) {
        *why = QStringLiteral("gnome-keyring-daemon did not start: ") + m_keyring.errorString();
        return false;
    }
    m_keyring.write("wirebench-test-keyring");
    m_keyring.closeWriteChannel();
    // The bus listens once dbus-daemon is up; the keyring offers its service once it has unlocked its keyring.
    for (int i = 0; i < 200; ++i) {
        const QString name = QStringLiteral("test-keychain-bus-%1").arg(i);
        QDBusConnection bus = QDBusConnection::connectToBus(m_busAddress, name);
        const bool offered
            = bus.isConnected() && bus.interface()->isServiceRegistered(QStringLiteral("org.freedesktop.secrets"));
        QDBusConnection::disconnectFromBus(name);
        if (offered)
            return true;
        QTest::qWait(100);
    }
    *why = QStringLiteral("gnome-keyring-daemon did not offer the Secret Service on %1 within 20 s: %2")
               .arg(m_busAddress, QString::fromLocal8Bit(m_keyring.readAll()));
    return false;
}

void TestCliHostSecrets::fromTheKeychainTheWindowSavedThemIn()
{
    QString why;
    WB_REQUIRE(startKeychain(&why), why);
    // The window's own credential store saves the four passwords, as the host dialog does.
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_busAddress.toUtf8());
    qunsetenv("WIREBENCH_NO_KEYCHAIN");
    CredentialStore window;
    QTRY_VERIFY_WITH_TIMEOUT(window.backend() != CredentialStore::Backend::Probing, 20000);
    QCOMPARE(window.backend(), CredentialStore::Backend::Keychain);
    const QList<std::tuple<QString, QString, QString>> saved{
        {kLinux, QStringLiteral("ftp.password"), m_linux->password()},
        {kLinux, QStringLiteral("smb.password"), m_linux->password()},
        {kWindows, QStringLiteral("ftp.password"), m_windows->password()},
        {kWindows, QStringLiteral("smb.password"), m_windows->password()}};
    for (const auto &[host, key, value] : saved)
        window.setSecret(host, key, value);
    QSignalSpy failed(&window, &CredentialStore::failed);
    // Read back by a second store, as the window does on its next start (QtKeychain runs the jobs in turn).
    CredentialStore next;
    QTRY_VERIFY_WITH_TIMEOUT(next.backend() != CredentialStore::Backend::Probing, 20000);
    next.load(kLinux);
    next.load(kWindows);
    QTRY_VERIFY_WITH_TIMEOUT(!next.isBusy(), 20000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    for (const auto &[host, key, value] : saved)
        QCOMPARE(next.secret(host, key), value);

    QProcessEnvironment env = clitest::defaultSandbox();
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_busAddress);
    env.remove(QStringLiteral("WIREBENCH_NO_KEYCHAIN"));
    env.remove(QStringLiteral("DISPLAY"));
    const QString json = m_dir.filePath(QStringLiteral("keychain.json"));
    const Outcome r = shootout({QStringLiteral("--no-store")}, json, env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QMap<QString, int> statuses = statusesOf(json);
    QCOMPARE(statuses.value(kLinux + QStringLiteral(" ok")), 4);
    QCOMPARE(statuses.value(kWindows + QStringLiteral(" ok")), 4);
    QVERIFY2(r.out.contains(QStringLiteral("note: read from the system keychain, where the window saved them: "
                                           "ftp.password of linux-server, smb.password of linux-server, "
                                           "ftp.password of windows-server, smb.password of windows-server")),
             qPrintable(r.out));
    QVERIFY(holdsNoPassword((r.out + r.err).toUtf8()));
    qInfo("%s", qPrintable(r.out.section(QLatin1Char('\n'), 0, 0)));
}

void TestCliHostSecrets::cleanupTestCase()
{
    for (QProcess *p : {&m_keyring, &m_bus}) {
        if (p->state() != QProcess::NotRunning) {
            p->terminate();
            if (!p->waitForFinished(5000)) {
                p->kill();
                p->waitForFinished(5000);
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestCliHostSecrets)
#include "TestCliHostSecrets.moc"
