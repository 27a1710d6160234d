// SmbLanes without a server: its lanes are real processes running a body of the test's. A lane that has closed its
// file waits for the others before it ends (its logoff and exit, and its smbd's, would take a core from the lanes
// still writing), and never waits for a lane that failed. A write's chunks cover the file once, in order, with the
// first round staggered so that the lanes do not all end a write at the same moment.
#include "protocols/smb/SmbLanes.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <chrono>
#include <thread>

using namespace wb;

namespace {

constexpr qint64 kTotal = 4 * 1024;
constexpr int kLateCloseMs = 300;

// The lanes are processes: each writes when its waitOthersClosed() returned into a file of its own.
void note(const QString &path, std::int64_t ns)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(QByteArray::number(qint64(ns)));
}

qint64 noted(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toLongLong() : -1;
}

// Lane 1 closes kLateCloseMs after the others, or fails there when `lastFails`.
SmbLanes::Body body(const QString &dir, bool lastFails)
{
    return [dir, lastFails](SmbLanes::Lane &lane) {
        lane.ready();
        if (!lane.waitGo())
            return;
        for (qint64 offset = 0, length = 0; lane.claim(&offset, &length);)
            lane.record(length, SmbLanes::clockNs(), SmbLanes::clockNs());
        if (lane.index() == 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(kLateCloseMs));
            if (lastFails) {
                lane.fail(EIO, QStringLiteral("the test's failure"), false, false);
                return;
            }
        }
        lane.closed();
        lane.waitOthersClosed();
        note(QStringLiteral("%1/lane%2").arg(dir).arg(lane.index()), SmbLanes::clockNs());
    };
}

// Runs the lanes until poll() says they are all done (or one failed); false after 10 s.
bool runToEnd(SmbLanes &lanes, const SmbLanes::Body &laneBody, QString *why)
{
    if (!lanes.start(laneBody, why) || !lanes.waitReady(10000, [] { return false; }))
        return false;
    lanes.go();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (lanes.poll(5, [](const SmbLanes::Call &) {})) {
        if (std::chrono::steady_clock::now() > deadline) {
            *why = QStringLiteral("the lanes did not end within 10 s");
            return false;
        }
    }
    return true;
}

} // namespace

class TestSmbLanes : public QObject
{
    Q_OBJECT
private slots:
    void laneEndsAfterTheLastClose();
    void laneDoesNotWaitForAFailedOne();
    void chunksCoverTheFileOnce_data();
    void chunksCoverTheFileOnce();
};

void TestSmbLanes::laneEndsAfterTheLastClose()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SmbLanes lanes(SmbLanes::Direction::Write, 2, 1024, kTotal);
    QString why;
    QVERIFY2(runToEnd(lanes, body(dir.path(), false), &why), qPrintable(why));
    QVERIFY(!lanes.failure().failed);
    const std::int64_t lastClose = lanes.closedNs();
    QVERIFY(lastClose > 0);
    const qint64 first = noted(dir.filePath(QStringLiteral("lane0")));
    const qint64 late = noted(dir.filePath(QStringLiteral("lane1")));
    QVERIFY2(first > 0 && late > 0, "a lane did not come back from waitOthersClosed()");
    // Lane 0 closed kLateCloseMs before lane 1, and still ended only after lane 1's close.
    QVERIFY2(first >= lastClose,
             qPrintable(QStringLiteral("lane 0 went on %1 ms before the last close").arg((lastClose - first) / 1e6)));
    QVERIFY(late >= lastClose);
}

void TestSmbLanes::laneDoesNotWaitForAFailedOne()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SmbLanes lanes(SmbLanes::Direction::Write, 2, 1024, kTotal);
    QString why;
    runToEnd(lanes, body(dir.path(), true), &why);
    QVERIFY(lanes.failure().failed);
    QCOMPARE(lanes.failure().lane, 1);
    QCOMPARE(lanes.closedNs(), 0); // not every lane closed
    lanes.stop();
    // Lane 0 came back from its wait because lane 1 failed (or at the stop that follows a failure), not never.
    QTRY_VERIFY_WITH_TIMEOUT(noted(dir.filePath(QStringLiteral("lane0"))) > 0, 10000);
}

void TestSmbLanes::chunksCoverTheFileOnce_data()
{
    constexpr qint64 MiB = 1024 * 1024;
    QTest::addColumn<bool>("write");
    QTest::addColumn<int>("lanes");
    QTest::addColumn<qint64>("chunk");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<QList<qint64>>("firstLengths"); // the first chunks, in claim order
    QTest::newRow("write, 4 lanes, 4 MiB")
        << true << 4 << 4 * MiB << 35'000'000LL << QList<qint64>{MiB, 2 * MiB, 3 * MiB, 4 * MiB, 4 * MiB};
    QTest::newRow("write, 4 lanes, 4 MiB, 1 GB")
        << true << 4 << 4 * MiB << 1'000'000'000LL << QList<qint64>{MiB, 2 * MiB, 3 * MiB, 4 * MiB, 4 * MiB};
    QTest::newRow("write, 3 lanes, 4 MiB")
        << true << 3 << 4 * MiB << 100 * MiB << QList<qint64>{1344 * 1024, 2688 * 1024, 4 * MiB, 4 * MiB};
    QTest::newRow("write, file ends in the first round")
        << true << 4 << 4 * MiB << 5 * MiB << QList<qint64>{MiB, 2 * MiB, 2 * MiB};
    QTest::newRow("write, chunk too small to stagger")
        << true << 4 << 128 * 1024LL << MiB << QList<qint64>{128 * 1024, 128 * 1024};
    QTest::newRow("write, one lane") << true << 1 << 4 * MiB << 10 * MiB << QList<qint64>{4 * MiB, 4 * MiB, 2 * MiB};
    QTest::newRow("read, 2 lanes") << false << 2 << 4 * MiB << 10 * MiB << QList<qint64>{4 * MiB, 4 * MiB, 2 * MiB};
}

void TestSmbLanes::chunksCoverTheFileOnce()
{
    QFETCH(bool, write);
    QFETCH(int, lanes);
    QFETCH(qint64, chunk);
    QFETCH(qint64, total);
    QFETCH(QList<qint64>, firstLengths);
    const SmbLanes layout(write ? SmbLanes::Direction::Write : SmbLanes::Direction::Read, lanes, chunk, total);
    qint64 expectedOffset = 0;
    std::int64_t k = 0;
    for (qint64 offset = -1, length = -1; layout.chunkAt(k, &offset, &length); ++k) {
        QCOMPARE(offset, expectedOffset); // contiguous: no gap, no overlap
        QVERIFY2(length > 0 && length <= chunk, qPrintable(QString::number(length)));
        if (k < firstLengths.size())
            QCOMPARE(length, firstLengths.at(int(k)));
        expectedOffset += length;
    }
    QCOMPARE(expectedOffset, total);
    QVERIFY(k >= firstLengths.size());
    // A staggered write ends with each lane's share of what is left: its last `lanes` chunks together hold at most
    // one chunk and a quarter chunk per lane, so the lanes end together.
    if (write && lanes > 1 && chunk >= lanes * 64 * 1024 && total > 2 * lanes * chunk) {
        qint64 tail = 0;
        for (std::int64_t i = qMax<std::int64_t>(0, k - lanes); i < k; ++i) {
            qint64 o = 0;
            qint64 n = 0;
            QVERIFY(layout.chunkAt(i, &o, &n));
            tail += n;
        }
        QVERIFY2(tail <= chunk + lanes * qMax<qint64>(64 * 1024, chunk / 4), qPrintable(QString::number(tail)));
    }
    qint64 offset = 0;
    qint64 length = 0;
    QVERIFY(!layout.chunkAt(k + 1, &offset, &length));
}

QTEST_GUILESS_MAIN(TestSmbLanes)
#include "TestSmbLanes.moc"
