// Settings > Result store: the dialog (what it saves where) and the window's start with a server that cannot be
// reached (said plainly, the window works on with this computer's store) or one that can (a real PostgreSQL that
// this test starts on 127.0.0.1).
#include "CredentialStore.h"
#include "HistoryPanel.h"
#include "MainWindow.h"
#include "SettingsDialog.h"
#include "StoreSwitcher.h"
#include "settings/Config.h"
#include "storage/ResultStore.h"
#include "support/CiRule.h"
#include "support/FreePort.h"
#include "support/PostgresServer.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

class TestSettingsDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("WIREBENCH_NO_KEYCHAIN", "1"); }
    void savesTheServerAndKeepsThePasswordOutOfTheSettings();
    void showsWhatIsSet();
    void asksForWhatIsMissing();
    void localStoreSaysNothingAtStart();
    void unreachableServerAtStart();
    void reachableServerAtStart();
};

void TestSettingsDialog::savesTheServerAndKeepsThePasswordOutOfTheSettings()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    Config config(file);
    CredentialStore credentials(CredentialStore::Mode::MemoryOnly);
    SettingsDialog dialog(&config, &credentials);
    QSignalSpy chosen(&dialog, &SettingsDialog::storeChosen);
    QVERIFY(dialog.localRadio()->isChecked());
    QVERIFY(!dialog.hostEdit()->isEnabled());
    dialog.show();
    QTest::mouseClick(dialog.serverRadio(), Qt::LeftButton);
    QVERIFY(dialog.serverRadio()->isChecked());
    QVERIFY(dialog.hostEdit()->isEnabled());
    QTest::keyClicks(dialog.hostEdit(), QStringLiteral("db.example.org"));
    dialog.portSpin()->setValue(5433);
    QTest::keyClicks(dialog.databaseEdit(), QStringLiteral("wirebench"));
    QTest::keyClicks(dialog.userEdit(), QStringLiteral("bench"));
    QTest::keyClicks(dialog.passwordEdit(), QStringLiteral("hunter2"));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(chosen.size(), 1);
    const StoreLocation l = chosen.first().first().value<StoreLocation>();
    QCOMPARE(l.display(), QStringLiteral("postgresql://bench@db.example.org:5433/wirebench"));
    QCOMPARE(l.password(), QStringLiteral("hunter2"));
    QCOMPARE(config.resultStore().display(), l.display());
    QCOMPARE(credentials.secret(SettingsDialog::passwordOwner(l), SettingsDialog::passwordKey()),
             QStringLiteral("hunter2"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains("hunter2"));
}

void TestSettingsDialog::showsWhatIsSet()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    const StoreLocation l
        = StoreLocation::server(QStringLiteral("db"), 6543, QStringLiteral("team"), QStringLiteral("ann"));
    config.setResultStore(l);
    CredentialStore credentials(CredentialStore::Mode::MemoryOnly);
    credentials.setSecret(SettingsDialog::passwordOwner(l), SettingsDialog::passwordKey(), QStringLiteral("s3"));
    SettingsDialog dialog(&config, &credentials);
    QVERIFY(dialog.serverRadio()->isChecked());
    QCOMPARE(dialog.hostEdit()->text(), QStringLiteral("db"));
    QCOMPARE(dialog.portSpin()->value(), 6543);
    QCOMPARE(dialog.databaseEdit()->text(), QStringLiteral("team"));
    QCOMPARE(dialog.userEdit()->text(), QStringLiteral("ann"));
    QCOMPARE(dialog.passwordEdit()->text(), QStringLiteral("s3"));
    QCOMPARE(dialog.passwordEdit()->echoMode(), QLineEdit::Password);
    QVERIFY(dialog.messageLabel()->text().isEmpty());
    // Back to this computer.
    QTest::mouseClick(dialog.localRadio(), Qt::LeftButton);
    dialog.accept();
    QVERIFY(!config.resultStore().isServer());
}

void TestSettingsDialog::asksForWhatIsMissing()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    SettingsDialog dialog(&config, nullptr);
    dialog.show();
    dialog.serverRadio()->setChecked(true);
    QTest::keyClicks(dialog.hostEdit(), QStringLiteral("db"));
    dialog.accept();
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.messageLabel()->text(),
             QStringLiteral("Name the server's host, the database and the user (ask the server's administrator)."));
    QVERIFY(!config.resultStore().isServer());
}

void TestSettingsDialog::localStoreSaysNothingAtStart()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    ResultStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("results.sqlite"))));
    MainWindow window(&config, &store);
    window.useConfiguredStore();
    QCoreApplication::processEvents();
    auto *label = window.findChild<QLabel *>(QStringLiteral("storeStatusLabel"));
    QVERIFY(label);
    QVERIFY2(label->text().isEmpty(), qPrintable(label->text()));
    QVERIFY(!store.isServer());
}

void TestSettingsDialog::unreachableServerAtStart()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    const quint16 port = test::freeLoopbackPort();
    config.setResultStore(
        StoreLocation::server(QStringLiteral("127.0.0.1"), port, QStringLiteral("wirebench"), QStringLiteral("bench")));
    ResultStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("results.sqlite"))));
    QVERIFY(store.beginSession(TestPlan()) > 0);
    MainWindow window(&config, &store);
    window.useConfiguredStore();
    auto *label = window.findChild<QLabel *>(QStringLiteral("storeStatusLabel"));
    QVERIFY(label);
    const QString said = QStringLiteral("Result store postgresql://bench@127.0.0.1:%1/wirebench: cannot connect to "
                                        "127.0.0.1 port %1 (")
                             .arg(port);
    QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith(said), 30000);
    QVERIFY2(label->text().contains(QStringLiteral("check the server's name and port")), qPrintable(label->text()));
    QVERIFY2(label->text().endsWith(QStringLiteral("Results go to this computer's store until the server answers "
                                                   "(tried again every minute).")),
             qPrintable(label->text()));
    // The window works on with this computer's store.
    QVERIFY(store.isOpen());
    QVERIFY(!store.isServer());
    QCOMPARE(window.historyPanel()->sessionTable()->rowCount(), 1);
}

void TestSettingsDialog::reachableServerAtStart()
{
    test::PostgresServer server;
    QString why;
    const bool started = server.start(&why);
    WB_REQUIRE(started, QStringLiteral("no PostgreSQL: %1").arg(why));
    const QString url = server.createDatabase(&why);
    QVERIFY2(!url.isEmpty(), qPrintable(why));
    {
        ResultStore colleague; // another computer's session, already on the server
        QVERIFY(colleague.open(url));
        for (int i = 0; i < 2; ++i)
            QVERIFY(colleague.beginSession(TestPlan()) > 0);
    }
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    StoreLocation l;
    QVERIFY(StoreLocation::parse(url, &l, &why));
    config.setResultStore(l);
    ResultStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("results.sqlite"))));
    MainWindow window(&config, &store);
    QCOMPARE(window.historyPanel()->sessionTable()->rowCount(), 0);
    window.useConfiguredStore();
    auto *label = window.findChild<QLabel *>(QStringLiteral("storeStatusLabel"));
    QTRY_COMPARE_WITH_TIMEOUT(
        label->text(), QStringLiteral("Result store: %1 (a team's store, sessions of every computer)").arg(url), 30000);
    QVERIFY(store.isServer());
    QCOMPARE(window.historyPanel()->sessionTable()->rowCount(), 2);
}

QTEST_MAIN(TestSettingsDialog)
#include "TestSettingsDialog.moc"
