#include "platform/Platform.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;

// platform::SocketCalls on sockets of this process on loopback: a send to a closed peer is EPIPE (the process
// lives: no SIGPIPE), an accepted descriptor is close-on-exec and non-blocking when asked, the congestion control
// is set by name (reno is always built in) and refused by an unknown one, and the bytes waiting are counted.
class TestSocketCalls : public QObject
{
    Q_OBJECT

    const platform::SocketCalls &calls = platform::Platform::socketCalls();

    /// A listening TCP socket on 127.0.0.1 (a free port), a connected client and the accepted end.
    struct Loopback
    {
        int listener = -1;
        int client = -1;
        ~Loopback()
        {
            for (const int fd : {listener, client})
                if (fd >= 0)
                    ::close(fd);
        }
    };

    static bool connectLoopback(Loopback *l)
    {
        l->listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof(a);
        if (l->listener < 0 || ::bind(l->listener, reinterpret_cast<sockaddr *>(&a), len) != 0
            || ::listen(l->listener, 4) != 0 || ::getsockname(l->listener, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return false;
        l->client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        return l->client >= 0 && ::connect(l->client, reinterpret_cast<sockaddr *>(&a), len) == 0;
    }

private slots:
    void sendToAClosedPeerIsEpipe()
    {
        int pair[2] = {-1, -1};
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
        ::close(pair[1]);
        const char byte = 'x';
        QCOMPARE(calls.send(pair[0], &byte, 1, MSG_DONTWAIT), ssize_t(-1)); // SIGPIPE would have ended the test
        QCOMPARE(errno, EPIPE);
        ::close(pair[0]);
    }

    void acceptedIsCloseOnExecAndAsBlockingAsAsked()
    {
        for (const bool nonBlocking : {true, false}) {
            Loopback l;
            QVERIFY(connectLoopback(&l));
            sockaddr_storage peer{};
            socklen_t len = sizeof(peer);
            const int fd = calls.accept(l.listener, reinterpret_cast<sockaddr *>(&peer), &len, nonBlocking);
            QVERIFY2(fd >= 0, std::strerror(errno));
            QVERIFY(::fcntl(fd, F_GETFD) & FD_CLOEXEC);
            QCOMPARE(bool(::fcntl(fd, F_GETFL) & O_NONBLOCK), nonBlocking);
            QCOMPARE(peer.ss_family, sa_family_t(AF_INET));
            ::close(fd);
        }
    }

    void congestionControlByName()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        QVERIFY2(calls.setCongestionControl(fd, "reno", 4), std::strerror(errno));
        char name[16] = {};
        socklen_t len = sizeof(name);
        QCOMPARE(::getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len), 0);
        QCOMPARE(QByteArray(name), QByteArray("reno"));
        QVERIFY(!calls.setCongestionControl(fd, "no-such-algorithm", 17));
        ::close(fd);
    }

    void unreadBytesAreCounted()
    {
        Loopback l;
        QVERIFY(connectLoopback(&l));
        const int fd = calls.accept(l.listener, nullptr, nullptr, false);
        QVERIFY(fd >= 0);
        int waiting = -1;
        QVERIFY(calls.unreadBytes(fd, &waiting));
        QCOMPARE(waiting, 0);
        const QByteArray data(1000, 'a');
        QCOMPARE(calls.send(l.client, data.constData(), size_t(data.size()), 0), ssize_t(data.size()));
        QTRY_VERIFY(calls.unreadBytes(fd, &waiting) && waiting == data.size());
        char buffer[400];
        QCOMPARE(::recv(fd, buffer, sizeof(buffer), 0), ssize_t(sizeof(buffer)));
        QVERIFY(calls.unreadBytes(fd, &waiting));
        QCOMPARE(waiting, 600);
        ::close(fd);
    }

    void memoryFileHoldsTheBlockWithoutAName_data()
    {
        QTest::addColumn<bool>("folderExists");
        QTest::newRow("temporary folder (O_TMPFILE)") << true;
        QTest::newRow("no temporary folder (memfd)") << false;
    }
    void memoryFileHoldsTheBlockWithoutAName()
    {
        // The block sendfile sends from (zero copy): its bytes read back, close-on-exec, no name left in the
        // temporary folder, and where TMPDIR does not exist the memfd fallback holds it the same.
        QFETCH(bool, folderExists);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = folderExists ? dir.path() : dir.filePath(QStringLiteral("missing"));
        const QByteArray old = qgetenv("TMPDIR");
        qputenv("TMPDIR", folder.toLocal8Bit());
        QByteArray block(200 * 1024, '\0');
        for (int i = 0; i < block.size(); ++i)
            block[i] = char('a' + i % 23);
        const int file = calls.memoryFile(block.constData(), size_t(block.size()));
        qputenv("TMPDIR", old);
        QVERIFY2(file >= 0, strerror(errno));
        QVERIFY(::fcntl(file, F_GETFD) & FD_CLOEXEC);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        QByteArray back(block.size(), '\0');
        QCOMPARE(::pread(file, back.data(), size_t(back.size()), 0), ssize_t(block.size()));
        QVERIFY(back == block);
        // sendfile from it over loopback: the bytes from the offset asked.
        Loopback l;
        QVERIFY(connectLoopback(&l));
        const int fd = calls.accept(l.listener, nullptr, nullptr, false);
        QVERIFY(fd >= 0);
        QCOMPARE(calls.sendFile(l.client, file, 1000, 5000), ssize_t(5000));
        QByteArray got;
        char buffer[8192];
        while (got.size() < 5000) {
            const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
            QVERIFY(n > 0);
            got.append(buffer, n);
        }
        QVERIFY(got == block.mid(1000, 5000));
        ::close(fd);
        ::close(file);
    }
};

QTEST_GUILESS_MAIN(TestSocketCalls)
#include "TestSocketCalls.moc"
