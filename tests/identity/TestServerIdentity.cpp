// Parsers and tables of the server-identity probes: NTLMSSP version -> label, a CHALLENGE message built here
// from the [MS-NLMP] 2.2.1.2 layout, FTP greeting/SYST -> label, IPC$ comments, and the choice of the best label.
#include "identity/FtpIdentityProbe.h"
#include "identity/NtlmChallenge.h"
#include "identity/ServerEvidence.h"
#include "identity/SmbIdentityProbe.h"
#include "identity/WireBytes.h"

#include <QTest>
#include <QtEndian>

using namespace wb;

namespace {

QByteArray utf16le(const QString &s)
{
    QByteArray b;
    for (QChar c : s)
        wire::putLe<quint16>(b, c.unicode());
    return b;
}

struct ChallengeSpec
{
    quint8 major = 6;
    quint8 minor = 1;
    quint16 build = 0;
    QString target = QStringLiteral("WBTEST");
    QList<QPair<quint16, QString>> avPairs{{2, QStringLiteral("WBTEST")}, {1, QStringLiteral("FS1")},
                                           {4, QStringLiteral("example.org")}, {3, QStringLiteral("fs1.example.org")}};
    bool withVersion = true;
};

/// A CHALLENGE message laid out as [MS-NLMP] 2.2.1.2: fixed header, Version, then target name and target info.
QByteArray challengeMessage(const ChallengeSpec &spec)
{
    QByteArray info;
    for (const auto &[id, value] : spec.avPairs) {
        const QByteArray v = utf16le(value);
        wire::putLe<quint16>(info, id);
        wire::putLe<quint16>(info, quint16(v.size()));
        info += v;
    }
    wire::putLe<quint16>(info, 0); // MsvAvEOL
    wire::putLe<quint16>(info, 0);
    const QByteArray target = utf16le(spec.target);
    const quint32 payload = 56;
    QByteArray m("NTLMSSP\0", 8);
    wire::putLe<quint32>(m, 2);
    wire::putLe<quint16>(m, quint16(target.size()));
    wire::putLe<quint16>(m, quint16(target.size()));
    wire::putLe<quint32>(m, payload);
    wire::putLe<quint32>(m, NtlmChallenge::kNegotiateUnicode | NtlmChallenge::kTargetInfo
                 | (spec.withVersion ? NtlmChallenge::kNegotiateVersion : 0));
    m += QByteArray::fromHex("0123456789abcdef"); // ServerChallenge
    m += QByteArray(8, '\0');                     // Reserved
    wire::putLe<quint16>(m, quint16(info.size()));
    wire::putLe<quint16>(m, quint16(info.size()));
    wire::putLe<quint32>(m, payload + quint32(target.size()));
    m.append(char(spec.major)).append(char(spec.minor));
    wire::putLe<quint16>(m, spec.build);
    m += QByteArray(3, '\0');
    m.append(char(15));
    Q_ASSERT(m.size() == int(payload));
    return m + target + info;
}

} // namespace

class TestServerIdentity : public QObject
{
    Q_OBJECT
private slots:
    void ntlmVersionLabel_data()
    {
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<int>("build");
        QTest::addColumn<QString>("label");
        QTest::newRow("Samba") << 6 << 1 << 0 << QStringLiteral("Samba (Linux/Unix)");
        QTest::newRow("2000") << 5 << 0 << 2195 << QStringLiteral("Windows 2000");
        QTest::newRow("XP") << 5 << 1 << 2600 << QStringLiteral("Windows XP");
        QTest::newRow("2003") << 5 << 2 << 3790 << QStringLiteral("Windows Server 2003");
        QTest::newRow("2008 SP1") << 6 << 0 << 6001 << QStringLiteral("Windows Server 2008 / Vista");
        QTest::newRow("2008 SP2") << 6 << 0 << 6002 << QStringLiteral("Windows Server 2008 / Vista");
        QTest::newRow("2008 R2") << 6 << 1 << 7600 << QStringLiteral("Windows Server 2008 R2 / 7");
        QTest::newRow("2008 R2 SP1") << 6 << 1 << 7601 << QStringLiteral("Windows Server 2008 R2 / 7");
        QTest::newRow("2012") << 6 << 2 << 9200 << QStringLiteral("Windows Server 2012 / 8");
        QTest::newRow("2012 R2") << 6 << 3 << 9600 << QStringLiteral("Windows Server 2012 R2 / 8.1");
        QTest::newRow("2016") << 10 << 0 << 14393 << QStringLiteral("Windows Server 2016");
        QTest::newRow("2019") << 10 << 0 << 17763 << QStringLiteral("Windows Server 2019");
        QTest::newRow("2022") << 10 << 0 << 20348 << QStringLiteral("Windows Server 2022");
        QTest::newRow("2025") << 10 << 0 << 26100 << QStringLiteral("Windows Server 2025");
        QTest::newRow("Windows 11 23H2") << 10 << 0 << 22631 << QStringLiteral("Windows 10/11 or Server (build 22631)");
        QTest::newRow("unknown") << 6 << 4 << 9841 << QStringLiteral("Windows (NTLMSSP 6.4 build 9841)");
    }
    void ntlmVersionLabel()
    {
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(int, build);
        QFETCH(QString, label);
        QCOMPARE(NtlmChallenge::labelForVersion(major, minor, build), label);
    }

    void parseChallenge()
    {
        ChallengeSpec spec;
        spec.major = 10;
        spec.minor = 0;
        spec.build = 20348;
        NtlmChallenge c;
        QString error;
        QVERIFY2(NtlmChallenge::parse(challengeMessage(spec), &c, &error), qPrintable(error));
        QVERIFY(c.hasVersion);
        QCOMPARE(c.major, 10);
        QCOMPARE(c.minor, 0);
        QCOMPARE(c.build, 20348);
        QCOMPARE(c.revision, 15);
        QCOMPARE(c.versionText(), QStringLiteral("10.0 build 20348"));
        QCOMPARE(c.targetName, QStringLiteral("WBTEST"));
        QCOMPARE(c.netbiosComputer, QStringLiteral("FS1"));
        QCOMPARE(c.netbiosDomain, QStringLiteral("WBTEST"));
        QCOMPARE(c.dnsComputer, QStringLiteral("fs1.example.org"));
        QCOMPARE(c.dnsDomain, QStringLiteral("example.org"));
        QVERIFY(c.describe().startsWith(QLatin1String("NTLMSSP 10.0 build 20348 (revision 15); target WBTEST")));
    }

    void findsChallengeInsideSpnego()
    {
        // The server's NegTokenResp wraps the challenge in DER; find() looks for the NTLMSSP signature.
        const QByteArray inner = challengeMessage({});
        const QByteArray wrapped = QByteArray::fromHex("a181c43081c1a0030a0101a10c060a2b06010401823702020aa281ab0481a8")
                                   + inner;
        NtlmChallenge c;
        QString error;
        QVERIFY2(NtlmChallenge::find(wrapped, &c, &error), qPrintable(error));
        QCOMPARE(c.build, 0);
        QCOMPARE(NtlmChallenge::labelForVersion(c.major, c.minor, c.build), QStringLiteral("Samba (Linux/Unix)"));
    }

    void challengeWithoutVersion()
    {
        ChallengeSpec spec;
        spec.withVersion = false;
        NtlmChallenge c;
        QString error;
        QVERIFY2(NtlmChallenge::parse(challengeMessage(spec), &c, &error), qPrintable(error));
        QVERIFY(!c.hasVersion);
        QCOMPARE(c.netbiosComputer, QStringLiteral("FS1"));
    }

    void malformedChallenge_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("errorContains");
        const QByteArray good = challengeMessage({});
        QTest::newRow("short") << good.left(30) << QStringLiteral("shorter");
        QByteArray type1 = good;
        type1[8] = 1;
        QTest::newRow("type 1") << type1 << QStringLiteral("type 1");
        QByteArray badOffset = good;
        qToLittleEndian<quint32>(5000, badOffset.data() + 44);
        QTest::newRow("info offset outside") << badOffset << QStringLiteral("outside");
        QByteArray cutPair = good;
        cutPair.chop(12); // EOL and part of the last pair
        qToLittleEndian<quint16>(quint16(cutPair.size() - 56 - 12), cutPair.data() + 40);
        QTest::newRow("AV pair cut") << cutPair << QStringLiteral("runs past");
        QTest::newRow("no signature") << QByteArray("hello, world") << QStringLiteral("no NTLMSSP CHALLENGE");
    }
    void malformedChallenge()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, errorContains);
        NtlmChallenge c;
        QString error;
        const bool ok = message.startsWith("NTLMSSP") ? NtlmChallenge::parse(message, &c, &error)
                                                      : NtlmChallenge::find(message, &c, &error);
        QVERIFY(!ok);
        QVERIFY2(error.contains(errorContains), qPrintable(error));
    }

    void negotiateMessageLayout()
    {
        const QByteArray m = NtlmChallenge::negotiateMessage();
        QCOMPARE(m.size(), 40);
        QVERIFY(m.startsWith(QByteArray("NTLMSSP\0", 8)));
        QCOMPARE(qFromLittleEndian<quint32>(m.constData() + 8), 1u);
        const quint32 flags = qFromLittleEndian<quint32>(m.constData() + 12);
        for (quint32 f : {NtlmChallenge::kNegotiateVersion, NtlmChallenge::kNegotiateUnicode, NtlmChallenge::kRequestTarget,
                          NtlmChallenge::kNegotiateNtlm, NtlmChallenge::kAlwaysSign,
                          NtlmChallenge::kExtendedSessionSecurity, NtlmChallenge::kTargetInfo})
            QVERIFY2(flags & f, qPrintable(QString::number(f, 16)));
        const QByteArray spnego = NtlmChallenge::spnegoNegTokenInit(m);
        QCOMPARE(quint8(spnego.at(0)), quint8(0x60));
        QVERIFY(spnego.contains(QByteArray::fromHex("2b0601050502")));
        QVERIFY(spnego.endsWith(m));
    }

    void ftpLabel_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::newRow("vsftpd greeting") << QStringLiteral("220 (vsFTPd 3.0.3)") << QStringLiteral("Linux/Unix (vsftpd)");
        QTest::newRow("vsftpd SYST") << QStringLiteral("215 UNIX Type: L8") << QStringLiteral("Linux/Unix");
        QTest::newRow("IIS greeting") << QStringLiteral("220 Microsoft FTP Service") << QStringLiteral("Windows (IIS FTP)");
        QTest::newRow("IIS SYST") << QStringLiteral("215 Windows_NT") << QStringLiteral("Windows (IIS FTP)");
        QTest::newRow("ProFTPD") << QStringLiteral("220 ProFTPD Server (Debian) [::ffff:10.0.0.5]")
                                 << QStringLiteral("Linux/Unix (ProFTPD)");
        QTest::newRow("Pure-FTPd") << QStringLiteral("220---------- Welcome to Pure-FTPd [privsep] [TLS] ----------")
                                   << QStringLiteral("Linux/Unix (Pure-FTPd)");
        QTest::newRow("custom banner") << QStringLiteral("220 Welcome to the file server") << QString();
    }
    void ftpLabel()
    {
        QFETCH(QString, text);
        QFETCH(QString, label);
        QCOMPARE(FtpIdentityProbe::labelFor(text), label);
    }

    void ftpReply_data()
    {
        QTest::addColumn<QByteArray>("buffer");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("consumed");
        QTest::newRow("single") << QByteArray("220 (vsFTPd 3.0.3)\r\nSYST") << 220 << QStringLiteral("220 (vsFTPd 3.0.3)") << 20;
        QTest::newRow("multi-line") << QByteArray("220-Welcome\r\n220-to Pure-FTPd\r\n 220 not the end\r\n220 end\r\n") << 220
                                    << QStringLiteral("220-Welcome\n220-to Pure-FTPd\n 220 not the end\n220 end") << 58;
        QTest::newRow("incomplete") << QByteArray("220-Welcome\r\n220 en") << 0 << QString() << 0;
    }
    void ftpReply()
    {
        QFETCH(QByteArray, buffer);
        QFETCH(int, code);
        QFETCH(QString, text);
        QFETCH(int, consumed);
        int gotCode = 0;
        qsizetype used = 0;
        QCOMPARE(FtpIdentityProbe::takeReply(buffer, &gotCode, &used), text);
        QCOMPARE(gotCode, code);
        QCOMPARE(int(used), consumed);
    }

    void ipcComment_data()
    {
        QTest::addColumn<QString>("comment");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("serverString");
        QTest::newRow("Samba default") << QStringLiteral("IPC Service (Samba 4.17.12-Debian)")
                                       << QStringLiteral("Samba 4.17.12-Debian") << QStringLiteral("Samba 4.17.12-Debian");
        QTest::newRow("Samba custom") << QStringLiteral("IPC Service (Wirebench test Samba)")
                                      << QStringLiteral("Samba (Linux/Unix)") << QStringLiteral("Wirebench test Samba");
        QTest::newRow("Windows") << QStringLiteral("Remote IPC") << QStringLiteral("Windows") << QStringLiteral("Remote IPC");
        QTest::newRow("other") << QStringLiteral("IPC Service (NAS)") << QString() << QStringLiteral("NAS");
    }
    void ipcComment()
    {
        QFETCH(QString, comment);
        QFETCH(QString, label);
        QFETCH(QString, serverString);
        QCOMPARE(SmbIdentityProbe::labelForIpcComment(comment), label);
        QCOMPARE(SmbIdentityProbe::serverStringOf(comment), serverString);
    }

    void bestLabel()
    {
        ServerEvidenceList list{
            ServerEvidence::failure(QStringLiteral("wirebenchd hello"), QStringLiteral("fs1 (10.0.0.5:5301): refused")),
            {QStringLiteral("FTP greeting (220)"), QStringLiteral("220 (vsFTPd 3.0.3)"), QStringLiteral("Linux/Unix (vsftpd)"), {}, 30},
            {QStringLiteral("SMB NTLMSSP version"), QStringLiteral("NTLMSSP 6.1 build 0"), QStringLiteral("Samba (Linux/Unix)"), {}, 60},
            {QStringLiteral("FTP SYST (215)"), QStringLiteral("215 UNIX Type: L8"), QStringLiteral("Linux/Unix"), {}, 20},
        };
        QCOMPARE(bestOsLabel(list), QStringLiteral("Samba (Linux/Unix)"));
        QCOMPARE(bestEvidence(list)->source, QStringLiteral("SMB NTLMSSP version"));
        QVERIFY(bestOsLabel({list.first()}).isEmpty());
        QVERIFY(!bestEvidence({}));
    }
};

QTEST_GUILESS_MAIN(TestServerIdentity)
#include "TestServerIdentity.moc"
