// wirebench-cli runs the file-server shoot-out headless against real vsftpd and smbd: settings by --set,
// the password from a file, the file size by --file-size; a wrong password is one clear line and exit status 1.
#include "FileServerFixture.h"
#include "support/CliTestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

using CliRun = clitest::Outcome;
using clitest::runCli;

/// A program run as runCli runs the CLI: in the tests' sandboxed HOME.
CliRun runProgram(const QString &program, const QStringList &args)
{
    QProcess p;
    p.setProcessEnvironment(clitest::defaultSandbox());
    p.start(program, args);
    CliRun r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("%1 did not finish").arg(program);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

/// The first line of out that contains text.
QString lineWith(const QString &out, const QString &text)
{
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        if (line.contains(text))
            return line;
    }
    return {};
}

} // namespace

class TestCliFileServers : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_servers = std::make_unique<test::FileServerFixture>();
        QString why;
        const bool ok = m_servers->prepare(&why) && m_servers->startFtp(&why) && m_servers->startSmb(&why);
        WB_REQUIRE(ok, why);
        m_passwordFile = m_dir.filePath(QStringLiteral("password"));
        QFile f(m_passwordFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(m_servers->password().toUtf8() + "\n");
    }

    void shootoutHeadless()
    {
        const QString json = m_dir.filePath(QStringLiteral("shootout.json"));
        const CliRun r = runCli({QStringLiteral("run"),
                                 QStringLiteral("--host"),
                                 QStringLiteral("lab=127.0.0.1"),
                                 QStringLiteral("--protocol"),
                                 QStringLiteral("ftp-put,ftp-get,smb-write,smb-read"),
                                 QStringLiteral("--reps"),
                                 QStringLiteral("2"),
                                 QStringLiteral("--file-size"),
                                 QStringLiteral("8M"),
                                 QStringLiteral("--set"),
                                 QStringLiteral("ftp.user=") + m_servers->user(),
                                 QStringLiteral("--set"),
                                 QStringLiteral("ftp.password=@") + m_passwordFile,
                                 QStringLiteral("--set"),
                                 QStringLiteral("ftp.port=%1").arg(m_servers->ftpPort()),
                                 QStringLiteral("--set"),
                                 QStringLiteral("smb.share=wbshare"),
                                 QStringLiteral("--set"),
                                 QStringLiteral("smb.user=") + m_servers->user(),
                                 QStringLiteral("--set"),
                                 QStringLiteral("smb.password=@") + m_passwordFile,
                                 QStringLiteral("--set"),
                                 QStringLiteral("smb.domain=WBTEST"),
                                 QStringLiteral("--set"),
                                 QStringLiteral("smb.port=%1").arg(m_servers->smbPort()),
                                 QStringLiteral("--set"),
                                 QStringLiteral("transfer.verify=yes"),
                                 QStringLiteral("--no-store"),
                                 QStringLiteral("--json"),
                                 json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonArray results = doc.value(QLatin1String("results")).toArray();
        QCOMPARE(results.size(), 8);
        for (const QJsonValue &v : results) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o.value(QLatin1String("status")).toString(), QStringLiteral("ok"));
            QCOMPARE(qint64(o.value(QLatin1String("bytes")).toDouble()), qint64(8) * 1024 * 1024);
            QVERIFY(o.value(QLatin1String("throughput_MBps")).toDouble() > 0);
        }
        // The password went to the servers, not into the file.
        f.seek(0);
        QVERIFY(!f.readAll().contains(m_servers->password().toUtf8()));
        QVERIFY2(r.out.contains(QStringLiteral("ftp-get")) && r.out.contains(QStringLiteral("smb-write")),
                 qPrintable(r.out));
        // Each run line names what was used: SMB's two connections (smb.read_connections; a write's 4 take at most
        // one 4 MiB chunk each, and this file has two), no FTP run's.
        int smbRuns = 0;
        for (const QString &line : r.out.split(QLatin1Char('\n'))) {
            if (!line.startsWith(QLatin1String("run ")))
                continue;
            const bool smb
                = line.contains(QLatin1String("  smb-write  ")) || line.contains(QLatin1String("  smb-read  "));
            smbRuns += smb ? 1 : 0;
            QVERIFY2(line.contains(QLatin1String(" over 2 connections")) == smb, qPrintable(line));
        }
        QCOMPARE(smbRuns, 4);
        qInfo("%s", qPrintable(r.out.section(QStringLiteral("Summary"), 1).left(900)));
    }

    void wrongPasswordIsOneClearLine()
    {
        const CliRun r = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lab=127.0.0.1"),
                                 QStringLiteral("--protocol"), QStringLiteral("ftp-get"), QStringLiteral("--reps"),
                                 QStringLiteral("1"), QStringLiteral("--file-size"), QStringLiteral("1M"),
                                 QStringLiteral("--set"), QStringLiteral("ftp.user=") + m_servers->user(),
                                 QStringLiteral("--set"), QStringLiteral("ftp.password=not-the-password"),
                                 QStringLiteral("--set"), QStringLiteral("ftp.port=%1").arg(m_servers->ftpPort()),
                                 QStringLiteral("--no-store"), QStringLiteral("--skip-check")}); // the run's own line
        QCOMPARE(r.exitCode, 1);
        QString failed;
        for (const QString &line : r.out.split(QLatin1Char('\n'))) {
            if (line.contains(QStringLiteral("FAILED")))
                failed = line;
        }
        QVERIFY2(failed.contains(QStringLiteral("lab")) && failed.contains(QStringLiteral("FTP"))
                     && failed.contains(QStringLiteral("password"), Qt::CaseInsensitive),
                 qPrintable(r.out + r.err));
        qInfo("%s", qPrintable(failed));
    }

    void badSettingsAreUsageErrors_data()
    {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown key") << QStringLiteral("ftp.colour=red")
                                     << QStringLiteral("no protocol reads this key");
        QTest::newRow("no value") << QStringLiteral("ftp.user") << QStringLiteral("KEY=VALUE");
        QTest::newRow("bad bool") << QStringLiteral("ftp.tls=maybe") << QStringLiteral("not yes or no");
        QTest::newRow("bad number") << QStringLiteral("ftp.port=ftp") << QStringLiteral("not a whole number");
        QTest::newRow("bad choice") << QStringLiteral("transfer.sink=tape") << QStringLiteral("not one of");
        QTest::newRow("missing file") << QStringLiteral("ftp.password=@/nonexistent/pw")
                                      << QStringLiteral("cannot read");
    }

    void badSettingsAreUsageErrors()
    {
        QFETCH(QString, setting);
        QFETCH(QString, reason);
        const CliRun r
            = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                      QStringLiteral("--protocol"), QStringLiteral("ftp-get"), QStringLiteral("--set"), setting});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(reason), qPrintable(r.err));
    }

    void fullLocalDiskLeavesNothing()
    {
        // Issue 12: a download into a full local disk left its partial file behind. wirebench-cli runs in a mount
        // namespace of its own with a 4 MiB tmpfs on the sink's folder; the shell looks at the folder after it.
        const QString dir = m_dir.filePath(QStringLiteral("small"));
        QVERIFY(QDir().mkpath(dir));
        const QString local = dir + QStringLiteral("/download.bin");
        const QString script = QStringLiteral(
            "mount -t tmpfs -o size=4m wbtest-cli-full \"$1\" || exit 99; d=\"$1\"; shift; "
            "\"$@\"; rc=$?; echo \"left in $d: [$(ls -A \"$d\")] used: $(du -sk \"$d\" | cut -f1) KiB\"; exit $rc");
        const CliRun r = runProgram(QStringLiteral("/usr/bin/unshare"),
                                    {QStringLiteral("-m"),
                                     QStringLiteral("--propagation"),
                                     QStringLiteral("private"),
                                     QStringLiteral("/bin/sh"),
                                     QStringLiteral("-c"),
                                     script,
                                     QStringLiteral("sh"),
                                     dir,
                                     clitest::kCli,
                                     QStringLiteral("run"),
                                     QStringLiteral("--host"),
                                     QStringLiteral("lab=127.0.0.1"),
                                     QStringLiteral("--protocol"),
                                     QStringLiteral("ftp-get"),
                                     QStringLiteral("--reps"),
                                     QStringLiteral("1"),
                                     QStringLiteral("--file-size"),
                                     QStringLiteral("16M"),
                                     QStringLiteral("--set"),
                                     QStringLiteral("ftp.user=") + m_servers->user(),
                                     QStringLiteral("--set"),
                                     QStringLiteral("ftp.password=@") + m_passwordFile,
                                     QStringLiteral("--set"),
                                     QStringLiteral("ftp.port=%1").arg(m_servers->ftpPort()),
                                     QStringLiteral("--set"),
                                     QStringLiteral("ftp.path=cli-16m.bin"),
                                     QStringLiteral("--set"),
                                     QStringLiteral("transfer.sink=file"),
                                     QStringLiteral("--set"),
                                     QStringLiteral("transfer.local_path=") + local,
                                     QStringLiteral("--no-store")});
        const bool mounted = r.exitCode != 99;
        WB_REQUIRE(mounted, QStringLiteral("cannot mount a tmpfs in a private mount namespace: ") + r.err);
        QCOMPARE(r.exitCode, 1);
        const QString failed = lineWith(r.out, QStringLiteral("FAILED"));
        qInfo("%s", qPrintable(failed));
        QVERIFY2(
            failed.contains(QStringLiteral("lab (127.0.0.1:%1): FTP GET: the local disk is full while writing %2 (")
                                .arg(m_servers->ftpPort())
                                .arg(local))
                && failed.contains(QStringLiteral("; the partial file was removed: free space on this computer")),
            qPrintable(r.out + r.err));
        const QString left = lineWith(r.out, QStringLiteral("left in "));
        QVERIFY2(left.startsWith(QStringLiteral("left in %1: [] used: ").arg(dir)), qPrintable(r.out));
    }

    void serverFileAndPortMessages()
    {
        // The words of issue 12's items 10 and 12 as the CLI prints them: the same RunResult text as the window's
        // results table (error, then the warnings).
        const QString foreign = m_servers->ftpRoot() + QStringLiteral("/theirs-cli.bin");
        const QByteArray digest = test::makeForeignFile(foreign, 2 * 1024 * 1024 + 1, m_servers->user());
        QVERIFY(!digest.isEmpty());
        const QStringList common = {QStringLiteral("run"),
                                    QStringLiteral("--host"),
                                    QStringLiteral("lab=127.0.0.1"),
                                    QStringLiteral("--reps"),
                                    QStringLiteral("1"),
                                    QStringLiteral("--file-size"),
                                    QStringLiteral("1M"),
                                    QStringLiteral("--set"),
                                    QStringLiteral("ftp.user=") + m_servers->user(),
                                    QStringLiteral("--set"),
                                    QStringLiteral("ftp.password=@") + m_passwordFile,
                                    QStringLiteral("--set"),
                                    QStringLiteral("ftp.port=%1").arg(m_servers->ftpPort()),
                                    QStringLiteral("--set"),
                                    QStringLiteral("ftp.path=theirs-cli.bin"),
                                    QStringLiteral("--set"),
                                    QStringLiteral("smb.share=wbshare"),
                                    QStringLiteral("--set"),
                                    QStringLiteral("smb.user=") + m_servers->user(),
                                    QStringLiteral("--set"),
                                    QStringLiteral("smb.password=@") + m_passwordFile,
                                    QStringLiteral("--set"),
                                    QStringLiteral("smb.port=%1").arg(m_servers->ftpPort()),
                                    QStringLiteral("--no-store")};
        const CliRun get = runCli(common + QStringList{QStringLiteral("--protocol"), QStringLiteral("ftp-get")});
        QCOMPARE(get.exitCode, 0);
        const QString note = lineWith(get.out, QStringLiteral("read as it is"));
        qInfo("%s", qPrintable(note));
        QVERIFY2(note.startsWith(QStringLiteral("    warning: "))
                     && note.contains(
                         QStringLiteral("\"theirs-cli.bin\" on the server holds 2097153 bytes, not the plan's 1048576"))
                     && note.contains(QStringLiteral("read as it is")),
                 qPrintable(get.out));
        QCOMPARE(test::fileDigest(foreign), digest);

        const CliRun smb = runCli(common
                                  + QStringList{QStringLiteral("--protocol"), QStringLiteral("smb-read"),
                                                QStringLiteral("--skip-check")}); // the run's own line
        QCOMPARE(smb.exitCode, 1);
        const QString failed = lineWith(smb.out, QStringLiteral("FAILED"));
        qInfo("%s", qPrintable(failed));
        QVERIFY2(
            failed.contains(QStringLiteral("SMB read: port %1 of 127.0.0.1 answered with an FTP banner \"220 (vsFTPd")
                                .arg(m_servers->ftpPort())),
            qPrintable(smb.out));
    }

    void wirebenchdPortGivenToFtpAndSmb()
    {
        // Issue 12: the wrong service on a port says what answered, here wirebenchd's hello on the FTP and SMB port.
        clitest::Daemon daemon;
        QString why;
        WB_REQUIRE(daemon.start(&why), why);
        const CliRun r
            = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lab=127.0.0.1"),
                      QStringLiteral("--protocol"), QStringLiteral("ftp-get,smb-read"), QStringLiteral("--reps"),
                      QStringLiteral("1"), QStringLiteral("--file-size"), QStringLiteral("1M"), QStringLiteral("--set"),
                      QStringLiteral("ftp.port=%1").arg(daemon.port()), QStringLiteral("--set"),
                      QStringLiteral("smb.share=wbshare"), QStringLiteral("--set"),
                      QStringLiteral("smb.port=%1").arg(daemon.port()), QStringLiteral("--no-store")});
        QCOMPARE(r.exitCode, 1);
        const QString ftp = lineWith(r.out, QStringLiteral("FTP GET: "));
        const QString smb = lineWith(r.out, QStringLiteral("SMB read: "));
        qInfo("%s\n%s", qPrintable(ftp), qPrintable(smb));
        const QString hello
            = QStringLiteral("port %1 of 127.0.0.1 answered with wirebenchd's hello (\"wirebenchd ").arg(daemon.port());
        QVERIFY2(ftp.contains(hello) && ftp.contains(QStringLiteral("not FTP")), qPrintable(r.out));
        QVERIFY2(smb.contains(hello) && smb.contains(QStringLiteral("not SMB")), qPrintable(r.out));
    }

    void cleanupTestCase() { m_servers.reset(); }

private:
    QTemporaryDir m_dir;
    QString m_passwordFile;
    std::unique_ptr<test::FileServerFixture> m_servers;
};

QTEST_GUILESS_MAIN(TestCliFileServers)
#include "TestCliFileServers.moc"
