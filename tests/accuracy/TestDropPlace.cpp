#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "analysis/Ceiling.h"
#include "support/EngineRun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace wb;

// Where the packets were lost (issue 14, part 1), through the lab with a router namespace between client and
// server (tests/lab/lab.sh up --router): a tbf with a short queue drops packets on this computer's veth, on the
// far host's veth, or on the router's veth towards the server. The sentence must name that place, and its
// counters must be what `tc -s qdisc` and `ip -s -s link` print in that namespace over the same run (after the
// shaper they belong to when the run reached its rate, ShaperLimit). A healthy
// run through the same lab (a 1 Gbit/s line with the lab's long queues) gets no loss sentence. The built wirebenchd
// serves in the server namespace; this process's main thread joins the client namespace, so the engine's thread runs
// there.
class TestDropPlace : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void healthyRunHasNoLossSentence();
    void droppedOnThisComputer();
    void droppedOnTheFarHost();
    void droppedBetweenThem();

private:
    /// What tc and ip say in one namespace about one interface, to compare over a run.
    struct Seen
    {
        qint64 qdiscDropped = 0;
        QJsonObject rx, tx;
    };
    Seen seen(const QString &side, const QString &dev) const;
    /// A short-queued tbf at 40 Mbit/s on dev in side's namespace: it drops whatever does not fit.
    void shape(const QString &side, const QString &dev);
    RunResult run(const QString &protocol, double linkSpeedMbps = 1000);

    std::unique_ptr<test::LabSession> m_lab;
    QList<std::pair<QString, QString>> m_shaped;
};

namespace {
const QString kHost = QStringLiteral("lab-srv");

qint64 after(const QJsonObject &a, const QJsonObject &b, const char *key)
{
    return b.value(QLatin1String(key)).toInteger() - a.value(QLatin1String(key)).toInteger();
}
} // namespace

void TestDropPlace::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString missing = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    m_lab = std::make_unique<test::LabSession>(test::LabBench::labScript(), QStringLiteral("dp"));
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("10gbit"), &why, {QStringLiteral("--router")}), qPrintable(why));
    bool ok = false;
    QString out = m_lab->run({QStringLiteral("shape"), QStringLiteral("off")}, &ok); // each test sets its own queue
    QVERIFY2(ok, qPrintable(out));
    out = test::LabBench::serveAll(
        *m_lab,
        {{QStringLiteral("wirebenchd"), test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"))}});
    QVERIFY2(out.isEmpty(), qPrintable(out));
    QVERIFY2(m_lab->enterClient(&why), qPrintable(why));
}

void TestDropPlace::cleanupTestCase()
{
    m_lab.reset(); // back to our own namespace first: "lab.sh down" kills every process inside the lab
}

void TestDropPlace::cleanup()
{
    for (const auto &[side, dev] : std::as_const(m_shaped))
        m_lab->run({QStringLiteral("exec"), side, QStringLiteral("tc"), QStringLiteral("qdisc"), QStringLiteral("del"),
                    QStringLiteral("dev"), dev, QStringLiteral("root")});
    m_shaped.clear();
}

TestDropPlace::Seen TestDropPlace::seen(const QString &side, const QString &dev) const
{
    Seen s;
    const QString tc = m_lab->run({QStringLiteral("exec"), side, QStringLiteral("tc"), QStringLiteral("-s"),
                                   QStringLiteral("qdisc"), QStringLiteral("show"), QStringLiteral("dev"), dev});
    // One root qdisc on each veth here (tbf or noqueue): its "(dropped N, ...".
    const QRegularExpression dropped(QStringLiteral("\\(dropped (\\d+),"));
    for (auto it = dropped.globalMatch(tc); it.hasNext();)
        s.qdiscDropped += it.next().captured(1).toLongLong();
    const QString ip = m_lab->run({QStringLiteral("exec"), side, QStringLiteral("ip"), QStringLiteral("-s"),
                                   QStringLiteral("-s"), QStringLiteral("-j"), QStringLiteral("link"),
                                   QStringLiteral("show"), QStringLiteral("dev"), dev});
    const QJsonObject stats
        = QJsonDocument::fromJson(ip.toUtf8()).array().first().toObject().value(QStringLiteral("stats64")).toObject();
    s.rx = stats.value(QStringLiteral("rx")).toObject();
    s.tx = stats.value(QStringLiteral("tx")).toObject();
    return s;
}

void TestDropPlace::shape(const QString &side, const QString &dev)
{
    bool ok = false;
    // burst of two frames: tbf cuts TCP's 64 KB GSO packets into frames and drops those beyond its 6-frame queue
    // while telling TCP the packet went out, so TCP loses segments and resends them, as behind a real queue.
    const QString out
        = m_lab->run({QStringLiteral("exec"), side, QStringLiteral("tc"), QStringLiteral("qdisc"),
                      QStringLiteral("replace"), QStringLiteral("dev"), dev, QStringLiteral("root"),
                      QStringLiteral("tbf"), QStringLiteral("rate"), QStringLiteral("40mbit"), QStringLiteral("burst"),
                      QStringLiteral("3028"), QStringLiteral("limit"), QStringLiteral("9084")},
                     &ok);
    QVERIFY2(ok, qPrintable(out));
    m_shaped.append({side, dev});
}

RunResult TestDropPlace::run(const QString &protocol, double linkSpeedMbps)
{
    TestPlan plan;
    Host h;
    h.name = kHost;
    h.address = test::LabSession::serverAddress();
    h.port = 5301;
    h.linkSpeedMbps = linkSpeedMbps; // what the user set for the host: the sentence says the path delivers less
    plan.hosts = {h};
    plan.protocols = {protocol};
    plan.frameSizes = {1500};
    plan.repetitions = 1;
    plan.params.durationMs = 3000;
    const RunResultList results = test::runPlanToEnd(plan, 60000);
    return results.isEmpty() ? RunResult{} : results.first();
}

void TestDropPlace::healthyRunHasNoLossSentence()
{
    // A 1 Gbit/s line as lab.sh shapes it (queues of 1000 frames at both ends, which TCP does not overflow): the
    // router in between forwards that easily. Unshaped, the router's veths drop about 0.3% of a 13 Gbit/s stream,
    // which is a real loss between the ends and named so.
    bool ok = false;
    const QString shaped = m_lab->run({QStringLiteral("shape"), QStringLiteral("1gbit")}, &ok);
    QVERIFY2(ok, qPrintable(shaped));
    const RunResult r = run(QStringLiteral("tcp-send"));
    m_lab->run({QStringLiteral("shape"), QStringLiteral("off")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QString sentence = r.extra.value(QStringLiteral("bottleneck")).toString();
    qInfo("healthy tcp-send: %.1f MB/s, %lld retransmits: %s", r.megabytesPerSecond(),
          r.extra.value(QStringLiteral("retransmits")).toLongLong(), qPrintable(sentence));
    for (const char *word : {"dropped", "retransmissions", "lost", "path between"})
        QVERIFY2(!sentence.contains(QLatin1String(word)), qPrintable(sentence));
    // Both ends' counters were read and came back with the run.
    QCOMPARE(r.extra.value(QStringLiteral("drops")).toMap().value(QStringLiteral("interface")).toString(),
             m_lab->clientInterface());
    QCOMPARE(r.extra.value(QStringLiteral("remote_drops")).toMap().value(QStringLiteral("interface")).toString(),
             m_lab->serverInterface());
}

void TestDropPlace::droppedOnThisComputer()
{
    shape(QStringLiteral("cli"), m_lab->clientInterface());
    const Seen before = seen(QStringLiteral("cli"), m_lab->clientInterface());
    const RunResult r = run(QStringLiteral("tcp-send"));
    const Seen now = seen(QStringLiteral("cli"), m_lab->clientInterface());
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QString sentence = r.extra.value(QStringLiteral("bottleneck")).toString();
    qInfo("tcp-send, tbf on %s: %.2f MB/s: %s", qPrintable(m_lab->clientInterface()), r.megabytesPerSecond(),
          qPrintable(sentence));
    const qint64 tc = now.qdiscDropped - before.qdiscDropped;
    QVERIFY2(tc > 0, "the shaper dropped nothing: no test");
    // The place either after the retransmissions (": dropped on ...") or after the shaper it belongs to, when the run
    // reached at least 80% of what that 40 Mbit/s tbf lets through ("limited by a shaper: ...; dropped on ...").
    QVERIFY2(sentence.startsWith(QLatin1String("limited by retransmissions"))
                 || sentence.startsWith(QLatin1String("limited by a shaper: a tbf shaper on ")),
             qPrintable(sentence));
    QVERIFY2(sentence.contains(
                 QStringLiteral(
                     "dropped on this computer: the qdisc tbf of %1 dropped %2 packets, its queue full (qdisc_drops %2")
                     .arg(m_lab->clientInterface())
                     .arg(tc)),
             qPrintable(QStringLiteral("tc counted %1: %2").arg(tc).arg(sentence)));
    QVERIFY2(!sentence.contains(QLatin1String(" on lab-srv")), qPrintable(sentence));
    const QVariantMap d = r.extra.value(QStringLiteral("drops")).toMap();
    QCOMPARE(d.value(QStringLiteral("qdisc_drops")).toLongLong(), tc);
    QCOMPARE(d.value(QStringLiteral("tx_dropped")).toLongLong(), after(before.tx, now.tx, "dropped"));
    QCOMPARE(d.value(QStringLiteral("rx_dropped")).toLongLong(), after(before.rx, now.rx, "dropped"));
}

void TestDropPlace::droppedOnTheFarHost()
{
    // The far host sends (tcp-recv): its own queue drops, and its wirebenchd reports it with the result.
    shape(QStringLiteral("srv"), m_lab->serverInterface());
    const Seen before = seen(QStringLiteral("srv"), m_lab->serverInterface());
    const RunResult r = run(QStringLiteral("tcp-recv"));
    const Seen now = seen(QStringLiteral("srv"), m_lab->serverInterface());
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QString sentence = r.extra.value(QStringLiteral("bottleneck")).toString();
    qInfo("tcp-recv, tbf on %s: %.2f MB/s: %s", qPrintable(m_lab->serverInterface()), r.megabytesPerSecond(),
          qPrintable(sentence));
    const qint64 tc = now.qdiscDropped - before.qdiscDropped;
    QVERIFY2(tc > 0, "the shaper dropped nothing: no test");
    // The place either after the retransmissions (": dropped on ...") or after the shaper it belongs to, when the run
    // reached at least 80% of what that 40 Mbit/s tbf lets through ("limited by a shaper: ...; dropped on ...").
    QVERIFY2(sentence.startsWith(QLatin1String("limited by retransmissions"))
                 || sentence.startsWith(QLatin1String("limited by a shaper: a tbf shaper on ")),
             qPrintable(sentence));
    QVERIFY2(sentence.contains(
                 QStringLiteral("dropped on %1: the qdisc tbf of %2 dropped %3 packets, its queue full (qdisc_drops %3")
                     .arg(kHost, m_lab->serverInterface())
                     .arg(tc)),
             qPrintable(QStringLiteral("tc counted %1: %2").arg(tc).arg(sentence)));
    QVERIFY2(!sentence.contains(QLatin1String("on this computer")), qPrintable(sentence));
    const QVariantMap d = r.extra.value(QStringLiteral("remote_drops")).toMap();
    QCOMPARE(d.value(QStringLiteral("qdisc_drops")).toLongLong(), tc);
    QCOMPARE(d.value(QStringLiteral("tx_dropped")).toLongLong(), after(before.tx, now.tx, "dropped"));
    QCOMPARE(d.value(QStringLiteral("rx_dropped")).toLongLong(), after(before.rx, now.rx, "dropped"));
}

void TestDropPlace::droppedBetweenThem()
{
    // The router's queue towards the server drops: neither end counts anything, the path delivers what the run got.
    shape(QStringLiteral("rtr"), m_lab->routerServerInterface());
    const Seen rtrBefore = seen(QStringLiteral("rtr"), m_lab->routerServerInterface());
    const Seen cliBefore = seen(QStringLiteral("cli"), m_lab->clientInterface());
    const Seen srvBefore = seen(QStringLiteral("srv"), m_lab->serverInterface());
    const RunResult r = run(QStringLiteral("tcp-send"));
    const Seen rtrNow = seen(QStringLiteral("rtr"), m_lab->routerServerInterface());
    const Seen cliNow = seen(QStringLiteral("cli"), m_lab->clientInterface());
    const Seen srvNow = seen(QStringLiteral("srv"), m_lab->serverInterface());
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QString sentence = r.extra.value(QStringLiteral("bottleneck")).toString();
    qInfo("tcp-send, tbf on the router's %s: %.2f MB/s: %s", qPrintable(m_lab->routerServerInterface()),
          r.megabytesPerSecond(), qPrintable(sentence));
    QVERIFY2(rtrNow.qdiscDropped > rtrBefore.qdiscDropped, "the router's shaper dropped nothing: no test");
    const QString rate = Ceiling::formatLinkSpeed(r.bytesPerSecond() * 8 / 1e6);
    QVERIFY2(sentence.contains(QStringLiteral(": neither end dropped them (the qdisc, input backlog, interface and TCP "
                                              "counters of this computer and %1 stayed at 0): the path between this "
                                              "computer and %1 delivers about %2, below the 1 Gbit/s set for it: a "
                                              "slower link, a shaper or a policer on the way")
                                   .arg(kHost, rate)),
             qPrintable(sentence));
    // What the ends said is what tc and ip say in their namespaces: nothing dropped there.
    const QVariantMap local = r.extra.value(QStringLiteral("drops")).toMap();
    const QVariantMap remote = r.extra.value(QStringLiteral("remote_drops")).toMap();
    QCOMPARE(local.value(QStringLiteral("qdisc_drops")).toLongLong(), cliNow.qdiscDropped - cliBefore.qdiscDropped);
    QCOMPARE(remote.value(QStringLiteral("qdisc_drops")).toLongLong(), srvNow.qdiscDropped - srvBefore.qdiscDropped);
    QCOMPARE(local.value(QStringLiteral("rx_dropped")).toLongLong(), after(cliBefore.rx, cliNow.rx, "dropped"));
    QCOMPARE(remote.value(QStringLiteral("rx_dropped")).toLongLong(), after(srvBefore.rx, srvNow.rx, "dropped"));
    QCOMPARE(local.value(QStringLiteral("qdisc_drops")).toLongLong(), 0);
    QCOMPARE(remote.value(QStringLiteral("qdisc_drops")).toLongLong(), 0);
}

QTEST_GUILESS_MAIN(TestDropPlace)
#include "TestDropPlace.moc"
