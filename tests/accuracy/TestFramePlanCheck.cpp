#include "analysis/FramePlanCheck.h"
#include "analysis/InterfaceMtu.h"
#include "analysis/SocketDiag.h"

#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <thread>
#include <vector>

#ifdef Q_OS_LINUX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

using namespace wb;

// Frame sizes against a link (pure verdicts, table-driven), the pre-plan check on loopback, sock_diag
// on a real loopback connection, and the MTU setter's refusals that need no root.
class TestFramePlanCheck : public QObject
{
    Q_OBJECT
private slots:
    void verdict_data()
    {
        QTest::addColumn<int>("pathMtu");
        QTest::addColumn<int>("interfaceMtu");
        QTest::addColumn<int>("frame");
        QTest::addColumn<bool>("setMtu");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("reasonPart");
        QTest::newRow("1500 on 1500") << 1500 << 1500 << 1500 << false << true << QString();
        QTest::newRow("9000 on 9000") << 9000 << 9000 << 9000 << false << true << QString();
        QTest::newRow("9000 on 1500 path")
            << 1500 << 1500 << 9000 << false << false
            << QStringLiteral("jumbo frames are not enabled end to end: path MTU to srv (10.0.0.2) is 1500 bytes");
        QTest::newRow("1500 through a tunnel")
            << 1400 << 1500 << 1500 << false << false << QStringLiteral("path MTU to srv (10.0.0.2) is 1400 bytes");
        QTest::newRow("interface below frame")
            << 9000 << 1500 << 9000 << false << false
            << QStringLiteral("above the MTU of the local interface eth9 (1500 bytes)");
        QTest::newRow("setter lifts the local limit") << 1500 << 1500 << 9000 << true << true << QString();
        QTest::newRow("setter cannot lift a learnt path MTU")
            << 1400 << 1500 << 9000 << true << false << QStringLiteral("path MTU to srv (10.0.0.2) is 1400 bytes");
        QTest::newRow("unknown MTUs run") << 0 << 0 << 9000 << false << true << QStringLiteral("unknown");
    }
    void verdict()
    {
        QFETCH(int, pathMtu);
        QFETCH(int, interfaceMtu);
        QFETCH(int, frame);
        QFETCH(bool, setMtu);
        QFETCH(bool, ok);
        QFETCH(QString, reasonPart);
        LinkInfo link;
        link.interfaceName = QStringLiteral("eth9");
        link.pathMtu = pathMtu;
        link.interfaceMtu = interfaceMtu;
        Host host;
        host.name = QStringLiteral("srv");
        host.address = QStringLiteral("10.0.0.2");
        const FrameVerdict v = FramePlanCheck::verdict(link, host, frame, setMtu);
        QCOMPARE(v.frameSize, frame);
        QCOMPARE(v.ok, ok);
        if (reasonPart.isEmpty())
            QVERIFY2(v.reason.isEmpty(), qPrintable(v.reason));
        else
            QVERIFY2(v.reason.contains(reasonPart), qPrintable(v.reason));
    }

    void probeFailureIsNoVerdict()
    {
        LinkInfo link;
        link.error = QStringLiteral("nohost: cannot resolve the name");
        const FrameVerdict v = FramePlanCheck::verdict(link, Host{}, 9000);
        QVERIFY(v.ok); // the driver reports the host problem; no "not run" for an unknown link
        QVERIFY(v.reason.contains(QStringLiteral("not checked")));
    }

    void checkLoopback()
    {
        Host host;
        host.name = QStringLiteral("loop");
        host.address = QStringLiteral("127.0.0.1");
        const HostFrameCheck c = FramePlanCheck::check(host, {1500, 9000, 70000});
        QCOMPARE(c.link.interfaceName, QStringLiteral("lo"));
        QCOMPARE(c.frames.size(), 3);
        QVERIFY(c.frames.at(0).ok);
        QVERIFY(c.frames.at(1).ok);  // loopback's MTU is 65536
        QVERIFY(!c.frames.at(2).ok); // above any MTU
        QVERIFY2(c.frames.at(2).reason.contains(QStringLiteral("path MTU to loop (127.0.0.1) is")),
                 qPrintable(c.frames.at(2).reason));
        QVERIFY(!c.allOk());
        QVERIFY2(c.linkSummary().contains(QStringLiteral("lo: MTU")), qPrintable(c.linkSummary()));
        QVERIFY2(c.linkSummary().contains(QStringLiteral("speed unknown")), qPrintable(c.linkSummary()));
    }

    void socketDiagLoopback()
    {
#ifndef Q_OS_LINUX
        QSKIP("sock_diag is Linux only");
#endif
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, server.serverPort());
        QVERIFY(client.waitForConnected(5000));
        QTRY_VERIFY_WITH_TIMEOUT(server.hasPendingConnections(), 5000);
        std::unique_ptr<QTcpSocket> accepted(server.nextPendingConnection());
        QString error;
        TcpSocketDiag found;
        const int mss = SocketDiag::observedMss(QStringLiteral("127.0.0.1"), server.serverPort(), true, &error, &found);
        QVERIFY2(mss > 0, qPrintable(error));
        QCOMPARE(found.localPort, client.localPort());
        // Both ends of a loopback connection are this process's; only the client's goes to serverPort.
        QVERIFY(SocketDiag::ownSocketInodes().contains(found.inode));
        QVERIFY(mss <= 65536 - 40);
        // Nothing to a closed port.
        QCOMPARE(SocketDiag::observedMss(QStringLiteral("127.0.0.1"), 1, true, &error), 0);
        QVERIFY2(error.contains(QStringLiteral("no established TCP connection")), qPrintable(error));
        QCOMPARE(SocketDiag::observedMss(QStringLiteral("not an address"), 1, true, &error), 0);
        QVERIFY(error.contains(QStringLiteral("not an IP address")));
    }

    void socketDiagReceivingConnection()
    {
#ifndef Q_OS_LINUX
        QSKIP("sock_diag is Linux only");
#else
        // A connection that only receives (as libsmbclient's in smb-read): its own tcpi_snd_mss stays bounded
        // by half the peer's largest window (32 KiB or so), while the data comes in segments of the path's MSS.
        // observedMss must report the latter: on loopback min(MTU, 65535) - 40 - 12 with timestamps.
        QFile mtuFile(QStringLiteral("/sys/class/net/lo/mtu"));
        QVERIFY(mtuFile.open(QIODevice::ReadOnly));
        const int loMtu = qMin(mtuFile.readAll().trimmed().toInt(), 65535);
        const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof(addr);
        QVERIFY(::bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0);
        QVERIFY(::listen(listener, 1) == 0);
        QVERIFY(::getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len) == 0);
        const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(::connect(client, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0);
        const int sender = ::accept(listener, nullptr, nullptr);
        QVERIFY(sender >= 0);
        constexpr qint64 Total = 32LL * 1024 * 1024;
        std::thread send([sender] {
            std::vector<char> chunk(1024 * 1024, 'x');
            for (qint64 sent = 0; sent < Total;) {
                const ssize_t n = ::send(sender, chunk.data(), chunk.size(), MSG_NOSIGNAL);
                if (n <= 0)
                    return;
                sent += n;
            }
        });
        std::vector<char> buffer(1024 * 1024);
        qint64 received = 0;
        while (received < Total) {
            const ssize_t n = ::recv(client, buffer.data(), buffer.size(), 0);
            if (n <= 0)
                break;
            received += n;
        }
        send.join();
        QString error;
        TcpSocketDiag found;
        const int mss
            = SocketDiag::observedMss(QStringLiteral("127.0.0.1"), ntohs(addr.sin_port), true, &error, &found);
        ::close(sender);
        ::close(client);
        ::close(listener);
        QCOMPARE(received, Total);
        qInfo("receiving end: tcpi_snd_mss %d, tcpi_rcv_mss %d, tcpi_advmss %d bytes; observed %d bytes", found.sndMss,
              found.rcvMss, found.advMss, mss);
        QCOMPARE(mss, loMtu - 40 - (found.timestamps ? 12 : 0));
        QCOMPARE(found.rcvMss, mss);
#endif
    }

    void setterRefusals()
    {
        QTemporaryDir dir;
        InterfaceMtu mtu(dir.filePath(QStringLiteral("state.json")));
        QString error;
        QVERIFY(!mtu.apply(QStringLiteral("no-such-if0"), 9000, &error));
        QVERIFY(!error.isEmpty());
        if (!InterfaceMtu::isRoot())
            QVERIFY2(error.contains(QStringLiteral("needs root")), qPrintable(error));
        QVERIFY(mtu.changed().isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("state.json"))));
        QVERIFY(!InterfaceMtu::set(QStringLiteral("a-name-far-too-long-for-linux"), 1500, &error));
        QCOMPARE(InterfaceMtu::current(QStringLiteral("lo")) > 0, true);
        // A state file from another network namespace is left alone.
        QFile f(dir.filePath(QStringLiteral("other.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"netns":"1","interfaces":{"lo":1500}})");
        f.close();
        const QStringList lines = InterfaceMtu::restoreLeftovers(f.fileName());
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines.first().contains(QStringLiteral("another network namespace")));
        QVERIFY(QFile::exists(f.fileName()));
        // Garbage is dropped without a crash.
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x01garbage{");
        f.close();
        QVERIFY(InterfaceMtu::restoreLeftovers(f.fileName()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestFramePlanCheck)
#include "TestFramePlanCheck.moc"
