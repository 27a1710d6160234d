// A plan's size is bounded, and a signal ends the CLI while it checks a plan (issue 32, item 9): the built
// wirebench-cli refuses a generated plan of 200,000 hosts, and one of 120,000 runs, with the numbers; a plan of 1000
// hosts at a 127.0.0.1 listener that never answers is still being checked when SIGTERM comes, and the CLI ends.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include "support/CliTestSupport.h"

using namespace clitest;

namespace {

/// A plan file of `hosts` hosts at 127.0.0.1:port, written to path.
bool writePlan(const QString &path, int hosts, quint16 port, const QStringList &protocols, const QList<int> &frames,
               int repetitions)
{
    QJsonArray hostArray;
    for (int i = 0; i < hosts; ++i)
        hostArray.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("h%1").arg(i)},
                                     {QStringLiteral("address"), QStringLiteral("127.0.0.1")},
                                     {QStringLiteral("port"), port}});
    QJsonArray frameArray;
    for (int f : frames)
        frameArray.append(f);
    const QJsonObject plan{{QStringLiteral("hosts"), hostArray},
                           {QStringLiteral("protocols"), QJsonArray::fromStringList(protocols)},
                           {QStringLiteral("frame_sizes"), frameArray},
                           {QStringLiteral("repetitions"), repetitions}};
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    const QJsonObject doc{{QStringLiteral("format"), QStringLiteral("wirebench-plan")},
                          {QStringLiteral("version"), 1},
                          {QStringLiteral("plan"), plan}};
    return file.write(QJsonDocument(doc).toJson(QJsonDocument::Compact)) > 0;
}

} // namespace

class TestCliPlanLimits : public QObject
{
    Q_OBJECT

private slots:
    void hugePlanIsRefusedWithTheNumbers()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("huge.wbplan.json"));
        QVERIFY(writePlan(path, 200000, 5301, {QStringLiteral("tcp-send")}, {1500}, 1));
        QVERIFY(QFileInfo(path).size() > 8 * 1000 * 1000);
        const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--plan"), path}, 60000);
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("names 200000 hosts; at most 1000 are allowed")), qPrintable(o.err));
        QVERIFY2(o.err.contains(path), qPrintable(o.err));
    }

    void tooManyRunsAreRefusedWithTheNumbers()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("runs.wbplan.json"));
        QVERIFY(
            writePlan(path, 1000, 5301, {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}, {1500, 9000}, 30));
        const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--plan"), path}, 60000);
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("120000 runs (1000 hosts x 2 protocols x 2 frame sizes x 30 "
                                               "repetitions); at most 100000 are allowed")),
                 qPrintable(o.err));
    }

    void sigtermEndsTheCheck()
    {
        QTcpServer silent; // takes connections and never answers: every check waits for its timeout
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("big.wbplan.json"));
        QVERIFY(writePlan(path, 1000, silent.serverPort(), {QStringLiteral("tcp-send")}, {1500}, 1));
        QProcess p;
        p.setProcessEnvironment(defaultSandbox());
        p.start(kCli, {QStringLiteral("run"), QStringLiteral("--plan"), path});
        QVERIFY(p.waitForStarted(30000));
        // A check's connection is here: the CLI is loading no more, it is checking the hosts.
        QVERIFY2(silent.waitForNewConnection(60000), "the CLI never connected to the listener to check a host");
        QCOMPARE(p.state(), QProcess::Running);
        p.terminate();
        QVERIFY2(p.waitForFinished(10000), "wirebench-cli still runs 10 s after SIGTERM during the check");
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + 15);
        QVERIFY2(err.contains(QStringLiteral("interrupted while checking the plan's hosts; nothing was run")),
                 qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliPlanLimits)
#include "TestCliPlanLimits.moc"
