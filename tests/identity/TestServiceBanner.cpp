// ServiceBanner: naming what answered on a port from its first bytes (the SMB driver's "port N answered with ...").
#include "wire/QtWire.h"
#include "identity/ServiceBanner.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QtTest>

using namespace wb;

class TestServiceBanner : public QObject
{
    Q_OBJECT

private slots:
    void describe_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("vsftpd") << QByteArray("220 (vsFTPd 3.0.3)\r\n")
                                << QStringLiteral("an FTP banner \"220 (vsFTPd 3.0.3)\"");
        QTest::newRow("multi-line FTP") << QByteArray("220-Welcome\r\n220 ready\r\n")
                                        << QStringLiteral("an FTP banner \"220-Welcome\"");
        QTest::newRow("greeting still arriving")
            << QByteArray("220-Welcome to") << QStringLiteral("an FTP banner \"220-Welcome to\"");
        QTest::newRow("FTP refusal") << QByteArray("421 Too many users\r\n")
                                     << QStringLiteral("an FTP-style reply \"421 Too many users\"");
        QTest::newRow("SMTP") << QByteArray("220 mx.example ESMTP Postfix\r\n")
                              << QStringLiteral("an SMTP banner \"220 mx.example ESMTP Postfix\"");
        QTest::newRow("SSH") << QByteArray("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
                             << QStringLiteral("an SSH banner \"SSH-2.0-OpenSSH_9.2p1 Debian-2\"");
        QTest::newRow("HTTP") << QByteArray("HTTP/1.1 400 Bad Request\r\nServer: x\r\n")
                              << QStringLiteral("an HTTP answer \"HTTP/1.1 400 Bad Request\"");
        QTest::newRow("control characters")
            << QByteArray("hello\x1b[31mred\n") << QStringLiteral("the text \"hello?[31mred\"");
        QTest::newRow("binary") << QByteArray("\x09\x01\x02", 3)
                                << QStringLiteral("3 bytes that are not SMB (09 01 02)");
        QTest::newRow("SMB2") << (QByteArray("\0\0\0\x44", 4) + QByteArray("\xfeSMB", 4) + QByteArray(60, '\0'))
                              << QStringLiteral("an SMB answer");
        control::Hello hello = control::Hello::local("wirebenchd 0.1.0");
        QTest::newRow("wirebenchd") << wire::qb(control::encode(hello.toJson()))
                                    << QStringLiteral("wirebenchd's hello (\"wirebenchd 0.1.0\")");
        const QByteArray longLine = "220 " + QByteArray(200, 'x') + "\r\n";
        QTest::newRow("long banner") << longLine
                                     << QStringLiteral("an FTP banner \"220 ") + QString(73, QLatin1Char('x'))
                + QStringLiteral("...\"");
    }

    void describe()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QCOMPARE(ServiceBanner::describe(bytes), expected);
    }
};

QTEST_GUILESS_MAIN(TestServiceBanner)
#include "TestServiceBanner.moc"
