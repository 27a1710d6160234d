// wirebench-cli runs the file-server shoot-out headless against real vsftpd and smbd: settings by --set,
// the password from a file, the file size by --file-size; a wrong password is one clear line and exit status 1.
#include "FileServerFixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

struct CliRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

CliRun runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(WIREBENCH_CLI_PATH), args);
    CliRun r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("wirebench-cli did not finish");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
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
        WB_REQUIRE_SERVERS(ok, why);
        m_passwordFile = m_dir.filePath(QStringLiteral("password"));
        QFile f(m_passwordFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(m_servers->password().toUtf8() + "\n");
    }

    void shootoutHeadless()
    {
        const QString json = m_dir.filePath(QStringLiteral("shootout.json"));
        const CliRun r = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lab=127.0.0.1"),
                                 QStringLiteral("--protocol"), QStringLiteral("ftp-put,ftp-get,smb-write,smb-read"),
                                 QStringLiteral("--reps"), QStringLiteral("2"), QStringLiteral("--file-size"), QStringLiteral("8M"),
                                 QStringLiteral("--set"), QStringLiteral("ftp.user=") + m_servers->user(),
                                 QStringLiteral("--set"), QStringLiteral("ftp.password=@") + m_passwordFile,
                                 QStringLiteral("--set"), QStringLiteral("ftp.port=%1").arg(m_servers->ftpPort()),
                                 QStringLiteral("--set"), QStringLiteral("smb.share=wbshare"),
                                 QStringLiteral("--set"), QStringLiteral("smb.user=") + m_servers->user(),
                                 QStringLiteral("--set"), QStringLiteral("smb.password=@") + m_passwordFile,
                                 QStringLiteral("--set"), QStringLiteral("smb.domain=WBTEST"),
                                 QStringLiteral("--set"), QStringLiteral("smb.port=%1").arg(m_servers->smbPort()),
                                 QStringLiteral("--set"), QStringLiteral("transfer.verify=yes"),
                                 QStringLiteral("--no-store"), QStringLiteral("--json"), json});
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
        QVERIFY2(r.out.contains(QStringLiteral("ftp-get")) && r.out.contains(QStringLiteral("smb-write")), qPrintable(r.out));
        qInfo("%s", qPrintable(r.out.section(QStringLiteral("Summary"), 1).left(900)));
    }

    void wrongPasswordIsOneClearLine()
    {
        const CliRun r = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("lab=127.0.0.1"),
                                 QStringLiteral("--protocol"), QStringLiteral("ftp-get"), QStringLiteral("--reps"), QStringLiteral("1"),
                                 QStringLiteral("--file-size"), QStringLiteral("1M"),
                                 QStringLiteral("--set"), QStringLiteral("ftp.user=") + m_servers->user(),
                                 QStringLiteral("--set"), QStringLiteral("ftp.password=not-the-password"),
                                 QStringLiteral("--set"), QStringLiteral("ftp.port=%1").arg(m_servers->ftpPort()),
                                 QStringLiteral("--no-store")});
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
        QTest::newRow("unknown key") << QStringLiteral("ftp.colour=red") << QStringLiteral("no protocol reads this key");
        QTest::newRow("no value") << QStringLiteral("ftp.user") << QStringLiteral("KEY=VALUE");
        QTest::newRow("bad bool") << QStringLiteral("ftp.tls=maybe") << QStringLiteral("not yes or no");
        QTest::newRow("bad number") << QStringLiteral("ftp.port=ftp") << QStringLiteral("not a whole number");
        QTest::newRow("bad choice") << QStringLiteral("transfer.sink=tape") << QStringLiteral("not one of");
        QTest::newRow("missing file") << QStringLiteral("ftp.password=@/nonexistent/pw") << QStringLiteral("cannot read");
    }

    void badSettingsAreUsageErrors()
    {
        QFETCH(QString, setting);
        QFETCH(QString, reason);
        const CliRun r = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                                 QStringLiteral("--protocol"), QStringLiteral("ftp-get"), QStringLiteral("--set"), setting});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(reason), qPrintable(r.err));
    }

    void cleanupTestCase() { m_servers.reset(); }

private:
    QTemporaryDir m_dir;
    QString m_passwordFile;
    std::unique_ptr<test::FileServerFixture> m_servers;
};

QTEST_GUILESS_MAIN(TestCliFileServers)
#include "TestCliFileServers.moc"
