#include "OwnNetwork.h"
#include "platform/Platform.h"

#include <QCoreApplication>
#include <QTest>

#include <arpa/inet.h>

using namespace wb;
using wb::test::OwnNetwork;

// platform::Routes in the test's own network namespace: loopback, a veth with an address, a route with its
// own MTU, a changed interface MTU, and a destination with no route at all.
class TestRoutes : public QObject
{
    Q_OBJECT

    static platform::IpAddress address(const char *text)
    {
        platform::IpAddress a;
        if (::inet_pton(AF_INET, text, a.bytes.data()) == 1)
            a.family = platform::IpAddress::Family::V4;
        else if (::inet_pton(AF_INET6, text, a.bytes.data()) == 1)
            a.family = platform::IpAddress::Family::V6;
        return a;
    }

    static QString text(const platform::IpAddress &a)
    {
        char out[INET6_ADDRSTRLEN] = {};
        if (a.family == platform::IpAddress::Family::None)
            return {};
        ::inet_ntop(a.family == platform::IpAddress::Family::V4 ? AF_INET : AF_INET6, a.bytes.data(), out, sizeof(out));
        return QString::fromLatin1(out);
    }

    static platform::RouteReading route(const char *to) { return platform::Platform::routes().routeTo(address(to)); }

private slots:
    void initTestCase()
    {
        WB_REQUIRE_OWN_NETWORK();
        QString e;
        QVERIFY2(OwnNetwork::ip({"link", "add", "wbp0", "type", "veth", "peer", "name", "wbp1"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"addr", "add", "10.77.0.1/24", "dev", "wbp0"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbp0", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbp1", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"route", "add", "10.78.0.0/24", "dev", "wbp0", "mtu", "1280"}, &e), qPrintable(e));
    }

    void loopback_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<int>("pathMtu");
        // lo's MTU is 65536; an IPv4 packet cannot be longer than 65535 bytes.
        QTest::newRow("IPv4") << "127.0.0.1" << 65535;
        QTest::newRow("IPv6") << "::1" << 65536;
    }

    void loopback()
    {
        QFETCH(QString, to);
        QFETCH(int, pathMtu);
        const platform::RouteReading r = route(qPrintable(to));
        QCOMPARE(int(r.failure), int(platform::RouteReading::Failure::None));
        QCOMPARE(text(r.local), to);
        QCOMPARE(r.pathMtu, pathMtu);
    }

    void overTheVeth()
    {
        platform::RouteReading r = route("10.77.0.2");
        QCOMPARE(int(r.failure), int(platform::RouteReading::Failure::None));
        QCOMPARE(text(r.local), QStringLiteral("10.77.0.1"));
        QCOMPARE(r.pathMtu, 1500);
        // A route of its own MTU.
        r = route("10.78.0.5");
        QCOMPARE(text(r.local), QStringLiteral("10.77.0.1"));
        QCOMPARE(r.pathMtu, 1280);
        // The interface's MTU changed: the route follows.
        QString e;
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbp0", "mtu", "9000"}, &e), qPrintable(e));
        QCOMPARE(route("10.77.0.2").pathMtu, 9000);
    }

    void noRoute()
    {
        // No default route in this namespace.
        const platform::RouteReading r = route("192.0.2.1");
        QCOMPARE(int(r.failure), int(platform::RouteReading::Failure::NoRoute));
        QCOMPARE(QString::fromStdString(r.reason), QStringLiteral("Network is unreachable"));
        QCOMPARE(r.pathMtu, 0);
    }
};

WB_OWN_NETWORK_TEST_MAIN(TestRoutes)
#include "TestRoutes.moc"
