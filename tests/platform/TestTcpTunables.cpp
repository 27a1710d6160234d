#include "OwnNetwork.h"
#include "platform/Platform.h"

#include <QCoreApplication>
#include <QFile>
#include <QTest>

using namespace wb;
using wb::test::OwnNetwork;

// platform::TcpTunables reads the sysctls of this network namespace: the test writes them in its own and
// reads back what it wrote (the machine's stay as they are).
class TestTcpTunables : public QObject
{
    Q_OBJECT

    static bool write(const QString &sysctl, const QByteArray &value)
    {
        QFile f(QStringLiteral("/proc/sys/net/ipv4/") + sysctl);
        return f.open(QIODevice::WriteOnly) && f.write(value) == value.size();
    }

private slots:
    void initTestCase() { WB_REQUIRE_OWN_NETWORK(); }

    void socketBufferMaxIsTheSmallerMaximum_data()
    {
        QTest::addColumn<QByteArray>("wmem");
        QTest::addColumn<QByteArray>("rmem");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("send smaller") << QByteArray("4096 16384 3000000") << QByteArray("4096 131072 5000000")
                                      << qint64(3000000);
        QTest::newRow("receive smaller") << QByteArray("4096 16384 7340032") << QByteArray("4096 131072 6291456")
                                         << qint64(6291456);
    }

    void socketBufferMaxIsTheSmallerMaximum()
    {
        QFETCH(QByteArray, wmem);
        QFETCH(QByteArray, rmem);
        QFETCH(qint64, expected);
        QVERIFY(write(QStringLiteral("tcp_wmem"), wmem));
        QVERIFY(write(QStringLiteral("tcp_rmem"), rmem));
        const std::optional<std::int64_t> max = platform::Platform::tcpTunables().socketBufferMax();
        QVERIFY(max.has_value());
        QCOMPARE(qint64(*max), expected);
    }

    void timestamps_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("on");
        QTest::newRow("off") << QByteArray("0") << false;
        QTest::newRow("on") << QByteArray("1") << true;
        QTest::newRow("on without random offsets") << QByteArray("2") << true;
    }

    void timestamps()
    {
        QFETCH(QByteArray, value);
        QFETCH(bool, on);
        QVERIFY(write(QStringLiteral("tcp_timestamps"), value));
        const std::optional<bool> t = platform::Platform::tcpTunables().timestamps();
        QVERIFY(t.has_value());
        QCOMPARE(*t, on);
    }
};

WB_OWN_NETWORK_TEST_MAIN(TestTcpTunables)
#include "TestTcpTunables.moc"
