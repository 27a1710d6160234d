#include "platform/Platform.h"

#include <QDeadlineTimer>
#include <QTest>

#include <atomic>
#include <cmath>
#include <thread>

#include <unistd.h>

using namespace wb;

namespace {

/// Burns CPU on the calling thread until its own CPU time has grown by `seconds` (or a minute passed on a
/// machine too busy to give it any: the caller's check then fails).
double spin(double seconds)
{
    const platform::CpuTimes &cpu = platform::Platform::cpuTimes();
    const double start = cpu.threadSeconds();
    QDeadlineTimer giveUp(60000);
    volatile std::uint64_t x = 0;
    while (cpu.threadSeconds() - start < seconds && !giveUp.hasExpired()) {
        for (int i = 0; i < 100000; ++i)
            x = x + std::uint64_t(i);
    }
    return cpu.threadSeconds() - start;
}

} // namespace

// platform::CpuTimes: one line per online CPU plus the total, busy never above total, and CPU burnt by a
// thread counts for that thread and the process, not for another thread; user and system apart add up to it.
class TestCpuTimes : public QObject
{
    Q_OBJECT
private slots:
    void onePerCpuAndTheTotal()
    {
        const std::vector<platform::CpuTicks> ticks = platform::Platform::cpuTimes().systemTicks();
        QCOMPARE(qsizetype(ticks.size()), qsizetype(::sysconf(_SC_NPROCESSORS_ONLN)) + 1);
        for (const platform::CpuTicks &t : ticks) {
            QVERIFY(t.total > 0);
            QVERIFY(t.busy <= t.total);
        }
    }

    void busyTicksGrowWhileSpinning()
    {
        const std::vector<platform::CpuTicks> before = platform::Platform::cpuTimes().systemTicks();
        QVERIFY(spin(0.2) >= 0.2);
        const std::vector<platform::CpuTicks> after = platform::Platform::cpuTimes().systemTicks();
        QCOMPARE(after.size(), before.size());
        QVERIFY(after.front().busy > before.front().busy);
        QVERIFY(after.front().total > before.front().total);
    }

    void threadAndProcess()
    {
        const platform::CpuTimes &cpu = platform::Platform::cpuTimes();
        QVERIFY(cpu.threadSeconds() >= 0);
        const double processBefore = cpu.processSeconds();
        const double mineBefore = cpu.threadSeconds();
        double other = 0;
        std::thread t([&] { other = spin(0.2); });
        t.join(); // this thread waits, burning (almost) nothing
        QVERIFY(other >= 0.2);
        QVERIFY(cpu.processSeconds() - processBefore >= other);
        QVERIFY(cpu.threadSeconds() - mineBefore < other);
    }

    void threadSplitAddsUp()
    {
        // User and system apart (iperf3's figures) are the thread's seconds, read between two readings of them.
        const platform::CpuTimes &cpu = platform::Platform::cpuTimes();
        QVERIFY(spin(0.05) >= 0.05);
        const double before = cpu.threadSeconds();
        const std::optional<platform::ThreadSeconds> split = cpu.threadSplit();
        const double after = cpu.threadSeconds();
        QVERIFY(split.has_value());
        QVERIFY(split->user >= 0 && split->system >= 0);
        QVERIFY(split->user + split->system >= before - 1e-9);
        QVERIFY(split->user + split->system <= after + 1e-9);
    }

    void threadScheduleCountsRunAndSleep()
    {
        // The responsiveness probe's split: spinning adds run time, a sleep adds a voluntary switch. The run time
        // (schedstat) and the CPU seconds (getrusage) count the same thing, so they grow together.
        const platform::CpuTimes &cpu = platform::Platform::cpuTimes();
        const std::optional<platform::ThreadSchedule> before = cpu.threadSchedule();
#ifdef _WIN32
        QVERIFY(!before.has_value()); // not yet there: the probe shows CPU time only
        return;
#endif
        QVERIFY2(before.has_value(), "no /proc/thread-self/schedstat (kernel without CONFIG_SCHEDSTATS?)");
        const double cpuBefore = cpu.threadSeconds();
        QVERIFY(spin(0.05) >= 0.05);
#ifndef _WIN32
        ::usleep(2000);
#endif
        const std::optional<platform::ThreadSchedule> after = cpu.threadSchedule();
        const double cpuAfter = cpu.threadSeconds();
        QVERIFY(after.has_value());
        QVERIFY(after->runMs - before->runMs >= 50 - 1);
        QVERIFY(after->waitMs >= before->waitMs);
        QVERIFY(after->voluntarySwitches > before->voluntarySwitches);
        QVERIFY(after->involuntarySwitches >= before->involuntarySwitches);
        // getrusage counts in ticks on some kernels: within 20 ms of each other.
        QVERIFY(std::abs((after->runMs - before->runMs) - (cpuAfter - cpuBefore) * 1e3) < 20);
    }
};

QTEST_GUILESS_MAIN(TestCpuTimes)
#include "TestCpuTimes.moc"
