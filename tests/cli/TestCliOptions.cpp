#include "CliOptions.h"
#include "protocols/DriverRegistry.h"
#include "plan/PlanFile.h"
#include "plan/Secrets.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
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
    void planAloneIsEnough();
    void optionsOverridePlan();
    void planErrors_data();
    void planErrors();
    void savePlanRoundTrips();
    void stablePlanWithOneRep();
    void perHostSettings_data();
    void perHostSettings();
    void perHostSettingErrors_data();
    void perHostSettingErrors();

private:
    /// A plan of two hosts (one with an FTP user), two protocols, two frames, 3 reps, written to `path`.
    static TestPlan samplePlan();
    QTemporaryDir m_dir;
};

void TestCliOptions::hosts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("address");
    QTest::addColumn<int>("port");
    QTest::newRow("ipv4") << "127.0.0.1" << true << ""
                          << "127.0.0.1" << 0;
    QTest::newRow("ipv4:port") << "127.0.0.1:5301" << true << ""
                               << "127.0.0.1" << 5301;
    QTest::newRow("name") << "fs1.lab" << true << ""
                          << "fs1.lab" << 0;
    QTest::newRow("[v6]:port") << "[::1]:5301" << true << ""
                               << "::1" << 5301;
    QTest::newRow("[v6]") << "[::1]" << true << ""
                          << "::1" << 0;
    QTest::newRow("bare v6") << "fe80::1" << true << ""
                             << "fe80::1" << 0;
    QTest::newRow("NAME=addr:port") << "linux=10.0.0.5:5301" << true << "linux"
                                    << "10.0.0.5" << 5301;
    QTest::newRow("NAME=[v6]:port") << "lo6=[::1]:7" << true << "lo6"
                                    << "::1" << 7;
    QTest::newRow("port 0") << "127.0.0.1:0" << false << ""
                            << "" << 0;
    QTest::newRow("port too big") << "127.0.0.1:70000" << false << ""
                                  << "" << 0;
    QTest::newRow("port not a number") << "127.0.0.1:http" << false << ""
                                       << "" << 0;
    QTest::newRow("empty port") << "127.0.0.1:" << false << ""
                                << "" << 0;
    QTest::newRow("missing ]") << "[::1:5301" << false << ""
                               << "" << 0;
    QTest::newRow("junk after ]") << "[::1]5301" << false << ""
                                  << "" << 0;
    QTest::newRow("empty") << "" << false << ""
                           << "" << 0;
    QTest::newRow("empty name") << "=127.0.0.1" << false << ""
                                << "" << 0;
    QTest::newRow("space inside") << "127.0 .0.1" << false << ""
                                  << "" << 0;
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
    const QStringList args{"run",
                           "--host",
                           "127.0.0.1:5301",
                           "--host",
                           "[::1]:5302",
                           "--protocol",
                           "tcp-send,tcp-recv",
                           "--frame",
                           "1500,9000",
                           "--reps",
                           "3",
                           "--duration",
                           "2.5",
                           "--message-size",
                           "1472",
                           "--send-buffer",
                           "64K",
                           "--recv-buffer",
                           "131072",
                           "--json",
                           "out.json",
                           "--csv",
                           "out.csv",
                           "--unit",
                           "Mbps",
                           "--stop-on-error",
                           "--interleave",
                           "--interval",
                           "250",
                           "--warmup",
                           "1.5",
                           "--stable",
                           "2.5",
                           "--min-reps",
                           "2",
                           "--streams",
                           "4"};
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
    QCOMPARE(o.plan.params.streams, 4);
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
    // `run --host h` and options one of which is wrong, grouped by the step of the parse that refuses it.
    struct Row
    {
        const char *name;
        QStringList options;
        const char *reason;
    };
    const QList<QList<Row>> steps{
        // hosts and protocols
        {{"bad protocol", {"--protocol", "udp"}, "unknown protocol \"udp\""},
         {"bad server", {"--server", "netperf"}, "--server"}},
        // frames
        {{"bad frame", {"--frame", "abc"}, "--frame \"abc\""}, {"frame small", {"--frame", "100"}, "--frame \"100\""}},
        // timing and sizes
        {{"reps 0", {"--reps", "0"}, "--reps"},
         {"duration 0", {"--duration", "0"}, "--duration"},
         {"duration nan", {"--duration", "nan"}, "--duration"},
         {"streams 0", {"--streams", "0"}, "--streams must be a whole number from 1 to 128"},
         {"streams 129", {"--streams", "129"}, "--streams must be a whole number from 1 to 128"},
         {"streams many", {"--streams", "many"}, "--streams must be a whole number from 1 to 128"},
         {"message 0", {"--message-size", "0"}, "--message-size"},
         {"message 1G", {"--message-size", "1024M"}, "--message-size"},
         {"bad buffer", {"--send-buffer", "lots"}, "--send-buffer"},
         {"bad interval", {"--interval", "1"}, "--interval"}},
        // settings
        {{"warmup negative", {"--warmup", "-1"}, "--warmup"},
         {"secrets missing", {"--secrets", "/nonexistent/secrets"}, "--secrets: cannot read /nonexistent/secrets"}},
        // the stable rule
        {{"stable 0", {"--stable", "0"}, "--stable"},
         {"min-reps alone", {"--min-reps", "3"}, "goes with --stable"},
         {"min-reps above reps", {"--reps", "4", "--stable", "5", "--min-reps", "6"}, "--min-reps"},
         {"stable with 1 rep", {"--reps", "1", "--stable", "5"}, "--reps of at least 2"}},
        // outputs
        {{"bad unit", {"--unit", "knots"}, "--unit"},
         {"chart gif", {"--chart", "c.gif"}, "--chart"},
         {"chart size", {"--chart-size", "big"}, "--chart-size"}},
    };
    for (const QList<Row> &rows : steps) {
        for (const Row &row : rows)
            QTest::newRow(row.name) << QStringList{"run", "--host", "h"} + row.options << row.reason;
    }
    QTest::newRow("bad host") << QStringList{"run", "--host", "h:99999"} << "--host \"h:99999\"";
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

TestPlan TestCliOptions::samplePlan()
{
    TestPlan plan;
    Host a;
    a.name = QStringLiteral("linux");
    a.address = QStringLiteral("127.0.0.1");
    a.port = 5301;
    a.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bench"));
    Host b;
    b.address = QStringLiteral("::1");
    b.port = 5302;
    plan.hosts = {a, b};
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 3;
    plan.interleaveHosts = true;
    plan.params
        = TestParams{.durationMs = 7000, .messageSize = 65536, .warmupMs = 500, .stopOnError = true, .options = {}};
    return plan;
}

void TestCliOptions::planAloneIsEnough()
{
    QVERIFY(m_dir.isValid());
    const QString path = m_dir.filePath(QStringLiteral("alone.wbplan.json"));
    QString error;
    QVERIFY2(PlanFile::write(path, samplePlan(), &error), qPrintable(error));
    CliOptions o;
    QVERIFY2(CliOptions::parse({"run", "--plan", path}, &o, &error), qPrintable(error));
    QCOMPARE(o.command, CliOptions::Command::Run);
    QCOMPARE(o.planPath, path);
    const TestPlan expected = samplePlan();
    QCOMPARE(o.plan.hosts, expected.hosts);
    QCOMPARE(o.plan.protocols, expected.protocols);
    QCOMPARE(o.plan.frameSizes, expected.frameSizes);
    QCOMPARE(o.plan.repetitions, 3);
    QVERIFY(o.plan.interleaveHosts); // a flag absent from the command line keeps the file's value
    QVERIFY(o.plan.params.stopOnError);
    QCOMPARE(o.plan.params.durationMs, 7000);
    QCOMPARE(o.plan.params.messageSize, 65536);
    QCOMPARE(o.plan.params.warmupMs, 500);
    QCOMPARE(o.plan.runCount(), 2 * 2 * 2 * 3);
    QVERIFY(o.notes.isEmpty());
}

void TestCliOptions::optionsOverridePlan()
{
    const QString path = m_dir.filePath(QStringLiteral("override.wbplan.json"));
    QString error;
    QVERIFY2(PlanFile::write(path, samplePlan(), &error), qPrintable(error));
    CliOptions o;
    QVERIFY2(CliOptions::parse({"run", "--plan", path, "--reps", "1", "--duration", "2", "--frame", "1500", "--set",
                                "ftp.user=other", "--message-size", "1472"},
                               &o, &error),
             qPrintable(error));
    QCOMPARE(o.plan.repetitions, 1);
    QCOMPARE(o.plan.params.durationMs, 2000);
    QCOMPARE(o.plan.frameSizes, QList<int>{1500});
    QCOMPARE(o.plan.params.messageSize, 1472);
    QCOMPARE(o.plan.hosts.size(), 2);                   // hosts from the file
    QCOMPARE(o.plan.protocols, samplePlan().protocols); // protocols from the file
    QCOMPARE(o.plan.hosts.at(0).options.value("ftp.user").toString(), QStringLiteral("other")); // --set wins
    QCOMPARE(o.plan.hosts.at(1).options.value("ftp.user").toString(), QStringLiteral("other")); // on every host
    QCOMPARE(o.plan.params.warmupMs, 500);                                                      // untouched parts stay

    // The latency probe's idle lead is a plan setting too: --set latency.idle_ms=0 turns the probe off.
    QVERIFY2(CliOptions::parse({"run", "--plan", path, "--set", "latency.idle_ms=0"}, &o, &error), qPrintable(error));
    QCOMPARE(o.plan.params.options.value(QStringLiteral("latency.idle_ms")).toInt(), 0);
    QVERIFY(o.plan.hosts.at(0).options.value(QStringLiteral("latency.idle_ms")).isNull()); // not a host's
    QVERIFY(!CliOptions::parse({"run", "--plan", path, "--set", "latency.idle_ms=soon"}, &o, &error));
    QVERIFY2(error.contains(QStringLiteral("latency.idle_ms")) || error.contains(QStringLiteral("soon")),
             qPrintable(error));

    QVERIFY2(CliOptions::parse({"run", "--plan", path, "--host", "only=127.0.0.2:6000", "--protocol", "tcp-recv",
                                "--server", "iperf3"},
                               &o, &error)
                 || error.contains(QStringLiteral("iperf3")),
             qPrintable(error));
    QVERIFY2(CliOptions::parse(
                 {"run", "--plan", path, "--host", "only=127.0.0.2:6000", "--protocol", "tcp-recv", "--key", "k123"},
                 &o, &error),
             qPrintable(error));
    QCOMPARE(o.plan.hosts.size(), 1); // --host replaces the file's hosts
    QCOMPARE(o.plan.hosts.first().name, QStringLiteral("only"));
    QCOMPARE(o.plan.hosts.first().port, quint16(6000));
    QCOMPARE(o.plan.hosts.first().options.value("wirebenchd.secret").toString(), QStringLiteral("k123"));
    QCOMPARE(o.plan.protocols, QStringList{"tcp-recv"});
    QCOMPARE(o.plan.repetitions, 3);

    // --server alone switches the file's hosts
    QVERIFY2(CliOptions::parse({"run", "--plan", path, "--server", "iperf3"}, &o, &error)
                 || error.contains(QStringLiteral("iperf3")),
             qPrintable(error));
}

void TestCliOptions::planErrors_data()
{
    QVERIFY(m_dir.isValid());
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("content"); // empty: the file is not created
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QStringList>("reasons");
    const QString missing = m_dir.filePath(QStringLiteral("missing.wbplan.json"));
    QTest::newRow("missing file") << missing << QByteArray() << QStringList{}
                                  << QStringList{missing, QStringLiteral("does not exist")};
    QTest::newRow("bad json") << m_dir.filePath(QStringLiteral("bad.json"))
                              << QByteArray("{\"format\": \"wirebench-plan\", ") << QStringList{}
                              << QStringList{QStringLiteral("not valid JSON")};
    QTest::newRow("foreign json") << m_dir.filePath(QStringLiteral("foreign.json")) << QByteArray("{\"name\": 1}")
                                  << QStringList{} << QStringList{QStringLiteral("not a Wirebench plan")};
    const QByteArray embedded = R"json({"format": "wirebench-plan", "version": 1, "plan": {
        "hosts": [{"name": "This computer (loopback)", "address": "127.0.0.1", "port": 40123, "embedded": true}],
        "protocols": ["tcp-send"], "frame_sizes": [1500], "repetitions": 1, "params": {"duration_ms": 1000}}})json";
    QTest::newRow("embedded host") << m_dir.filePath(QStringLiteral("embedded.wbplan.json")) << embedded
                                   << QStringList{}
                                   << QStringList{QStringLiteral("\"This computer (loopback)\""),
                                                  QStringLiteral("built-in loopback responder"),
                                                  QStringLiteral("wirebenchd --listen 127.0.0.1:5301"),
                                                  QStringLiteral("--host 127.0.0.1:5301"),
                                                  QStringLiteral("edit the plan")};
    const QByteArray noHosts = R"json({"format": "wirebench-plan", "version": 1, "plan": {"hosts": [],
        "protocols": ["tcp-send"], "repetitions": 1}})json";
    QTest::newRow("no hosts") << m_dir.filePath(QStringLiteral("nohosts.wbplan.json")) << noHosts << QStringList{}
                              << QStringList{QStringLiteral("names no host"), QStringLiteral("--host")};
    const QByteArray unknown = R"json({"format": "wirebench-plan", "version": 1, "plan": {
        "hosts": [{"address": "127.0.0.1"}], "protocols": ["carrier-pigeon"], "repetitions": 1}})json";
    QTest::newRow("unknown protocol") << m_dir.filePath(QStringLiteral("unknown.wbplan.json")) << unknown
                                      << QStringList{}
                                      << QStringList{QStringLiteral("\"carrier-pigeon\" in plan file")};
    const QByteArray good = R"json({"format": "wirebench-plan", "version": 1, "plan": {
        "hosts": [{"address": "127.0.0.1"}], "protocols": ["tcp-send"], "repetitions": 1}})json";
    QTest::newRow("bad override") << m_dir.filePath(QStringLiteral("good.wbplan.json")) << good
                                  << QStringList{"--reps", "0"} << QStringList{QStringLiteral("--reps")};
    QTest::newRow("newer version") << m_dir.filePath(QStringLiteral("v2.wbplan.json"))
                                   << QByteArray(R"json({"format": "wirebench-plan", "version": 2, "plan": {}})json")
                                   << QStringList{} << QStringList{QStringLiteral("update Wirebench")};
    QTest::newRow("empty --plan") << QString() << QByteArray() << QStringList{}
                                  << QStringList{QStringLiteral("--plan needs a file name")};
}

void TestCliOptions::planErrors()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, content);
    QFETCH(QStringList, extra);
    QFETCH(QStringList, reasons);
    if (!content.isEmpty()) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    CliOptions o;
    QString error;
    QVERIFY(!CliOptions::parse(QStringList{"run", "--plan", file} + extra, &o, &error));
    for (const QString &reason : reasons)
        QVERIFY2(error.contains(reason), qPrintable(error));
    QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));

    // --host replaces the embedded host, so the same file then runs
    if (QTest::currentDataTag() == QLatin1String("embedded host")) {
        QVERIFY2(CliOptions::parse({"run", "--plan", file, "--host", "127.0.0.1:5301"}, &o, &error), qPrintable(error));
        QCOMPARE(o.plan.hosts.size(), 1);
        QVERIFY(!o.plan.hosts.first().embedded);
        QCOMPARE(o.plan.params.durationMs, 1000);
    }
}

void TestCliOptions::savePlanRoundTrips()
{
    const QString keyFile = m_dir.filePath(QStringLiteral("key"));
    const QString passwordFile = m_dir.filePath(QStringLiteral("ftp-password"));
    for (const auto &[path, text] :
         {std::pair{keyFile, QByteArray("k-secret\n")}, std::pair{passwordFile, QByteArray("pw-secret\n")}}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }
    const QString saved = m_dir.filePath(QStringLiteral("saved.wbplan.json"));
    CliOptions o;
    QString error;
    QVERIFY2(CliOptions::parse({"run",
                                "--host",
                                "a=127.0.0.1:5301",
                                "--host",
                                "[::1]:5302",
                                "--protocol",
                                "tcp-send,tcp-recv",
                                "--frame",
                                "1500,9000",
                                "--reps",
                                "2",
                                "--duration",
                                "1.5",
                                "--message-size",
                                "64K",
                                "--interleave",
                                "--set",
                                "ftp.user=bench",
                                "--set",
                                "ftp.password=@" + passwordFile,
                                "--key-file",
                                keyFile,
                                "--save-plan",
                                saved},
                               &o, &error),
             qPrintable(error));
    QCOMPARE(o.savePlanPath, saved);
    QStringList notes;
    QVERIFY2(CliOptions::savePlan(o.savePlanPath, o.plan, &notes, &error), qPrintable(error));

    TestPlan back;
    QVERIFY2(PlanFile::read(saved, &back, &error), qPrintable(error));
    QCOMPARE(back.hosts.size(), 2);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(back.hosts.at(i).address, o.plan.hosts.at(i).address);
        QCOMPARE(back.hosts.at(i).port, o.plan.hosts.at(i).port);
        QCOMPARE(back.hosts.at(i).name, o.plan.hosts.at(i).name);
        QCOMPARE(back.hosts.at(i).options.value("ftp.user").toString(), QStringLiteral("bench"));
        QVERIFY(!back.hosts.at(i).options.contains("ftp.password"));
        QVERIFY(!back.hosts.at(i).options.contains("wirebenchd.secret"));
    }
    QCOMPARE(back.protocols, o.plan.protocols);
    QCOMPARE(back.frameSizes, o.plan.frameSizes);
    QCOMPARE(back.repetitions, 2);
    QCOMPARE(back.interleaveHosts, true);
    QCOMPARE(back.params.durationMs, 1500);
    QCOMPARE(back.params.messageSize, 65536);
    QCOMPARE(back.params.stopOnError, o.plan.params.stopOnError);

    QFile file(saved);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY2(!bytes.contains("pw-secret") && !bytes.contains("k-secret"), bytes.constData());
    QCOMPARE(QJsonDocument::fromJson(bytes).object().value("format").toString(), QStringLiteral("wirebench-plan"));

    // One note per secret left out, naming how to give it back.
    QCOMPARE(notes.size(), 2);
    QVERIFY2(notes.join('|').contains(QStringLiteral("--set ftp.password=@FILE")), qPrintable(notes.join('|')));
    QVERIFY2(notes.join('|').contains(QStringLiteral("--key-file FILE")), qPrintable(notes.join('|')));
    for (const QString &note : notes)
        QVERIFY(!note.contains(QLatin1Char('\n')));

    // The saved file runs as it was, and the password comes back from the command line.
    QVERIFY2(CliOptions::parse({"run", "--plan", saved, "--set", "ftp.password=@" + passwordFile}, &o, &error),
             qPrintable(error));
    QCOMPARE(o.plan.runCount(), 2 * 2 * 2 * 2);
    QCOMPARE(o.plan.hosts.at(1).options.value("ftp.password").toString(), QStringLiteral("pw-secret"));

    // Without secrets there is nothing to note; a plan from the store names what its protocols may need.
    TestPlan plain = samplePlan();
    QVERIFY(Secrets::notes(plain).isEmpty());
    plain.protocols = {QStringLiteral("ftp-get")};
    const QStringList stored = Secrets::notes(plain, true);
    if (DriverRegistry::has(QStringLiteral("ftp-get")))
        QVERIFY2(stored.join('|').contains(QStringLiteral("--set ftp.password=@FILE")), qPrintable(stored.join('|')));

    QVERIFY(!CliOptions::parse({"run", "--host", "h", "--save-plan", ""}, &o, &error));
    QVERIFY2(error.contains(QStringLiteral("--save-plan")), qPrintable(error));
    QVERIFY(!CliOptions::savePlan(m_dir.filePath(QStringLiteral("no/such/dir/p.json")), plain, &notes, &error));
    QVERIFY2(error.contains(QStringLiteral("cannot write")), qPrintable(error));
}

void TestCliOptions::stablePlanWithOneRep()
{
    TestPlan plan = samplePlan();
    plan.params.stableTargetPercent = 5;
    plan.params.minRepetitions = 3;
    const QString path = m_dir.filePath(QStringLiteral("stable.wbplan.json"));
    QString error;
    QVERIFY2(PlanFile::write(path, plan, &error), qPrintable(error));
    CliOptions o;
    QVERIFY2(CliOptions::parse({"run", "--plan", path}, &o, &error), qPrintable(error));
    QCOMPARE(o.plan.params.stableTargetPercent, 5.0);
    QCOMPARE(o.plan.params.minRepetitions, 3);
    // --reps 1 to try the plan quickly: one run cannot be judged, so the rule is off and a note says so.
    QVERIFY2(CliOptions::parse({"run", "--plan", path, "--reps", "1"}, &o, &error), qPrintable(error));
    QCOMPARE(o.plan.repetitions, 1);
    QCOMPARE(o.plan.params.stableTargetPercent, 0.0);
    QCOMPARE(o.notes.size(), 1);
    QVERIFY2(o.notes.first().contains(QStringLiteral("repeat until stable")), qPrintable(o.notes.first()));
    QVERIFY(CliOptions::parse({"run", "--plan", path, "--min-reps", "2"}, &o, &error)); // the file's --stable counts
    QCOMPARE(o.plan.params.minRepetitions, 2);
}

void TestCliOptions::perHostSettings_data()
{
    // Two file servers, each with its own FTP password: what each host ends up with.
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QString>("linux");
    QTest::addColumn<QString>("windows");
    QTest::newRow("every host") << QStringList{"ftp.password=same"} << "same"
                                << "same";
    QTest::newRow("each its own") << QStringList{"linux-server:ftp.password=L", "windows-server:ftp.password=W"} << "L"
                                  << "W";
    QTest::newRow("by address") << QStringList{"127.0.0.3:ftp.password=W"} << ""
                                << "W";
    QTest::newRow("name in any case") << QStringList{"LINUX-SERVER:ftp.password=L"} << "L"
                                      << "";
    QTest::newRow("host wins, given before") << QStringList{"linux-server:ftp.password=L", "ftp.password=all"} << "L"
                                             << "all";
    QTest::newRow("host wins, given after") << QStringList{"ftp.password=all", "linux-server:ftp.password=L"} << "L"
                                            << "all";
    QTest::newRow("from a file") << QStringList{"windows-server:ftp.password=@PWFILE"} << ""
                                 << "from file";
}

void TestCliOptions::perHostSettings()
{
    QFETCH(QStringList, sets);
    const QString pwFile = m_dir.filePath(QStringLiteral("pw"));
    QFile f(pwFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("from file\n");
    f.close();
    QStringList args{"run",        "--host", "linux-server=127.0.0.2", "--host", "windows-server=127.0.0.3",
                     "--protocol", "ftp-get"};
    for (const QString &set : sets)
        args << "--set" << QString(set).replace(QStringLiteral("PWFILE"), pwFile);
    CliOptions o;
    QString error;
    QVERIFY2(CliOptions::parse(args, &o, &error), qPrintable(error));
    QTEST(o.plan.hosts.at(0).options.value("ftp.password").toString(), "linux");
    QTEST(o.plan.hosts.at(1).options.value("ftp.password").toString(), "windows");
}

void TestCliOptions::perHostSettingErrors_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unknown host") << QStringList{"--set", "mac-server:ftp.password=x"}
                                  << "--set \"mac-server:ftp.password\": the plan has no host \"mac-server\" (its "
                                     "hosts: linux-server (127.0.0.2), windows-server (127.0.0.3))";
    QTest::newRow("plan-wide key") << QStringList{"--set", "linux-server:transfer.verify=yes"}
                                   << "transfer.verify is a setting of the whole plan, not of one host";
    QTest::newRow("unknown key") << QStringList{"--set", "linux-server:ftp.colour=red"} << "no protocol reads this key";
    QTest::newRow("no host") << QStringList{"--set", ":ftp.user=x"} << "no host before the ':'";
    QTest::newRow("bad value") << QStringList{"--set", "linux-server:ftp.port=ftp"} << "not a whole number";
    QTest::newRow("missing file") << QStringList{"--set", "linux-server:ftp.password=@/nonexistent/pw"}
                                  << "cannot read /nonexistent/pw";
}

void TestCliOptions::perHostSettingErrors()
{
    QFETCH(QStringList, options);
    QFETCH(QString, reason);
    CliOptions o;
    QString error;
    QVERIFY(!CliOptions::parse(QStringList{"run", "--host", "linux-server=127.0.0.2", "--host",
                                           "windows-server=127.0.0.3", "--protocol", "ftp-get"}
                                   + options,
                               &o, &error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("=x")), qPrintable(error)); // never the value
}

QTEST_GUILESS_MAIN(TestCliOptions)
#include "TestCliOptions.moc"
