#include "../lab/LabSession.h"
#include "analysis/Ceiling.h"
#include "engine/Engine.h"
#include "plan/TestPlan.h"

#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

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

private:
    RunResultList runPlan(const Host &host, const QString &protocol, const QList<int> &frames, int durationMs);
    Host labHost(double linkSpeedMbps = 0) const;

    std::unique_ptr<test::LabSession> m_lab;
};

void TestTruthLab::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString src = qEnvironmentVariable("WIREBENCH_SOURCE_DIR", QStringLiteral(WB_SOURCE_DIR));
    const QString bin = qEnvironmentVariable("WIREBENCH_BINARY_DIR", QStringLiteral(WB_BINARY_DIR));
    const QString labScript = src + QStringLiteral("/tests/lab/lab.sh");
    const QString daemon = bin + QStringLiteral("/app/daemon/wirebenchd");
    QVERIFY2(QFileInfo::exists(labScript), qPrintable(labScript + QStringLiteral(" is missing")));
    QVERIFY2(QFileInfo(daemon).isExecutable(), qPrintable(daemon + QStringLiteral(" is not built: build the wirebenchd target")));
    const QString missing = test::LabSession::missingTool({QStringLiteral("ip"), QStringLiteral("tc")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing + QStringLiteral(" is missing: apt-get install iproute2")));

    m_lab = std::make_unique<test::LabSession>(labScript, QStringLiteral("tl"));
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
    Engine engine; // its thread starts here, inside the client namespace
    QSignalSpy finished(&engine, &Engine::runFinished);
    QSignalSpy done(&engine, &Engine::planFinished);
    if (!engine.start(plan))
        return {};
    if (!done.wait(durationMs * int(frames.size()) + 60000) && done.isEmpty())
        return {};
    RunResultList out;
    for (const QList<QVariant> &args : std::as_const(finished))
        out << args.at(0).value<RunResult>();
    return out;
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
    QCOMPARE(note, QStringLiteral("the server's virtual interface %1 (veth) reports no meaningful speed (its 10000 Mbit/s "
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
    QVERIFY2(set.first().extra.value(QStringLiteral("bottleneck")).toString().startsWith(QStringLiteral("at line rate")),
             qPrintable(set.first().extra.value(QStringLiteral("bottleneck")).toString()));
}

QTEST_GUILESS_MAIN(TestTruthLab)
#include "TestTruthLab.moc"
