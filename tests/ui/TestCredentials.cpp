// Passwords and keys typed into the host dialog must never reach a file the app writes: the settings file,
// a JSON or CSV export, the result store (SQLite and its journal), an HTML report.
#include "CredentialStore.h"
#include "HostDialog.h"
#include "HostListPanel.h"
#include "OptionForm.h"
#include "formats/CsvExport.h"
#include "formats/JsonExport.h"
#include "settings/Config.h"
#include "formats/ReportGenerator.h"
#include "storage/ResultStore.h"

#include <QApplication>
#include <QComboBox>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace wb;

namespace {
const QString kFtpPassword = QStringLiteral("ftp-Pw-7d41c9e2-zebra");
const QString kSmbPassword = QStringLiteral("smb-Pw-b08f13aa-otter");
const QString kDaemonKey = QStringLiteral("wbd-Key-55e0c6d1-lynx");
} // namespace

class TestCredentials : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void dialogFieldsArePasswords();
    void secretsGoToTheStoreNotTheHost();
    void noSecretOnDisk();
    void configStripsSecretKeys();
    void renameAndRemoveMoveSecrets();
    void keychainOrClearFallback();

private:
    void fillNextDialog(const QString &name, const QString &address);
    /// Every file under dir (recursively) that contains one of the secrets, in UTF-8 or UTF-16.
    static QStringList filesWithSecrets(const QString &dir);

    QTemporaryDir m_dir;
};

void TestCredentials::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestCredentials::fillNextDialog(const QString &name, const QString &address)
{
    QTimer::singleShot(0, this, [=] {
        auto *dialog = qobject_cast<HostDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(QStringLiteral("hostNameEdit"))->setText(name);
        dialog->findChild<QLineEdit *>(QStringLiteral("hostAddressEdit"))->setText(address);
        dialog->findChild<QLineEdit *>(QStringLiteral("option_ftp.user"))->setText(QStringLiteral("bob"));
        dialog->findChild<QLineEdit *>(QStringLiteral("option_ftp.password"))->setText(kFtpPassword);
        dialog->findChild<QLineEdit *>(QStringLiteral("option_smb.share"))->setText(QStringLiteral("bench"));
        dialog->findChild<QLineEdit *>(QStringLiteral("option_smb.password"))->setText(kSmbPassword);
        dialog->findChild<QLineEdit *>(QStringLiteral("option_wirebenchd.secret"))->setText(kDaemonKey);
        dialog->accept();
    });
}

QStringList TestCredentials::filesWithSecrets(const QString &dir)
{
    QStringList hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            hits << path + QStringLiteral(" (unreadable)");
            continue;
        }
        const QByteArray data = file.readAll();
        for (const QString &secret : {kFtpPassword, kSmbPassword, kDaemonKey}) {
            const QByteArray utf16(reinterpret_cast<const char *>(secret.utf16()), secret.size() * 2);
            if (data.contains(secret.toUtf8()) || data.contains(utf16))
                hits << path + QStringLiteral(": ") + secret;
        }
    }
    return hits;
}

void TestCredentials::dialogFieldsArePasswords()
{
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    Host blank;
    HostDialog dialog(blank, nullptr, &store);
    for (const QString &key : CredentialStore::secretKeys()) {
        auto *edit = dialog.findChild<QLineEdit *>(QStringLiteral("option_") + key);
        QVERIFY2(edit, qPrintable(key));
        QCOMPARE(edit->echoMode(), QLineEdit::Password);
    }
    QVERIFY(CredentialStore::secretKeys().contains(QStringLiteral("ftp.password")));
    QVERIFY(CredentialStore::secretKeys().contains(QStringLiteral("smb.password")));
    // Memory only: the dialog says so.
    const QString text = dialog.findChild<QLabel *>(QStringLiteral("credentialStatusLabel"))->text();
    QVERIFY2(text.contains(QStringLiteral("in memory")) && text.contains(QStringLiteral("never written to disk")),
             qPrintable(text));
}

void TestCredentials::secretsGoToTheStoreNotTheHost()
{
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    Config config(m_dir.filePath(QStringLiteral("store-host.ini")));
    HostListPanel panel(&config, nullptr, &store);
    fillNextDialog(QStringLiteral("fs-linux"), QStringLiteral("127.0.0.1"));
    panel.addWithDialog();
    const Host host = panel.entries().last().host;
    QCOMPARE(host.name, QStringLiteral("fs-linux"));
    QCOMPARE(host.options.value(QStringLiteral("ftp.user")).toString(), QStringLiteral("bob"));
    QCOMPARE(host.options.value(QStringLiteral("smb.share")).toString(), QStringLiteral("bench"));
    for (const QString &key : CredentialStore::secretKeys())
        QVERIFY2(!host.options.contains(key), qPrintable(key));
    QCOMPARE(store.secret(QStringLiteral("fs-linux"), QStringLiteral("ftp.password")), kFtpPassword);
    QCOMPARE(store.secret(QStringLiteral("fs-linux"), QStringLiteral("smb.password")), kSmbPassword);
    QCOMPARE(store.secret(QStringLiteral("fs-linux"), QStringLiteral("wirebenchd.secret")), kDaemonKey);
    QCOMPARE(CredentialStore::entryKey(QStringLiteral("fs-linux"), QStringLiteral("ftp.password")),
             QStringLiteral("wirebench/fs-linux/ftp.password"));

    // What the engine's copy of the plan gets (memory only): the secrets in Host::options.
    const QList<Host> forRun = panel.selectedHostsWithSecrets();
    const auto it = std::find_if(forRun.cbegin(), forRun.cend(), [](const Host &h) { return h.name == "fs-linux"; });
    QVERIFY(it != forRun.cend());
    QCOMPARE(it->options.value(QStringLiteral("ftp.password")).toString(), kFtpPassword);
    QCOMPARE(it->options.value(QStringLiteral("smb.password")).toString(), kSmbPassword);
    // The list itself stays clean.
    for (const Host &h : panel.selectedHosts())
        QVERIFY(!h.options.contains(QStringLiteral("ftp.password")));

    // Editing the host again shows the stored secrets in its password fields.
    const int row = int(panel.entries().size()) - 1;
    panel.table()->selectRow(row);
    QTimer::singleShot(0, this, [] {
        auto *dialog = qobject_cast<HostDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QCOMPARE(dialog->secrets().value(QStringLiteral("ftp.password")), kFtpPassword);
        QCOMPARE(dialog->findChild<QLineEdit *>(QStringLiteral("option_ftp.user"))->text(), QStringLiteral("bob"));
        dialog->reject();
    });
    panel.editWithDialog();
}

void TestCredentials::noSecretOnDisk()
{
    QTemporaryDir out;
    QVERIFY(out.isValid());
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    const QString settingsFile = out.filePath(QStringLiteral("settings/wirebench.ini"));
    Host hostWithSecrets;
    {
        Config config(settingsFile);
        HostListPanel panel(&config, nullptr, &store);
        fillNextDialog(QStringLiteral("fs-windows"), QStringLiteral("127.0.0.2"));
        panel.addWithDialog();
        const QList<Host> forRun = panel.selectedHostsWithSecrets();
        hostWithSecrets = forRun.last();
        QCOMPARE(hostWithSecrets.options.value(QStringLiteral("ftp.password")).toString(), kFtpPassword);
        // A plan whose options were handed a secret by mistake: Config leaves it out.
        TestPlan plan;
        plan.protocols = {QStringLiteral("ftp-get")};
        plan.params.options.insert(QStringLiteral("ftp.password"), kFtpPassword);
        config.setLastPlan(plan);
        config.sync();
    }
    QVERIFY(QFile::exists(settingsFile));

    // Results whose host carried the secrets (as the engine's copy of the plan does).
    RunResultList results;
    for (const QString &protocol : {QStringLiteral("ftp-get"), QStringLiteral("smb-read")}) {
        RunResult r;
        r.spec.host = hostWithSecrets;
        r.spec.protocol = protocol;
        r.spec.frameSize = 1500;
        r.spec.repetition = 1;
        r.spec.params.options.insert(QStringLiteral("transfer.verify"), true);
        r.status = RunStatus::Ok;
        r.startedAt = QDateTime::currentDateTimeUtc();
        r.bytes = 256LL * 1024 * 1024;
        r.senderBytes = r.bytes;
        r.seconds = 2.5;
        results << r;
    }
    QString error;
    QVERIFY(QDir(out.path()).mkpath(QStringLiteral("exports")));
    QVERIFY(QDir(out.path()).mkpath(QStringLiteral("store")));
    QVERIFY2(JsonExport::write(out.filePath(QStringLiteral("exports/results.json")), results, &error),
             qPrintable(error));
    QVERIFY2(CsvExport::write(out.filePath(QStringLiteral("exports/results.csv")), results, &error), qPrintable(error));

    {
        ResultStore resultStore;
        QVERIFY2(resultStore.open(out.filePath(QStringLiteral("store/results.sqlite")), &error), qPrintable(error));
        TestPlan plan;
        plan.hosts = {hostWithSecrets};
        plan.protocols = {QStringLiteral("ftp-get"), QStringLiteral("smb-read")};
        plan.frameSizes = {1500};
        plan.repetitions = 1;
        plan.params.options.insert(QStringLiteral("smb.password"), kSmbPassword); // misplaced, must be dropped
        const qint64 session = resultStore.beginSession(plan, &error);
        QVERIFY2(session > 0, qPrintable(error));
        for (const RunResult &r : std::as_const(results))
            QVERIFY2(resultStore.addRun(session, r, &error) > 0, qPrintable(error));
        QVERIFY2(resultStore.endSession(session, SessionState::Finished, &error), qPrintable(error));
        ReportInput input;
        QVERIFY2(ReportGenerator::fromStore(resultStore, session, &input, &error), qPrintable(error));
        QVERIFY2(ReportGenerator::writeHtml(out.filePath(QStringLiteral("exports/report.html")), input, &error),
                 qPrintable(error));
        resultStore.close();
    }

    int files = 0;
    QDirIterator count(out.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (count.hasNext()) {
        count.next();
        ++files;
    }
    QVERIFY2(files >= 5, qPrintable(QString::number(files))); // ini, json, csv, sqlite, html
    // The scanner itself finds a secret where there is one (UTF-8 and UTF-16).
    {
        QTemporaryDir control;
        QFile a(control.filePath(QStringLiteral("a.txt")));
        QVERIFY(a.open(QIODevice::WriteOnly));
        a.write(kSmbPassword.toUtf8());
        a.close();
        QFile b(control.filePath(QStringLiteral("b.bin")));
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(reinterpret_cast<const char *>(kDaemonKey.utf16()), kDaemonKey.size() * 2);
        b.close();
        QCOMPARE(filesWithSecrets(control.path()).size(), 2);
    }
    const QStringList hits = filesWithSecrets(out.path());
    QVERIFY2(hits.isEmpty(), qPrintable(hits.join(QLatin1Char('\n'))));
    // The non-secret settings did get through (the scan looked at real content).
    QFile ini(settingsFile);
    QVERIFY(ini.open(QIODevice::ReadOnly));
    QVERIFY(ini.readAll().contains("fs-windows"));
}

void TestCredentials::configStripsSecretKeys()
{
    HostEntry entry;
    entry.host.name = QStringLiteral("x");
    entry.host.address = QStringLiteral("127.0.0.1");
    for (const QString &key : CredentialStore::secretKeys())
        entry.host.options.insert(key, kFtpPassword);
    entry.host.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bob"));
    const QByteArray json = Config::hostsToJson({entry});
    QVERIFY(!json.contains(kFtpPassword.toUtf8()));
    QVERIFY(json.contains("bob"));
    const QList<HostEntry> back = Config::hostsFromJson(json);
    QCOMPARE(back.size(), 1);
    QCOMPARE(back.first().host.options, (QVariantMap{{QStringLiteral("ftp.user"), QStringLiteral("bob")}}));

    // Secrets handed to the panel inside Host::options are moved to the store, not saved.
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    const QString file = m_dir.filePath(QStringLiteral("absorb.ini"));
    {
        Config config(file);
        HostListPanel panel(&config, nullptr, &store);
        panel.addHost(entry.host);
        QCOMPARE(store.secret(QStringLiteral("x"), QStringLiteral("smb.password")), kFtpPassword);
        QVERIFY(!panel.entries().last().host.options.contains(QStringLiteral("smb.password")));
    }
    QFile ini(file);
    QVERIFY(ini.open(QIODevice::ReadOnly));
    QVERIFY(!ini.readAll().contains(kFtpPassword.toUtf8()));
}

void TestCredentials::renameAndRemoveMoveSecrets()
{
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    store.setSecret(QStringLiteral("a"), QStringLiteral("ftp.password"), kFtpPassword);
    store.renameHost(QStringLiteral("a"), QStringLiteral("b"));
    QCOMPARE(store.secret(QStringLiteral("a"), QStringLiteral("ftp.password")), QString());
    QCOMPARE(store.secret(QStringLiteral("b"), QStringLiteral("ftp.password")), kFtpPassword);
    store.removeHost(QStringLiteral("b"));
    QCOMPARE(store.secret(QStringLiteral("b"), QStringLiteral("ftp.password")), QString());
    QVERIFY(!store.isBusy());
}

void TestCredentials::keychainOrClearFallback()
{
    // The real keychain path: on this machine there may be no Secret Service; either way the store must settle
    // and the dialog must say where secrets go. Nothing is written to the keychain here (no setSecret).
    CredentialStore store(CredentialStore::Mode::Auto);
    QTRY_VERIFY_WITH_TIMEOUT(store.backend() != CredentialStore::Backend::Probing, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!store.isBusy(), 60000);
    Host blank;
    HostDialog dialog(blank, nullptr, &store);
    const QString text = dialog.findChild<QLabel *>(QStringLiteral("credentialStatusLabel"))->text();
    if (store.backend() == CredentialStore::Backend::SessionMemory) {
        QVERIFY2(text.contains(QStringLiteral("No system keychain")), qPrintable(text));
        // Secrets still work for the session.
        store.setSecret(QStringLiteral("h"), QStringLiteral("ftp.password"), kFtpPassword);
        QCOMPARE(store.secret(QStringLiteral("h"), QStringLiteral("ftp.password")), kFtpPassword);
        QVERIFY(!store.isBusy());
    } else {
        QVERIFY2(text.contains(QStringLiteral("system keychain")), qPrintable(text));
    }
    qInfo("credential backend: %s", qPrintable(text));
}

QTEST_MAIN(TestCredentials)
#include "TestCredentials.moc"
