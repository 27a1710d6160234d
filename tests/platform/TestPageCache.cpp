#include "platform/Platform.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

using namespace wb;

// platform::PageCache on files of a temporary folder (and one on /dev/shm): a file is opened past the page cache
// where the file system does it, else -1 with EINVAL; an uncached descriptor goes through the cache again when
// asked; evicting the cache leaves the file as it is.
class TestPageCache : public QObject
{
    Q_OBJECT

    const platform::PageCache &cache = platform::Platform::pageCache();

private slots:
    void uncachedWhereTheFileSystemCan_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("temporary folder") << QString();
        QTest::newRow("tmpfs") << QStringLiteral("/dev/shm");
    }

    void uncachedWhereTheFileSystemCan()
    {
        QFETCH(QString, folder);
        QTemporaryDir dir(folder.isEmpty() ? QDir::tempPath() + QStringLiteral("/wb-pagecache-XXXXXX")
                                           : folder + QStringLiteral("/wb-pagecache-XXXXXX"));
        QVERIFY(dir.isValid());
        const QByteArray path = QFile::encodeName(dir.filePath(QStringLiteral("f.bin")));
        const int fd = cache.openUncached(path.constData(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0) {
            QCOMPARE(errno, EINVAL); // this file system does not: the callers open it through the cache
            return;
        }
        QVERIFY(::fcntl(fd, F_GETFL) & O_DIRECT);
        // Aligned writes pass; then the unaligned tail, through the cache again.
        void *block = nullptr;
        QCOMPARE(::posix_memalign(&block, 4096, 4096), 0);
        std::memset(block, 'w', 4096);
        QCOMPARE(::write(fd, block, 4096), ssize_t(4096));
        cache.endUncached(fd);
        QVERIFY(!(::fcntl(fd, F_GETFL) & O_DIRECT));
        QCOMPARE(::write(fd, "tail", 4), ssize_t(4));
        std::free(block);
        ::close(fd);
        QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("f.bin"))).size(), qint64(4100));
    }

    void evictLeavesTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath(QStringLiteral("e.bin")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray data(1 << 20, 'e');
        QCOMPARE(f.write(data), qint64(data.size()));
        f.close();
        const int fd = ::open(QFile::encodeName(f.fileName()).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        ::fdatasync(fd);
        cache.evict(fd);
        QByteArray back(data.size(), '\0');
        QCOMPARE(::read(fd, back.data(), size_t(back.size())), ssize_t(back.size()));
        QCOMPARE(back, data);
        ::close(fd);
    }
};

QTEST_GUILESS_MAIN(TestPageCache)
#include "TestPageCache.moc"
