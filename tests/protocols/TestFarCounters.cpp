// The far end's counters of a file transfer (docs/PROTOCOL.md, "Counters"): wirebenchd's responder on loopback greeted
// with "want": "counters", in open mode and with a key; the answers are DropCounts' JSON of the interface the
// connection came in on, over what the client marked. A wrong key and a closed port give no counters and say why.
#include "FileServerFixture.h"
#include "protocols/tcp/FarCounters.h"
#include "protocols/tcp/TcpDriver.h"
#include "responder/Responder.h"

#include <QTest>

using namespace wb;

class TestFarCounters : public QObject
{
    Q_OBJECT
private slots:
    void openServerCounts();
    void keyIsProvedBothWays();
    void closedPortSaysWhy();

private:
    static std::unique_ptr<Responder> responder(const QString &key);
    static Host hostOf(const Responder &r, const QString &key);
};

std::unique_ptr<Responder> TestFarCounters::responder(const QString &key)
{
    ResponderConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    config.key = key;
    return std::make_unique<Responder>(config);
}

Host TestFarCounters::hostOf(const Responder &r, const QString &key)
{
    Host h;
    h.name = QStringLiteral("lo");
    h.address = QStringLiteral("127.0.0.1");
    h.port = r.port();
    if (!key.isEmpty())
        h.options.insert(QLatin1String(TcpDriver::kKeyOption), key);
    return h;
}

void TestFarCounters::openServerCounts()
{
    auto r = responder({});
    QString why;
    QVERIFY2(r->start(&why), qPrintable(why));
    FarCounters far;
    QVERIFY2(far.greet(hostOf(*r, {}), 2000, &why), qPrintable(why));
    QVERIFY(far.greeted());
    QVERIFY(far.mark(2000));
    const QVariantMap drops = far.take(2000);
    // The loopback interface's counters, as a test's result carries them: a version, the interface's name.
    QVERIFY2(drops.value(QStringLiteral("version")).toInt() > 0, qPrintable(QVariant(drops).toString()));
    QCOMPARE(drops.value(QStringLiteral("interface")).toString(), QStringLiteral("lo"));
    QVERIFY(!far.greeted()); // take() closes
}

void TestFarCounters::keyIsProvedBothWays()
{
    const QString key = QStringLiteral("a-key-of-the-far-end-0123456789");
    auto r = responder(key);
    QString why;
    QVERIFY2(r->start(&why), qPrintable(why));
    FarCounters far;
    QVERIFY2(far.greet(hostOf(*r, key), 2000, &why), qPrintable(why));
    QVERIFY(far.mark(2000));
    QVERIFY(!far.take(2000).isEmpty());
    // Taken without a mark: no timed part to count over, nothing.
    QVERIFY2(far.greet(hostOf(*r, key), 2000, &why), qPrintable(why));
    QVERIFY(far.take(2000).isEmpty());
    // A wrong key: refused by the server, in its words.
    QVERIFY(!far.greet(hostOf(*r, QStringLiteral("not-the-key")), 2000, &why));
    QVERIFY2(why.startsWith(QStringLiteral("it refused: ")), qPrintable(why));
    // No key where one is asked: the same.
    QVERIFY(!far.greet(hostOf(*r, {}), 2000, &why));
    QVERIFY2(!why.isEmpty(), "no reason given");
}

void TestFarCounters::closedPortSaysWhy()
{
    Host h;
    h.address = QStringLiteral("127.0.0.1");
    h.port = test::FileServerFixture::closedPort();
    FarCounters far;
    QString why;
    QVERIFY(!far.greet(h, 2000, &why));
    QCOMPARE(why, QStringLiteral("its control port did not answer"));
    QVERIFY(!far.mark(100));
    QVERIFY(far.take(100).isEmpty());
}

QTEST_GUILESS_MAIN(TestFarCounters)
#include "TestFarCounters.moc"
