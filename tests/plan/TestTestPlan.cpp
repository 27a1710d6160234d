#include "plan/TestPlan.h"

#include <QTest>

using namespace wb;

namespace {

Host host(const QString &name)
{
    Host h;
    h.name = name;
    h.address = QStringLiteral("127.0.0.1");
    return h;
}

TestPlan twoByTwo(bool interleave)
{
    TestPlan plan;
    plan.hosts = {host(QStringLiteral("A")), host(QStringLiteral("B"))};
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 2;
    plan.interleaveHosts = interleave;
    plan.params.durationMs = 1000;
    return plan;
}

/// "tcp-send/1500/A/1" per run.
QStringList describe(const QList<RunSpec> &runs)
{
    QStringList out;
    for (const RunSpec &r : runs)
        out << QStringLiteral("%1/%2/%3/%4").arg(r.protocol).arg(r.frameSize).arg(r.host.name).arg(r.repetition);
    return out;
}

} // namespace

class TestTestPlan : public QObject
{
    Q_OBJECT
private slots:
    void expansionOrder_data();
    void expansionOrder();
    void expansionCarriesParams();
    void runCount_data();
    void runCount();
    void validate_data();
    void validate();
    void validPlanHasNoProblems();
};

void TestTestPlan::expansionOrder_data()
{
    QTest::addColumn<bool>("interleave");
    QTest::addColumn<QStringList>("order");
    QTest::newRow("A A B B") << false << QStringList{"tcp-send/1500/A/1", "tcp-send/1500/A/2", "tcp-send/1500/B/1",
                                                     "tcp-send/1500/B/2", "tcp-send/9000/A/1", "tcp-send/9000/A/2",
                                                     "tcp-send/9000/B/1", "tcp-send/9000/B/2", "tcp-recv/1500/A/1",
                                                     "tcp-recv/1500/A/2", "tcp-recv/1500/B/1", "tcp-recv/1500/B/2",
                                                     "tcp-recv/9000/A/1", "tcp-recv/9000/A/2", "tcp-recv/9000/B/1",
                                                     "tcp-recv/9000/B/2"};
    QTest::newRow("A B A B (interleaved)")
        << true << QStringList{"tcp-send/1500/A/1", "tcp-send/1500/B/1", "tcp-send/1500/A/2", "tcp-send/1500/B/2",
                               "tcp-send/9000/A/1", "tcp-send/9000/B/1", "tcp-send/9000/A/2", "tcp-send/9000/B/2",
                               "tcp-recv/1500/A/1", "tcp-recv/1500/B/1", "tcp-recv/1500/A/2", "tcp-recv/1500/B/2",
                               "tcp-recv/9000/A/1", "tcp-recv/9000/B/1", "tcp-recv/9000/A/2", "tcp-recv/9000/B/2"};
}

void TestTestPlan::expansionOrder()
{
    QFETCH(bool, interleave);
    QFETCH(QStringList, order);
    const TestPlan plan = twoByTwo(interleave);
    const QList<RunSpec> runs = plan.expand();
    QCOMPARE(describe(runs), order);
    for (int i = 0; i < runs.size(); ++i)
        QCOMPARE(runs.at(i).index, i);
}

void TestTestPlan::expansionCarriesParams()
{
    TestPlan plan = twoByTwo(false);
    plan.params.messageSize = 1472;
    plan.params.sendBufferBytes = 65536;
    const QList<RunSpec> runs = plan.expand();
    for (const RunSpec &r : runs) {
        QCOMPARE(r.params, plan.params);
        QCOMPARE(r.host.address, QStringLiteral("127.0.0.1"));
    }
    QCOMPARE(runs.first().testKey(), QStringLiteral("tcp-send @ 1500"));
}

void TestTestPlan::runCount_data()
{
    QTest::addColumn<int>("hosts");
    QTest::addColumn<int>("protocols");
    QTest::addColumn<int>("frames");
    QTest::addColumn<int>("reps");
    QTest::newRow("1x1x1x1") << 1 << 1 << 1 << 1;
    QTest::newRow("2x2x2x2") << 2 << 2 << 2 << 2;
    QTest::newRow("3x1x2x5") << 3 << 1 << 2 << 5;
    QTest::newRow("no hosts") << 0 << 2 << 2 << 5;
    QTest::newRow("zero reps") << 2 << 2 << 1 << 0;
}

void TestTestPlan::runCount()
{
    QFETCH(int, hosts);
    QFETCH(int, protocols);
    QFETCH(int, frames);
    QFETCH(int, reps);
    TestPlan plan;
    for (int i = 0; i < hosts; ++i)
        plan.hosts << host(QStringLiteral("h%1").arg(i));
    const QStringList ids{QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    for (int i = 0; i < protocols; ++i)
        plan.protocols << ids.at(i % 2);
    plan.frameSizes.clear();
    for (int i = 0; i < frames; ++i)
        plan.frameSizes << 1500 + i * 7500;
    plan.repetitions = reps;
    QCOMPARE(plan.runCount(), hosts * protocols * frames * reps);
    QCOMPARE(int(plan.expand().size()), plan.runCount());
}

void TestTestPlan::validate_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("problem");
    QTest::newRow("no hosts") << "hosts="
                              << "at least one host";
    QTest::newRow("no protocols") << "protocols="
                                  << "at least one protocol";
    QTest::newRow("no frame sizes") << "frames="
                                    << "at least one frame size";
    QTest::newRow("frame too small") << "frame=500"
                                     << "500 is outside";
    QTest::newRow("frame too large") << "frame=70000"
                                     << "70000 is outside";
    QTest::newRow("zero repetitions") << "reps=0"
                                      << "Repetitions";
    QTest::newRow("too short") << "duration=50"
                               << "at least 0.1 s";
    QTest::newRow("message 0") << "message=0"
                               << "Message size";
    QTest::newRow("message 32 MiB") << "message=33554432"
                                    << "Message size";
    QTest::newRow("unknown protocol") << "protocol=carrier-pigeon"
                                      << "Unknown protocol \"carrier-pigeon\"";
    QTest::newRow("host without address") << "address="
                                          << "has no address";
}

void TestTestPlan::validate()
{
    QFETCH(QString, change);
    QFETCH(QString, problem);
    TestPlan plan = twoByTwo(false);
    const QString key = change.section(QLatin1Char('='), 0, 0);
    const QString value = change.section(QLatin1Char('='), 1);
    if (key == QLatin1String("hosts"))
        plan.hosts.clear();
    else if (key == QLatin1String("protocols"))
        plan.protocols.clear();
    else if (key == QLatin1String("frames"))
        plan.frameSizes.clear();
    else if (key == QLatin1String("frame"))
        plan.frameSizes << value.toInt();
    else if (key == QLatin1String("reps"))
        plan.repetitions = value.toInt();
    else if (key == QLatin1String("duration"))
        plan.params.durationMs = value.toInt();
    else if (key == QLatin1String("message"))
        plan.params.messageSize = value.toInt();
    else if (key == QLatin1String("protocol"))
        plan.protocols << value;
    else if (key == QLatin1String("address"))
        plan.hosts[1].address = value;
    else
        QFAIL("unknown change in the test table");
    const QStringList problems = plan.validate();
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems.first().contains(problem), qPrintable(problems.first()));
}

void TestTestPlan::validPlanHasNoProblems()
{
    QVERIFY(twoByTwo(false).validate().isEmpty());
    TestPlan embedded = twoByTwo(false);
    embedded.hosts[0].address.clear();
    embedded.hosts[0].embedded = true; // the GUI's loopback responder fills its address in later
    QVERIFY(embedded.validate().isEmpty());
}

QTEST_GUILESS_MAIN(TestTestPlan)
#include "TestTestPlan.moc"
