#include "OwnNetwork.h"
#include "platform/Platform.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace wb;
using wb::test::OwnNetwork;

// platform::MtuControl on lo and a veth of the test's own network namespace, each figure checked against
// what `ip -j link show` says; the refusals with their words.
class TestMtuControl : public QObject
{
    Q_OBJECT

    static const platform::MtuControl &control() { return platform::Platform::mtuControl(); }

    static int ipMtu(const QString &name)
    {
        const QJsonArray links
            = QJsonDocument::fromJson(OwnNetwork::runOutput("ip", {"-j", "link", "show", name})).array();
        return links.isEmpty() ? -1 : links.first().toObject().value(QStringLiteral("mtu")).toInt(-1);
    }

private slots:
    void initTestCase()
    {
        WB_REQUIRE_OWN_NETWORK();
        QString e;
        QVERIFY2(OwnNetwork::ip({"link", "add", "wbp0", "type", "veth", "peer", "name", "wbp1"}, &e), qPrintable(e));
    }

    void readsTheMtu()
    {
        QCOMPARE(control().mtu("lo"), ipMtu("lo"));
        QCOMPARE(control().mtu("lo"), 65536);
        QCOMPARE(control().mtu("wbp0"), ipMtu("wbp0"));
        QCOMPARE(control().mtu("wbnone0"), 0);
        QCOMPARE(control().mtu("a-name-far-too-long-for-linux"), 0);
    }

    void setsTheMtu()
    {
        std::string e;
        QVERIFY2(control().setMtu("wbp0", 9000, &e), e.c_str());
        QCOMPARE(ipMtu("wbp0"), 9000);
        QCOMPARE(control().mtu("wbp0"), 9000);
        QVERIFY2(control().setMtu("wbp0", 1500, &e), e.c_str());
        QCOMPARE(ipMtu("wbp0"), 1500);
        QCOMPARE(control().mtu("wbp0"), 1500);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("mtu");
        QTest::addColumn<QString>("error");
        QTest::newRow("too small") << "wbp0" << 50 << "MTU 50 is out of range (68 to 65535 bytes)";
        QTest::newRow("too large") << "wbp0" << 70000 << "MTU 70000 is out of range (68 to 65535 bytes)";
        QTest::newRow("name too long") << "a-name-far-too-long-for-linux" << 1500
                                       << "\"a-name-far-too-long-for-linux\" is not an interface name";
        QTest::newRow("no such interface")
            << "wbnone0" << 1500
            << "could not set the MTU of wbnone0 to 1500 bytes (No such device): no such interface here";
    }

    void refusals()
    {
        QFETCH(QString, name);
        QFETCH(int, mtu);
        QFETCH(QString, error);
        std::string e;
        QVERIFY(!control().setMtu(name.toStdString(), mtu, &e));
        QCOMPARE(QString::fromStdString(e), error);
        QCOMPARE(ipMtu("wbp0"), 1500);
    }

    void privilegedAsRoot() { QCOMPARE(control().privileged(), ::geteuid() == 0); }

    void namespaceIsThisOne()
    {
        // The test runs in a namespace of its own: the id is that one's, not the machine's (pid 1's).
        struct stat own = {}, machine = {};
        QCOMPARE(::stat("/proc/self/ns/net", &own), 0);
        QCOMPARE(QString::fromStdString(control().namespaceId()), QString::number(quint64(own.st_ino)));
        if (::stat("/proc/1/ns/net", &machine) == 0)
            QVERIFY(own.st_ino != machine.st_ino);
    }
};

WB_OWN_NETWORK_TEST_MAIN(TestMtuControl)
#include "TestMtuControl.moc"
