// The host dialog's "Detect" against real vsftpd and smbd (tests/protocols FileServerFixture) and a Responder
// on 127.0.0.1: click Detect, read the table, click "Use as OS label", read the OS field.
#include "wire/QtWire.h"
#include "IdentityPeers.h"
#include "HostDialog.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace wb;
using namespace wb::test;

namespace {

struct Row
{
    QString said;
    QString suggests;
};

QMap<QString, Row> tableRows(const QTableWidget *table)
{
    QMap<QString, Row> rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows.insert(table->item(r, 0)->text(), Row{table->item(r, 1)->text(), table->item(r, 2)->text()});
    return rows;
}

} // namespace

class TestHostDialogDetect : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_peers.start(&why), qPrintable(why));
    }

    void cleanupTestCase() { m_peers.stop(); }

    void detectAndUse()
    {
        WB_REQUIRE(m_peers.fileServersReady(), m_peers.whyNoFileServers());
        Host host;
        host.name = QStringLiteral("fileserver");
        host.address = QStringLiteral("127.0.0.1");
        host.port = m_peers.responderPort();
        host.options.insert(QStringLiteral("ftp.user"), m_fixture.user());
        host.options.insert(QStringLiteral("ftp.port"), m_fixture.ftpPort());
        host.options.insert(QStringLiteral("smb.user"), m_fixture.user());
        host.options.insert(QStringLiteral("smb.domain"), QStringLiteral("WBTEST"));
        host.options.insert(QStringLiteral("smb.port"), m_fixture.smbPort());
        HostDialog dialog(host);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        // Passwords are typed into the dialog, as a user does; they never enter Host::options.
        for (const char *key : {"option_ftp.password", "option_smb.password"}) {
            auto *field = dialog.findChild<QLineEdit *>(QLatin1String(key));
            QVERIFY2(field, key);
            field->setText(m_fixture.password());
        }
        auto *detect = dialog.findChild<QPushButton *>(QStringLiteral("hostDetectButton"));
        auto *use = dialog.findChild<QPushButton *>(QStringLiteral("hostUseDetectedButton"));
        auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("hostIdentityTable"));
        auto *status = dialog.findChild<QLabel *>(QStringLiteral("hostDetectStatusLabel"));
        auto *os = dialog.findChild<QComboBox *>(QStringLiteral("hostOsCombo"));
        QVERIFY(detect && use && table && status && os);
        QVERIFY(table->isHidden());

        QSignalSpy finished(&dialog, &HostDialog::detectionFinished);
        QTest::mouseClick(detect, Qt::LeftButton);
        // The click returned before any server answered: the probes run on another thread.
        QVERIFY(!detect->isEnabled());
        QVERIFY2(status->text().startsWith(QLatin1String("Asking 127.0.0.1")), qPrintable(status->text()));
        QVERIFY(finished.wait(60000));
        QVERIFY(detect->isEnabled());
        QVERIFY(table->isVisible());
        if (const QString dir = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog.grab().save(dir + QStringLiteral("/host-dialog-detect.png"));

        const QMap<QString, Row> rows = tableRows(table);
        for (auto it = rows.cbegin(); it != rows.cend(); ++it)
            qInfo("%s | %s | %s", qPrintable(it.key()), qPrintable(it->said), qPrintable(it->suggests));
        QCOMPARE(rows.size(), 5);
        QVERIFY(rows.value(QStringLiteral("FTP greeting (220)")).said.contains(QLatin1String("vsFTPd")));
        QCOMPARE(rows.value(QStringLiteral("FTP SYST (215)")).said, QStringLiteral("215 UNIX Type: L8"));
        const Row ntlm = rows.value(QStringLiteral("SMB NTLMSSP version"));
        QVERIFY2(ntlm.said.contains(QLatin1String(" build 0 ")), qPrintable(ntlm.said));
        QCOMPARE(ntlm.suggests, QStringLiteral("Samba (Linux/Unix)"));
        QCOMPARE(rows.value(QStringLiteral("SMB server string (IPC$ comment)")).said,
                 QStringLiteral("IPC Service (Wirebench test Samba)"));
        const QString helloOs = wire::qs(control::Hello::local("x").osName);
        QCOMPARE(rows.value(QStringLiteral("wirebenchd hello")).suggests, helloOs);

        // Nothing selected: the best suggestion (wirebenchd's own account of its OS).
        QVERIFY(use->isEnabled());
        QTest::mouseClick(use, Qt::LeftButton);
        QCOMPARE(os->currentText(), helloOs);
        // A selected row: its suggestion.
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->text() == QLatin1String("SMB NTLMSSP version"))
                table->selectRow(r);
        }
        QTest::mouseClick(use, Qt::LeftButton);
        QCOMPARE(os->currentText(), QStringLiteral("Samba (Linux/Unix)"));
        QCOMPARE(dialog.host().osLabel, QStringLiteral("Samba (Linux/Unix)"));
        // The user still has the last word.
        os->lineEdit()->selectAll();
        QTest::keyClicks(os->lineEdit(), QStringLiteral("Samba on Debian 12"));
        QCOMPARE(dialog.host().osLabel, QStringLiteral("Samba on Debian 12"));
        QVERIFY(!dialog.host().options.contains(QStringLiteral("smb.password")));
    }

    void failuresShowTheirMessage()
    {
        const quint16 closed = FileServerFixture::closedPort();
        const Host host = IdentityPeers::onePort(QStringLiteral("nothing-here"), closed);
        HostDialog dialog(host);
        dialog.show();
        auto *detect = dialog.findChild<QPushButton *>(QStringLiteral("hostDetectButton"));
        auto *use = dialog.findChild<QPushButton *>(QStringLiteral("hostUseDetectedButton"));
        auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("hostIdentityTable"));
        auto *status = dialog.findChild<QLabel *>(QStringLiteral("hostDetectStatusLabel"));
        QSignalSpy finished(&dialog, &HostDialog::detectionFinished);
        QTest::mouseClick(detect, Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(table->rowCount(), 4); // hello, FTP greeting, SMB NTLMSSP, SMB server string
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString said = table->item(r, 1)->text();
            qInfo("%s | %s", qPrintable(table->item(r, 0)->text()), qPrintable(said));
            QVERIFY2(said.startsWith(QStringLiteral("nothing-here (127.0.0.1:%1): ").arg(closed)), qPrintable(said));
            QVERIFY(table->item(r, 2)->text().isEmpty());
            QVERIFY2(said.contains(QLatin1String("connection refused")), qPrintable(said));
        }
        QVERIFY(!use->isEnabled());
        QCOMPARE(status->text(), QStringLiteral("No server on this host said what it is."));
    }

private:
    IdentityPeers m_peers;
    FileServerFixture &m_fixture = m_peers.fixture();
};

QTEST_MAIN(TestHostDialogDetect)
#include "TestHostDialogDetect.moc"
