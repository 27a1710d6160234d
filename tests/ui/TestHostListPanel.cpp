#include "HostDialog.h"
#include "HostListPanel.h"
#include "settings/Config.h"

#include <QApplication>
#include <QComboBox>
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

QTEST_MAIN(TestHostListPanel)
#include "TestHostListPanel.moc"
