#include "OwnNetwork.h"
#include "platform/Platform.h"

#include <QCoreApplication>
#include <QTest>

#include <cstring>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace wb;

namespace {

/// A connected TCP pair on loopback (client and the accepted end), closed when it goes.
struct LoopbackPair
{
    int client = -1;
    int server = -1;
    quint16 clientPort = 0;
    quint16 serverPort = 0;

    explicit LoopbackPair(bool v6)
    {
        const int family = v6 ? AF_INET6 : AF_INET;
        sockaddr_storage ss{};
        socklen_t len = v6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
        if (v6) {
            reinterpret_cast<sockaddr_in6 *>(&ss)->sin6_family = AF_INET6;
            reinterpret_cast<sockaddr_in6 *>(&ss)->sin6_addr = in6addr_loopback;
        } else {
            reinterpret_cast<sockaddr_in *>(&ss)->sin_family = AF_INET;
            reinterpret_cast<sockaddr_in *>(&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        }
        const int listener = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr *>(&ss), len) != 0 || ::listen(listener, 1) != 0
            || ::getsockname(listener, reinterpret_cast<sockaddr *>(&ss), &len) != 0) {
            ::close(listener);
            return;
        }
        client = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (::connect(client, reinterpret_cast<sockaddr *>(&ss), len) == 0)
            server = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        ::close(listener);
        serverPort = port(server, false);
        clientPort = port(client, false);
    }
    ~LoopbackPair()
    {
        ::close(client);
        ::close(server);
    }

    /// Sends that many zero bytes from the client and reads them all at the server: false if either end fails.
    bool carry(qsizetype bytes) const
    {
        const std::vector<char> data(static_cast<size_t>(bytes), 0);
        if (::send(client, data.data(), data.size(), 0) != ssize_t(data.size()))
            return false;
        std::vector<char> in(static_cast<size_t>(bytes));
        for (qsizetype got = 0; got < bytes;) {
            const ssize_t n = ::recv(server, in.data(), in.size(), 0);
            if (n <= 0)
                return false;
            got += n;
        }
        return true;
    }

    static quint16 port(int fd, bool peer)
    {
        sockaddr_storage ss{};
        socklen_t len = sizeof(ss);
        if ((peer ? ::getpeername(fd, reinterpret_cast<sockaddr *>(&ss), &len)
                  : ::getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len))
            != 0)
            return 0;
        return ntohs(ss.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6 *>(&ss)->sin6_port
                                              : reinterpret_cast<sockaddr_in *>(&ss)->sin_port);
    }
    static std::uint64_t inode(int fd)
    {
        struct stat st = {};
        return ::fstat(fd, &st) == 0 ? std::uint64_t(st.st_ino) : 0;
    }
};

const platform::TcpSocketReading *find(const std::vector<platform::TcpSocketReading> &all, quint16 local,
                                       quint16 remote)
{
    for (const platform::TcpSocketReading &s : all) {
        if (s.localPort == local && s.remotePort == remote)
            return &s;
    }
    return nullptr;
}

} // namespace

// platform::SocketDiagnostics sees a real connection on loopback (IPv4 and IPv6) from both ends, with the
// inodes of this process's descriptors and the figures of a live connection; a closed one is gone.
class TestSocketDiagnostics : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { WB_REQUIRE_OWN_NETWORK(); }

    void seesBothEnds_data()
    {
        QTest::addColumn<bool>("v6");
        QTest::newRow("IPv4") << false;
        QTest::newRow("IPv6") << true;
    }

    void seesBothEnds()
    {
        QFETCH(bool, v6);
        quint16 clientPort = 0, serverPort = 0;
        {
            LoopbackPair pair(v6);
            clientPort = pair.clientPort;
            serverPort = pair.serverPort;
            QVERIFY(pair.client >= 0 && pair.server >= 0);
            // Some data, so that the connection has an RTT and its MSS figures.
            const qsizetype data = 4096;
            QVERIFY(pair.carry(data));
            std::string error = "not cleared";
            const std::vector<platform::TcpSocketReading> all
                = platform::Platform::socketDiagnostics().establishedTcp(&error);
            QCOMPARE(QString::fromStdString(error), QString());
            const platform::TcpSocketReading *client = find(all, pair.clientPort, pair.serverPort);
            const platform::TcpSocketReading *server = find(all, pair.serverPort, pair.clientPort);
            QVERIFY(client);
            QVERIFY(server);
            QCOMPARE(client->inode, LoopbackPair::inode(pair.client));
            QCOMPARE(server->inode, LoopbackPair::inode(pair.server));
            const platform::IpAddress::Family family
                = v6 ? platform::IpAddress::Family::V6 : platform::IpAddress::Family::V4;
            QCOMPARE(int(client->remote.family), int(family));
            QCOMPARE(int(client->local.family), int(family));
            const std::uint8_t loop4[4] = {127, 0, 0, 1};
            const std::uint8_t loop6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
            QCOMPARE(std::memcmp(client->remote.bytes.data(), v6 ? loop6 : loop4, v6 ? 16 : 4), 0);
            QVERIFY(client->sndMss > 0);
            QVERIFY(client->advMss > 0);
            QVERIFY(server->rcvMss > 0);
            // The server read every byte: they all arrived in order (its SYN, if counted, is one more).
            QVERIFY2(server->bytesReceived >= std::uint64_t(data) && server->bytesReceived <= std::uint64_t(data) + 1,
                     qPrintable(QString::number(server->bytesReceived)));
            QVERIFY(client->rttUs > 0);
            QVERIFY(client->timestamps); // loopback negotiates timestamps (tcp_timestamps defaults to on)
        }
        // Closed: no longer established.
        std::string error;
        const std::vector<platform::TcpSocketReading> after
            = platform::Platform::socketDiagnostics().establishedTcp(&error);
        QCOMPARE(QString::fromStdString(error), QString());
        QVERIFY(!find(after, clientPort, serverPort));
        QVERIFY(!find(after, serverPort, clientPort));
    }

    // The look-up of one socket by its addresses and ports (what SMB's live samples use: a walk over every socket
    // costs 2 ms) finds the same socket as the walk, with live counters, from either end; a closed one is gone.
    void findsOneSocket_data() { seesBothEnds_data(); }

    void findsOneSocket()
    {
        QFETCH(bool, v6);
        const platform::SocketDiagnostics &diagnostics = platform::Platform::socketDiagnostics();
        platform::IpAddress loopback;
        loopback.family = v6 ? platform::IpAddress::Family::V6 : platform::IpAddress::Family::V4;
        if (v6)
            loopback.bytes[15] = 1;
        else
            loopback.bytes = {127, 0, 0, 1};
        quint16 clientPort = 0, serverPort = 0;
        {
            LoopbackPair pair(v6);
            QVERIFY(pair.client >= 0 && pair.server >= 0);
            clientPort = pair.clientPort;
            serverPort = pair.serverPort;
            const qsizetype data = 8192;
            QVERIFY(pair.carry(data));
            platform::TcpSocketReading client, server;
            std::string error = "not cleared";
            QVERIFY(diagnostics.tcpSocket(loopback, serverPort, loopback, clientPort, &server, &error));
            QCOMPARE(QString::fromStdString(error), QString());
            QCOMPARE(server.inode, LoopbackPair::inode(pair.server));
            QCOMPARE(server.localPort, serverPort);
            QCOMPARE(server.remotePort, clientPort);
            QVERIFY2(server.bytesReceived >= std::uint64_t(data) && server.bytesReceived <= std::uint64_t(data) + 1,
                     qPrintable(QString::number(server.bytesReceived)));
            // The server's acknowledgement of the last bytes may be delayed: the client's count reaches them.
            QTRY_VERIFY(diagnostics.tcpSocket(loopback, clientPort, loopback, serverPort, &client, &error)
                        && client.bytesAcked >= std::uint64_t(data));
            QCOMPARE(client.inode, LoopbackPair::inode(pair.client));
            QVERIFY2(client.bytesAcked <= std::uint64_t(data) + 1, qPrintable(QString::number(client.bytesAcked)));
            QVERIFY(client.sndMss > 0);
            // The same socket as the walk over all of them reads.
            const std::vector<platform::TcpSocketReading> all = diagnostics.establishedTcp(&error);
            const platform::TcpSocketReading *walked = find(all, clientPort, serverPort);
            QVERIFY(walked);
            QCOMPARE(walked->inode, client.inode);
            QCOMPARE(walked->sndMss, client.sndMss);
            // Ports swapped name no socket.
            QVERIFY(!diagnostics.tcpSocket(loopback, serverPort, loopback, serverPort, &client, &error));
            QCOMPARE(QString::fromStdString(error), QStringLiteral("no such TCP socket"));
        }
        std::string error;
        platform::TcpSocketReading r;
        // Closed: the client's end may linger in FIN_WAIT, but the server's end, which closed second, is gone
        // or closing; neither counts as the connection it was.
        if (diagnostics.tcpSocket(loopback, clientPort, loopback, serverPort, &r, &error))
            QVERIFY2(r.inode == 0, "a closed socket still has its descriptor");
        // Addresses of two families are no socket's.
        platform::IpAddress other = loopback;
        other.family = v6 ? platform::IpAddress::Family::V4 : platform::IpAddress::Family::V6;
        QVERIFY(!diagnostics.tcpSocket(loopback, clientPort, other, serverPort, &r, &error));
        QVERIFY(!error.empty());
    }
};

WB_OWN_NETWORK_TEST_MAIN(TestSocketDiagnostics)
#include "TestSocketDiagnostics.moc"
