#include "CredentialStore.h"
#include "HostDialog.h"
#include "OptionForm.h"
#include "protocols/DriverRegistry.h"
#include "HostListPanel.h"
#include "MainWindow.h"
#include "settings/Config.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QStyle>
#include <QTabWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace wb;

class TestHostListPanel : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void firstStartHoldsLoopback();
    void addEditRemoveWithDialog();
    void rejectsBadAddress();
    void checkboxChoosesHosts();
    void embeddedStateShown();
    void genericOptionsRoundTrip();
    void serverTypeDefaultPortAndLinkSpeed();
    void dialogFitsItsContent();
    void longOsLabelKeepsNamesReadable();

private:
    // Fills the next modal HostDialog and presses OK (or Cancel).
    void fillNextDialog(const QString &name, const QString &address, int port, const QString &os, bool ok = true);

    QTemporaryDir m_dir;
    QString m_file;
    int m_n = 0;
};

void TestHostListPanel::init()
{
    m_file = m_dir.filePath(QStringLiteral("hosts-%1.ini").arg(++m_n));
}

void TestHostListPanel::fillNextDialog(const QString &name, const QString &address, int port, const QString &os,
                                       bool ok)
{
    QTimer::singleShot(0, this, [=] {
        auto *dialog = qobject_cast<HostDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(QStringLiteral("hostNameEdit"))->setText(name);
        if (auto *address_ = dialog->findChild<QLineEdit *>(QStringLiteral("hostAddressEdit")); address_->isEnabled())
            address_->setText(address);
        if (auto *spin = dialog->findChild<QSpinBox *>(QStringLiteral("hostPortSpin")); spin->isEnabled())
            spin->setValue(port);
        dialog->findChild<QComboBox *>(QStringLiteral("hostOsCombo"))->setCurrentText(os);
        if (ok)
            dialog->accept();
        else
            dialog->reject();
    });
}

void TestHostListPanel::firstStartHoldsLoopback()
{
    Config config(m_file);
    HostListPanel panel(&config);
    QTableWidget *table = panel.findChild<QTableWidget *>(QStringLiteral("hostTable"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, HostListPanel::Name)->text(), QStringLiteral("This computer (loopback)"));
    QCOMPARE(table->item(0, HostListPanel::Name)->checkState(), Qt::Checked);
    QVERIFY(panel.entries().first().host.embedded);
    // The built-in host cannot be removed.
    table->selectRow(0);
    QVERIFY(!panel.findChild<QPushButton *>(QStringLiteral("removeHostButton"))->isEnabled());
    panel.removeHost(0);
    QCOMPARE(panel.entries().size(), 1);
}

void TestHostListPanel::addEditRemoveWithDialog()
{
    {
        Config config(m_file);
        HostListPanel panel(&config);
        auto *add = panel.findChild<QPushButton *>(QStringLiteral("addHostButton"));
        fillNextDialog(QStringLiteral("fs1"), QStringLiteral("10.0.0.5"), 5302, QStringLiteral("Windows Server 2003"));
        QTest::mouseClick(add, Qt::LeftButton);
        QCOMPARE(panel.entries().size(), 2);
        fillNextDialog(QStringLiteral("fs2"), QStringLiteral("fs2.lan"), 0, QStringLiteral("Linux"));
        QTest::mouseClick(add, Qt::LeftButton);
        // Cancel adds nothing.
        fillNextDialog(QStringLiteral("nope"), QStringLiteral("nope.lan"), 0, QStringLiteral("Linux"), false);
        QTest::mouseClick(add, Qt::LeftButton);
        QCOMPARE(panel.entries().size(), 3);

        QTableWidget *table = panel.table();
        QCOMPARE(table->item(1, HostListPanel::Address)->text(), QStringLiteral("10.0.0.5"));
        QCOMPARE(table->item(1, HostListPanel::Port)->text(), QStringLiteral("5302"));
        QCOMPARE(table->item(1, HostListPanel::Os)->text(), QStringLiteral("Windows Server 2003"));

        table->selectRow(1);
        fillNextDialog(QStringLiteral("fs1-renamed"), QStringLiteral("10.0.0.6"), 5301, QStringLiteral("Windows"));
        QTest::mouseClick(panel.findChild<QPushButton *>(QStringLiteral("editHostButton")), Qt::LeftButton);
        QCOMPARE(panel.entries().at(1).host.name, QStringLiteral("fs1-renamed"));
        QCOMPARE(panel.entries().at(1).host.address, QStringLiteral("10.0.0.6"));
        QCOMPARE(table->item(1, HostListPanel::Name)->text(), QStringLiteral("fs1-renamed"));

        table->selectRow(2);
        QTest::mouseClick(panel.findChild<QPushButton *>(QStringLiteral("removeHostButton")), Qt::LeftButton);
        QCOMPARE(panel.entries().size(), 2);
    }
    // Persisted: a new panel on the same settings file shows the same list.
    Config config(m_file);
    HostListPanel again(&config);
    QCOMPARE(again.entries().size(), 2);
    QVERIFY(again.entries().at(0).host.embedded);
    QCOMPARE(again.entries().at(1).host.name, QStringLiteral("fs1-renamed"));
    QCOMPARE(again.entries().at(1).host.port, quint16(5301));
    QCOMPARE(again.entries().at(1).host.osLabel, QStringLiteral("Windows"));
}

void TestHostListPanel::rejectsBadAddress()
{
    Host blank;
    HostDialog dialog(blank);
    dialog.findChild<QLineEdit *>(QStringLiteral("hostAddressEdit"))->setText(QStringLiteral("fs 1; rm"));
    QVERIFY(!dialog.problem().isEmpty());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Rejected)); // still open, problem shown
    dialog.findChild<QLineEdit *>(QStringLiteral("hostAddressEdit"))->setText(QStringLiteral("::1"));
    QVERIFY(dialog.problem().isEmpty());
}

void TestHostListPanel::checkboxChoosesHosts()
{
    Config config(m_file);
    HostListPanel panel(&config);
    Host far;
    far.name = QStringLiteral("far");
    far.address = QStringLiteral("192.0.2.1");
    panel.addHost(far);
    QCOMPARE(panel.selectedHosts().size(), 2);
    panel.table()->item(0, HostListPanel::Name)->setCheckState(Qt::Unchecked);
    QCOMPARE(panel.selectedHosts().size(), 1);
    QCOMPARE(panel.selectedHosts().first().name, QStringLiteral("far"));
    Config again(m_file);
    QVERIFY(!again.hosts().at(0).selected);
    QVERIFY(again.hosts().at(1).selected);
}

void TestHostListPanel::embeddedStateShown()
{
    Config config(m_file);
    HostListPanel panel(&config);
    panel.setEmbeddedState(40123, {});
    QCOMPARE(panel.table()->item(0, HostListPanel::Port)->text(), QStringLiteral("40123"));
    panel.setEmbeddedState(0, QStringLiteral("address in use"));
    QVERIFY(panel.table()->item(0, HostListPanel::ServerType)->text().contains(QStringLiteral("address in use")));
}

void TestHostListPanel::genericOptionsRoundTrip()
{
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    Host blank;
    HostDialog dialog(blank, nullptr, &store);
    QStringList tabs;
    for (int i = 0; i < dialog.tabs()->count(); ++i)
        tabs << dialog.tabs()->tabText(i);
    for (const char *title : {"wirebenchd", "FTP", "SMB", "Copy", "iperf3"})
        QVERIFY2(tabs.contains(QLatin1String(title)), qPrintable(tabs.join(QLatin1Char(','))));
    dialog.findChild<QLineEdit *>(QStringLiteral("hostAddressEdit"))->setText(QStringLiteral("fs.lan"));

    // Every declared host option gets a non-default value through its editor.
    QVariantMap expected;
    int editors = 0;
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        for (const OptionSpec &option : info.hostOptions) {
            QWidget *editor = dialog.findChild<QWidget *>(QStringLiteral("option_") + option.key);
            QVERIFY2(editor, qPrintable(option.key));
            if (expected.contains(option.key) || option.type == OptionSpec::Type::Secret)
                continue;
            ++editors;
            switch (option.type) {
            case OptionSpec::Type::Text:
                static_cast<QLineEdit *>(editor)->setText(QStringLiteral("v-") + option.key);
                expected.insert(option.key, QStringLiteral("v-") + option.key);
                break;
            case OptionSpec::Type::Integer:
                static_cast<QSpinBox *>(editor)->setValue(option.defaultValue.toInt() + 7);
                expected.insert(option.key, option.defaultValue.toInt() + 7);
                break;
            case OptionSpec::Type::Bool:
                static_cast<QCheckBox *>(editor)->setChecked(!option.defaultValue.toBool());
                expected.insert(option.key, !option.defaultValue.toBool());
                break;
            case OptionSpec::Type::Choice:
                static_cast<QComboBox *>(editor)->setCurrentText(option.choices.last());
                if (option.choices.last() != option.defaultValue.toString())
                    expected.insert(option.key, option.choices.last());
                break;
            case OptionSpec::Type::Secret:
                break;
            }
        }
    }
    QVERIFY(editors >= 10); // FTP, SMB and copy declare at least that many
    const Host edited = dialog.host();
    QCOMPARE(edited.options, expected);

    // Through the settings file and back into a new dialog: the same values in the same editors.
    HostEntry entry{edited, true};
    const QList<HostEntry> back = Config::hostsFromJson(Config::hostsToJson({entry}));
    QCOMPARE(back.size(), 1);
    QCOMPARE(back.first().host.options.keys(), expected.keys());
    HostDialog again(back.first().host, nullptr, &store);
    QCOMPARE(again.host().options, expected);
    QCOMPARE(again.findChild<QLineEdit *>(QStringLiteral("option_ftp.user"))->text(), QStringLiteral("v-ftp.user"));

    // Back to defaults: the option leaves Host::options (the driver's default applies).
    again.findChild<QCheckBox *>(QStringLiteral("option_ftp.active"))->setChecked(false);
    QVERIFY(!again.host().options.contains(QStringLiteral("ftp.active")));
}

void TestHostListPanel::serverTypeDefaultPortAndLinkSpeed()
{
    Host host;
    host.address = QStringLiteral("10.0.0.9");
    host.linkSpeedMbps = 1000;
    HostDialog dialog(host);
    auto *port = dialog.findChild<QSpinBox *>(QStringLiteral("hostPortSpin"));
    QCOMPARE(port->specialValueText(), QStringLiteral("default (5301)"));
    auto *type = dialog.findChild<QComboBox *>(QStringLiteral("hostServerTypeCombo"));
    type->setCurrentIndex(type->findData(QStringLiteral("iperf3")));
    QCOMPARE(port->specialValueText(), QStringLiteral("default (5201)"));
    QCOMPARE(dialog.host().serverType, QStringLiteral("iperf3"));
    auto *speed = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("hostLinkSpeedSpin"));
    QCOMPARE(speed->value(), 1000.0);
    QCOMPARE(speed->suffix(), QStringLiteral(" Mbit/s"));
    speed->setValue(0);
    QCOMPARE(speed->text(), QStringLiteral("detect"));
    speed->setValue(10000);
    const Host h = dialog.host();
    QCOMPARE(h.linkSpeedMbps, 10000.0);
    const QList<HostEntry> back = Config::hostsFromJson(Config::hostsToJson({HostEntry{h, true}}));
    QCOMPARE(back.first().host.linkSpeedMbps, 10000.0);
    QCOMPARE(back.first().host.serverType, QStringLiteral("iperf3"));
}

void TestHostListPanel::dialogFitsItsContent()
{
    // Every tab's form fits the dialog's size hint (nothing squeezed below its own minimum). With
    // WIREBENCH_SCREENSHOT_DIR set, each tab is saved as a PNG for a look.
    CredentialStore store(CredentialStore::Mode::MemoryOnly);
    Host host;
    host.name = QStringLiteral("fs-windows");
    host.address = QStringLiteral("10.0.0.6");
    host.osLabel = QStringLiteral("Windows Server 2003");
    HostDialog dialog(host, nullptr, &store);
    dialog.resize(dialog.sizeHint());
    dialog.show();
    const QString dir = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    for (int i = 0; i < dialog.tabs()->count(); ++i) {
        dialog.tabs()->setCurrentIndex(i);
        QWidget *page = dialog.tabs()->widget(i);
        QVERIFY2(page->height() >= page->minimumSizeHint().height(), qPrintable(dialog.tabs()->tabText(i)));
        const QPixmap shot = dialog.grab();
        QVERIFY(!shot.isNull());
        if (!dir.isEmpty())
            QVERIFY(shot.save(dir + QStringLiteral("/host-dialog-%1.png").arg(dialog.tabs()->tabText(i))));
    }
}

namespace {

// Every host name of the window's host table is shown whole: its column holds the check box and the text, measured
// with the table's font; and the table needs no scrolling. Returns what is wrong, or nothing.
QString namesNotWhole(MainWindow &window)
{
    QTableWidget *table = window.hostList()->table();
    QHeaderView *header = table->horizontalHeader();
    const QFontMetrics metrics(table->font());
    const int indicator = table->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, table);
    const int nameWidth = header->sectionSize(HostListPanel::Name);
    QStringList problems;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QString name = table->item(row, HostListPanel::Name)->text();
        if (nameWidth <= metrics.horizontalAdvance(name) + indicator)
            problems << QStringLiteral("\"%1\" needs %2 px, its column is %3 px")
                            .arg(name)
                            .arg(metrics.horizontalAdvance(name) + indicator)
                            .arg(nameWidth);
    }
    const int hint = static_cast<QAbstractItemView *>(table)->sizeHintForColumn(HostListPanel::Name);
    if (nameWidth < hint)
        problems << QStringLiteral("the name column is %1 px, its contents want %2 px").arg(nameWidth).arg(hint);
    if (header->length() > table->viewport()->width())
        problems << QStringLiteral("the columns take %1 px of a %2 px table")
                        .arg(header->length())
                        .arg(table->viewport()->width());
    return problems.join(QLatin1Char('\n'));
}

} // namespace

void TestHostListPanel::longOsLabelKeepsNamesReadable()
{
    // The window at 1600x1000 (offscreen's own screen is 800x600, which the window's first size would follow), a host
    // added through the dialog with an OS label as Detect can write it.
    Config config(m_file);
    const QString os = QStringLiteral("Windows Server 2022 Datacenter 21H2 (NTLMSSP 10.0 build 20348), "
                                      "SMB 3.1.1 dialect, signing required, AES-128-GCM ciphers");
    QCOMPARE(os.size(), 120);
    const QString shots = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    {
        MainWindow window(&config);
        window.setWindowState(Qt::WindowNoState); // not maximized to the small screen
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        fillNextDialog(QStringLiteral("fs-linux-01"), QStringLiteral("127.0.0.2"), 5301, os);
        QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("addHostButton")), Qt::LeftButton);
        QTRY_COMPARE(window.hostList()->table()->rowCount(), 2);
        QApplication::processEvents();
        const QString added = namesNotWhole(window);
        QVERIFY2(added.isEmpty(), qPrintable(added));
    }
    // The next start reads the host from the settings: the same.
    MainWindow window(&config);
    window.setWindowState(Qt::WindowNoState); // not maximized to the small screen
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QApplication::processEvents();
    if (!shots.isEmpty())
        window.grab().save(shots + QStringLiteral("/hosts-long-os.png"));
    QTableWidget *table = window.hostList()->table();
    QCOMPARE(table->rowCount(), 2);
    const QString restarted = namesNotWhole(window);
    QVERIFY2(restarted.isEmpty(), qPrintable(restarted));
    // The OS label gives way: elided, whole in its tooltip.
    QTableWidgetItem *osItem = table->item(1, HostListPanel::Os);
    QCOMPARE(osItem->text(), os);
    QCOMPARE(osItem->toolTip(), os);
    const int osWidth = table->horizontalHeader()->sectionSize(HostListPanel::Os);
    QVERIFY(osWidth < QFontMetrics(table->font()).horizontalAdvance(os));
}

QTEST_MAIN(TestHostListPanel)
#include "TestHostListPanel.moc"
