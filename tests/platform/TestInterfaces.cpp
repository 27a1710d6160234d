#include "OwnNetwork.h"
#include "platform/Platform.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTest>

#include <string>
#include <thread>

#include <sched.h>

using namespace wb;
using wb::test::OwnNetwork;

// platform::Interfaces on real interfaces of the test's own network namespace: lo, a veth pair it creates
// (up and down), a macvlan on it, and the same veth seen from a thread in another namespace, where sysfs
// does not show it and ethtool alone answers. The figures are checked against what ethtool(8) says.
class TestInterfaces : public QObject
{
    Q_OBJECT

    static const platform::Interfaces &interfaces() { return platform::Platform::interfaces(); }

    /// ethtool's line "Key: value" for an interface ("Speed: 10000Mb/s", "driver: veth").
    static QString ethtool(const QStringList &args, const QString &key)
    {
        const QString out = QString::fromLocal8Bit(OwnNetwork::runOutput(QStringLiteral("ethtool"), args));
        const QRegularExpression line(QStringLiteral("^\\s*%1:\\s*(.*)$").arg(QRegularExpression::escape(key)),
                                      QRegularExpression::MultilineOption);
        return line.match(out).captured(1).trimmed();
    }

private slots:
    void initTestCase()
    {
        WB_REQUIRE_OWN_NETWORK();
        QString e;
        QVERIFY2(OwnNetwork::ip({"link", "add", "wbp0", "type", "veth", "peer", "name", "wbp1"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbp0", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbp1", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "add", "link", "wbp0", "name", "wbm0", "type", "macvlan"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbm0", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "add", "wbd0", "type", "veth", "peer", "name", "wbd1"}, &e), qPrintable(e));
    }

    void loopback()
    {
        const platform::InterfaceReading r = interfaces().read("lo");
        QCOMPARE(QString::fromStdString(r.error), QString());
        QCOMPARE(QString::fromStdString(r.device), QStringLiteral("lo"));
        QVERIFY(r.loopback);
        QVERIFY(r.isVirtual);
        QVERIFY(!r.bond);
        QVERIFY(!r.lowerMissing);
        QCOMPARE(r.speedMbps, -1.0); // lo has no speed file value
        QCOMPARE(QString::fromStdString(r.duplex), QStringLiteral("unknown"));
    }

    void vethUp()
    {
        const platform::InterfaceReading r = interfaces().read("wbp0");
        QCOMPARE(QString::fromStdString(r.error), QString());
        QCOMPARE(QString::fromStdString(r.device), QStringLiteral("wbp0"));
        QCOMPARE(QString::fromStdString(r.driver), ethtool({"-i", "wbp0"}, "driver"));
        QCOMPARE(QString::fromStdString(r.driver), QStringLiteral("veth"));
        QVERIFY(!r.loopback);
        QVERIFY(r.isVirtual);
        QVERIFY(!r.bond);
        QCOMPARE(QStringLiteral("%1Mb/s").arg(r.speedMbps), ethtool({"wbp0"}, "Speed"));
        QCOMPARE(QString::fromStdString(r.duplex), ethtool({"wbp0"}, "Duplex").toLower());
    }

    void vethDownHasNoSpeed()
    {
        const platform::InterfaceReading r = interfaces().read("wbd0");
        QCOMPARE(QString::fromStdString(r.error), QString());
        QCOMPARE(QString::fromStdString(r.driver), QStringLiteral("veth"));
        QCOMPARE(r.speedMbps, -1.0);
        QCOMPARE(QString::fromStdString(r.duplex), QStringLiteral("unknown"));
    }

    void macvlanFollowsItsLowerDevice()
    {
        const platform::InterfaceReading r = interfaces().read("wbm0");
        QCOMPARE(QString::fromStdString(r.error), QString());
        QCOMPARE(QString::fromStdString(r.device), QStringLiteral("wbp0"));
        QCOMPARE(QString::fromStdString(r.driver), QStringLiteral("veth"));
        QCOMPARE(QStringLiteral("%1Mb/s").arg(r.speedMbps), ethtool({"wbp0"}, "Speed"));
        QVERIFY(!r.lowerMissing);
    }

    void missingOrBadNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("error");
        QTest::newRow("no such interface") << "wbnone0"
                                           << "interface wbnone0 does not exist in this network namespace";
        QTest::newRow("empty") << ""
                               << "no interface name";
        QTest::newRow("a path") << "../lo"
                                << "no interface name";
    }

    void missingOrBadNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, error);
        const platform::InterfaceReading r = interfaces().read(name.toStdString());
        QCOMPARE(QString::fromStdString(r.error), error);
        QCOMPARE(QString::fromStdString(r.device), name);
        QCOMPARE(r.speedMbps, -1.0);
    }

    void errorCounters()
    {
        // Nothing physical here: no frame ever had a bad CRC.
        for (const char *name : {"lo", "wbp0"}) {
            const std::optional<platform::InterfaceErrors> e = interfaces().errors(name);
            QVERIFY2(e.has_value(), name);
            QCOMPARE(e->crcErrors, std::int64_t(0));
            QCOMPARE(e->frameErrors, std::int64_t(0));
        }
        QVERIFY(!interfaces().errors("wbnone0").has_value());
        QVERIFY(!interfaces().errors("../lo").has_value());
    }

    /// A thread in another network namespace (as the lab's threads are after setns): sysfs still shows the
    /// test's namespace, so a veth made there is read through ethtool alone.
    void otherNamespaceThroughEthtool()
    {
        platform::InterfaceReading r, lo;
        QString e;
        bool made = false;
        std::thread t([&] {
            if (::unshare(CLONE_NEWNET) != 0) {
                e = QStringLiteral("unshare(CLONE_NEWNET) failed");
                return;
            }
            // Processes started from this thread are born in its namespace.
            made = OwnNetwork::ip({"link", "add", "wbq0", "type", "veth", "peer", "name", "wbq1"}, &e)
                && OwnNetwork::ip({"link", "set", "wbq0", "up"}, &e)
                && OwnNetwork::ip({"link", "set", "wbq1", "up"}, &e);
            r = interfaces().read("wbq0");
            lo = interfaces().read("wbp0");
        });
        t.join();
        QVERIFY2(made, qPrintable(e));
        QCOMPARE(QString::fromStdString(r.error), QString());
        QCOMPARE(QString::fromStdString(r.device), QStringLiteral("wbq0"));
        QCOMPARE(QString::fromStdString(r.driver), QStringLiteral("veth"));
        QCOMPARE(r.speedMbps, 10000.0); // veth's ethtool answer
        QCOMPARE(QString::fromStdString(r.duplex), QStringLiteral("full"));
        QVERIFY(!r.loopback);
        // wbp0 is in sysfs but not in that namespace: not taken from sysfs.
        QCOMPARE(QString::fromStdString(lo.error),
                 QStringLiteral("interface wbp0 does not exist in this network namespace"));
    }
};

WB_OWN_NETWORK_TEST_MAIN(TestInterfaces)
#include "TestInterfaces.moc"
