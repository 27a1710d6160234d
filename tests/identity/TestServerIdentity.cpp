// Parsers and tables of the server-identity probes: NTLMSSP version -> label, a CHALLENGE message built here
// from the [MS-NLMP] 2.2.1.2 layout, SMB1 NEGOTIATE / SESSION_SETUP_ANDX answers built from the [MS-CIFS] and
// [MS-SMB] layouts, FTP greeting/SYST -> label, IPC$ comments, and the choice of the best label. The SMB1 path of
// the probe also meets a scripted peer on 127.0.0.1 that answers as Windows Server 2003 would, or with garbage
// (no Windows 2003 here; the real-smbd SMB1 test is in TestServerProbe).
#include "identity/FtpIdentityProbe.h"
#include "identity/NtlmChallenge.h"
#include "identity/ServerEvidence.h"
#include "identity/Smb1SessionSetup.h"
#include "identity/SmbIdentityProbe.h"
#include "identity/WireBytes.h"
#include "CannedSmbPeer.h"

#include <QMutex>
#include <QTest>
#include <QtEndian>

#include <functional>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;

using namespace wb::test;

namespace {

/// The strings of an SMB1 SESSION_SETUP_ANDX answer as [MS-SMB] 2.2.4.6.2 lays them out.
struct SetupAnswerSpec
{
    QByteArray blob;
    QString nativeOs;
    QString nativeLanMan;
    QString domain;
    bool unicode = true;
    bool pad = true; ///< the zero byte that puts the Unicode strings on an even offset, when one is needed
    quint32 status = Smb1SessionSetup::kStatusMoreProcessing;
};

/// The 32-byte SMB1 header of an answer ([MS-CIFS] 2.2.3.1): Flags REPLY, Flags2 as a Windows server sets them.
QByteArray smb1AnswerHeader(quint8 command, quint32 status, bool unicode)
{
    QByteArray m("\xffSMB", 4);
    m.append(char(command));
    wire::putLe<quint32>(m, status);
    m.append(char(0x98)); // REPLY | CASE_INSENSITIVE | CANONICALIZED_PATHS
    wire::putLe<quint16>(m, quint16((unicode ? 0x8000 : 0) | 0x4000 | 0x0800 | 0x0003));
    wire::putLe<quint16>(m, 0); // PIDHigh
    m.append(8, '\0');          // SecurityFeatures
    wire::putLe<quint16>(m, 0); // Reserved
    wire::putLe<quint16>(m, 0); // TID
    wire::putLe<quint16>(m, 0xfeff);
    wire::putLe<quint16>(m, 0x0800); // UID
    wire::putLe<quint16>(m, 2);      // MID
    return m;
}

QByteArray sessionSetupAnswer(const SetupAnswerSpec &spec)
{
    QByteArray m = smb1AnswerHeader(Smb1SessionSetup::kSessionSetupAndX, spec.status, spec.unicode);
    m.append(char(4));    // WordCount
    m.append(char(0xff)); // AndXCommand: none
    m.append('\0');
    wire::putLe<quint16>(m, 0); // AndXOffset
    wire::putLe<quint16>(m, 0); // Action
    wire::putLe<quint16>(m, quint16(spec.blob.size()));
    QByteArray bytes = spec.blob;
    if (spec.unicode && spec.pad && (m.size() + 2 + bytes.size()) % 2)
        bytes.append('\0');
    for (const QString &text : {spec.nativeOs, spec.nativeLanMan, spec.domain}) {
        if (spec.unicode)
            bytes += utf16le(text) + QByteArray(2, '\0');
        else
            bytes += text.toLatin1() + '\0';
    }
    wire::putLe<quint16>(m, quint16(bytes.size()));
    return m + bytes;
}

/// A NEGOTIATE answer for NT LM 0.12 with extended security ([MS-SMB] 2.2.4.5.2.1), 17 parameter words.
QByteArray negotiateAnswer(quint32 sessionKey, quint32 capabilities)
{
    QByteArray m = smb1AnswerHeader(Smb1SessionSetup::kNegotiate, 0, true);
    m.append(char(17));
    wire::putLe<quint16>(m, 0);  // DialectIndex: NT LM 0.12
    m.append(char(3));           // SecurityMode: user, encrypt passwords
    wire::putLe<quint16>(m, 50); // MaxMpxCount
    wire::putLe<quint16>(m, 1);  // MaxNumberVcs
    wire::putLe<quint32>(m, 16644);
    wire::putLe<quint32>(m, 65536);
    wire::putLe<quint32>(m, sessionKey);
    wire::putLe<quint32>(m, capabilities);
    wire::putLe<quint64>(m, 0); // SystemTime
    wire::putLe<quint16>(m, 0); // ServerTimeZone
    m.append('\0');             // ChallengeLength
    const QByteArray guid(16, '\x42');
    wire::putLe<quint16>(m, quint16(guid.size()));
    return m + guid;
}

/// The security blob Windows Server 2003 answers with: its CHALLENGE (5.2 build 3790) inside a SPNEGO NegTokenResp.
QByteArray windows2003Blob()
{
    ChallengeSpec spec;
    spec.major = 5;
    spec.minor = 2;
    spec.build = 3790;
    return QByteArray::fromHex("a181c43081c1a0030a0101a10c060a2b06010401823702020aa281ab0481a8")
        + challengeMessage(spec);
}

bool isSmb1Command(const QByteArray &request, quint8 command)
{
    return request.startsWith(QByteArray("\xffSMB", 4)) && request.size() > 4 && quint8(request.at(4)) == command;
}

/// Answers as Windows Server 2003 SP2: no SMB2 (closes, or answers in SMB1), NT LM 0.12 with extended security, and
/// the SPNEGO-wrapped CHALLENGE with its NativeOS and NativeLanMan.
QByteArray windows2003(const QByteArray &request, bool smb1AnswerToSmb2)
{
    if (request.startsWith(QByteArray("\xfeSMB", 4)))
        return smb1AnswerToSmb2 ? negotiateAnswer(0, 0) : QByteArray();
    if (isSmb1Command(request, Smb1SessionSetup::kNegotiate))
        return negotiateAnswer(0x00c0ffee, 0x8000f3fd);
    if (isSmb1Command(request, Smb1SessionSetup::kSessionSetupAndX)) {
        SetupAnswerSpec spec;
        spec.blob = windows2003Blob();
        spec.nativeOs = QStringLiteral("Windows Server 2003 3790 Service Pack 2");
        spec.nativeLanMan = QStringLiteral("Windows Server 2003 5.2");
        return sessionSetupAnswer(spec);
    }
    return {};
}

Host cannedHost(quint16 port)
{
    Host h;
    h.name = QStringLiteral("fake");
    h.address = QStringLiteral("127.0.0.1");
    h.options.insert(QStringLiteral("smb.port"), port);
    return h;
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
        const ChallengeSpec spec{.major = 10, .minor = 0, .build = 20348};
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
        const QByteArray wrapped
            = QByteArray::fromHex("a181c43081c1a0030a0101a10c060a2b06010401823702020aa281ab0481a8") + inner;
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
        for (quint32 f : {NtlmChallenge::kNegotiateVersion, NtlmChallenge::kNegotiateUnicode,
                          NtlmChallenge::kRequestTarget, NtlmChallenge::kNegotiateNtlm, NtlmChallenge::kAlwaysSign,
                          NtlmChallenge::kExtendedSessionSecurity, NtlmChallenge::kTargetInfo})
            QVERIFY2(flags & f, qPrintable(QString::number(f, 16)));
        const QByteArray spnego = NtlmChallenge::spnegoNegTokenInit(m);
        QCOMPARE(quint8(spnego.at(0)), quint8(0x60));
        QVERIFY(spnego.contains(QByteArray::fromHex("2b0601050502")));
        QVERIFY(spnego.endsWith(m));
    }

    void smb1Requests()
    {
        const QByteArray negotiate = Smb1SessionSetup::negotiateRequest();
        QVERIFY(negotiate.startsWith(QByteArray("\xffSMB\x72", 5)));
        const quint16 flags2 = qFromLittleEndian<quint16>(negotiate.constData() + 10);
        QVERIFY(flags2 & Smb1SessionSetup::kFlags2ExtendedSecurity);
        QVERIFY(flags2 & Smb1SessionSetup::kFlags2Unicode);
        QVERIFY(flags2 & Smb1SessionSetup::kFlags2NtStatus);
        QCOMPARE(negotiate.at(32), '\0'); // WordCount
        QCOMPARE(negotiate.mid(33), QByteArray("\x0c\x00\x02NT LM 0.12\x00", 14));

        Smb1SessionSetup::Negotiated n;
        QString error;
        QVERIFY2(Smb1SessionSetup::parseNegotiate(negotiateAnswer(0x12345678, 0x8000f3fd), &n, &error),
                 qPrintable(error));
        QCOMPARE(n.sessionKey, 0x12345678u);
        QVERIFY(n.extendedSecurity);
        QCOMPARE(n.maxBufferSize, 16644u);
        const QByteArray token = NtlmChallenge::negotiateMessage();
        const QByteArray setup = Smb1SessionSetup::sessionSetupRequest(token, n);
        QCOMPARE(quint8(setup.at(4)), Smb1SessionSetup::kSessionSetupAndX);
        QCOMPARE(int(setup.at(32)), 12); // WordCount 12: the extended-security form
        const qsizetype w = 33;
        QCOMPARE(quint8(setup.at(w)), quint8(0xff));                                   // no AndX command
        QCOMPARE(qFromLittleEndian<quint16>(setup.constData() + w + 8), quint16(1));   // VcNumber: never 0
        QCOMPARE(qFromLittleEndian<quint32>(setup.constData() + w + 10), 0x12345678u); // SessionKey echoed
        QCOMPARE(qFromLittleEndian<quint16>(setup.constData() + w + 14), quint16(token.size()));
        QVERIFY(qFromLittleEndian<quint32>(setup.constData() + w + 20) & Smb1SessionSetup::kCapExtendedSecurity);
        const quint16 byteCount = qFromLittleEndian<quint16>(setup.constData() + w + 24);
        QCOMPARE(qsizetype(byteCount), setup.size() - (w + 26));
        QCOMPARE(setup.mid(w + 26, token.size()), token);
        QVERIFY(setup.endsWith(utf16le(QStringLiteral("Unix")) + QByteArray(2, '\0')
                               + utf16le(QStringLiteral("Wirebench")) + QByteArray(2, '\0')));
        QCOMPARE((setup.size() - 22 - 10) % 2, 0); // the Unicode strings start on an even offset
    }

    void smb1NegotiateRefused_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("errorContains");
        const QByteArray good = negotiateAnswer(1, 0x8000f3fd);
        QByteArray noDialect = smb1AnswerHeader(Smb1SessionSetup::kNegotiate, 0, true);
        noDialect.append(char(1)).append("\xff\xff\x00\x00", 4);
        QTest::newRow("no dialect") << noDialect << QStringLiteral("refused SMB1 (dialect NT LM 0.12)");
        QTest::newRow("cut in the words") << good.left(50) << QStringLiteral("cut short");
        QTest::newRow("header only") << good.left(20) << QStringLiteral("malformed");
        QByteArray status = good;
        qToLittleEndian<quint32>(0xC0000022, status.data() + 5);
        QTest::newRow("status") << status << QStringLiteral("STATUS_ACCESS_DENIED");
        QByteArray command = good;
        command[4] = char(0x73);
        QTest::newRow("other command") << command << QStringLiteral("command 0x73");
    }
    void smb1NegotiateRefused()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, errorContains);
        Smb1SessionSetup::Negotiated n;
        QString error;
        QVERIFY(!Smb1SessionSetup::parseNegotiate(message, &n, &error));
        QVERIFY2(error.contains(errorContains), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }

    void smb1SessionSetupAnswer_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("nativeOs");
        QTest::addColumn<QString>("nativeLanMan");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<int>("build");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("rank");

        SetupAnswerSpec w2003;
        w2003.blob = windows2003Blob(); // 31 + 120 bytes: odd, so no pad
        w2003.nativeOs = QStringLiteral("Windows Server 2003 3790 Service Pack 2");
        w2003.nativeLanMan = QStringLiteral("Windows Server 2003 5.2");
        QVERIFY(w2003.blob.size() % 2);
        QTest::newRow("Windows 2003, odd blob, no pad")
            << sessionSetupAnswer(w2003) << w2003.nativeOs << w2003.nativeLanMan << QString() << 3790
            << QStringLiteral("Windows Server 2003") << 80;

        SetupAnswerSpec padded = w2003;
        padded.blob.append('\0'); // DER allows no trailing byte, but find() looks for the signature: still parses
        padded.domain = QStringLiteral("EXAMPLE");
        QTest::newRow("Windows 2003, even blob, pad")
            << sessionSetupAnswer(padded) << w2003.nativeOs << w2003.nativeLanMan << QStringLiteral("EXAMPLE") << 3790
            << QStringLiteral("Windows Server 2003") << 80;

        SetupAnswerSpec samba;
        samba.blob = challengeMessage({}); // raw CHALLENGE, 6.1 build 0, even length: pad byte
        samba.nativeOs = QStringLiteral("Unix");
        samba.nativeLanMan = QStringLiteral("Samba 4.17.12-Debian");
        samba.domain = QStringLiteral("WBTEST");
        QTest::newRow("Samba 3/4.x, Unix")
            << sessionSetupAnswer(samba) << samba.nativeOs << samba.nativeLanMan << samba.domain << 0
            << QStringLiteral("Samba 4.17.12-Debian (Linux/Unix)") << 70;
        SetupAnswerSpec samba417 = samba;
        samba417.nativeOs = QStringLiteral("Windows 6.1"); // what Samba 4.17 really says (measured)
        QTest::newRow("Samba 4.17, Windows 6.1")
            << sessionSetupAnswer(samba417) << samba417.nativeOs << samba.nativeLanMan << samba.domain << 0
            << QStringLiteral("Samba 4.17.12-Debian (Linux/Unix)") << 70;

        SetupAnswerSpec noPad = samba;
        noPad.pad = false; // a server that forgets the alignment byte: the strings start right after the blob
        QTest::newRow("missing pad") << sessionSetupAnswer(noPad) << samba.nativeOs << samba.nativeLanMan
                                     << samba.domain << 0 << QStringLiteral("Samba 4.17.12-Debian (Linux/Unix)") << 70;

        SetupAnswerSpec ascii = w2003;
        ascii.unicode = false;
        QTest::newRow("ASCII strings") << sessionSetupAnswer(ascii) << w2003.nativeOs << w2003.nativeLanMan << QString()
                                       << 3790 << QStringLiteral("Windows Server 2003") << 80;

        SetupAnswerSpec noStrings;
        noStrings.blob = challengeMessage({});
        QByteArray bare = sessionSetupAnswer(noStrings);
        const int stringBytes = 1 + 6; // pad and three empty strings
        bare.chop(stringBytes);
        qToLittleEndian<quint16>(quint16(noStrings.blob.size()), bare.data() + 41);
        QTest::newRow("blob only") << bare << QString() << QString() << QString() << 0 << QString() << 0;

        QByteArray unterminated = sessionSetupAnswer(samba);
        unterminated.chop(2); // the domain's terminator
        qToLittleEndian<quint16>(quint16(qFromLittleEndian<quint16>(unterminated.constData() + 41) - 2),
                                 unterminated.data() + 41);
        QTest::newRow("last string unterminated")
            << unterminated << samba.nativeOs << samba.nativeLanMan << samba.domain << 0
            << QStringLiteral("Samba 4.17.12-Debian (Linux/Unix)") << 70;
    }
    void smb1SessionSetupAnswer()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, nativeOs);
        QFETCH(QString, nativeLanMan);
        QFETCH(QString, domain);
        QFETCH(int, build);
        QFETCH(QString, label);
        QFETCH(int, rank);
        Smb1SessionSetup answer;
        QString error;
        QVERIFY2(Smb1SessionSetup::parse(message, &answer, &error), qPrintable(error));
        QCOMPARE(answer.status, Smb1SessionSetup::kStatusMoreProcessing);
        QCOMPARE(answer.nativeOs, nativeOs);
        QCOMPARE(answer.nativeLanMan, nativeLanMan);
        QCOMPARE(answer.primaryDomain, domain);
        NtlmChallenge c;
        QVERIFY2(NtlmChallenge::find(answer.securityBlob, &c, &error), qPrintable(error));
        QVERIFY(c.hasVersion);
        QCOMPARE(c.build, build);
        int gotRank = -1;
        QCOMPARE(Smb1SessionSetup::labelFor(answer.nativeOs, answer.nativeLanMan, &gotRank), label);
        QCOMPARE(gotRank, rank);
        QVERIFY(answer.describe().startsWith(
            QStringLiteral("NativeOS \"%1\"; NativeLanMan \"%2\"").arg(nativeOs, nativeLanMan)));
    }

    void smb1SessionSetupMalformed_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("errorContains");
        SetupAnswerSpec spec;
        spec.blob = windows2003Blob();
        spec.nativeOs = QStringLiteral("Windows Server 2003 3790 Service Pack 2");
        spec.nativeLanMan = QStringLiteral("Windows Server 2003 5.2");
        const QByteArray good = sessionSetupAnswer(spec);
        QTest::newRow("empty") << QByteArray() << QStringLiteral("malformed SMB1 message (0 bytes)");
        QTest::newRow("SMB2") << QByteArray("\xfeSMB", 4) + QByteArray(60, '\0') << QStringLiteral("malformed");
        QTest::newRow("header only") << good.left(33) << QStringLiteral("cut short");
        QTest::newRow("cut in the blob") << good.left(100) << QStringLiteral("ByteCount says");
        QTest::newRow("cut in NativeOS") << good.left(good.size() - 60) << QStringLiteral("ByteCount says");
        QByteArray blobTooLong = good;
        qToLittleEndian<quint16>(0xfff0, blobTooLong.data() + 39);
        QTest::newRow("blob past ByteCount") << blobTooLong << QStringLiteral("runs past its ByteCount");
        spec.status = 0xC000006D;
        QByteArray refused = smb1AnswerHeader(Smb1SessionSetup::kSessionSetupAndX, 0xC000006D, true);
        refused.append(3, '\0'); // WordCount 0, ByteCount 0
        QTest::newRow("refused")
            << refused
            << QStringLiteral("refused the NTLMSSP NEGOTIATE in SMB1 SESSION_SETUP_ANDX (STATUS_LOGON_FAILURE)");
        QByteArray threeWords = good;
        threeWords[32] = 3; // the answer without extended security
        QTest::newRow("three words") << threeWords << QStringLiteral("3 parameter words");
    }
    void smb1SessionSetupMalformed()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, errorContains);
        Smb1SessionSetup answer;
        QString error;
        QVERIFY(!Smb1SessionSetup::parse(message, &answer, &error));
        QVERIFY2(error.contains(errorContains), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }

    void smb1EveryPrefixAndFlippedByte()
    {
        // Garbage never crashes the parser: every cut of a good answer fails cleanly, every flipped byte either
        // parses or fails with a reason.
        SetupAnswerSpec spec;
        spec.blob = challengeMessage({});
        spec.nativeOs = QStringLiteral("Unix");
        spec.nativeLanMan = QStringLiteral("Samba 4.17.12-Debian");
        const QByteArray good = sessionSetupAnswer(spec);
        int failed = 0;
        for (qsizetype n = 0; n < good.size(); ++n) {
            Smb1SessionSetup answer;
            QString error;
            if (!Smb1SessionSetup::parse(good.left(n), &answer, &error) && !error.isEmpty())
                ++failed;
        }
        QCOMPARE(failed, int(good.size()));
        for (qsizetype i = 0; i < good.size(); ++i) {
            QByteArray bad = good;
            bad[i] = char(~bad.at(i));
            Smb1SessionSetup answer;
            QString error;
            NtlmChallenge c;
            const bool ok
                = Smb1SessionSetup::parse(bad, &answer, &error) && NtlmChallenge::find(answer.securityBlob, &c, &error);
            QVERIFY2(ok || !error.isEmpty(),
                     qPrintable(QStringLiteral("byte %1 flipped: failed without a reason").arg(i)));
        }
    }

    void windows2003ThroughTheProbe_data()
    {
        QTest::addColumn<bool>("smb1AnswerToSmb2");
        QTest::newRow("closes on SMB2") << false;
        QTest::newRow("answers SMB2 in SMB1") << true;
    }
    void windows2003ThroughTheProbe()
    {
        QFETCH(bool, smb1AnswerToSmb2);
        CannedSmbPeer peer([=](const QByteArray &r) { return windows2003(r, smb1AnswerToSmb2); });
        QVERIFY(peer.port() != 0);
        const SmbIdentityProbe::Result r = SmbIdentityProbe::probe(cannedHost(peer.port()));
        for (const ServerEvidence &e : r.evidence)
            qInfo("%s | %s | %s%s", qPrintable(e.source), qPrintable(e.said), qPrintable(e.suggests),
                  qPrintable(e.error));
        QCOMPARE(r.evidence.size(), 3);
        const ServerEvidence &ntlm = r.evidence.at(0);
        QVERIFY2(!ntlm.failed(), qPrintable(ntlm.error));
        QCOMPARE(ntlm.suggests, QStringLiteral("Windows Server 2003"));
        QVERIFY2(ntlm.said.startsWith(QLatin1String("NTLMSSP 5.2 build 3790 (revision 15)")), qPrintable(ntlm.said));
        QVERIFY2(ntlm.said.endsWith(QLatin1String("[raw NTLMSSP over SMB1]")), qPrintable(ntlm.said));
        const ServerEvidence &native = r.evidence.at(1);
        QCOMPARE(native.source, QStringLiteral("SMB1 NativeOS / NativeLanMan"));
        QCOMPARE(native.said,
                 QStringLiteral("NativeOS \"Windows Server 2003 3790 Service Pack 2\"; "
                                "NativeLanMan \"Windows Server 2003 5.2\""));
        QCOMPARE(native.suggests, QStringLiteral("Windows Server 2003"));
        QCOMPARE(native.rank, ntlm.rank);
        QVERIFY2(r.evidence.at(2).error.contains(QLatin1String("Allow SMB1 (NT1)")),
                 qPrintable(r.evidence.at(2).error));
        QCOMPARE(bestOsLabel(r.evidence), QStringLiteral("Windows Server 2003"));
        QCOMPARE(r.serverOs, QStringLiteral("Windows Server 2003 3790 Service Pack 2 (NTLMSSP 5.2 build 3790)"));
        QCOMPARE(r.source, QStringLiteral("SMB1 NativeOS / NativeLanMan and SMB NTLMSSP version"));
        // The session setup echoed the server's SessionKey, used VcNumber 1 and carried our NTLMSSP NEGOTIATE.
        const QList<QByteArray> requests = peer.requests();
        QCOMPARE(requests.size(), 3);
        const QByteArray setup = requests.last();
        QVERIFY(isSmb1Command(setup, Smb1SessionSetup::kSessionSetupAndX));
        QCOMPARE(qFromLittleEndian<quint16>(setup.constData() + 33 + 8), quint16(1));
        QCOMPARE(qFromLittleEndian<quint32>(setup.constData() + 33 + 10), 0x00c0ffeeu);
        QVERIFY(setup.contains(NtlmChallenge::negotiateMessage()));
    }

    void smb1PeerGarbage_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("errorContains");
        QTest::newRow("closes on everything")
            << 0
            << QStringLiteral("closed the connection while we waited for its SMB1 NEGOTIATE answer (no SMB2: it closed "
                              "the connection on an SMB2 NEGOTIATE)");
        QTest::newRow("no extended security") << 1 << QStringLiteral("without extended security");
        QTest::newRow("session setup cut short") << 2 << QStringLiteral("cut short");
        QTest::newRow("session setup refused") << 3 << QStringLiteral("STATUS_LOGON_FAILURE");
        QTest::newRow("random bytes") << 4 << QStringLiteral("SMB1");
        QTest::newRow("blob without NTLMSSP") << 5 << QStringLiteral("no NTLMSSP CHALLENGE");
    }
    void smb1PeerGarbage()
    {
        QFETCH(int, kind);
        QFETCH(QString, errorContains);
        CannedSmbPeer peer([kind](const QByteArray &request) -> QByteArray {
            if (kind == 0 || request.startsWith(QByteArray("\xfeSMB", 4)))
                return {};
            if (isSmb1Command(request, Smb1SessionSetup::kNegotiate))
                return kind == 1 ? negotiateAnswer(1, 0x0000f3fd)
                    : kind == 4  ? QByteArray(77, '\x5a')
                                 : negotiateAnswer(1, 0x8000f3fd);
            SetupAnswerSpec spec;
            spec.blob = kind == 5 ? QByteArray("not a token") : challengeMessage({});
            spec.nativeOs = QStringLiteral("Unix");
            spec.nativeLanMan = QStringLiteral("Samba");
            if (kind == 3) {
                QByteArray refused = smb1AnswerHeader(Smb1SessionSetup::kSessionSetupAndX, 0xC000006D, true);
                return refused + QByteArray(3, '\0');
            }
            const QByteArray full = sessionSetupAnswer(spec);
            return kind == 2 ? full.left(full.size() - 20) : full;
        });
        const SmbIdentityProbe::Handshake h = SmbIdentityProbe::handshake(cannedHost(peer.port()));
        qInfo("%s", qPrintable(h.ntlm.error));
        QVERIFY(h.viaSmb1);
        QVERIFY(h.ntlm.failed());
        QVERIFY2(h.ntlm.error.startsWith(QStringLiteral("fake (127.0.0.1:%1): SMB ").arg(peer.port())),
                 qPrintable(h.ntlm.error));
        QVERIFY2(h.ntlm.error.contains(errorContains), qPrintable(h.ntlm.error));
        QVERIFY(!h.ntlm.error.contains(QLatin1Char('\n')));
        // The strings still count when only the blob is bad.
        QCOMPARE(h.native.failed() || h.native.source.isEmpty(), kind != 5);
    }

    void nativeStringLabel_data()
    {
        QTest::addColumn<QString>("nativeOs");
        QTest::addColumn<QString>("nativeLanMan");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("rank");
        QTest::newRow("2003 SP2") << QStringLiteral("Windows Server 2003 3790 Service Pack 2")
                                  << QStringLiteral("Windows Server 2003 5.2") << QStringLiteral("Windows Server 2003")
                                  << 80;
        QTest::newRow("2003 R2") << QStringLiteral("Windows Server 2003 R2 3790 Service Pack 2")
                                 << QStringLiteral("Windows Server 2003 R2 5.2")
                                 << QStringLiteral("Windows Server 2003 R2") << 80;
        QTest::newRow("7") << QStringLiteral("Windows 7 Professional 7601 Service Pack 1")
                           << QStringLiteral("Windows 7 Professional 6.1") << QStringLiteral("Windows 7 Professional")
                           << 80;
        QTest::newRow("XP SP2") << QStringLiteral("Windows 2002 Service Pack 2 2600")
                                << QStringLiteral("Windows 2002 5.1") << QStringLiteral("Windows 2002") << 80;
        QTest::newRow("no build") << QStringLiteral("Windows Server 2003") << QString()
                                  << QStringLiteral("Windows Server 2003") << 50;
        QTest::newRow("XP") << QStringLiteral("Windows 5.1") << QStringLiteral("Windows 2000 LAN Manager")
                            << QStringLiteral("Windows XP") << 70;
        QTest::newRow("2000") << QStringLiteral("Windows 5.0") << QStringLiteral("Windows 2000 LAN Manager")
                              << QStringLiteral("Windows 2000") << 70;
        QTest::newRow("10.0") << QStringLiteral("Windows 10.0") << QString()
                              << QStringLiteral("Windows 10/11 or Server") << 70;
        QTest::newRow("Samba 4.17") << QStringLiteral("Windows 6.1") << QStringLiteral("Samba 4.17.12-Debian")
                                    << QStringLiteral("Samba 4.17.12-Debian (Linux/Unix)") << 70;
        QTest::newRow("Samba 3") << QStringLiteral("Unix") << QStringLiteral("Samba 3.6.25")
                                 << QStringLiteral("Samba 3.6.25 (Linux/Unix)") << 70;
        QTest::newRow("Samba, no version")
            << QStringLiteral("Unix") << QStringLiteral("Samba") << QStringLiteral("Samba (Linux/Unix)") << 50;
        QTest::newRow("Unix") << QStringLiteral("Unix") << QStringLiteral("NAS") << QStringLiteral("Linux/Unix") << 30;
        QTest::newRow("nothing") << QString() << QString() << QString() << 0;
    }
    void nativeStringLabel()
    {
        QFETCH(QString, nativeOs);
        QFETCH(QString, nativeLanMan);
        QFETCH(QString, label);
        QFETCH(int, rank);
        int got = -1;
        QCOMPARE(Smb1SessionSetup::labelFor(nativeOs, nativeLanMan, &got), label);
        QCOMPARE(got, rank);
    }

    void ftpLabel_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::newRow("vsftpd greeting") << QStringLiteral("220 (vsFTPd 3.0.3)")
                                         << QStringLiteral("Linux/Unix (vsftpd)");
        QTest::newRow("vsftpd SYST") << QStringLiteral("215 UNIX Type: L8") << QStringLiteral("Linux/Unix");
        QTest::newRow("IIS greeting") << QStringLiteral("220 Microsoft FTP Service")
                                      << QStringLiteral("Windows (IIS FTP)");
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
        QTest::newRow("single") << QByteArray("220 (vsFTPd 3.0.3)\r\nSYST") << 220
                                << QStringLiteral("220 (vsFTPd 3.0.3)") << 20;
        QTest::newRow("multi-line") << QByteArray("220-Welcome\r\n220-to Pure-FTPd\r\n 220 not the end\r\n220 end\r\n")
                                    << 220 << QStringLiteral("220-Welcome\n220-to Pure-FTPd\n 220 not the end\n220 end")
                                    << 58;
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
                                       << QStringLiteral("Samba 4.17.12-Debian")
                                       << QStringLiteral("Samba 4.17.12-Debian");
        QTest::newRow("Samba custom") << QStringLiteral("IPC Service (Wirebench test Samba)")
                                      << QStringLiteral("Samba (Linux/Unix)") << QStringLiteral("Wirebench test Samba");
        QTest::newRow("Windows") << QStringLiteral("Remote IPC") << QStringLiteral("Windows")
                                 << QStringLiteral("Remote IPC");
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
            {QStringLiteral("FTP greeting (220)"),
             QStringLiteral("220 (vsFTPd 3.0.3)"),
             QStringLiteral("Linux/Unix (vsftpd)"),
             {},
             30},
            {QStringLiteral("SMB NTLMSSP version"),
             QStringLiteral("NTLMSSP 6.1 build 0"),
             QStringLiteral("Samba (Linux/Unix)"),
             {},
             60},
            {QStringLiteral("FTP SYST (215)"),
             QStringLiteral("215 UNIX Type: L8"),
             QStringLiteral("Linux/Unix"),
             {},
             20},
        };
        QCOMPARE(bestOsLabel(list), QStringLiteral("Samba (Linux/Unix)"));
        QCOMPARE(bestEvidence(list)->source, QStringLiteral("SMB NTLMSSP version"));
        QVERIFY(bestOsLabel({list.first()}).isEmpty());
        QVERIFY(!bestEvidence({}));
    }

    void bestLabelWithSmb1()
    {
        // Windows Server 2003: NativeOS and the NTLMSSP build agree and rank alike; the first of equals wins.
        ServerEvidence w2003Native{
            QStringLiteral("SMB1 NativeOS / NativeLanMan"), QStringLiteral("NativeOS ..."), {}, {}, 0};
        w2003Native.suggests = Smb1SessionSetup::labelFor(QStringLiteral("Windows Server 2003 3790 Service Pack 2"),
                                                          QStringLiteral("Windows Server 2003 5.2"), &w2003Native.rank);
        const ServerEvidenceList w2003{
            {QStringLiteral("FTP greeting (220)"),
             QStringLiteral("220 Microsoft FTP Service"),
             QStringLiteral("Windows (IIS FTP)"),
             {},
             30},
            {QStringLiteral("SMB NTLMSSP version"),
             QStringLiteral("NTLMSSP 5.2 build 3790"),
             QStringLiteral("Windows Server 2003"),
             {},
             80},
            w2003Native,
            {QStringLiteral("SMB server string (IPC$ comment)"),
             QStringLiteral("Remote IPC"),
             QStringLiteral("Windows"),
             {},
             10},
        };
        QCOMPARE(bestOsLabel(w2003), QStringLiteral("Windows Server 2003"));
        QCOMPARE(w2003Native.rank, 80);
        // Samba with SMB1 only: NativeLanMan's version outranks NTLMSSP build 0 and "Windows 6.1" in NativeOS.
        ServerEvidence sambaNative{
            QStringLiteral("SMB1 NativeOS / NativeLanMan"), QStringLiteral("NativeOS ..."), {}, {}, 0};
        sambaNative.suggests = Smb1SessionSetup::labelFor(QStringLiteral("Windows 6.1"),
                                                          QStringLiteral("Samba 4.17.12-Debian"), &sambaNative.rank);
        const ServerEvidenceList samba{
            {QStringLiteral("SMB NTLMSSP version"),
             QStringLiteral("NTLMSSP 6.1 build 0"),
             QStringLiteral("Samba (Linux/Unix)"),
             {},
             60},
            sambaNative,
            ServerEvidence::failure(QStringLiteral("SMB server string (IPC$ comment)"),
                                    QStringLiteral("fs1 (10.0.0.5:445): SMB ...")),
        };
        QCOMPARE(bestOsLabel(samba), QStringLiteral("Samba 4.17.12-Debian (Linux/Unix)"));
        QCOMPARE(bestEvidence(samba)->source, QStringLiteral("SMB1 NativeOS / NativeLanMan"));
    }
};

QTEST_GUILESS_MAIN(TestServerIdentity)
#include "TestServerIdentity.moc"
