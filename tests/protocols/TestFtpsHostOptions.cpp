// The host dialog's FTP tab offers explicit FTPS and the certificate trust; what the user picks reaches the driver.
#include "HostDialog.h"
#include "OptionForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QtTest>

using namespace wb;

class TestFtpsHostOptions : public QObject
{
    Q_OBJECT

private slots:
    void trustChoicesFollowFtps();
    void savedHostComesBack();
};

void TestFtpsHostOptions::trustChoicesFollowFtps()
{
    Host host;
    host.name = QStringLiteral("fs1");
    host.address = QStringLiteral("127.0.0.1");
    HostDialog dialog(host);
    dialog.show();
    OptionForm *ftp = dialog.familyForm(QStringLiteral("FTP"));
    QVERIFY(ftp);
    auto *tls = qobject_cast<QCheckBox *>(ftp->editor(QStringLiteral("ftp.tls")));
    auto *trust = qobject_cast<QComboBox *>(ftp->editor(QStringLiteral("ftp.tls_trust")));
    auto *caFile = qobject_cast<QLineEdit *>(ftp->editor(QStringLiteral("ftp.tls_ca_file")));
    QVERIFY(tls && trust && caFile);
    QCOMPARE(tls->text(), QStringLiteral("Explicit FTPS (AUTH TLS)"));
    QStringList items;
    for (int i = 0; i < trust->count(); ++i)
        items << trust->itemText(i);
    QCOMPARE(items,
             QStringList({QStringLiteral("system CAs"), QStringLiteral("CA file"),
                          QStringLiteral("accept any certificate (insecure)")}));
    QCOMPARE(trust->currentText(), QStringLiteral("system CAs")); // the safe default
    QVERIFY(trust->toolTip().contains(QStringLiteral("insecure")));

    // Plain FTP: the trust settings mean nothing and are greyed out.
    QVERIFY(!tls->isChecked());
    QVERIFY(!trust->isEnabled());
    QVERIFY(!caFile->isEnabled());

    QTest::mouseClick(tls, Qt::LeftButton, {}, QPoint(5, tls->height() / 2));
    QVERIFY(tls->isChecked());
    QVERIFY(trust->isEnabled());
    QVERIFY(!caFile->isEnabled()); // system CAs: no file to choose

    trust->setCurrentIndex(trust->findText(QStringLiteral("CA file")));
    QVERIFY(caFile->isEnabled());
    QTest::keyClicks(caFile, QStringLiteral("/etc/wirebench/lab-ca.pem"));

    const Host edited = dialog.host();
    QCOMPARE(edited.options.value(QStringLiteral("ftp.tls")).toBool(), true);
    QCOMPARE(edited.options.value(QStringLiteral("ftp.tls_trust")).toString(), QStringLiteral("CA file"));
    QCOMPARE(edited.options.value(QStringLiteral("ftp.tls_ca_file")).toString(),
             QStringLiteral("/etc/wirebench/lab-ca.pem"));

    trust->setCurrentIndex(trust->findText(QStringLiteral("accept any certificate (insecure)")));
    QVERIFY(!caFile->isEnabled());
    QCOMPARE(dialog.host().options.value(QStringLiteral("ftp.tls_trust")).toString(),
             QStringLiteral("accept any certificate (insecure)"));
}

void TestFtpsHostOptions::savedHostComesBack()
{
    Host host;
    host.name = QStringLiteral("fs2");
    host.address = QStringLiteral("127.0.0.1");
    host.options.insert(QStringLiteral("ftp.tls"), true);
    host.options.insert(QStringLiteral("ftp.tls_trust"), QStringLiteral("CA file"));
    host.options.insert(QStringLiteral("ftp.tls_ca_file"), QStringLiteral("/srv/ca.pem"));
    HostDialog dialog(host);
    OptionForm *ftp = dialog.familyForm(QStringLiteral("FTP"));
    QVERIFY(ftp);
    auto *trust = qobject_cast<QComboBox *>(ftp->editor(QStringLiteral("ftp.tls_trust")));
    auto *caFile = qobject_cast<QLineEdit *>(ftp->editor(QStringLiteral("ftp.tls_ca_file")));
    QCOMPARE(trust->currentText(), QStringLiteral("CA file"));
    QVERIFY(trust->isEnabled());
    QCOMPARE(caFile->text(), QStringLiteral("/srv/ca.pem"));
    QVERIFY(caFile->isEnabled());
}

QTEST_MAIN(TestFtpsHostOptions)
#include "TestFtpsHostOptions.moc"
