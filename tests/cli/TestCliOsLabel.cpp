// The OS label an SMB server's NTLMSSP version gives, as the built wirebench-cli shows it: once. The peer is the
// scripted SMB server of tests/identity on 127.0.0.1 (no real server here sends a Windows build, nor a version that
// no release has); it answers the SMB2 NEGOTIATE and the NTLMSSP NEGOTIATE with a CHALLENGE of the given version and
// refuses the logon, so the smb-read run fails and the engine asks the server who it is, as after any SMB run.
#include "../identity/CannedSmbPeer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "support/CliTestSupport.h"

using namespace clitest;

namespace {

constexpr quint32 kStatusMoreProcessing = 0xC0000016;
constexpr quint32 kStatusLogonFailure = 0xC000006D;

/// An SMB2 answer ([MS-SMB2] 2.2.1.2) to `request`: same command and message id, one credit.
QByteArray smb2Answer(const QByteArray &request, quint32 status, const QByteArray &body)
{
    QByteArray m("\xfeSMB", 4);
    wb::wire::putLe<quint16>(m, 64);
    wb::wire::putLe<quint16>(m, 1); // CreditCharge
    wb::wire::putLe<quint32>(m, status);
    m += request.mid(12, 2);                                                 // Command
    wb::wire::putLe<quint16>(m, 1);                                          // CreditResponse
    wb::wire::putLe<quint32>(m, 1);                                          // Flags: SERVER_TO_REDIR
    wb::wire::putLe<quint32>(m, 0);                                          // NextCommand
    m += request.mid(24, 8);                                                 // MessageId
    wb::wire::putLe<quint32>(m, 0);                                          // Reserved
    wb::wire::putLe<quint32>(m, 0);                                          // TreeId
    wb::wire::putLe<quint64>(m, status == kStatusMoreProcessing ? 0x42 : 0); // SessionId
    m.append(16, '\0');                                                      // Signature
    return m + body;
}

/// NEGOTIATE: SMB 3.0.2, no security buffer.
QByteArray negotiateBody()
{
    QByteArray b;
    wb::wire::putLe<quint16>(b, 65);     // StructureSize
    wb::wire::putLe<quint16>(b, 1);      // SecurityMode: signing enabled
    wb::wire::putLe<quint16>(b, 0x0302); // DialectRevision
    wb::wire::putLe<quint16>(b, 0);      // NegotiateContextCount
    b.append(16, '\x5a');                // ServerGuid
    wb::wire::putLe<quint32>(b, 0);      // Capabilities
    for (int i = 0; i < 3; ++i)
        wb::wire::putLe<quint32>(b, 65536); // MaxTransact/Read/WriteSize
    wb::wire::putLe<quint64>(b, 0);         // SystemTime
    wb::wire::putLe<quint64>(b, 0);         // ServerStartTime
    wb::wire::putLe<quint16>(b, 128);       // SecurityBufferOffset
    wb::wire::putLe<quint16>(b, 0);         // SecurityBufferLength
    wb::wire::putLe<quint32>(b, 0);         // NegotiateContextOffset
    return b;
}

/// SESSION_SETUP with the security buffer `token`.
QByteArray sessionSetupBody(const QByteArray &token)
{
    QByteArray b;
    wb::wire::putLe<quint16>(b, 9);  // StructureSize
    wb::wire::putLe<quint16>(b, 0);  // SessionFlags
    wb::wire::putLe<quint16>(b, 72); // SecurityBufferOffset
    wb::wire::putLe<quint16>(b, quint16(token.size()));
    return b + token;
}

/// A server whose NTLMSSP CHALLENGE carries this version, and that refuses every logon.
QByteArray answerAs(const QByteArray &request, const wb::test::ChallengeSpec &spec)
{
    if (!request.startsWith(QByteArray("\xfeSMB", 4)) || request.size() < 64)
        return {}; // SMB1 or garbage: close
    const quint16 command = wb::wire::u16(request, 12);
    if (command == 0)
        return smb2Answer(request, 0, negotiateBody());
    if (command == 1 && request.contains(QByteArray("NTLMSSP\0\x01", 9)))
        return smb2Answer(request, kStatusMoreProcessing, sessionSetupBody(wb::test::challengeMessage(spec)));
    if (command == 1) {
        QByteArray error;
        wb::wire::putLe<quint16>(error, 9); // ERROR response
        error.append(6, '\0');
        return smb2Answer(request, kStatusLogonFailure, error);
    }
    return {};
}

} // namespace

class TestCliOsLabel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void labelSaysTheVersionOnce_data();
    void labelSaysTheVersionOnce();
};

void TestCliOsLabel::initTestCase()
{
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
}

void TestCliOsLabel::labelSaysTheVersionOnce_data()
{
    QTest::addColumn<int>("major");
    QTest::addColumn<int>("minor");
    QTest::addColumn<int>("build");
    QTest::addColumn<QString>("label");
    // No release has this version: its label is made of the version itself.
    QTest::newRow("unknown version") << 255 << 255 << 65535 << QStringLiteral("Windows (NTLMSSP 255.255 build 65535)");
    // A known release: the name, then the version that told it.
    QTest::newRow("Windows Server 2019") << 10 << 0 << 17763
                                         << QStringLiteral("Windows Server 2019 (NTLMSSP 10.0 build 17763)");
}

void TestCliOsLabel::labelSaysTheVersionOnce()
{
    QFETCH(int, major);
    QFETCH(int, minor);
    QFETCH(int, build);
    QFETCH(QString, label);
    wb::test::ChallengeSpec spec;
    spec.major = quint8(major);
    spec.minor = quint8(minor);
    spec.build = quint16(build);
    wb::test::CannedSmbPeer peer([spec](const QByteArray &request) { return answerAs(request, spec); });
    QVERIFY(peer.port() != 0);

    QTemporaryDir dir;
    const QString password = dir.filePath(QStringLiteral("smb.pw"));
    {
        QFile f(password);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not-the-password\n");
    }
    const QString json = dir.filePath(QStringLiteral("run.json"));
    const Outcome o
        = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("fake=127.0.0.1"),
                  QStringLiteral("--protocol"), QStringLiteral("smb-read"), QStringLiteral("--reps"),
                  QStringLiteral("1"), QStringLiteral("--file-size"), QStringLiteral("1M"), QStringLiteral("--set"),
                  QStringLiteral("smb.port=%1").arg(peer.port()), QStringLiteral("--set"),
                  QStringLiteral("smb.share=bench"), QStringLiteral("--set"), QStringLiteral("smb.user=bench"),
                  QStringLiteral("--set"), QStringLiteral("smb.password=@") + password, QStringLiteral("--json"), json,
                  // The scripted peer refuses the logon, which the check before the first run
                  // would report instead of the run line whose label this test reads.
                  QStringLiteral("--no-store"), QStringLiteral("--skip-check")});
    QVERIFY2(o.exitCode == 1, qPrintable(o.out + o.err)); // the logon is refused
    qInfo("%s", qPrintable(o.out.section(QLatin1Char('\n'), 1, 1)));
    const QString version = QStringLiteral("(NTLMSSP %1.%2 build %3)").arg(major).arg(minor).arg(build);
    QVERIFY2(o.out.contains(QStringLiteral("run 1/1  fake  [%1]  smb-read").arg(label)), qPrintable(o.out));
    QVERIFY2(!o.out.contains(version + QLatin1Char(' ') + version), qPrintable(o.out));

    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject run
        = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("results")).toArray().at(0).toObject();
    QCOMPARE(run.value(QStringLiteral("server_os")).toString(), label);
}

QTEST_GUILESS_MAIN(TestCliOsLabel)
#include "TestCliOsLabel.moc"
