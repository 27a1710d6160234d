#include "wire/QtWire.h"
#include "analysis/InterfaceFacts.h"
#include "analysis/LinkTrust.h"
#include "analysis/RunAnalyzer.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QJsonDocument>
#include <QTest>

#include <functional>

using namespace wb;

Q_DECLARE_METATYPE(wb::InterfaceFacts)

namespace {

InterfaceFacts facts(const QString &name, const QString &driver, double speed,
                     const std::function<void(InterfaceFacts &)> &tweak = {})
{
    InterfaceFacts f;
    f.name = name;
    f.device = name;
    f.driver = driver;
    f.speedMbps = speed;
    f.duplex = QStringLiteral("full");
    if (tweak)
        tweak(f);
    return f;
}

InterfaceFacts software(const QString &name, const QString &driver, double speed)
{
    return facts(name, driver, speed, [](InterfaceFacts &f) { f.isVirtual = true; });
}

/// A synthetic tcp-send result as the TCP driver leaves it, with what the server's hello said.
RunResult resultWithHello(const QVariantMap &helloExtra, double MBps)
{
    RunResult r;
    r.spec.host.address = QStringLiteral("127.0.0.1");
    r.spec.protocol = QStringLiteral("tcp-send");
    r.spec.frameSize = 1500;
    r.status = RunStatus::Ok;
    r.bytes = qint64(MBps * 1e6 * 10);
    r.seconds = 10;
    r.mss = 1448;
    r.extra = helloExtra;
    return r;
}

QVariantMap helloLink(const InterfaceFacts &f)
{
    return {{QStringLiteral("remote_link"), f.toJson().toVariantMap()},
            {QStringLiteral("remote_link_speed_Mbps"), f.speedMbps}}; // what an older wirebenchd sent alone
}

} // namespace

// Issue 12, item 1: one trust rule for a link speed, whichever end reports it.
class TestLinkTrust : public QObject
{
    Q_OBJECT
private slots:
    void judge_data()
    {
        QTest::addColumn<InterfaceFacts>("facts");
        QTest::addColumn<double>("speed");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("note");

        QTest::newRow("loopback") << facts(QStringLiteral("lo"), QString(), -1,
                                           [](InterfaceFacts &f) { f.loopback = true; })
                                  << -1.0 << QStringLiteral("loopback")
                                  << QStringLiteral("loopback interface lo reports no speed");
        QTest::newRow("veth") << software(QStringLiteral("veth0"), QStringLiteral("veth"), 10000) << -1.0
                              << QStringLiteral("virtual")
                              << QStringLiteral("virtual interface veth0 (veth) reports no meaningful speed (its 10000 "
                                                "Mbit/s is made up)");
        QTest::newRow("bridge") << software(QStringLiteral("br0"), QStringLiteral("bridge"), 1000) << -1.0
                                << QStringLiteral("virtual")
                                << QStringLiteral(
                                       "virtual interface br0 (bridge) reports no meaningful speed (its 1000 "
                                       "Mbit/s is made up)");
        QTest::newRow("tun") << software(QStringLiteral("tun0"), QStringLiteral("tun"), 10) << -1.0
                             << QStringLiteral("virtual")
                             << QStringLiteral(
                                    "virtual interface tun0 (tun) reports no meaningful speed (its 10 Mbit/s "
                                    "is made up)");
        QTest::newRow("link down veth") << software(QStringLiteral("veth1"), QStringLiteral("veth"), -1) << -1.0
                                        << QStringLiteral("virtual")
                                        << QStringLiteral("virtual interface veth1 (veth) reports no meaningful speed");
        // Known by its driver alone (read through ethtool where sysfs shows another namespace).
        QTest::newRow("veth by its driver only")
            << facts(QStringLiteral("wbc-1"), QStringLiteral("veth"), 10000) << -1.0 << QStringLiteral("virtual")
            << QStringLiteral("virtual interface wbc-1 (veth) reports no meaningful "
                              "speed (its 10000 Mbit/s is made up)");
        QTest::newRow("macvlan without its lower device")
            << facts(QStringLiteral("mv0"), QStringLiteral("macvlan"), 10000,
                     [](InterfaceFacts &f) {
                         f.isVirtual = true;
                         f.lowerMissing = true;
                     })
            << -1.0 << QStringLiteral("virtual")
            << QStringLiteral("interface mv0 (macvlan) runs on a device this system cannot see (another network "
                              "namespace), so its speed is unknown");
        // InterfaceFacts::read follows a VLAN or macvlan to its lower device: those facts are judged.
        QTest::newRow("macvlan on a NIC") << facts(QStringLiteral("mv0"), QStringLiteral("igb"), 1000,
                                                   [](InterfaceFacts &f) { f.device = QStringLiteral("eth0"); })
                                          << 1000.0 << QStringLiteral("hardware") << QString();
        QTest::newRow("virtio_net") << facts(QStringLiteral("eth0"), QStringLiteral("virtio_net"), 10000) << -1.0
                                    << QStringLiteral("vm")
                                    << QStringLiteral(
                                           "interface eth0 is a virtual machine's NIC (virtio_net), whose speed "
                                           "the hypervisor makes up (its 10000 Mbit/s is made up)");
        QTest::newRow("vmxnet3") << facts(QStringLiteral("ens192"), QStringLiteral("vmxnet3"), 10000) << -1.0
                                 << QStringLiteral("vm")
                                 << QStringLiteral(
                                        "interface ens192 is a virtual machine's NIC (vmxnet3), whose speed the "
                                        "hypervisor makes up (its 10000 Mbit/s is made up)");
        QTest::newRow("hv_netvsc") << facts(QStringLiteral("eth0"), QStringLiteral("hv_netvsc"), 40000) << -1.0
                                   << QStringLiteral("vm")
                                   << QStringLiteral(
                                          "interface eth0 is a virtual machine's NIC (hv_netvsc), whose speed "
                                          "the hypervisor makes up (its 40000 Mbit/s is made up)");
        QTest::newRow("emulated e1000 in a VM")
            << facts(QStringLiteral("ens3"), QStringLiteral("e1000"), 1000,
                     [](InterfaceFacts &f) { f.hypervisor = true; })
            << -1.0 << QStringLiteral("vm")
            << QStringLiteral("interface ens3 is a virtual machine's NIC (e1000), whose speed the hypervisor makes up "
                              "(its 1000 Mbit/s is made up)");
        QTest::newRow("e1000e on bare metal") << facts(QStringLiteral("eno1"), QStringLiteral("e1000e"), 1000) << 1000.0
                                              << QStringLiteral("hardware") << QString();
        QTest::newRow("a passed-through NIC in a VM") << facts(QStringLiteral("ens4"), QStringLiteral("ixgbe"), 10000,
                                                               [](InterfaceFacts &f) { f.hypervisor = true; })
                                                      << 10000.0 << QStringLiteral("hardware") << QString();
        QTest::newRow("bond") << facts(QStringLiteral("bond0"), QStringLiteral("bonding"), 2000,
                                       [](InterfaceFacts &f) {
                                           f.isVirtual = true;
                                           f.bond = true;
                                       })
                              << 2000.0 << QStringLiteral("hardware") << QString();
        QTest::newRow("NIC, link down") << facts(QStringLiteral("eth1"), QStringLiteral("igb"), -1) << -1.0
                                        << QStringLiteral("hardware")
                                        << QStringLiteral("interface eth1 reports no speed (link down or not reported "
                                                          "by the driver)");
        QTest::newRow("not readable") << facts(
            QStringLiteral("eth9"), QString(), -1,
            [](InterfaceFacts &f) {
                f.error = QStringLiteral("interface eth9 does not exist in this network namespace");
            }) << -1.0 << QStringLiteral("unknown")
                                      << QStringLiteral("interface eth9 does not exist in this network namespace");
    }
    void judge()
    {
        QFETCH(InterfaceFacts, facts);
        QFETCH(double, speed);
        QFETCH(QString, kind);
        QFETCH(QString, note);
        const SpeedVerdict v = LinkTrust::judge(facts);
        QCOMPARE(v.speedMbps, speed);
        QCOMPARE(v.note, note);
        QCOMPARE(v.trusted(), speed > 0);
        QCOMPARE(v.duplex, speed > 0 ? QStringLiteral("full") : QStringLiteral("unknown"));
        QCOMPARE(LinkTrust::kindOf(facts), kind);
        // The far end is judged by the same rule, through its hello.
        const SpeedVerdict remote
            = LinkTrust::judge(InterfaceFacts::fromJson(facts.toJson()), QStringLiteral("the server's "));
        QCOMPARE(remote.speedMbps, speed);
        if (!note.isEmpty() && facts.error.isEmpty())
            QCOMPARE(remote.note, QStringLiteral("the server's ") + note);
    }

    void jsonRoundTrip()
    {
        InterfaceFacts f = facts(QStringLiteral("eth0.10"), QStringLiteral("igb"), 1000, [](InterfaceFacts &x) {
            x.device = QStringLiteral("eth0");
            x.hypervisor = true;
            x.duplex = QStringLiteral("half");
            x.mtu = 9000;
        });
        const QJsonObject o = f.toJson();
        QCOMPARE(o.value(QStringLiteral("version")).toInt(), InterfaceFacts::kJsonVersion);
        const InterfaceFacts back = InterfaceFacts::fromJson(o);
        QCOMPARE(back.name, f.name);
        QCOMPARE(back.device, f.device);
        QCOMPARE(back.driver, f.driver);
        QCOMPARE(back.speedMbps, 1000.0);
        QCOMPARE(back.duplex, QStringLiteral("half"));
        QCOMPARE(back.hypervisor, true);
        QCOMPARE(back.mtu, 9000);
        QVERIFY(back.error.isEmpty());
        // An older wirebenchd says no MTU: unknown, not a figure.
        QJsonObject older = o;
        older.remove(QStringLiteral("mtu"));
        QCOMPARE(InterfaceFacts::fromJson(older).mtu, 0);

        // Through the hello as wirebenchd sends it, and read back as the client parses it.
        control::Hello hello;
        hello.link = wire::fromQt(o);
        control::Hello parsed;
        std::string error;
        QVERIFY2(control::Hello::fromJson(hello.toJson(), &parsed, &error), error.c_str());
        QCOMPARE(wire::toQt(parsed.link), o);
    }

    void hostileHelloIsTamed()
    {
        QJsonObject o = facts(QStringLiteral("eth0"), QStringLiteral("igb"), 1000).toJson();
        o.insert(QStringLiteral("name"), QStringLiteral("eth0\n\x1b[31mforged line") + QString(200, QLatin1Char('x')));
        o.insert(QStringLiteral("speed_mbps"), 1e300);
        o.insert(QStringLiteral("duplex"), QStringLiteral("sideways"));
        o.insert(QStringLiteral("mtu"), 1 << 30);
        const InterfaceFacts f = InterfaceFacts::fromJson(o);
        QCOMPARE(f.mtu, 0);
        QVERIFY(!f.name.contains(QLatin1Char('\n')) && !f.name.contains(QChar(0x1b)));
        QVERIFY(f.name.size() <= 32);
        QCOMPARE(f.speedMbps, -1.0);
        QCOMPARE(f.duplex, QStringLiteral("unknown"));
        QVERIFY(!LinkTrust::judge(f).trusted());
        // No version: an older or foreign server, whose figure nobody can judge.
        QVERIFY(!LinkTrust::judge(InterfaceFacts::fromJson({})).trusted());
        QVERIFY(!InterfaceFacts::fromJson({}).error.isEmpty());
    }

    void readsLoopback()
    {
#ifdef Q_OS_LINUX
        const InterfaceFacts f = InterfaceFacts::read(QStringLiteral("lo"));
        QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
        QVERIFY(f.loopback);
        QVERIFY2(f.mtu >= 1500, qPrintable(QString::number(f.mtu))); // 65536 on Linux since 3.6
        QCOMPARE(LinkTrust::kindOf(f), QStringLiteral("loopback"));
        qint64 crc = -1, frame = -1;
        QVERIFY(InterfaceFacts::readErrorCounters(QStringLiteral("lo"), &crc, &frame));
        QCOMPARE(crc, 0);
        QCOMPARE(frame, 0);
        QVERIFY(!InterfaceFacts::read(QStringLiteral("no-such-if0")).error.isEmpty());
        QVERIFY(!InterfaceFacts::readErrorCounters(QStringLiteral("no-such-if0"), &crc, &frame));
        QVERIFY(!InterfaceFacts::readErrorCounters(QStringLiteral("../lo"), &crc, &frame));
#else
        QSKIP("interface facts are read on Linux only");
#endif
    }

    // The analyzer takes the far end's facts from the hello and believes only what the rule believes.
    void analyzerJudgesTheFarEnd_data()
    {
        QTest::addColumn<QVariantMap>("hello");
        QTest::addColumn<double>("linkSpeed");
        QTest::addColumn<QString>("note");
        QTest::newRow("server on a veth (the 2230 MB/s of issue 12)")
            << helloLink(software(QStringLiteral("wbs-1"), QStringLiteral("veth"), 10000)) << -1.0
            << QStringLiteral(
                   "the server's virtual interface wbs-1 (veth) reports no meaningful speed (its 10000 Mbit/s "
                   "is made up)");
        QTest::newRow("server in a VM") << helloLink(facts(QStringLiteral("eth0"), QStringLiteral("virtio_net"), 10000))
                                        << -1.0
                                        << QStringLiteral(
                                               "the server's interface eth0 is a virtual machine's NIC "
                                               "(virtio_net), whose speed the hypervisor makes up (its 10000 "
                                               "Mbit/s is made up)");
        QTest::newRow("an older wirebenchd: a bare figure")
            << QVariantMap{{QStringLiteral("remote_link_speed_Mbps"), 10000}} << -1.0
            << QStringLiteral(
                   "the server reported 10000 Mbit/s without saying what kind of interface gave it (an older "
                   "wirebenchd), so it is not used");
        QTest::newRow("server on a real 1 Gbit/s NIC")
            << helloLink(facts(QStringLiteral("eno1"), QStringLiteral("igb"), 1000)) << 1000.0 << QString();
    }
    void analyzerJudgesTheFarEnd()
    {
        QFETCH(QVariantMap, hello);
        QFETCH(double, linkSpeed);
        QFETCH(QString, note);
        RunResult r = resultWithHello(hello, 2230);
        RunAnalyzer analyzer;
        analyzer.beforeRun(r.spec);
        analyzer.afterRun(r);
        const QVariantMap &x = r.extra;
        QVERIFY(!x.contains(QStringLiteral("remote_link"))); // turned into the flat keys below
        if (linkSpeed > 0) {
            QCOMPARE(x.value(QStringLiteral("link_speed_Mbps")).toDouble(), linkSpeed);
            QCOMPARE(x.value(QStringLiteral("link_speed_source")).toString(), QStringLiteral("remote"));
            QCOMPARE(x.value(QStringLiteral("remote_link_speed_Mbps")).toDouble(), linkSpeed);
            // 2230 MB/s cannot cross a 1 Gbit/s NIC: the right warning.
            QCOMPARE(r.warnings.size(), 1);
            QVERIFY2(r.warnings.first().contains(QStringLiteral("above the line-rate ceiling of 1 Gbit/s")),
                     qPrintable(r.warnings.first()));
            return;
        }
        // Nothing compared with a speed nobody can trust: no warning, no ceiling, and the reason given.
        QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
        QVERIFY(!x.contains(QStringLiteral("link_speed_Mbps")));
        QVERIFY(!x.contains(QStringLiteral("remote_link_speed_Mbps")));
        QVERIFY(!x.contains(QStringLiteral("ceiling_MBps")));
        QCOMPARE(x.value(QStringLiteral("link_speed_source")).toString(), QStringLiteral("unknown"));
        QCOMPARE(x.value(QStringLiteral("remote_link_speed_note")).toString(), note);
        QCOMPARE(x.value(QStringLiteral("remote_link_speed_reported_Mbps")).toDouble(), 10000.0);
        // (Over loopback, as here, link_speed_note gives ours alone: the far end is this computer. The lab's
        // TestTruthLab sees both over a veth pair.)
        QVERIFY2(x.value(QStringLiteral("bottleneck")).toString().contains(QStringLiteral("link speed unknown (")),
                 qPrintable(x.value(QStringLiteral("bottleneck")).toString()));
    }
};

QTEST_GUILESS_MAIN(TestLinkTrust)
#include "TestLinkTrust.moc"
