// A plan in a file of its own: what File > Save plan writes and File > Open plan and wirebench-cli --plan read.
#include "plan/PlanFile.h"
#include "support/HostRows.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

TestPlan shootout()
{
    TestPlan plan;
    Host linuxHost
        = test::namedHost(QStringLiteral("linux-srv"), QStringLiteral("192.0.2.10"), QStringLiteral("Debian 12"));
    linuxHost.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bench"));
    linuxHost.options.insert(QStringLiteral("ftp.password"), QStringLiteral("hunter2"));
    const Host windows = test::namedHost(QStringLiteral("win-srv"), QStringLiteral("192.0.2.20"),
                                         QStringLiteral("Windows Server 2003"));
    plan.hosts = {linuxHost, windows};
    plan.protocols = {QStringLiteral("ftp-get"), QStringLiteral("ftp-put"), QStringLiteral("tcp-send")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 5;
    plan.interleaveHosts = true;
    plan.params.durationMs = 10000;
    plan.params.messageSize = 1472;
    plan.params.sendBufferBytes = 32768;
    plan.params.recvBufferBytes = 65536;
    plan.params.warmupMs = 2000;
    plan.params.fileSizeBytes = 512LL * 1024 * 1024;
    plan.params.stopOnError = true;
    return plan;
}

QString writeText(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(text);
    return path;
}

} // namespace

class TestPlanFile : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void bareStorePlanIsRead();
    void badFiles_data();
    void badFiles();
    void unwritablePath();
};

void TestPlanFile::roundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shootout.wbplan.json"));
    QString error;
    QVERIFY2(PlanFile::write(path, shootout(), &error), qPrintable(error));

    QFile raw(path);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray text = raw.readAll();
    QVERIFY(text.contains("\"format\": \"wirebench-plan\""));
    QVERIFY(!text.contains("hunter2")); // passwords never reach the file
    QVERIFY(!text.contains("ftp.password"));

    TestPlan back;
    QVERIFY2(PlanFile::read(path, &back, &error), qPrintable(error));
    TestPlan expected = shootout();
    expected.hosts[0].options.remove(QStringLiteral("ftp.password"));
    QCOMPARE(back.hosts, expected.hosts);
    QCOMPARE(back.protocols, expected.protocols);
    QCOMPARE(back.frameSizes, expected.frameSizes);
    QCOMPARE(back.repetitions, 5);
    QCOMPARE(back.interleaveHosts, true);
    QCOMPARE(back.params, expected.params);
    QCOMPARE(back.runCount(), 2 * 3 * 2 * 5);
}

void TestPlanFile::bareStorePlanIsRead()
{
    QTemporaryDir dir;
    const QString path = writeText(dir, QStringLiteral("bare.json"),
                                   R"({"hosts": [{"name": "a", "address": "127.0.0.1", "port": 5301}],
                                       "protocols": ["tcp-recv"], "frame_sizes": [9000], "repetitions": 2})");
    TestPlan plan;
    QString error;
    QVERIFY2(PlanFile::read(path, &plan, &error), qPrintable(error));
    QCOMPARE(plan.protocols, QStringList{QStringLiteral("tcp-recv")});
    QCOMPARE(plan.frameSizes, QList<int>{9000});
    QCOMPARE(plan.repetitions, 2);
    QCOMPARE(plan.hosts.size(), 1);
    QCOMPARE(plan.hosts.first().port, quint16(5301));
}

void TestPlanFile::badFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not JSON") << QByteArray("{\"format\": \"wirebench-plan\", ") << QStringLiteral("not valid JSON");
    QTest::newRow("an array") << QByteArray("[1, 2]") << QStringLiteral("holds no JSON object");
    QTest::newRow("another format") << QByteArray(R"({"format": "iperf3", "version": 1})")
                                    << QStringLiteral("is not a Wirebench plan (format \"iperf3\")");
    QTest::newRow("newer version") << QByteArray(R"({"format": "wirebench-plan", "version": 7, "plan": {}})")
                                   << QStringLiteral("has version 7; this Wirebench reads version 1: update Wirebench");
    QTest::newRow("no protocols") << QByteArray(R"({"format": "wirebench-plan", "version": 1, "plan": {"hosts": []}})")
                                  << QStringLiteral("lists no protocols");
    QTest::newRow("some other object") << QByteArray(R"({"results": []})") << QStringLiteral("is not a Wirebench plan");
}

void TestPlanFile::badFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = writeText(dir, QStringLiteral("bad.wbplan.json"), text);
    TestPlan plan;
    plan.repetitions = 42;
    QString error;
    QVERIFY(!PlanFile::read(path, &plan, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error)); // says which file
    QVERIFY(!error.contains(QLatin1Char('\n')));
    QCOMPARE(plan.repetitions, 42); // left alone
}

void TestPlanFile::unwritablePath()
{
    QString error;
    QVERIFY(!PlanFile::write(QStringLiteral("/nonexistent-dir/x.wbplan.json"), shootout(), &error));
    QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/x.wbplan.json")), qPrintable(error));
    TestPlan plan;
    QVERIFY(!PlanFile::read(QStringLiteral("/nonexistent-dir/x.wbplan.json"), &plan, &error));
    QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestPlanFile)
#include "TestPlanFile.moc"
