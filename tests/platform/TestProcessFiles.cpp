#include "platform/Platform.h"

#include <QTest>

#include <algorithm>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace wb;

// platform::ProcessFiles lists this process's real descriptors: one it opens is there and gone once closed;
// a socket it opens is among the socket inodes, by the inode fstat gives.
class TestProcessFiles : public QObject
{
    Q_OBJECT

    static bool has(const std::vector<int> &fds, int fd) { return std::find(fds.begin(), fds.end(), fd) != fds.end(); }
    static bool has(const std::vector<std::uint64_t> &inodes, std::uint64_t inode)
    {
        return std::find(inodes.begin(), inodes.end(), inode) != inodes.end();
    }

private slots:
    void descriptorsComeAndGo()
    {
        const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        std::vector<int> fds = platform::Platform::processFiles().openDescriptors();
        QVERIFY(has(fds, fd));
        QVERIFY(std::is_sorted(fds.begin(), fds.end()));
        ::close(fd);
        fds = platform::Platform::processFiles().openDescriptors();
        QVERIFY(!has(fds, fd));
        for (const int open : fds)
            QVERIFY2(::fcntl(open, F_GETFD) != -1, "a listed descriptor is not open");
    }

    void socketInodes()
    {
        const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(s >= 0);
        struct stat st = {};
        QCOMPARE(::fstat(s, &st), 0);
        const std::vector<std::uint64_t> with = platform::Platform::processFiles().socketInodes();
        QVERIFY(has(with, std::uint64_t(st.st_ino)));
        // A file is not a socket.
        const int f = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        QCOMPARE(platform::Platform::processFiles().socketInodes().size(), with.size());
        ::close(f);
        ::close(s);
        QVERIFY(!has(platform::Platform::processFiles().socketInodes(), std::uint64_t(st.st_ino)));
    }
};

QTEST_GUILESS_MAIN(TestProcessFiles)
#include "TestProcessFiles.moc"
