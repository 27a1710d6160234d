#include "CliOptions.h"

#include <QTest>

using namespace wb;
using namespace wb::cli;

class TestCliOptions : public QObject
{
    Q_OBJECT
private slots:
    void hosts_data();
    void hosts();
    void sizes_data();
    void sizes();
    void fullRun();
    void defaults();
    void usageErrors_data();
    void usageErrors();
};

void TestCliOptions::hosts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("address");
    QTest::addColumn<int>("port");
    QTest::newRow("ipv4") << "127.0.0.1" << true << "" << "127.0.0.1" << 0;
    QTest::newRow("ipv4:port") << "127.0.0.1:5301" << true << "" << "127.0.0.1" << 5301;
    QTest::newRow("name") << "fs1.lab" << true << "" << "fs1.lab" << 0;
    QTest::newRow("[v6]:port") << "[::1]:5301" << true << "" << "::1" << 5301;
    QTest::newRow("[v6]") << "[::1]" << true << "" << "::1" << 0;
    QTest::newRow("bare v6") << "fe80::1" << true << "" << "fe80::1" << 0;
    QTest::newRow("NAME=addr:port") << "linux=10.0.0.5:5301" << true << "linux" << "10.0.0.5" << 5301;
    QTest::newRow("NAME=[v6]:port") << "lo6=[::1]:7" << true << "lo6" << "::1" << 7;
    QTest::newRow("port 0") << "127.0.0.1:0" << false << "" << "" << 0;
    QTest::newRow("port too big") << "127.0.0.1:70000" << false << "" << "" << 0;
    QTest::newRow("port not a number") << "127.0.0.1:http" << false << "" << "" << 0;
    QTest::newRow("empty port") << "127.0.0.1:" << false << "" << "" << 0;
    QTest::newRow("missing ]") << "[::1:5301" << false << "" << "" << 0;
    QTest::newRow("junk after ]") << "[::1]5301" << false << "" << "" << 0;
    QTest::newRow("empty") << "" << false << "" << "" << 0;
    QTest::newRow("empty name") << "=127.0.0.1" << false << "" << "" << 0;
    QTest::newRow("space inside") << "127.0 .0.1" << false << "" << "" << 0;
}

void TestCliOptions::hosts()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(QString, name);
    QFETCH(QString, address);
    QFETCH(int, port);
    Host h;
    QString error;
    QCOMPARE(CliOptions::parseHost(text, &h, &error), ok);
    if (!ok) {
        QVERIFY2(error.startsWith(QStringLiteral("--host")), qPrintable(error));
        return;
    }
    QCOMPARE(h.name, name);
    QCOMPARE(h.address, address);
    QCOMPARE(int(h.port), port);
}

void TestCliOptions::sizes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("plain") << "1472" << qint64(1472);
    QTest::newRow("K") << "128K" << qint64(131072);
    QTest::newRow("KiB") << "128KiB" << qint64(131072);
    QTest::newRow("k lower") << "64k" << qint64(65536);
    QTest::newRow("M") << "4M" << qint64(4194304);
    QTest::newRow("MiB") << "1MiB" << qint64(1048576);
    QTest::newRow("zero") << "0" << qint64(0);
    QTest::newRow("negative") << "-5" << qint64(-1);
    QTest::newRow("decimal") << "1.5K" << qint64(-1);
    QTest::newRow("G") << "5G" << qint64(5368709120);
    QTest::newRow("GiB") << "1GiB" << qint64(1073741824);
    QTest::newRow("unknown suffix") << "5T" << qint64(-1);
    QTest::newRow("empty") << "" << qint64(-1);
}

void TestCliOptions::sizes()
{
    QFETCH(QString, text);
    QFETCH(qint64, bytes);
    QCOMPARE(CliOptions::parseSize(text), bytes);
}

void TestCliOptions::fullRun()
{
    CliOptions o;
    QString error;
    const QStringList args{"run", "--host", "127.0.0.1:5301", "--host", "[::1]:5302", "--protocol", "tcp-send,tcp-recv",
                           "--frame", "1500,9000", "--reps", "3", "--duration", "2.5", "--message-size", "1472",
                           "--send-buffer", "64K", "--recv-buffer", "131072", "--json", "out.json", "--csv", "out.csv",
                           "--unit", "Mbps", "--stop-on-error", "--interleave", "--interval", "250",
                           "--warmup", "1.5", "--stable", "2.5", "--min-reps", "2"};
    QVERIFY2(CliOptions::parse(args, &o, &error), qPrintable(error));
    QCOMPARE(o.command, CliOptions::Command::Run);
    QCOMPARE(o.plan.hosts.size(), 2);
    QCOMPARE(o.plan.hosts.at(1).address, QStringLiteral("::1"));
    QCOMPARE(o.plan.hosts.at(1).port, quint16(5302));
    QCOMPARE(o.plan.hosts.at(0).serverType, QStringLiteral("wirebenchd"));
    QCOMPARE(o.plan.protocols, QStringList({"tcp-send", "tcp-recv"}));
    QCOMPARE(o.plan.frameSizes, QList<int>({1500, 9000}));
    QCOMPARE(o.plan.repetitions, 3);
    QCOMPARE(o.plan.params.durationMs, 2500);
    QCOMPARE(o.plan.params.messageSize, 1472);
    QCOMPARE(o.plan.params.sendBufferBytes, 65536);
    QCOMPARE(o.plan.params.recvBufferBytes, 131072);
    QCOMPARE(o.plan.params.sampleIntervalMs, 250);
    QVERIFY(o.plan.params.stopOnError);
    QVERIFY(o.plan.interleaveHosts);
    QCOMPARE(o.plan.params.warmupMs, 1500);
    QCOMPARE(o.plan.params.stableTargetPercent, 2.5);
    QCOMPARE(o.plan.params.minRepetitions, 2);
    QCOMPARE(o.unit, RateUnit::Mbps);
    QCOMPARE(o.jsonPath, QStringLiteral("out.json"));
    QCOMPARE(o.csvPath, QStringLiteral("out.csv"));
    QCOMPARE(o.plan.runCount(), 2 * 2 * 2 * 3);

    QVERIFY(CliOptions::parse({"run", "--host", "h", "--server", "iperf3", "--protocol", "iperf3-send"}, &o, &error)
            || error.contains(QStringLiteral("unknown protocol"))); // iperf3 driver may be absent from a build
    QVERIFY(CliOptions::parse({"run", "--host", "h", "--server", "iperf3"}, &o, &error));
    QCOMPARE(o.plan.hosts.first().serverType, QStringLiteral("iperf3"));
}

void TestCliOptions::defaults()
{
    CliOptions o;
    QString error;
    QVERIFY2(CliOptions::parse({"run", "--host", "127.0.0.1"}, &o, &error), qPrintable(error));
    QCOMPARE(o.plan.protocols, QStringList{"tcp-send"});
    QCOMPARE(o.plan.frameSizes, QList<int>{1500});
    QCOMPARE(o.plan.repetitions, 5);
    QCOMPARE(o.plan.params.durationMs, 10000);
    QCOMPARE(o.plan.params.messageSize, 128 * 1024);
    QCOMPARE(o.plan.params.sendBufferBytes, 0);
    QCOMPARE(o.plan.params.warmupMs, 0);
    QCOMPARE(o.plan.params.stableTargetPercent, 0.0);
    QCOMPARE(o.unit, RateUnit::MBps);
    QVERIFY(o.jsonPath.isEmpty() && o.chartPath.isEmpty());
    QVERIFY(CliOptions::parse({"--version"}, &o, &error));
    QCOMPARE(o.command, CliOptions::Command::Version);
    QVERIFY(CliOptions::parse({"--help"}, &o, &error));
    QCOMPARE(o.command, CliOptions::Command::Help);
    QVERIFY(CliOptions::parse({"protocols"}, &o, &error));
    QCOMPARE(o.command, CliOptions::Command::Protocols);
    QVERIFY(CliOptions::helpText().contains(QStringLiteral("--message-size")));
}

void TestCliOptions::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("reason");
    QTest::newRow("nothing") << QStringList{} << "no command";
    QTest::newRow("unknown command") << QStringList{"fly"} << "unknown command \"fly\"";
    QTest::newRow("two commands") << QStringList{"run", "extra", "--host", "h"} << "unexpected argument";
    QTest::newRow("no host") << QStringList{"run"} << "at least one host";
    QTest::newRow("unknown option") << QStringList{"run", "--host", "h", "--colour"} << "colour";
    QTest::newRow("missing value") << QStringList{"run", "--host"} << "host";
    QTest::newRow("bad protocol") << QStringList{"run", "--host", "h", "--protocol", "udp"} << "unknown protocol \"udp\"";
    QTest::newRow("bad frame") << QStringList{"run", "--host", "h", "--frame", "abc"} << "--frame \"abc\"";
    QTest::newRow("frame small") << QStringList{"run", "--host", "h", "--frame", "100"} << "--frame \"100\"";
    QTest::newRow("reps 0") << QStringList{"run", "--host", "h", "--reps", "0"} << "--reps";
    QTest::newRow("duration 0") << QStringList{"run", "--host", "h", "--duration", "0"} << "--duration";
    QTest::newRow("duration nan") << QStringList{"run", "--host", "h", "--duration", "nan"} << "--duration";
    QTest::newRow("message 0") << QStringList{"run", "--host", "h", "--message-size", "0"} << "--message-size";
    QTest::newRow("message 1G") << QStringList{"run", "--host", "h", "--message-size", "1024M"} << "--message-size";
    QTest::newRow("bad buffer") << QStringList{"run", "--host", "h", "--send-buffer", "lots"} << "--send-buffer";
    QTest::newRow("bad server") << QStringList{"run", "--host", "h", "--server", "netperf"} << "--server";
    QTest::newRow("bad unit") << QStringList{"run", "--host", "h", "--unit", "knots"} << "--unit";
    QTest::newRow("chart gif") << QStringList{"run", "--host", "h", "--chart", "c.gif"} << "--chart";
    QTest::newRow("chart size") << QStringList{"run", "--host", "h", "--chart-size", "big"} << "--chart-size";
    QTest::newRow("bad host") << QStringList{"run", "--host", "h:99999"} << "--host \"h:99999\"";
    QTest::newRow("warmup negative") << QStringList{"run", "--host", "h", "--warmup", "-1"} << "--warmup";
    QTest::newRow("stable 0") << QStringList{"run", "--host", "h", "--stable", "0"} << "--stable";
    QTest::newRow("min-reps alone") << QStringList{"run", "--host", "h", "--min-reps", "3"} << "goes with --stable";
    QTest::newRow("min-reps above reps") << QStringList{"run", "--host", "h", "--reps", "4", "--stable", "5", "--min-reps", "6"}
                                         << "--min-reps";
    QTest::newRow("stable with 1 rep") << QStringList{"run", "--host", "h", "--reps", "1", "--stable", "5"} << "--reps of at least 2";
    QTest::newRow("bad interval") << QStringList{"run", "--host", "h", "--interval", "1"} << "--interval";
}

void TestCliOptions::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, reason);
    CliOptions o;
    QString error;
    QVERIFY(!CliOptions::parse(args, &o, &error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

QTEST_GUILESS_MAIN(TestCliOptions)
#include "TestCliOptions.moc"
