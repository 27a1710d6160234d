#include "analysis/LinkInfo.h"
#include "model/Host.h"

#include <QFile>
#include <QNetworkInterface>
#include <QTest>

using namespace wb;

namespace {
int sysfsLoopbackMtu()
{
    QFile f(QStringLiteral("/sys/class/net/lo/mtu"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toInt() : 0;
}
} // namespace

class TestLinkInfo : public QObject
{
    Q_OBJECT
private slots:
    void loopback_data()
    {
        QTest::addColumn<QString>("address");
        QTest::newRow("127.0.0.1") << QStringLiteral("127.0.0.1");
        QTest::newRow("127.0.0.2") << QStringLiteral("127.0.0.2");
        QTest::newRow("localhost") << QStringLiteral("localhost");
    }
    void loopback()
    {
        QFETCH(QString, address);
        const LinkInfo info = LinkProbe::probe(address);
        QVERIFY2(info.error.isEmpty(), qPrintable(info.error));
        QCOMPARE(info.interfaceName, QStringLiteral("lo"));
        QCOMPARE(info.speedMbps, -1.0);
        QCOMPARE(info.duplex, QStringLiteral("unknown"));
        QVERIFY2(info.speedNote.contains(QStringLiteral("loopback")), qPrintable(info.speedNote));
        QVERIFY(!info.speedKnown());
        QCOMPARE(info.speedSource(), QStringLiteral("unknown"));
#ifdef Q_OS_LINUX
        // lo's MTU is 65536 on a default Linux; compare with what sysfs says rather than assume it.
        const int mtu = sysfsLoopbackMtu();
        QVERIFY(mtu > 0);
        QCOMPARE(info.interfaceMtu, mtu);
        // The route to 127/8 carries lo's MTU, capped at the largest IPv4 packet (65535 bytes).
        QCOMPARE(info.pathMtu, qMin(mtu, 65535));
        if (mtu != 65536)
            qWarning("lo's MTU here is %d, not the default 65536", mtu);
#endif
    }

    void loopbackIpv6()
    {
        bool hasV6 = false;
        for (const QNetworkAddressEntry &e :
             QNetworkInterface::interfaceFromName(QStringLiteral("lo")).addressEntries())
            hasV6 = hasV6 || e.ip() == QHostAddress(QHostAddress::LocalHostIPv6);
        if (!hasV6)
            QSKIP("::1 is not configured on lo here (IPv6 disabled)");
        const LinkInfo info = LinkProbe::probe(QStringLiteral("::1"));
        QVERIFY2(info.error.isEmpty(), qPrintable(info.error));
        QCOMPARE(info.interfaceName, QStringLiteral("lo"));
        QCOMPARE(info.speedMbps, -1.0);
#ifdef Q_OS_LINUX
        QCOMPARE(info.pathMtu, sysfsLoopbackMtu());
#endif
    }

    void overrideAndRemote_data()
    {
        QTest::addColumn<double>("local");
        QTest::addColumn<double>("remote");
        QTest::addColumn<double>("override");
        QTest::addColumn<double>("effective");
        QTest::addColumn<QString>("source");
        QTest::newRow("nothing known") << -1.0 << -1.0 << 0.0 << -1.0 << QStringLiteral("unknown");
        QTest::newRow("local only") << 1000.0 << -1.0 << 0.0 << 1000.0 << QStringLiteral("local");
        QTest::newRow("remote only") << -1.0 << 100.0 << 0.0 << 100.0 << QStringLiteral("remote");
        QTest::newRow("slower remote") << 1000.0 << 100.0 << 0.0 << 100.0 << QStringLiteral("remote");
        QTest::newRow("slower local") << 100.0 << 1000.0 << 0.0 << 100.0 << QStringLiteral("local");
        QTest::newRow("override wins") << 1000.0 << 1000.0 << 100.0 << 100.0 << QStringLiteral("override");
        QTest::newRow("override above the local") << 100.0 << -1.0 << 1000.0 << 1000.0 << QStringLiteral("override");
    }
    void overrideAndRemote()
    {
        QFETCH(double, local);
        QFETCH(double, remote);
        QFETCH(double, override);
        QFETCH(double, effective);
        QFETCH(QString, source);
        LinkInfo info;
        info.speedMbps = local;
        info.remoteSpeedMbps = remote;
        info.overrideSpeedMbps = override;
        QCOMPARE(info.effectiveSpeedMbps(), effective);
        QCOMPARE(info.speedSource(), source);
    }

    void hostOverride()
    {
        Host host;
        host.address = QStringLiteral("127.0.0.1");
        host.linkSpeedMbps = 100;
        const LinkInfo info = LinkProbe::probe(host, 1000);
        QCOMPARE(info.interfaceName, QStringLiteral("lo"));
        QCOMPARE(info.effectiveSpeedMbps(), 100.0);
        QCOMPARE(info.remoteSpeedMbps, 1000.0);
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("address");
        QTest::newRow("empty") << QString();
        QTest::newRow("not a host name") << QStringLiteral("bad host!name");
        QTest::newRow("control characters") << QStringLiteral("a\nb");
        QTest::newRow("garbage") << QStringLiteral("[[::1");
    }
    void badInput()
    {
        QFETCH(QString, address);
        const LinkInfo info = LinkProbe::probe(address);
        QVERIFY2(!info.error.isEmpty(), "a one-line error, no crash");
        QVERIFY(!info.error.contains(QLatin1Char('\n')));
        QVERIFY(info.interfaceName.isEmpty());
        QCOMPARE(info.speedMbps, -1.0);
    }

    void unknownInterface()
    {
        double speed = 0;
        QString duplex, note;
        LinkProbe::readSpeedAndDuplex(QStringLiteral("no-such-if0"), &speed, &duplex, &note);
        QCOMPARE(speed, -1.0);
        QCOMPARE(duplex, QStringLiteral("unknown"));
        QVERIFY(!note.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLinkInfo)
#include "TestLinkInfo.moc"
