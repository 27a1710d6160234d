#include "OwnNetwork.h"
#include "platform/Platform.h"
#include "platform/linux/LinuxDropCounters.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cstring>
#include <vector>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;
using platform::DropReading;
using platform::LinuxDropCounters;
using wb::test::OwnNetwork;

// platform::DropCounters: the parsers on fixtures of the kernel's own text, the delta, and real readings in the
// test's own network namespace: lo, and a veth whose tbf (or htb with a bfifo under it) drops datagrams sent
// through it, each figure checked against what tc(8) and sysfs print.
namespace {

/// An rtattr of `type` holding `payload` (aligned), as the kernel lays one out.
std::vector<char> attribute(unsigned short type, const std::vector<char> &payload)
{
    std::vector<char> out(RTA_SPACE(payload.size()), 0);
    auto *a = reinterpret_cast<rtattr *>(out.data());
    a->rta_type = type;
    a->rta_len = static_cast<unsigned short>(RTA_LENGTH(payload.size()));
    if (!payload.empty())
        std::memcpy(RTA_DATA(a), payload.data(), payload.size());
    return out;
}

template <typename T>
std::vector<char> bytesOf(const T &value)
{
    std::vector<char> out(sizeof(T));
    std::memcpy(out.data(), &value, sizeof(T));
    return out;
}

std::vector<char> joined(std::initializer_list<std::vector<char>> parts)
{
    std::vector<char> out;
    for (const std::vector<char> &p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

QByteArray qbytes(const std::vector<char> &v)
{
    return QByteArray(v.data(), qsizetype(v.size()));
}

} // namespace

class TestDropCounters : public QObject
{
    Q_OBJECT

    static DropReading read(const char *name) { return platform::Platform::dropCounters().read(name); }

    /// `tc -s qdisc show dev IF`'s "dropped N" of the qdisc whose line starts with `qdisc KIND`.
    static qint64 tcDropped(const QString &dev, const QString &kind)
    {
        const QString out
            = QString::fromLocal8Bit(OwnNetwork::runOutput(QStringLiteral("tc"), {"-s", "qdisc", "show", "dev", dev}));
        const QRegularExpression re(
            QStringLiteral("^qdisc %1 [^\\n]*\\n Sent \\d+ bytes \\d+ pkt \\(dropped (\\d+)").arg(kind),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = re.match(out);
        return m.hasMatch() ? m.captured(1).toLongLong() : -1;
    }

    static qint64 sysfs(const QString &dev, const QString &counter)
    {
        QFile f(QStringLiteral("/sys/class/net/%1/statistics/%2").arg(dev, counter));
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : -1;
    }

    /// Sends n datagrams of 1000 bytes out of wbq0 (to a neighbour that exists only in its table).
    static void blast(int n)
    {
        const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(9);
        ::inet_pton(AF_INET, "10.77.0.3", &to.sin_addr);
        char payload[1000] = {};
        for (int i = 0; i < n; ++i)
            ::sendto(fd, payload, sizeof(payload), 0, reinterpret_cast<sockaddr *>(&to), sizeof(to));
        ::close(fd);
    }

    static void tc(const QStringList &args)
    {
        const QByteArray out = OwnNetwork::runOutput(QStringLiteral("tc"), args);
        Q_UNUSED(out);
    }

private slots:
    // This kernel has neither sch_netem nor sch_cake ("Specified qdisc kind is unknown"), so their rates are read from
    // TCA_OPTIONS as the kernel lays them out (linux/pkt_sched.h): netem's struct first, then its nested
    // TCA_NETEM_RATE (and TCA_NETEM_RATE64 from 4 GB/s); cake's nested TCA_CAKE_BASE_RATE64.
    void rateOfNetemAndCake_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("options");
        QTest::addColumn<qint64>("rate");
        tc_netem_qopt netem{};
        netem.limit = 1000;
        tc_netem_rate rate{};
        rate.rate = 2500000; // netem rate 20mbit
        QTest::newRow("netem rate 20mbit")
            << QStringLiteral("netem")
            << qbytes(attribute(TCA_OPTIONS, joined({bytesOf(netem), attribute(TCA_NETEM_RATE, bytesOf(rate))})))
            << qint64(2500000);
        tc_netem_rate capped{};
        capped.rate = 0xffffffffu;
        const std::uint64_t fast = 5000000000ull; // 40gbit
        QTest::newRow("netem rate 40gbit")
            << QStringLiteral("netem")
            << qbytes(attribute(TCA_OPTIONS,
                                joined({bytesOf(netem), attribute(TCA_NETEM_RATE, bytesOf(capped)),
                                        attribute(TCA_NETEM_RATE64, bytesOf(fast))})))
            << qint64(fast);
        QTest::newRow("netem delay only")
            << QStringLiteral("netem") << qbytes(attribute(TCA_OPTIONS, bytesOf(netem))) << qint64(0);
        const std::uint64_t cake = 3750000; // cake bandwidth 30mbit
        QTest::newRow("cake bandwidth 30mbit")
            << QStringLiteral("cake") << qbytes(attribute(TCA_OPTIONS, attribute(TCA_CAKE_BASE_RATE64, bytesOf(cake))))
            << qint64(cake);
        QTest::newRow("fq_codel: none of its own")
            << QStringLiteral("fq_codel") << qbytes(attribute(TCA_OPTIONS, {})) << qint64(0);
    }
    void rateOfNetemAndCake()
    {
        QFETCH(QString, kind);
        QFETCH(QByteArray, options);
        QFETCH(qint64, rate);
        const auto *a = reinterpret_cast<const rtattr *>(options.constData());
        QCOMPARE(qint64(platform::LinuxDropCounters::rateOf(kind.toStdString(), a)), rate);
    }
    void softnetFixture()
    {
        // Two CPUs of a 6.x kernel: processed, dropped, time_squeeze, then columns this reader leaves alone.
        const std::string text = "0000a3c1 00000002 00000003 00000000 00000000 00000000 00000000 00000000 00000000 "
                                 "00000000 00000000 00000000 00000000 00000000 00000000\n"
                                 "11bd94a9 0000000a 0000000d 00000000 00000000 00000000 00000000 00000000 00000000 "
                                 "00000000 00000000 00000000 00000001 00000001 00000000\n";
        std::int64_t dropped = -1, squeeze = -1;
        QVERIFY(LinuxDropCounters::parseSoftnet(text, &dropped, &squeeze));
        QCOMPARE(dropped, std::int64_t(12));
        QCOMPARE(squeeze, std::int64_t(16));
        QVERIFY(!LinuxDropCounters::parseSoftnet("", &dropped, &squeeze));
        QVERIFY(!LinuxDropCounters::parseSoftnet("zz yy xx\n", &dropped, &squeeze));
    }

    void tcpExtFixture()
    {
        const std::string text = "TcpExt: SyncookiesSent PruneCalled RcvPruned OfoPruned ListenOverflows ListenDrops "
                                 "TCPBacklogDrop TCPReqQFullDrop TCPRcvQDrop\n"
                                 "TcpExt: 0 7 1 2 3 4 55 6 8\n"
                                 "IpExt: InNoRoutes TCPBacklogDrop\nIpExt: 9 9\n";
        const auto map = LinuxDropCounters::parseTcpExt(text);
        QCOMPARE(map.at("TCPBacklogDrop"), std::int64_t(55));
        DropReading r;
        LinuxDropCounters::takeTcpExt(map, &r);
        QCOMPARE(r.tcpPruneCalled, std::int64_t(7));
        QCOMPARE(r.tcpRcvPruned, std::int64_t(1));
        QCOMPARE(r.tcpOfoPruned, std::int64_t(2));
        QCOMPARE(r.tcpListenOverflows, std::int64_t(3));
        QCOMPARE(r.tcpListenDrops, std::int64_t(4));
        QCOMPARE(r.tcpBacklogDrop, std::int64_t(55));
        QCOMPARE(r.tcpReqQFullDrop, std::int64_t(6));
        QCOMPARE(r.tcpRcvQDrop, std::int64_t(8));
        QCOMPARE(r.qdiscDrops, std::int64_t(-1)); // snake_case fields are not TcpExt's
        QVERIFY(LinuxDropCounters::parseTcpExt("Tcp: RtoAlgorithm\nTcp: 1\n").empty());
    }

    void delta()
    {
        DropReading before, after;
        before.qdiscDrops = 10;
        after.qdiscDrops = 25;
        before.rxDropped = 7;
        after.rxDropped = 2; // went down: the interface was made anew
        after.txDropped = 4; // not read before
        before.qdiscBacklogBytes = 900;
        after.qdiscBacklogBytes = 300;
        after.netdevMaxBacklog = 1000;
        const DropReading d = DropReading::delta(before, after);
        QCOMPARE(d.qdiscDrops, std::int64_t(15));
        QCOMPARE(d.rxDropped, std::int64_t(-1));
        QCOMPARE(d.txDropped, std::int64_t(-1));
        QCOMPARE(d.qdiscBacklogBytes, std::int64_t(300)); // a level: as read after
        QCOMPARE(d.netdevMaxBacklog, std::int64_t(1000));
        // Every number is in the one table, once.
        QStringList names;
        for (const DropReading::Field &f : DropReading::fields())
            names << QString::fromLatin1(f.name);
        QCOMPARE(names.size(), 22);
        QCOMPARE(names.removeDuplicates(), 0);
    }

    void initTestCase()
    {
        WB_REQUIRE_OWN_NETWORK();
        QString e;
        QVERIFY2(OwnNetwork::ip({"link", "set", "lo", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "add", "wbq0", "type", "veth", "peer", "name", "wbq1"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"addr", "add", "10.77.0.1/29", "dev", "wbq0"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbq0", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"link", "set", "wbq1", "up"}, &e), qPrintable(e));
        QVERIFY2(OwnNetwork::ip({"neigh", "add", "10.77.0.3", "lladdr", "02:00:00:00:77:03", "dev", "wbq0"}, &e),
                 qPrintable(e));
    }

    void loopback()
    {
        const DropReading r = read("lo");
        QCOMPARE(QString::fromStdString(r.error), QString());
        QCOMPARE(QString::fromStdString(r.interfaceName), QStringLiteral("lo"));
        QCOMPARE(QString::fromStdString(r.qdiscKinds), QStringLiteral("noqueue"));
        QCOMPARE(r.qdiscDrops, std::int64_t(0));
        QCOMPARE(r.rxDropped, sysfs("lo", "rx_dropped"));
        QCOMPARE(r.txDropped, sysfs("lo", "tx_dropped"));
        QCOMPARE(r.rxMissedErrors, sysfs("lo", "rx_missed_errors"));
        QCOMPARE(r.rxFifoErrors, sysfs("lo", "rx_fifo_errors"));
        QCOMPARE(r.rxCrcErrors, sysfs("lo", "rx_crc_errors"));
        QCOMPARE(r.rxFrameErrors, sysfs("lo", "rx_frame_errors"));
        QVERIFY(r.backlogDrops >= 0);
        QVERIFY(r.timeSqueeze >= 0);
        // This namespace made no TCP connection: its TcpExt counters stand still, as the file says them.
        QFile f(QStringLiteral("/proc/net/netstat"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto map = LinuxDropCounters::parseTcpExt(f.readAll().toStdString());
        QCOMPARE(r.tcpBacklogDrop, map.at("TCPBacklogDrop"));
        QCOMPARE(r.tcpListenDrops, map.at("ListenDrops"));
        QCOMPARE(r.tcpRcvQDrop, map.at("TCPRcvQDrop"));
        // net.core.netdev_max_backlog is shown in the first namespace only: here it is -1 or the file's figure.
        QFile b(QStringLiteral("/proc/sys/net/core/netdev_max_backlog"));
        QCOMPARE(r.netdevMaxBacklog, b.open(QIODevice::ReadOnly) ? b.readAll().trimmed().toLongLong() : -1);
    }

    void tbfDrops()
    {
        tc({"qdisc", "replace", "dev", "wbq0", "root", "tbf", "rate", "1mbit", "burst", "3000", "limit", "3000"});
        const DropReading before = read("wbq0");
        QCOMPARE(QString::fromStdString(before.qdiscKinds), QStringLiteral("tbf"));
        blast(200);
        const DropReading after = read("wbq0");
        QCOMPARE(QString::fromStdString(after.error), QString());
        QVERIFY2(after.qdiscDrops > 100, qPrintable(QString::number(after.qdiscDrops)));
        QCOMPARE(after.qdiscDrops, tcDropped(QStringLiteral("wbq0"), QStringLiteral("tbf")));
        QVERIFY(after.qdiscOverlimits > 0);
        QCOMPARE(DropReading::delta(before, after).qdiscDrops, after.qdiscDrops - before.qdiscDrops);
        QCOMPARE(after.txDropped, sysfs("wbq0", "tx_dropped"));
    }

    void classfulParentCountedOnce()
    {
        // htb counts what its bfifo child drops again: the reading counts the child alone.
        tc({"qdisc", "del", "dev", "wbq0", "root"});
        tc({"qdisc", "add", "dev", "wbq0", "root", "handle", "1:", "htb", "default", "1"});
        tc({"class", "add", "dev", "wbq0", "parent", "1:", "classid", "1:1", "htb", "rate", "1mbit", "burst", "3000"});
        tc({"qdisc", "add", "dev", "wbq0", "parent", "1:1", "handle", "10:", "bfifo", "limit", "3000"});
        blast(200);
        const DropReading r = read("wbq0");
        QCOMPARE(QString::fromStdString(r.qdiscKinds), QStringLiteral("bfifo"));
        const qint64 child = tcDropped(QStringLiteral("wbq0"), QStringLiteral("bfifo"));
        QVERIFY2(child > 100, qPrintable(QString::number(child)));
        QCOMPARE(tcDropped(QStringLiteral("wbq0"), QStringLiteral("htb")), child);
        QCOMPARE(r.qdiscDrops, child);
    }

    void shaperRate_data()
    {
        QTest::addColumn<QList<QStringList>>("commands");
        QTest::addColumn<QString>("shaper");
        QTest::addColumn<qint64>("rate"); // bytes/s: tc's bits/s over 8
        QTest::newRow("tbf 40mbit") << QList<QStringList>{{"qdisc", "add", "dev", "wbq0", "root", "tbf", "rate",
                                                           "40mbit", "burst", "5000", "limit", "30000"}}
                                    << QStringLiteral("tbf") << qint64(5000000);
        // Above 4 GB/s the kernel sends the rate in TCA_TBF_RATE64; the 32-bit field is capped.
        QTest::newRow("tbf 40gbit") << QList<QStringList>{{"qdisc", "add", "dev", "wbq0", "root", "tbf", "rate",
                                                           "40gbit", "burst", "5000000", "limit", "30000000"}}
                                    << QStringLiteral("tbf") << qint64(5000000000);
        // No traffic through an htb leaves faster than its classes' highest ceil.
        QTest::newRow("htb, two classes")
            << QList<QStringList>{{"qdisc", "add", "dev", "wbq0", "root", "handle", "1:", "htb", "default", "10"},
                                  {"class", "add", "dev", "wbq0", "parent", "1:", "classid", "1:1", "htb", "rate",
                                   "80mbit", "ceil", "80mbit"},
                                  {"class", "add", "dev", "wbq0", "parent", "1:1", "classid", "1:10", "htb", "rate",
                                   "20mbit", "ceil", "30mbit"},
                                  {"class", "add", "dev", "wbq0", "parent", "1:1", "classid", "1:20", "htb", "rate",
                                   "20mbit", "ceil", "60mbit"}}
            << QStringLiteral("htb") << qint64(10000000);
        QTest::newRow("htb with a tbf under it: the lower rate")
            << QList<QStringList>{{"qdisc", "add", "dev", "wbq0", "root", "handle", "1:", "htb", "default", "1"},
                                  {"class", "add", "dev", "wbq0", "parent", "1:", "classid", "1:1", "htb", "rate",
                                   "80mbit", "ceil", "80mbit"},
                                  {"qdisc", "add", "dev", "wbq0", "parent", "1:1", "handle", "10:", "tbf", "rate",
                                   "24mbit", "burst", "5000", "limit", "30000"}}
            << QStringLiteral("tbf") << qint64(3000000);
        QTest::newRow("no shaper: pfifo")
            << QList<QStringList>{{"qdisc", "add", "dev", "wbq0", "root", "pfifo"}} << QString() << qint64(-1);
    }
    void shaperRate()
    {
        QFETCH(QList<QStringList>, commands);
        QFETCH(QString, shaper);
        QFETCH(qint64, rate);
        tc({"qdisc", "del", "dev", "wbq0", "root"});
        for (const QStringList &c : commands) {
            const QByteArray out = OwnNetwork::runOutput(QStringLiteral("tc"), c);
            QVERIFY2(out.isEmpty(), out.constData());
        }
        const DropReading r = read("wbq0");
        QCOMPARE(QString::fromStdString(r.shaper), shaper);
        QCOMPARE(qint64(r.shaperRateBytesPerSecond), rate);
        tc({"qdisc", "del", "dev", "wbq0", "root"});
    }

    void unknownInterface()
    {
        const DropReading r = read("wbnone0");
        QCOMPARE(QString::fromStdString(r.error),
                 QStringLiteral("interface wbnone0 does not exist in this network namespace"));
        QCOMPARE(r.qdiscDrops, std::int64_t(-1));
        QCOMPARE(r.rxDropped, std::int64_t(-1));
        QVERIFY(r.tcpBacklogDrop >= 0); // the stack's counters are read all the same
    }
};

WB_OWN_NETWORK_TEST_MAIN(TestDropCounters)
#include "TestDropCounters.moc"
