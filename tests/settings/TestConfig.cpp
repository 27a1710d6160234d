#include "settings/Config.h"
#include "support/HostRows.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

class TestConfig : public QObject
{
    Q_OBJECT
private slots:
    void defaults();
    void hostsRoundTrip();
    void secretsNeverStored();
    void planRoundTrip();
    void badValuesFallBack();
    void newerSchemaLeftAlone();
    void hostSpellingsBeforePlanJsonAreRead();
    void resultStoreRoundTrip();

private:
    QTemporaryDir m_dir;
};

void TestConfig::defaults()
{
    Config config(m_dir.filePath(QStringLiteral("defaults.ini")));
    QCOMPARE(config.schemaVersion(), Config::kSchemaVersion);
    const QList<HostEntry> hosts = config.hosts();
    QCOMPARE(hosts.size(), 1);
    QVERIFY(hosts.first().host.embedded);
    QCOMPARE(hosts.first().host.name, QStringLiteral("This computer (loopback)"));
    QCOMPARE(hosts.first().host.address, QStringLiteral("127.0.0.1"));
    const TestPlan plan = config.lastPlan();
    QCOMPARE(plan.repetitions, 5);
    QCOMPARE(plan.params.durationMs, 10000);
    QCOMPARE(plan.params.messageSize, 128 * 1024);
    QCOMPARE(plan.params.sendBufferBytes, 0);
    QCOMPARE(plan.frameSizes, (QList<int>{1500, 9000}));
    QCOMPARE(plan.protocols, (QStringList{QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    QCOMPARE(config.rateUnit(), RateUnit::MBps);
}

void TestConfig::hostsRoundTrip()
{
    const QString file = m_dir.filePath(QStringLiteral("hosts.ini"));
    Host far
        = test::namedHost(QStringLiteral("fs1"), QStringLiteral("10.0.0.5"), QStringLiteral("Windows Server 2003"));
    far.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bob"));
    const QList<HostEntry> hosts{{Config::loopbackHost(), false}, {far, true}};
    {
        Config config(file);
        config.setHosts(hosts);
    }
    Config again(file);
    QCOMPARE(again.hosts(), hosts);
}

void TestConfig::secretsNeverStored()
{
    const QString file = m_dir.filePath(QStringLiteral("secrets.ini"));
    Host far;
    far.address = QStringLiteral("fs1.example");
    far.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bob"));
    far.options.insert(QStringLiteral("ftp.password"), QStringLiteral("hunter2"));
    {
        Config config(file);
        config.setHosts({{far, true}});
    }
    QFile raw(file);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray text = raw.readAll();
    QVERIFY(text.contains("bob"));
    QVERIFY(!text.contains("hunter2"));
    Config again(file);
    QVERIFY(!again.hosts().first().host.options.contains(QStringLiteral("ftp.password")));
}

void TestConfig::planRoundTrip()
{
    const QString file = m_dir.filePath(QStringLiteral("plan.ini"));
    TestPlan plan;
    plan.protocols = {QStringLiteral("tcp-recv")};
    plan.frameSizes = {9000, 4000};
    plan.repetitions = 3;
    plan.params.durationMs = 2500;
    plan.params.messageSize = 1472;
    plan.params.sendBufferBytes = plan.params.recvBufferBytes = 262144;
    plan.params.sampleIntervalMs = 250;
    {
        Config config(file);
        config.setLastPlan(plan);
        config.setRateUnit(RateUnit::Mbps);
        config.setWindowGeometry("geometry-bytes");
    }
    Config again(file);
    const TestPlan read = again.lastPlan();
    QCOMPARE(read.protocols, plan.protocols);
    QCOMPARE(read.frameSizes, plan.frameSizes);
    QCOMPARE(read.repetitions, 3);
    QCOMPARE(read.params, plan.params);
    QCOMPARE(again.rateUnit(), RateUnit::Mbps);
    QCOMPARE(again.windowGeometry(), QByteArray("geometry-bytes"));
}

void TestConfig::badValuesFallBack()
{
    const QString file = m_dir.filePath(QStringLiteral("bad.ini"));
    {
        QSettings raw(file, QSettings::IniFormat);
        raw.setValue(QStringLiteral("schemaVersion"), 1);
        raw.setValue(QStringLiteral("hosts/list"), QStringLiteral("{not json"));
        raw.setValue(QStringLiteral("plan/repetitions"), QStringLiteral("many"));
        raw.setValue(QStringLiteral("plan/durationMs"), -5);
        raw.setValue(QStringLiteral("plan/frameSizes"), QStringList{QStringLiteral("1500"), QStringLiteral("12")});
        raw.setValue(QStringLiteral("plan/protocols"), QStringList{QStringLiteral("tcp-send"), QStringLiteral("nope")});
        raw.setValue(QStringLiteral("view/rateUnit"), QStringLiteral("furlongs"));
    }
    Config config(file);
    QCOMPARE(config.hosts().size(), 1);
    QVERIFY(config.hosts().first().host.embedded);
    const TestPlan plan = config.lastPlan();
    QCOMPARE(plan.repetitions, 5);
    QCOMPARE(plan.params.durationMs, 10000);
    QCOMPARE(plan.frameSizes, QList<int>{1500});
    QCOMPARE(plan.protocols, QStringList{QStringLiteral("tcp-send")});
    QCOMPARE(config.rateUnit(), RateUnit::MBps);
}

void TestConfig::hostSpellingsBeforePlanJsonAreRead()
{
    // Settings written before the host list became PlanJson's spell two keys in camel case.
    const QByteArray old = R"([{"name":"srv","address":"192.0.2.5","port":5201,"os":"Linux","serverType":"iperf3",)"
                           R"("linkSpeedMbps":100,"selected":false}])";
    bool ok = false;
    const QList<HostEntry> hosts = Config::hostsFromJson(old, &ok);
    QVERIFY(ok);
    QCOMPARE(hosts.size(), 1);
    QCOMPARE(hosts.first().host.serverType, QStringLiteral("iperf3"));
    QCOMPARE(hosts.first().host.linkSpeedMbps, 100.0);
    QCOMPARE(hosts.first().host.port, quint16(5201));
    QVERIFY(!hosts.first().selected);
    // What is written now is PlanJson's form and reads back the same.
    const QByteArray now = Config::hostsToJson(hosts);
    QVERIFY2(now.contains("\"server_type\":\"iperf3\"") && !now.contains("serverType"), now.constData());
    QCOMPARE(Config::hostsFromJson(now), hosts);
}

void TestConfig::newerSchemaLeftAlone()
{
    const QString file = m_dir.filePath(QStringLiteral("newer.ini"));
    {
        QSettings raw(file, QSettings::IniFormat);
        raw.setValue(QStringLiteral("schemaVersion"), Config::kSchemaVersion + 7);
    }
    Config config(file);
    QCOMPARE(config.schemaVersion(), Config::kSchemaVersion + 7);
}

void TestConfig::resultStoreRoundTrip()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("wirebench.ini"));
    {
        Config config(file);
        QVERIFY(!config.resultStore().isServer()); // this computer's store by default
        StoreLocation server = StoreLocation::server(QStringLiteral("db.example.org"), 5433,
                                                     QStringLiteral("wirebench"), QStringLiteral("bench"));
        server.setPassword(QStringLiteral("hunter2"));
        config.setResultStore(server);
        config.sync();
    }
    Config config(file);
    const StoreLocation back = config.resultStore();
    QVERIFY(back.isServer());
    QCOMPARE(back.display(), QStringLiteral("postgresql://bench@db.example.org:5433/wirebench"));
    QVERIFY(back.password().isEmpty());
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains("hunter2")); // the keychain keeps it
    config.setResultStore(StoreLocation::file(QString()));
    QVERIFY(!config.resultStore().isServer());
}

QTEST_GUILESS_MAIN(TestConfig)
#include "TestConfig.moc"
