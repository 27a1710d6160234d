#include "net/BulkSender.h"
#include "platform/Platform.h"

#include <QTest>

#include <cerrno>
#include <string>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;
using net::BulkSender;

// net::BulkSender on a non-blocking Unix socket pair with small buffers: the block's bytes go out in order across
// the block's end, a burst of sends stops where the socket is full and says how much it sent, and a burst into a
// full socket reports EAGAIN as one send() does; the same from a memory file by sendfile.
class TestBulkSender : public QObject
{
    Q_OBJECT

    struct Pair
    {
        int fd[2] = {-1, -1};
        ~Pair()
        {
            for (const int f : fd)
                if (f >= 0)
                    ::close(f);
        }
    };

    static bool makePair(Pair *p)
    {
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->fd) != 0)
            return false;
        const int small = 16 * 1024;
        ::setsockopt(p->fd[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
        ::setsockopt(p->fd[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
        return ::fcntl(p->fd[0], F_SETFL, ::fcntl(p->fd[0], F_GETFL) | O_NONBLOCK) == 0;
    }

    /// Everything waiting on fd (non-blocking reads until EAGAIN).
    static std::string drain(int fd)
    {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        std::string all;
        char buffer[8192];
        for (;;) {
            const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
            if (n <= 0)
                return all;
            all.append(buffer, std::size_t(n));
        }
    }

    /// The bytes a sender of `block` sends from its start: the block over and over.
    static std::string expected(const BulkSender::Block &block, std::size_t bytes)
    {
        std::string s;
        while (s.size() < bytes)
            s += *block;
        s.resize(bytes);
        return s;
    }

    void burstStopsWhereTheSocketIsFull(bool fromFile)
    {
        Pair p;
        QVERIFY(makePair(&p));
        const BulkSender::Block block = BulkSender::pattern(1000, 'a', 26);
        BulkSender sender(block);
        int file = -1;
        if (fromFile) {
            file = platform::Platform::socketCalls().memoryFile(block->data(), block->size());
            QVERIFY2(file >= 0, strerror(errno));
            sender.sendFrom(file);
        }
        // A burst of 3 on an empty socket: three whole blocks.
        QCOMPARE(sender.sendBurst(p.fd[0], MSG_DONTWAIT, 3), ssize_t(3000));
        QCOMPARE(sender.sent(), std::int64_t(3000));
        // A long burst fills the socket, stops at the first partial send and returns what it sent.
        const ssize_t more = sender.sendBurst(p.fd[0], MSG_DONTWAIT, 1000);
        QVERIFY2(more > 0 && more < 1000 * 1000, qPrintable(QString::number(more)));
        QCOMPARE(sender.sent(), std::int64_t(3000 + more));
        // Full now: the burst is what one send() would be, -1 with EAGAIN, and nothing counted.
        errno = 0;
        QCOMPARE(sender.sendBurst(p.fd[0], MSG_DONTWAIT, 10), ssize_t(-1));
        QVERIFY2(errno == EAGAIN || errno == EWOULDBLOCK, strerror(errno));
        QCOMPARE(sender.sent(), std::int64_t(3000 + more));
        // The peer got the block over and over, in order, and no byte twice (the partial block went on where it
        // stopped).
        const std::string got = drain(p.fd[1]);
        QCOMPARE(got.size(), std::size_t(sender.sent()));
        QVERIFY(got == expected(block, got.size()));
        if (file >= 0)
            ::close(file);
    }

private slots:
    void burstFromMemory() { burstStopsWhereTheSocketIsFull(false); }
    void burstFromFile() { burstStopsWhereTheSocketIsFull(true); }

    void burstAfterTheBlockEnds()
    {
        // A burst that starts inside the block sends the rest first, then whole blocks from the start.
        Pair p;
        QVERIFY(makePair(&p));
        const BulkSender::Block block = BulkSender::pattern(1000, 'A', 26);
        BulkSender sender(block);
        QCOMPARE(sender.sendSome(p.fd[0], MSG_DONTWAIT, 300), ssize_t(300));
        QCOMPARE(sender.sendBurst(p.fd[0], MSG_DONTWAIT, 2), ssize_t(700 + 1000));
        const std::string got = drain(p.fd[1]);
        QCOMPARE(got.size(), std::size_t(2000));
        QVERIFY(got == expected(block, 2000));
    }

    void burstToAClosedPeerIsAnError()
    {
        Pair p;
        QVERIFY(makePair(&p));
        ::close(p.fd[1]);
        p.fd[1] = -1;
        BulkSender sender(BulkSender::pattern(1000, 'a', 26));
        errno = 0;
        QCOMPARE(sender.sendBurst(p.fd[0], MSG_DONTWAIT, 10), ssize_t(-1));
        QCOMPARE(errno, EPIPE);
        QCOMPARE(sender.sent(), std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestBulkSender)
#include "TestBulkSender.moc"
