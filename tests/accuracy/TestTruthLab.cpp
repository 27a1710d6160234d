#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "analysis/Ceiling.h"
#include "engine/Engine.h"
#include "support/EngineRun.h"
#include "plan/TestPlan.h"
#include "plan/PlanFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <tuple>

using namespace wb;

// Every sentence Wirebench says about a run is true (issue 12), through the two-namespace lab
// (tests/lab/lab.sh: a veth pair, so neither end has a speed anyone can trust) with the built wirebenchd in
// the server namespace; this process's main thread joins the client namespace with setns(2), so the engine
// thread it starts afterwards runs there. A healthy run gets no warning; a label names what was used.
class TestTruthLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void farVethSpeedIsNotBelieved_data();
    void farVethSpeedIsNotBelieved();
    void ipv6CeilingIsIpv6s();
    void smallerFarEndThroughCli();

private:
    bool addIpv6(QString *why);
    RunResultList runPlan(const Host &host, const QString &protocol, const QList<int> &frames, int durationMs);
    Host labHost(double linkSpeedMbps = 0) const;

    std::unique_ptr<test::LabSession> m_lab;
    QString m_daemon;
    bool m_ipv6 = false;
};

namespace {
const QString kClientV6 = QStringLiteral("fd31:231::1");
const QString kServerV6 = QStringLiteral("fd31:231::2");
constexpr int kV6Port = 5302;
} // namespace

void TestTruthLab::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString daemon = test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"));
    m_daemon = daemon;
    const QString missing = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));

    m_lab = std::make_unique<test::LabSession>(test::LabBench::labScript(), QStringLiteral("tl"));
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("1gbit"), &why), qPrintable(why));
    QProcess help;
    help.start(daemon, {QStringLiteral("--help")});
    help.waitForFinished(10000);
    QStringList serve{QStringLiteral("serve"), QStringLiteral("wirebenchd"), daemon};
    if (help.readAll().contains("--open"))
        serve << QStringLiteral("--open"); // the lab is private to this test
    bool ok = false;
    const QString served = m_lab->run(serve, &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("wirebenchd did not start in the lab: ") + served));
    QVERIFY2(m_lab->enterClient(&why), qPrintable(why));
}

void TestTruthLab::cleanupTestCase()
{
    m_lab.reset(); // back to our own namespace first: "lab.sh down" kills every process inside the lab
}

Host TestTruthLab::labHost(double linkSpeedMbps) const
{
    Host h;
    h.name = QStringLiteral("lab-srv");
    h.address = test::LabSession::serverAddress();
    h.port = 5301;
    h.linkSpeedMbps = linkSpeedMbps;
    return h;
}

RunResultList TestTruthLab::runPlan(const Host &host, const QString &protocol, const QList<int> &frames, int durationMs)
{
    TestPlan plan;
    plan.hosts = {host};
    plan.protocols = {protocol};
    plan.frameSizes = frames;
    plan.repetitions = 1;
    plan.params.durationMs = durationMs;
    return test::runPlanToEnd(plan,
                              durationMs * int(frames.size()) + 60000); // the engine's thread: the client's namespace
}

// Item 1: with no link speed set, the server's veth says 10000 Mbit/s in its hello. Unshaped, a healthy
// tcp-send moves more than 10 Gbit/s would allow at times; shaped to 100 Mbit/s it is far below it. Either
// way nothing may be compared with that made-up figure: no warning, the ceiling unknown, and why.
void TestTruthLab::farVethSpeedIsNotBelieved_data()
{
    QTest::addColumn<QString>("rate");
    QTest::newRow("unshaped") << QStringLiteral("off");
    QTest::newRow("shaped to 100 Mbit/s") << QStringLiteral("100mbit");
}

void TestTruthLab::farVethSpeedIsNotBelieved()
{
    QFETCH(QString, rate);
    QString why;
    QVERIFY2(m_lab->setLine(1500, rate, &why), qPrintable(why));
    const RunResultList results = runPlan(labHost(), QStringLiteral("tcp-send"), {1500}, 2000);
    QCOMPARE(results.size(), 1);
    const RunResult &r = results.first();
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QVariantMap &x = r.extra;
    qInfo("tcp-send %s: %.3f MB/s; link_speed_note: %s; bottleneck: %s", qPrintable(rate), r.megabytesPerSecond(),
          qPrintable(x.value(QStringLiteral("link_speed_note")).toString()),
          qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
    QCOMPARE(x.value(QStringLiteral("link_speed_source")).toString(), QStringLiteral("unknown"));
    QVERIFY(!x.contains(QStringLiteral("link_speed_Mbps")));
    QVERIFY(!x.contains(QStringLiteral("ceiling_MBps")));
    QVERIFY(!x.contains(QStringLiteral("percent_of_ceiling")));
    // What the server's wirebenchd said, and why it was not used.
    QCOMPARE(x.value(QStringLiteral("remote_interface")).toString(), m_lab->serverInterface());
    QCOMPARE(x.value(QStringLiteral("remote_interface_kind")).toString(), QStringLiteral("virtual"));
    QCOMPARE(x.value(QStringLiteral("remote_link_speed_reported_Mbps")).toDouble(), 10000.0);
    QVERIFY(!x.contains(QStringLiteral("remote_link_speed_Mbps")));
    const QString note = x.value(QStringLiteral("remote_link_speed_note")).toString();
    QCOMPARE(note,
             QStringLiteral("the server's virtual interface %1 (veth) reports no meaningful speed (its 10000 Mbit/s "
                            "is made up)")
                 .arg(m_lab->serverInterface()));
    QVERIFY2(x.value(QStringLiteral("link_speed_note")).toString().contains(note),
             qPrintable(x.value(QStringLiteral("link_speed_note")).toString()));
    QVERIFY2(x.value(QStringLiteral("bottleneck")).toString().contains(QStringLiteral("link speed unknown (")),
             qPrintable(x.value(QStringLiteral("bottleneck")).toString()));

    // The same run with the link speed set is compared: at 100 Mbit/s it is at line rate, not warned about.
    if (rate != QLatin1String("100mbit"))
        return;
    const RunResultList set = runPlan(labHost(100), QStringLiteral("tcp-send"), {1500}, 2000);
    QCOMPARE(set.size(), 1);
    QVERIFY2(set.first().ok(), qPrintable(set.first().error));
    QVERIFY2(set.first().warnings.isEmpty(), qPrintable(set.first().warnings.join(QLatin1Char('\n'))));
    QCOMPARE(set.first().extra.value(QStringLiteral("link_speed_source")).toString(), QStringLiteral("override"));
    QVERIFY2(
        set.first().extra.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("at line rate")),
        qPrintable(set.first().extra.value(QStringLiteral("bottleneck")).toString()));
}

// Both ends get an IPv6 address of the lab (no duplicate address detection: usable at once) and a second
// wirebenchd listens on the server's.
bool TestTruthLab::addIpv6(QString *why)
{
    if (m_ipv6)
        return true;
    bool ok = false;
    for (const auto &[side, addr, dev] : {std::tuple{QStringLiteral("cli"), kClientV6, m_lab->clientInterface()},
                                          std::tuple{QStringLiteral("srv"), kServerV6, m_lab->serverInterface()}}) {
        const QString out = m_lab->run({QStringLiteral("exec"), side, QStringLiteral("ip"), QStringLiteral("-6"),
                                        QStringLiteral("addr"), QStringLiteral("add"), addr + QStringLiteral("/64"),
                                        QStringLiteral("dev"), dev, QStringLiteral("nodad")},
                                       &ok);
        if (!ok) {
            *why = QStringLiteral("cannot give %1 the IPv6 address %2: %3").arg(dev, addr, out);
            return false;
        }
    }
    const QString served = m_lab->run({QStringLiteral("serve"), QStringLiteral("cmd"), QStringLiteral("wbd6"),
                                       QString::number(kV6Port), m_daemon, QStringLiteral("--listen"),
                                       QStringLiteral("[%1]:%2").arg(kServerV6).arg(kV6Port), QStringLiteral("--open")},
                                      &ok);
    if (!ok)
        *why = QStringLiteral("wirebenchd did not start on the lab's IPv6 address: ") + served;
    m_ipv6 = ok;
    return ok;
}

// Item 2, IPv6: its headers are 20 bytes longer, so a 100 Mbit/s tcp-send at line rate (MSS 1428) carries
// 11.606 MB/s, which read 98.7% of IPv4's 11.769 MB/s. Its own ceiling, from the MSS and the address family.
// And over an MTU 4000 link the 1500 B frame is applied over IPv6 too: TCP_MAXSEG 1440 (not 1460, which made
// 1520 B packets) gives MSS 1428.
void TestTruthLab::ipv6CeilingIsIpv6s()
{
    QString why;
    QVERIFY2(m_lab->setLine(1500, QStringLiteral("100mbit"), &why), qPrintable(why));
    QVERIFY2(addIpv6(&why), qPrintable(why));
    Host host = labHost(100);
    host.address = kServerV6;
    host.port = kV6Port;
    const double ceiling = Ceiling::tcpGoodputForMss(100, 1428, true, true);
    RunResult best;
    for (int attempt = 1; attempt <= 3 && !(best.ok() && best.bytesPerSecond() >= 0.98 * ceiling); ++attempt) {
        const RunResultList got = runPlan(host, QStringLiteral("tcp-send"), {1500}, 3000);
        QCOMPARE(got.size(), 1);
        QVERIFY2(got.first().ok(), qPrintable(got.first().error));
        if (!best.ok() || got.first().bytesPerSecond() > best.bytesPerSecond())
            best = got.first();
    }
    const QVariantMap &x = best.extra;
    qInfo("IPv6 tcp-send at 100 Mbit/s: %.3f MB/s, MSS %d B, ceiling %.3f MB/s, %.2f%% of it (IPv4's would be %.2f%%); "
          "bottleneck: %s",
          best.megabytesPerSecond(), best.mss, x.value(QStringLiteral("ceiling_MBps")).toDouble(),
          x.value(QStringLiteral("percent_of_ceiling")).toDouble(),
          Ceiling::percentOf(best.bytesPerSecond(), Ceiling::tcpGoodputBytesPerSecond(100, 1500)),
          qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
    QCOMPARE(best.mss, 1428);
    QCOMPARE(x.value(QStringLiteral("ip_version")).toInt(), 6);
    QCOMPARE(x.value(QStringLiteral("frame_used")).toInt(), 1500);
    QCOMPARE(qRound(x.value(QStringLiteral("ceiling_MBps")).toDouble() * 1000), 11606);
    QVERIFY2(best.bytesPerSecond() <= 1.01 * ceiling, "above the line: the shaper or the count is wrong");
    QVERIFY2(best.warnings.isEmpty(), qPrintable(best.warnings.join(QLatin1Char('\n'))));
    const double percent = x.value(QStringLiteral("percent_of_ceiling")).toDouble();
    QVERIFY2(percent <= 101, qPrintable(QString::number(percent)));
    QVERIFY2(!x.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("above")),
             qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
    if (percent < 98) {
        // Three attempts short of the line: the same test over IPv4 right after, judged by IPv4's own ceiling, shows
        // whether the machine could reach the line in these minutes (the clean-clone CI of e81fa10 met a lab-wide dip
        // where iperf3 itself read 3.9% low). Only then is the IPv6 figure still owed; within 2 points of IPv4's is
        // the same machine's best.
        const RunResultList v4 = runPlan(labHost(100), QStringLiteral("tcp-send"), {1500}, 3000);
        QCOMPARE(v4.size(), 1);
        QVERIFY2(v4.first().ok(), qPrintable(v4.first().error));
        const double v4Percent = v4.first().extra.value(QStringLiteral("percent_of_ceiling")).toDouble();
        qInfo("IPv6 at %.2f%% of its ceiling in 3 attempts; IPv4 right after: %.2f%% of its own (MSS %d B)", percent,
              v4Percent, v4.first().mss);
        QVERIFY2(
            v4Percent < 98 && percent >= v4Percent - 2,
            qPrintable(QStringLiteral("IPv6 %1% of its ceiling while IPv4 through the same lab right after reached %2% "
                                      "of its own: the machine is not the cause")
                           .arg(percent, 0, 'f', 2)
                           .arg(v4Percent, 0, 'f', 2)));
    } else {
        QVERIFY2(x.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("at line rate")),
                 qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
    }

    QVERIFY2(m_lab->setLine(4000, QStringLiteral("off"), &why), qPrintable(why));
    const RunResultList clamped = runPlan(labHost(), QStringLiteral("tcp-send"), {1500}, 1000);
    Host v6 = labHost();
    v6.address = kServerV6;
    v6.port = kV6Port;
    const RunResultList clampedV6 = runPlan(v6, QStringLiteral("tcp-send"), {1500}, 1000);
    QCOMPARE(clamped.size(), 1);
    QCOMPARE(clampedV6.size(), 1);
    QVERIFY2(clampedV6.first().ok(), qPrintable(clampedV6.first().error));
    QCOMPARE(clamped.first().mss, 1448);
    QCOMPARE(clampedV6.first().mss, 1428);
    QCOMPARE(clampedV6.first().extra.value(QStringLiteral("frame_used")).toInt(), 1500);
    QVERIFY2(clampedV6.first().warnings.isEmpty(), qPrintable(clampedV6.first().warnings.join(QLatin1Char('\n'))));
}

// Item 2 through the real binaries: the far end's MTU (1500) is below ours (4000), so a 4000 B plan runs with
// the MSS the far end announced (1448). wirebench-cli's line, its JSON and the analysis name the 1500 B frames
// used and the 4000 planned, with the warning; nothing is judged by a 4000 B frame.
void TestTruthLab::smallerFarEndThroughCli()
{
    QString why;
    // Shaped for 1500 B frames (what will cross), then only our end raised to 4000.
    QVERIFY2(m_lab->setLine(1500, QStringLiteral("100mbit"), &why), qPrintable(why));
    bool ok = false;
    const QString out = m_lab->run({QStringLiteral("exec"), QStringLiteral("cli"), QStringLiteral("ip"),
                                    QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("dev"),
                                    m_lab->clientInterface(), QStringLiteral("mtu"), QStringLiteral("4000")},
                                   &ok);
    QVERIFY2(ok, qPrintable(out));
    m_lab->forgetMtu();
    const QString cli = qEnvironmentVariable("WIREBENCH_BINARY_DIR", QStringLiteral(WB_BINARY_DIR))
        + QStringLiteral("/app/cli/wirebench-cli");
    QVERIFY2(QFileInfo(cli).isExecutable(), qPrintable(cli + QStringLiteral(" is not built")));
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcess p; // forked from this thread: it runs inside the client namespace too
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.path() + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/config"));
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    const QString json = home.path() + QStringLiteral("/out.json");
    // The host with its link speed set (100 Mbit/s, as shaped): a plan file carries it.
    TestPlan plan;
    plan.hosts = {labHost(100)};
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.frameSizes = {4000};
    plan.repetitions = 1;
    plan.params.durationMs = 2000;
    const QString planPath = home.path() + QStringLiteral("/far.wbplan.json");
    QVERIFY2(PlanFile::write(planPath, plan, &why), qPrintable(why));
    p.start(cli, {QStringLiteral("run"), QStringLiteral("--plan"), planPath, QStringLiteral("--json"), json});
    QVERIFY(p.waitForFinished(60000));
    const QString text = QString::fromLocal8Bit(p.readAll());
    qInfo("%s", qPrintable(text));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(text.contains(QStringLiteral("tcp-send  frame 1500 (4000 planned) (MSS 1448)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("tcp-send @ 4000 B frame ran with 1500 B frames (MSS 1448 B)")),
             qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("line-rate ceiling")), qPrintable(text));
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonObject run = doc.value(QStringLiteral("results")).toArray().first().toObject();
    QCOMPARE(run.value(QStringLiteral("frame_size")).toInt(), 4000);
    QCOMPARE(run.value(QStringLiteral("frame_used")).toInt(), 1500);
    QCOMPARE(run.value(QStringLiteral("ceiling_mtu")).toInt(), 1500);
    QCOMPARE(qRound(run.value(QStringLiteral("ceiling_MBps")).toDouble() * 1000), 11769);
    const QJsonObject summary = doc.value(QStringLiteral("summary")).toArray().first().toObject();
    QCOMPARE(summary.value(QStringLiteral("frames_used")).toArray(), QJsonArray{1500});
    QVERIFY2(summary.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("at line rate")),
             qPrintable(summary.value(QStringLiteral("bottleneck")).toString()));
}

QTEST_GUILESS_MAIN(TestTruthLab)
#include "TestTruthLab.moc"
