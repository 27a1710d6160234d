// The identity probes against real servers the test starts: vsftpd and smbd (tests/protocols FileServerFixture)
// and a Responder (wirebenchd) on 127.0.0.1; plus the engine filling serverOs of SMB results. A second smbd speaks
// SMB1 only ("server min/max protocol = NT1"), as Windows Server 2003 does.
#include "wire/QtWire.h"
#include "IdentityPeers.h"
#include "engine/Engine.h"
#include "support/EngineRun.h"
#include "identity/FtpIdentityProbe.h"
#include "identity/HelloIdentityProbe.h"
#include "identity/ServerIdentity.h"
#include "identity/SmbIdentityProbe.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace wb;
using namespace wb::test;

namespace {

/// "Samba 4.17.12-Debian": what the installed smbd calls itself ("Version 4.17.12-Debian"), as NativeLanMan should.
QString installedSamba()
{
    QProcess p;
    p.start(QStringLiteral("/usr/sbin/smbd"), {QStringLiteral("--version")});
    p.waitForFinished(10000);
    const QString out = QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
    return out.startsWith(QLatin1String("Version ")) ? QStringLiteral("Samba ") + out.mid(8) : QString();
}

void logEvidence(const ServerEvidenceList &list)
{
    for (const ServerEvidence &e : list)
        qInfo("  %s | %s | %s%s", qPrintable(e.source), qPrintable(e.said), qPrintable(e.suggests),
              qPrintable(e.error));
}

/// host without the user and password of the protocol family (ftp, smb): as the host dialog's Detect on a new host.
Host anonymous(Host host, const QString &family)
{
    host.options.remove(family + QStringLiteral(".user"));
    host.options.remove(family + QStringLiteral(".password"));
    return host;
}

} // namespace

class TestServerProbe : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_peers.start(&why), qPrintable(why));
        m_ready = m_peers.fileServersReady();
        m_why = m_peers.whyNoFileServers();
        m_smb1Why = m_why;
        if (m_ready) {
            m_smb1.setExtraSmbConf(
                {QStringLiteral("server min protocol = NT1"), QStringLiteral("server max protocol = NT1")});
            m_smb1Ready = m_smb1.prepare(&m_smb1Why) && m_smb1.startSmb(&m_smb1Why);
        }
    }

    void cleanupTestCase()
    {
        m_smb1.stopAll();
        m_peers.stop();
    }

    void ftpSystBeforeLogin()
    {
        // vsftpd answers SYST only after login: without a user the probe records the refusal, suggesting nothing.
        WB_REQUIRE(m_ready, m_why);
        const Host host = anonymous(m_fixture.ftpHost(), QStringLiteral("ftp"));
        const ServerEvidenceList list = FtpIdentityProbe::probe(host);
        QCOMPARE(list.size(), 2);
        qInfo("vsftpd without login: %s | %s", qPrintable(list.at(0).said), qPrintable(list.at(1).said));
        QCOMPARE(list.at(0).suggests, QStringLiteral("Linux/Unix (vsftpd)"));
        QVERIFY2(!list.at(1).failed(), qPrintable(list.at(1).error));
        QVERIFY2(list.at(1).said.startsWith(QLatin1String("530 ")), qPrintable(list.at(1).said));
        QVERIFY(list.at(1).suggests.isEmpty());
        QCOMPARE(bestOsLabel(list), QStringLiteral("Linux/Unix (vsftpd)"));
    }

    void ftpGreetingAndSyst()
    {
        WB_REQUIRE(m_ready, m_why);
        const ServerEvidenceList list = FtpIdentityProbe::probe(m_fixture.ftpHost());
        QCOMPARE(list.size(), 2);
        qInfo("vsftpd: %s | %s", qPrintable(list.at(0).said), qPrintable(list.at(1).said));
        QVERIFY2(!list.at(0).failed(), qPrintable(list.at(0).error));
        QCOMPARE(list.at(0).source, QStringLiteral("FTP greeting (220)"));
        QVERIFY2(list.at(0).said.startsWith(QLatin1String("220 ")) && list.at(0).said.contains(QLatin1String("vsFTPd")),
                 qPrintable(list.at(0).said));
        QCOMPARE(list.at(0).suggests, QStringLiteral("Linux/Unix (vsftpd)"));
        QVERIFY2(!list.at(1).failed(), qPrintable(list.at(1).error));
        QCOMPARE(list.at(1).source, QStringLiteral("FTP SYST (215)"));
        QCOMPARE(list.at(1).said, QStringLiteral("215 UNIX Type: L8"));
        QCOMPARE(list.at(1).suggests, QStringLiteral("Linux/Unix"));
    }

    void sambaNtlmssp_data()
    {
        QTest::addColumn<int>("framing");
        QTest::addColumn<QString>("used");
        QTest::newRow("raw") << int(SmbIdentityProbe::Framing::RawThenSpnego) << QStringLiteral("[raw NTLMSSP]");
        QTest::newRow("SPNEGO") << int(SmbIdentityProbe::Framing::Spnego) << QStringLiteral("[NTLMSSP in SPNEGO]");
    }
    void sambaNtlmssp()
    {
        WB_REQUIRE(m_ready, m_why);
        QFETCH(int, framing);
        QFETCH(QString, used);
        const Host host
            = anonymous(m_fixture.smbHost(), QStringLiteral("smb")); // no credential goes into the challenge request
        NtlmChallenge c;
        const ServerEvidence e
            = SmbIdentityProbe::ntlmssp(host, SmbIdentityProbe::kTimeoutMs, &c, SmbIdentityProbe::Framing(framing));
        qInfo("smbd NTLMSSP: %s", qPrintable(e.said));
        QVERIFY2(!e.failed(), qPrintable(e.error));
        QVERIFY(c.hasVersion);
        QCOMPARE(c.build, 0); // Samba's mark
        QVERIFY2(c.major >= 6, qPrintable(c.versionText()));
        QCOMPARE(c.netbiosComputer, QStringLiteral("WBTEST")); // "netbios name = WBTEST" in the fixture's smb.conf
        QCOMPARE(e.suggests, QStringLiteral("Samba (Linux/Unix)"));
        QVERIFY(e.said.startsWith(QStringLiteral("NTLMSSP %1").arg(c.versionText())));
        QVERIFY2(e.said.endsWith(used), qPrintable(e.said));
    }

    void sambaServerString()
    {
        WB_REQUIRE(m_ready, m_why);
        const ServerEvidence e = SmbIdentityProbe::serverString(m_fixture.smbHost());
        qInfo("smbd IPC$ comment: %s", qPrintable(e.said));
        QVERIFY2(!e.failed(), qPrintable(e.error));
        QCOMPARE(e.source, QStringLiteral("SMB server string (IPC$ comment)"));
        QVERIFY2(e.said.contains(QLatin1String("Samba")), qPrintable(e.said));
        QCOMPARE(e.said, QStringLiteral("IPC Service (Wirebench test Samba)")); // "server string" of the fixture
        QCOMPARE(e.suggests, QStringLiteral("Samba (Linux/Unix)"));
    }

    void sambaServerStringAnonymous()
    {
        WB_REQUIRE(m_ready, m_why);
        const Host host = anonymous(m_fixture.smbHost(), QStringLiteral("smb"));
        const ServerEvidence e = SmbIdentityProbe::serverString(host);
        qInfo("smbd IPC$ comment, anonymous: %s%s", qPrintable(e.said), qPrintable(e.error));
        // Samba lists its shares to an anonymous session unless "restrict anonymous" says otherwise.
        QVERIFY2(!e.failed(), qPrintable(e.error));
        QVERIFY(e.said.contains(QLatin1String("Samba")));
    }

    void smbSummary()
    {
        WB_REQUIRE(m_ready, m_why);
        const SmbIdentityProbe::Result r = SmbIdentityProbe::probe(m_fixture.smbHost());
        qInfo("smb serverOs: %s [%s]", qPrintable(r.serverOs), qPrintable(r.source));
        QVERIFY2(r.serverOs.startsWith(QLatin1String("Wirebench test Samba (NTLMSSP ")), qPrintable(r.serverOs));
        QVERIFY(r.serverOs.endsWith(QLatin1String(" build 0)")));
        QCOMPARE(r.source, QStringLiteral("SMB server string (IPC$ comment) and SMB NTLMSSP version"));
        QCOMPARE(r.evidence.size(), 2); // SMB2 answered: no SMB1 row
    }

    void smb1OnlySamba()
    {
        // Anonymous, as the host dialog's Detect on a new host: NTLMSSP and the SMB1 strings need no credential.
        WB_REQUIRE(m_smb1Ready, m_smb1Why);
        const Host host = anonymous(m_smb1.smbHost(), QStringLiteral("smb"));
        const SmbIdentityProbe::Result r = SmbIdentityProbe::probe(host);
        qInfo("SMB1-only smbd: serverOs %s [%s]", qPrintable(r.serverOs), qPrintable(r.source));
        logEvidence(r.evidence);
        QCOMPARE(r.evidence.size(), 3);
        const ServerEvidence &ntlm = r.evidence.at(0);
        QVERIFY2(!ntlm.failed(), qPrintable(ntlm.error));
        QCOMPARE(ntlm.source, QStringLiteral("SMB NTLMSSP version"));
        QVERIFY2(ntlm.said.contains(QLatin1String(" build 0 ")), qPrintable(ntlm.said)); // Samba's mark, via SMB1
        QVERIFY2(ntlm.said.endsWith(QLatin1String("[raw NTLMSSP over SMB1]")), qPrintable(ntlm.said));
        QCOMPARE(ntlm.suggests, QStringLiteral("Samba (Linux/Unix)"));

        const QString samba = installedSamba();
        QVERIFY(!samba.isEmpty());
        const ServerEvidence &native = r.evidence.at(1);
        QVERIFY2(!native.failed(), qPrintable(native.error));
        QCOMPARE(native.source, QStringLiteral("SMB1 NativeOS / NativeLanMan"));
        QVERIFY2(native.said.contains(QStringLiteral("NativeLanMan \"%1\"").arg(samba)), qPrintable(native.said));
        QCOMPARE(native.suggests, samba + QStringLiteral(" (Linux/Unix)"));

        const ServerEvidence &comment = r.evidence.at(2);
        QVERIFY(comment.failed()); // libsmbclient offers SMB2 only unless the host allows SMB1
        QVERIFY2(comment.error.startsWith(QStringLiteral("test-samba (127.0.0.1:%1): SMB ").arg(m_smb1.smbPort())),
                 qPrintable(comment.error));
        QVERIFY2(comment.error.contains(QLatin1String("Allow SMB1 (NT1)")), qPrintable(comment.error));

        QCOMPARE(bestOsLabel(r.evidence), samba + QStringLiteral(" (Linux/Unix)"));
        QVERIFY2(r.serverOs.startsWith(samba + QStringLiteral(" (NTLMSSP "))
                     && r.serverOs.endsWith(QLatin1String(" build 0)")),
                 qPrintable(r.serverOs));
        QCOMPARE(r.source, QStringLiteral("SMB1 NativeOS / NativeLanMan and SMB NTLMSSP version"));
    }

    void smb1Handshake_data()
    {
        QTest::addColumn<int>("framing");
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("used");
        using P = SmbIdentityProbe;
        QTest::newRow("SMB2 refused, raw") << int(P::Framing::RawThenSpnego) << int(P::Dialect::Smb2ThenSmb1)
                                           << QStringLiteral("[raw NTLMSSP over SMB1]");
        QTest::newRow("SMB2 refused, SPNEGO") << int(P::Framing::Spnego) << int(P::Dialect::Smb2ThenSmb1)
                                              << QStringLiteral("[NTLMSSP in SPNEGO over SMB1]");
        QTest::newRow("SMB1 asked, raw") << int(P::Framing::RawThenSpnego) << int(P::Dialect::Smb1)
                                         << QStringLiteral("[raw NTLMSSP over SMB1]");
        QTest::newRow("SMB1 asked, SPNEGO")
            << int(P::Framing::Spnego) << int(P::Dialect::Smb1) << QStringLiteral("[NTLMSSP in SPNEGO over SMB1]");
    }
    void smb1Handshake()
    {
        WB_REQUIRE(m_smb1Ready, m_smb1Why);
        QFETCH(int, framing);
        QFETCH(int, dialect);
        QFETCH(QString, used);
        const Host host = anonymous(m_smb1.smbHost(), QStringLiteral("smb"));
        const SmbIdentityProbe::Handshake h = SmbIdentityProbe::handshake(
            host, SmbIdentityProbe::kTimeoutMs, SmbIdentityProbe::Framing(framing), SmbIdentityProbe::Dialect(dialect));
        qInfo("SMB1 handshake: %s | %s", qPrintable(h.ntlm.said + h.ntlm.error), qPrintable(h.native.said));
        QVERIFY(h.viaSmb1);
        QVERIFY2(!h.ntlm.failed(), qPrintable(h.ntlm.error));
        QVERIFY2(h.ntlm.said.endsWith(used), qPrintable(h.ntlm.said));
        QVERIFY(h.challenge.hasVersion);
        QCOMPARE(h.challenge.build, 0);
        QCOMPARE(h.challenge.netbiosComputer, QStringLiteral("WBTEST"));
        QVERIFY2(h.smb1.nativeLanMan.contains(QLatin1String("Samba")), qPrintable(h.smb1.nativeLanMan));
        QCOMPARE(h.smb1.primaryDomain, QStringLiteral("WBTEST"));
        QVERIFY(!h.native.failed());
    }

    void smb1ServerStringWhenAllowed()
    {
        // With "Allow SMB1 (NT1)" on, libsmbclient lists the shares over NT1 as well.
        WB_REQUIRE(m_smb1Ready, m_smb1Why);
        Host host = m_smb1.smbHost();
        host.options.insert(QStringLiteral("smb.allow_smb1"), true);
        const SmbIdentityProbe::Result r = SmbIdentityProbe::probe(host);
        qInfo("SMB1-only smbd, SMB1 allowed: serverOs %s [%s]", qPrintable(r.serverOs), qPrintable(r.source));
        logEvidence(r.evidence);
        QCOMPARE(r.evidence.size(), 3);
        for (const ServerEvidence &e : r.evidence)
            QVERIFY2(!e.failed(), qPrintable(e.error));
        QCOMPARE(r.evidence.at(2).said, QStringLiteral("IPC Service (Wirebench test Samba)"));
        QVERIFY2(r.serverOs.startsWith(QLatin1String("Wirebench test Samba (NTLMSSP ")), qPrintable(r.serverOs));
        QCOMPARE(r.source, QStringLiteral("SMB server string (IPC$ comment) and SMB NTLMSSP version"));
    }

    void wirebenchdHello()
    {
        Host host;
        host.name = QStringLiteral("loopback");
        host.address = QStringLiteral("127.0.0.1");
        host.port = m_peers.responderPort();
        const ServerEvidence e = HelloIdentityProbe::probe(host);
        qInfo("hello: %s", qPrintable(e.said));
        QVERIFY2(!e.failed(), qPrintable(e.error));
        const control::Hello local = control::Hello::local("x");
        QCOMPARE(e.suggests, wire::qs(local.osName));
        QVERIFY(e.said.startsWith(QLatin1String("wirebenchd ")));
        QVERIFY(e.said.contains(wire::qs(local.osSummary())));
        QVERIFY(e.rank > 80);
    }

    void failuresAreOneLine_data()
    {
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QString>("target"); // "closed", "ftp", "smb"
        QTest::addColumn<QString>("errorContains");
        QTest::newRow("FTP, closed port")
            << QStringLiteral("ftp") << QStringLiteral("closed") << QStringLiteral("connection refused");
        QTest::newRow("SMB, closed port")
            << QStringLiteral("smb") << QStringLiteral("closed") << QStringLiteral("connection refused");
        QTest::newRow("hello, closed port")
            << QStringLiteral("hello") << QStringLiteral("closed") << QStringLiteral("connection refused");
        QTest::newRow("SMB at vsftpd") << QStringLiteral("smb") << QStringLiteral("ftp") << QStringLiteral("not SMB");
        QTest::newRow("hello at vsftpd") << QStringLiteral("hello") << QStringLiteral("ftp")
                                         << QStringLiteral("no valid hello");
        QTest::newRow("FTP at smbd") << QStringLiteral("ftp") << QStringLiteral("smb") << QStringLiteral("within");
        QTest::newRow("SMB1 at vsftpd") << QStringLiteral("smb1") << QStringLiteral("ftp") << QStringLiteral("not SMB");
        QTest::newRow("SMB1 at SMB2-only smbd")
            << QStringLiteral("smb1") << QStringLiteral("smb") << QStringLiteral("refused SMB1");
    }
    void failuresAreOneLine()
    {
        QFETCH(QString, probe);
        QFETCH(QString, target);
        QFETCH(QString, errorContains);
        if (target != QLatin1String("closed"))
            WB_REQUIRE(m_ready, m_why);
        const quint16 port = target == QLatin1String("ftp") ? m_fixture.ftpPort()
            : target == QLatin1String("smb")                ? m_fixture.smbPort()
                                                            : FileServerFixture::closedPort();
        const Host host = IdentityPeers::onePort(QStringLiteral("nowhere"), port);
        ServerEvidence e;
        if (probe == QLatin1String("ftp"))
            e = FtpIdentityProbe::probe(host, 1500).value(0);
        else if (probe == QLatin1String("smb"))
            e = SmbIdentityProbe::ntlmssp(host, 1500);
        else if (probe == QLatin1String("smb1"))
            e = SmbIdentityProbe::handshake(host, 1500, SmbIdentityProbe::Framing::RawThenSpnego,
                                            SmbIdentityProbe::Dialect::Smb1)
                    .ntlm;
        else
            e = HelloIdentityProbe::probe(host, 1500);
        qInfo("%s", qPrintable(e.error));
        QVERIFY(e.failed());
        QVERIFY(e.suggests.isEmpty());
        QVERIFY2(e.error.startsWith(QStringLiteral("nowhere (127.0.0.1:%1): ").arg(port)), qPrintable(e.error));
        QVERIFY2(e.error.contains(errorContains), qPrintable(e.error));
        QVERIFY(!e.error.contains(QLatin1Char('\n')));
    }

    void detectEverything()
    {
        WB_REQUIRE(m_ready, m_why);
        Host host = m_fixture.smbHost();
        host.options.insert(QStringLiteral("ftp.port"), m_fixture.ftpPort());
        host.port = m_peers.responderPort();
        const ServerEvidenceList list = ServerIdentity::detect(host);
        QStringList sources;
        for (const ServerEvidence &e : list) {
            QVERIFY2(!e.failed(), qPrintable(e.error));
            sources << e.source;
        }
        QCOMPARE(sources,
                 QStringList({QStringLiteral("wirebenchd hello"), QStringLiteral("FTP greeting (220)"),
                              QStringLiteral("FTP SYST (215)"), QStringLiteral("SMB NTLMSSP version"),
                              QStringLiteral("SMB server string (IPC$ comment)")}));
        QCOMPARE(bestOsLabel(list), wire::qs(control::Hello::local("x").osName));
    }

    void engineFillsSmbServerOs()
    {
        WB_REQUIRE(m_ready, m_why);
        TestPlan plan;
        plan.hosts = {m_fixture.smbHost()};
        plan.protocols = {QStringLiteral("smb-write"), QStringLiteral("smb-read")};
        plan.frameSizes = {1500};
        plan.repetitions = 1;
        plan.params.fileSizeBytes = 4 * 1024 * 1024;
        EngineSpies run;
        QVERIFY(run.engine.start(plan));
        QVERIFY(run.done.wait(120000));
        QCOMPARE(run.finished.size(), 2);
        for (const QList<QVariant> &args : std::as_const(run.finished)) {
            const RunResult r = args.at(0).value<RunResult>();
            QVERIFY2(r.ok(), qPrintable(r.error));
            qInfo("%s: serverOs \"%s\" from %s", qPrintable(r.spec.protocol), qPrintable(r.serverOs),
                  qPrintable(r.extra.value(QStringLiteral("server_identity_source")).toString()));
            QVERIFY2(r.serverOs.startsWith(QLatin1String("Wirebench test Samba (NTLMSSP ")), qPrintable(r.serverOs));
            QCOMPARE(r.extra.value(QStringLiteral("server_identity_source")).toString(),
                     QStringLiteral("SMB server string (IPC$ comment) and SMB NTLMSSP version"));
        }
    }

private:
    IdentityPeers m_peers;
    FileServerFixture &m_fixture = m_peers.fixture();
    bool m_ready = false;
    QString m_why;
    FileServerFixture m_smb1; ///< smbd with "server min/max protocol = NT1"
    bool m_smb1Ready = false;
    QString m_smb1Why;
};

QTEST_GUILESS_MAIN(TestServerProbe)
#include "TestServerProbe.moc"
