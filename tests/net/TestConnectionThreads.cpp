#include "net/ConnectionThreads.h"

#include <QTest>

#include <condition_variable>
#include <mutex>

using wb::net::ConnectionThreads;

// net::ConnectionThreads counts the connections still at work, which is what --max-connections limits: a thread
// whose work has ended counts no more even before the accept loop reaps it (the flood test of TestWirebenchd once
// had a healthy client refused "with 32 in use" for connections already closed).
class TestConnectionThreads : public QObject
{
    Q_OBJECT

private slots:
    void endedWorkStopsCountingBeforeReap()
    {
        std::mutex m;
        std::condition_variable cv;
        int released = 0; // how many of the threads may end
        ConnectionThreads threads;
        for (int i = 0; i < 3; ++i) {
            threads.start([&, i] {
                std::unique_lock lk(m);
                cv.wait(lk, [&] { return released > i; });
            });
        }
        QCOMPARE(threads.working(), std::size_t(3));
        {
            const std::lock_guard lk(m);
            released = 2; // the first two end; nobody reaps
        }
        cv.notify_all();
        QTRY_COMPARE(threads.working(), std::size_t(1));
        threads.reap(false);
        QCOMPARE(threads.working(), std::size_t(1));
        {
            const std::lock_guard lk(m);
            released = 3;
        }
        cv.notify_all();
        QTRY_COMPARE(threads.working(), std::size_t(0));
        threads.reap(true);
        QCOMPARE(threads.working(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestConnectionThreads)
#include "TestConnectionThreads.moc"
