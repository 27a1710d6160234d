// HostSecrets: `--set HOST:KEY=VALUE` split, a secrets file's lines, the hosts a name names, the file's mode rule.
#include "plan/HostSecrets.h"

#include "plan/Secrets.h"
#include "plan/TestPlan.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

TestPlan twoServers()
{
    TestPlan plan;
    Host linuxHost;
    linuxHost.name = QStringLiteral("linux-server");
    linuxHost.address = QStringLiteral("192.0.2.10");
    Host windows;
    windows.name = QStringLiteral("Windows-Server");
    windows.address = QStringLiteral("192.0.2.11");
    Host bare;
    bare.address = QStringLiteral("fe80::1");
    plan.hosts = {linuxHost, windows, bare};
    return plan;
}

} // namespace

class TestHostSecrets : public QObject
{
    Q_OBJECT
private slots:
    void splitSetting_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("every host") << "ftp.user=bench" << true << ""
                                    << "ftp.user"
                                    << "bench";
        QTest::newRow("one host") << "linux-server:smb.password=a b=c" << true << "linux-server"
                                  << "smb.password"
                                  << "a b=c";
        QTest::newRow("file") << "linux-server:ftp.password=@/run/pw" << true << "linux-server"
                              << "ftp.password"
                              << "@/run/pw";
        QTest::newRow("address") << "192.0.2.11:ftp.port=2121" << true << "192.0.2.11"
                                 << "ftp.port"
                                 << "2121";
        QTest::newRow("[IPv6]") << "[fe80::1]:smb.user=x" << true << "fe80::1"
                                << "smb.user"
                                << "x";
        QTest::newRow("bare IPv6") << "fe80::1:smb.user=x" << true << "fe80::1"
                                   << "smb.user"
                                   << "x";
        QTest::newRow("empty value") << "w:ftp.password=" << true << "w"
                                     << "ftp.password"
                                     << "";
        QTest::newRow("colon in value") << "ftp.path=a:b" << true << ""
                                        << "ftp.path"
                                        << "a:b";
        QTest::newRow("no =") << "ftp.user" << false << ""
                              << ""
                              << "";
        QTest::newRow("no key") << "=x" << false << ""
                                << ""
                                << "";
        QTest::newRow("no host") << ":ftp.user=x" << false << ""
                                 << ""
                                 << "";
        QTest::newRow("host, no key") << "linux-server:=x" << false << ""
                                      << ""
                                      << "";
    }

    void splitSetting()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        HostSecrets::Setting s;
        QString why;
        QCOMPARE(HostSecrets::splitSetting(text, &s, &why), ok);
        if (!ok) {
            QVERIFY2(why.contains(QStringLiteral("KEY=VALUE")), qPrintable(why));
            return;
        }
        QTEST(s.host, "host");
        QTEST(s.key, "key");
        QTEST(s.value, "value");
    }

    void hostsNamed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<int>>("hosts");
        QTest::newRow("name") << "linux-server" << QList<int>{0};
        QTest::newRow("name, other case") << "windows-server" << QList<int>{1};
        QTest::newRow("address") << "192.0.2.11" << QList<int>{1};
        QTest::newRow("IPv6 address") << "FE80::1" << QList<int>{2};
        QTest::newRow("unknown") << "mac-server" << QList<int>{};
        QTest::newRow("empty") << "" << QList<int>{};
    }

    void hostsNamed()
    {
        QFETCH(QString, name);
        QTEST(HostSecrets::hostsNamed(twoServers(), name), "hosts");
    }

    void hostsText()
    {
        QCOMPARE(HostSecrets::hostsText(twoServers()),
                 QStringLiteral("linux-server (192.0.2.10), Windows-Server (192.0.2.11), fe80::1"));
        QCOMPARE(HostSecrets::hostsText(TestPlan()), QStringLiteral("none"));
    }

    void parseFile_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QStringList>("settings"); ///< "host|key|value|line"
        QTest::addColumn<QString>("reason");
        QTest::newRow("two hosts, comments, blank lines, CRLF")
            << QByteArray("# the shoot-out's servers\n\nlinux-server smb.password=one\r\n"
                          "  windows-server\tftp.password=two words = and more  \n")
            << true
            << QStringList{"linux-server|smb.password|one|3", "windows-server|ftp.password|two words = and more  |4"}
            << "";
        QTest::newRow("[IPv6] host") << QByteArray("[fe80::1] smb.password=x") << true
                                     << QStringList{"fe80::1|smb.password|x|1"} << "";
        QTest::newRow("empty value") << QByteArray("w ftp.password=") << true << QStringList{"w|ftp.password||1"} << "";
        QTest::newRow("wirebenchd key") << QByteArray("lab wirebenchd.secret=k") << true
                                        << QStringList{"lab|wirebenchd.secret|k|1"} << "";
        QTest::newRow("nothing") << QByteArray("# none yet\n") << true << QStringList{} << "";
        QTest::newRow("no host") << QByteArray("smb.password=x") << false << QStringList{} << "line 1: write HOST";
        QTest::newRow("no =") << QByteArray("\nlinux-server smb.password") << false << QStringList{}
                              << "line 2: write HOST";
        QTest::newRow("no key") << QByteArray("linux-server =x") << false << QStringList{} << "line 1: no key";
        QTest::newRow("not a secret") << QByteArray("linux-server smb.user=Pw-7x") << false << QStringList{}
                                      << "line 1: smb.user is not a password or key";
        QTest::newRow("unknown key") << QByteArray("linux-server smb.pasword=Pw-7x") << false << QStringList{}
                                     << "line 1: smb.pasword is not a password or key";
    }

    void parseFile()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(QStringList, settings);
        QFETCH(QString, reason);
        QList<HostSecrets::Setting> out;
        QString why;
        QCOMPARE(HostSecrets::parseFile(text, &out, &why), ok);
        if (!ok) {
            QVERIFY2(why.startsWith(reason), qPrintable(why));
            // A value is never part of a message.
            QVERIFY2(!why.contains(QStringLiteral("Pw-7x")), qPrintable(why));
            return;
        }
        QStringList got;
        for (const HostSecrets::Setting &s : out)
            got << QStringLiteral("%1|%2|%3|%4").arg(s.host, s.key, s.value).arg(s.line);
        QCOMPARE(got, settings);
    }

    void applyLeavesWhatTheCommandLineGave()
    {
        TestPlan plan = twoServers();
        plan.hosts[1].options.insert(QStringLiteral("ftp.password"), QStringLiteral("from --set"));
        QList<HostSecrets::Setting> settings;
        QString why;
        QVERIFY(HostSecrets::parseFile("linux-server ftp.password=L\nwindows-server ftp.password=W\n"
                                       "192.0.2.11 smb.password=S\nmac-server ftp.password=M\n",
                                       &settings, &why));
        QStringList unmatched;
        HostSecrets::apply(settings, &plan, &unmatched);
        QCOMPARE(plan.hosts.at(0).options.value(QStringLiteral("ftp.password")).toString(), QStringLiteral("L"));
        QCOMPARE(plan.hosts.at(1).options.value(QStringLiteral("ftp.password")).toString(),
                 QStringLiteral("from --set"));
        QCOMPARE(plan.hosts.at(1).options.value(QStringLiteral("smb.password")).toString(), QStringLiteral("S"));
        QVERIFY(plan.hosts.at(2).options.isEmpty());
        QCOMPARE(unmatched, QStringList{QStringLiteral("mac-server")});
    }

    void fileMode_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("problem");
        QTest::newRow("0600") << 0600 << "";
        QTest::newRow("0400") << 0400 << "";
        QTest::newRow("0700") << 0700 << "";
        QTest::newRow("0644") << 0644 << "other users can read it (mode 0644)";
        QTest::newRow("0640") << 0640 << "other users can read it (mode 0640)";
        QTest::newRow("0604") << 0604 << "other users can read it (mode 0604)";
        QTest::newRow("0620") << 0620 << "other users can write it (mode 0620)";
    }

    void fileMode()
    {
        QFETCH(int, mode);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secrets"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("linux-server smb.password=Pw-7x\n");
        f.close();
        using P = QFileDevice;
        P::Permissions p;
        const std::pair<int, P::Permission> bits[] = {{0400, P::ReadOwner}, {0200, P::WriteOwner}, {0100, P::ExeOwner},
                                                      {040, P::ReadGroup},  {020, P::WriteGroup},  {04, P::ReadOther}};
        for (const auto &[bit, permission] : bits)
            p |= (mode & bit) ? permission : P::Permission(0);
        QVERIFY(QFile::setPermissions(path, p));
        QList<HostSecrets::Setting> settings;
        QString why;
#ifdef Q_OS_WIN
        QSKIP("Windows has no group and other mode bits: the file is not refused there");
#endif
        const bool readable = (mode & 0400) != 0;
        QCOMPARE(HostSecrets::readFile(path, &settings, &why), problem.isEmpty() && readable);
        if (problem.isEmpty()) {
            QVERIFY(HostSecrets::modeProblem(path).isEmpty());
            if (readable)
                QCOMPARE(settings.size(), 1);
            return;
        }
        QVERIFY2(why.contains(problem) && why.contains(QStringLiteral("chmod 600 ") + path), qPrintable(why));
        QVERIFY2(!why.contains(QStringLiteral("Pw-7x")), qPrintable(why));
    }

    void valueFileDropsTheLineEnd_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("value");
        QTest::newRow("newline") << QByteArray("pw one\n") << "pw one";
        QTest::newRow("CRLF") << QByteArray("pw\r\n") << "pw";
        QTest::newRow("no line end") << QByteArray("pw") << "pw";
        QTest::newRow("blanks kept") << QByteArray(" pw \n") << " pw ";
        QTest::newRow("first line only") << QByteArray("pw\nsecond\n") << "pw";
        QTest::newRow("empty") << QByteArray("") << "";
    }

    void valueFileDropsTheLineEnd()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("pw")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        QString value;
        QString why;
        QVERIFY(HostSecrets::readValueFile(f.fileName(), &value, &why));
        QTEST(value, "value");
        QVERIFY(!HostSecrets::readValueFile(dir.filePath(QStringLiteral("none")), &value, &why));
        QVERIFY2(why.contains(QStringLiteral("cannot read")), qPrintable(why));
    }

    void theWindowsKeychainEntries()
    {
        // The window's CredentialStore and wirebench-cli name an entry alike.
        QCOMPARE(QLatin1String(Secrets::kKeychainService), QLatin1String("wirebench"));
        QCOMPARE(Secrets::keychainEntry(QStringLiteral("linux-server"), QStringLiteral("smb.password")),
                 QStringLiteral("wirebench/linux-server/smb.password"));
        QCOMPARE(Secrets::keysOf({QStringLiteral("ftp-get"), QStringLiteral("smb-read"), QStringLiteral("ftp-put")}),
                 (QStringList{QStringLiteral("ftp.password"), QStringLiteral("smb.password")}));
        QCOMPARE(Secrets::keysOf({QStringLiteral("tcp-send")}), QStringList{QStringLiteral("wirebenchd.secret")});
    }
};

QTEST_GUILESS_MAIN(TestHostSecrets)
#include "TestHostSecrets.moc"
