// PlanJson: the one JSON form of hosts, parameters and plans (the result store, plan files and the settings'
// host list all write it), and secrets never in it.
#include "plan/PlanJson.h"
#include "support/HostRows.h"

#include <QJsonArray>
#include <QTest>

using namespace wb;

namespace {

Host fileServer()
{
    Host h = test::namedHost(QStringLiteral("linux-srv"), QStringLiteral("192.0.2.10"), QStringLiteral("Debian 12"));
    h.serverType = QStringLiteral("iperf3");
    h.linkSpeedMbps = 1000;
    h.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bench"));
    h.options.insert(QStringLiteral("ftp.password"), QStringLiteral("hunter2"));
    h.options.insert(QStringLiteral("wirebenchd.secret"), QStringLiteral("k123"));
    return h;
}

} // namespace

class TestPlanJson : public QObject
{
    Q_OBJECT
private slots:
    void hostKeys()
    {
        const QJsonObject o = PlanJson::hostToJson(fileServer());
        QCOMPARE(o.value(QLatin1String("name")).toString(), QStringLiteral("linux-srv"));
        QCOMPARE(o.value(QLatin1String("address")).toString(), QStringLiteral("192.0.2.10"));
        QCOMPARE(o.value(QLatin1String("port")).toInt(), 5301);
        QCOMPARE(o.value(QLatin1String("os")).toString(), QStringLiteral("Debian 12"));
        QCOMPARE(o.value(QLatin1String("server_type")).toString(), QStringLiteral("iperf3"));
        QCOMPARE(o.value(QLatin1String("link_speed_Mbps")).toDouble(), 1000.0);
        QVERIFY(!o.contains(QLatin1String("serverType")));
        const QJsonObject options = o.value(QLatin1String("options")).toObject();
        QCOMPARE(options.value(QLatin1String("ftp.user")).toString(), QStringLiteral("bench"));
        QVERIFY(!options.contains(QLatin1String("ftp.password")));
        QVERIFY(!options.contains(QLatin1String("wirebenchd.secret")));
    }

    void hostRoundTrip()
    {
        Host expected = fileServer();
        expected.options.remove(QStringLiteral("ftp.password"));
        expected.options.remove(QStringLiteral("wirebenchd.secret"));
        QCOMPARE(PlanJson::hostFromJson(PlanJson::hostToJson(fileServer())), expected);
    }

    void hostFromJsonIsCareful()
    {
        QJsonObject o;
        o.insert(QLatin1String("address"), QStringLiteral("  192.0.2.1 "));
        o.insert(QLatin1String("port"), 70000);
        o.insert(QLatin1String("options"), QJsonObject{{QStringLiteral("smb.password"), QStringLiteral("x")}});
        const Host h = PlanJson::hostFromJson(o);
        QCOMPARE(h.address, QStringLiteral("192.0.2.1"));
        QCOMPARE(h.port, quint16(0));                         // out of range: the server type's default
        QCOMPARE(h.serverType, QStringLiteral("wirebenchd")); // missing: the default
        QVERIFY(h.options.isEmpty());                         // a secret is not read back either
    }

    void paramsRoundTrip()
    {
        // The parameters, nearly all away from their defaults.
        const TestParams p{.durationMs = 12000,
                           .messageSize = 1472,
                           .sendBufferBytes = 32768,
                           .recvBufferBytes = 65536,
                           .sampleIntervalMs = 250,
                           .warmupMs = 2000,
                           .streams = 4,
                           .fileSizeBytes = 5LL * 1024 * 1024 * 1024,
                           .stopOnError = true,
                           .stableTargetPercent = 2.5,
                           .minRepetitions = 3,
                           .options = {{QStringLiteral("frames.set_interface_mtu"), true}}};
        const TestParams back = PlanJson::paramsFromJson(PlanJson::paramsToJson(p));
        QCOMPARE(back.durationMs, p.durationMs);
        QCOMPARE(back.messageSize, p.messageSize);
        QCOMPARE(back.sendBufferBytes, p.sendBufferBytes);
        QCOMPARE(back.recvBufferBytes, p.recvBufferBytes);
        QCOMPARE(back.sampleIntervalMs, p.sampleIntervalMs);
        QCOMPARE(back.warmupMs, p.warmupMs);
        QCOMPARE(back.streams, p.streams);
        QCOMPARE(back.fileSizeBytes, p.fileSizeBytes);
        QCOMPARE(back.stopOnError, p.stopOnError);
        QCOMPARE(back.stableTargetPercent, p.stableTargetPercent);
        QCOMPARE(back.minRepetitions, p.minRepetitions);
        QCOMPARE(back.options, p.options);
    }

    void planRoundTrip()
    {
        TestPlan plan;
        plan.hosts = {fileServer()};
        plan.protocols = {QStringLiteral("ftp-get"), QStringLiteral("tcp-send")};
        plan.frameSizes = {1500, 9000};
        plan.repetitions = 7;
        plan.interleaveHosts = true;
        plan.referenceStreams = true;
        plan.referenceMs = 4500;
        const QJsonObject o = PlanJson::planToJson(plan);
        QCOMPARE(o.value(QLatin1String("frame_sizes")).toArray().size(), 2);
        const TestPlan back = PlanJson::planFromJson(o);
        QCOMPARE(back.hosts.size(), 1);
        QVERIFY(!back.hosts.first().options.contains(QStringLiteral("ftp.password")));
        QCOMPARE(back.protocols, plan.protocols);
        QCOMPARE(back.frameSizes, plan.frameSizes);
        QCOMPARE(back.repetitions, 7);
        QVERIFY(back.interleaveHosts);
        QVERIFY(back.referenceStreams);
        QCOMPARE(back.referenceMs, 4500);
    }

    void referenceLengthDefaultsAndLimits()
    {
        // A plan file from before the length was kept, and hand-edited ones outside 0.1..60 s.
        QCOMPARE(PlanJson::planFromJson(QJsonObject()).referenceMs, TestPlan::kReferenceMs);
        QCOMPARE(PlanJson::planFromJson(QJsonObject{{QLatin1String("reference_ms"), 5}}).referenceMs,
                 TestPlan::kReferenceMinMs);
        QCOMPARE(PlanJson::planFromJson(QJsonObject{{QLatin1String("reference_ms"), 999999}}).referenceMs,
                 TestPlan::kReferenceMaxMs);
    }

    void missingFramesKeepTheDefault()
    {
        QCOMPARE(PlanJson::planFromJson(QJsonObject()).frameSizes, TestPlan().frameSizes);
    }
};

QTEST_GUILESS_MAIN(TestPlanJson)
#include "TestPlanJson.moc"
