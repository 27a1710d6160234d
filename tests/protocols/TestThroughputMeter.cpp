// ThroughputMeter with an injected clock: samples on the plan's interval whatever the driver's calls, bytes in
// the interval in which they arrived, the last sample over its own duration, sums exact.
#include "protocols/ThroughputMeter.h"
#include "protocols/ConcurrentSpans.h"

#include <QTest>

#include <cmath>

using namespace wb;

namespace {

constexpr qint64 kMs = 1000000;
constexpr qint64 kEpoch = 5000 * kMs; // the clock's reading at start(): any monotonic clock will do

class Observer : public RunObserver
{
public:
    void sample(const Sample &s) override { live.append(s); }
    bool stopRequested() const override { return false; }
    SampleList live;
};

/// A meter whose clock the test sets, in ms since start().
struct Rig
{
    qint64 nowNs = kEpoch;
    Observer observer;
    ThroughputMeter meter{7, 100, observer, [this] { return nowNs; }};

    explicit Rig(int streams = 1)
    {
        meter.setStreams(streams);
        meter.start();
    }
    void at(double ms) { nowNs = kEpoch + qint64(ms * kMs); }
    /// The driver reports bytes at ms.
    void addAt(double ms, qint64 bytes)
    {
        at(ms);
        meter.add(bytes);
    }
    qint64 ns(double ms) const { return kEpoch + qint64(ms * kMs); }
};

qint64 sum(const SampleList &samples)
{
    qint64 n = 0;
    for (const Sample &s : samples)
        n += s.bytes;
    return n;
}

} // namespace

class TestThroughputMeter : public QObject
{
    Q_OBJECT
private slots:
    void intervalsAreTheClocksNotTheCalls_data();
    void intervalsAreTheClocksNotTheCalls();
    void spanAcrossBoundariesIsSplitByTime();
    void lastSampleIsOverItsOwnDuration();
    void oldMeterSpikedOnTheLastChunk();
    void stallShowsAsEmptyIntervals();
    void lateReportIsSpreadUpToNow();
    void cumulativeCountFeedsTheDifference();
    void trailingWaitIsNoSample();
    void endSeenByTheMoverStopsTheClock();
    void nothingBeforeStartOrAfterFinish();
    void overlappingCallsAreSummedNotSqueezed();
    void eachStreamIsSplitAsTheSum();
    void streamCountsAreSplitAsTheSum();
    void oneStreamCarriesNoShares();
    void lateBytesGoWhereTheyMoved();
    void fullIntervalsAboveTheLineAreDrawnAsOne();
    void firstSampleAboveTheLineIsDrawnWithTheNext();
    void fastTailIsDrawnWithTheSampleBefore();
};

namespace {

/// A rig on a 100 Mbit/s line in 1500-byte frames: 12.19 MB/s of IP packets, 1.219 MB in a 100 ms interval.
struct LineRig : Rig
{
    static constexpr double kLine = 100e6 / 8 * 1500 / 1538;
    LineRig() { meter.setLine(100, 1500); }
};

} // namespace

void TestThroughputMeter::lateBytesGoWhereTheyMoved()
{
    // 1.0 MB in the first interval, then 1.4 MB in the second (a reader kept from reading: bytes of the first counted
    // late): no interval can hold more than the line's 1.219 MB, so the excess goes back to the first, which has room.
    LineRig rig;
    rig.addAt(100, 1000000);
    rig.addAt(200, 1400000);
    rig.addAt(300, 1000000);
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 3);
    const qint64 cap = qint64(std::ceil(LineRig::kLine * 0.1));
    QVERIFY2(s[1].bytes <= cap, qPrintable(QString::number(s[1].bytes)));
    QCOMPARE(s[0].bytes + s[1].bytes, qint64(2400000));
    QCOMPARE(s[0].intervalSeconds, 0.1);
    QCOMPARE(s[1].intervalSeconds, 0.1);
    QCOMPARE(sum(s), rig.meter.total());
    QCOMPARE(rig.observer.live.size(), 3); // all of them once finished, as drawn
    QCOMPARE(rig.observer.live[1].bytes, s[1].bytes);
    // Without the line, what was counted: a reader late is not known from the counts alone.
    Rig plain;
    plain.addAt(100, 1000000);
    plain.addAt(200, 1400000);
    plain.addAt(300, 1000000);
    plain.meter.finish();
    QCOMPARE(plain.meter.samples()[1].bytes, qint64(1400000));
}

void TestThroughputMeter::fullIntervalsAboveTheLineAreDrawnAsOne()
{
    // The first interval full to the line, the second above it: nowhere to put the excess, so the two are drawn as
    // one sample over 200 ms; the third is drawn on its own.
    LineRig rig;
    rig.addAt(100, 1200000);
    rig.addAt(200, 1300000);
    rig.addAt(300, 1100000);
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 2);
    QCOMPARE(s[0].bytes, qint64(2500000));
    QVERIFY(qAbs(s[0].intervalSeconds - 0.2) < 1e-9);
    QVERIFY(qAbs(s[0].endSeconds - 0.2) < 1e-9);
    QCOMPARE(s[1].bytes, qint64(1100000));
    QCOMPARE(rig.observer.live.size(), 2);
}

void TestThroughputMeter::firstSampleAboveTheLineIsDrawnWithTheNext()
{
    // ftp-get at 100 Mbit/s in the lab: 1.2378 MB in the first 100 ms (the shaper's bucket let through at once), above
    // the line's 1.219 MB, and no sample before it to take the excess: drawn with the second, 2.4138 MB over 200 ms.
    LineRig rig;
    rig.addAt(100, 1237800);
    rig.addAt(200, 1176000);
    rig.addAt(300, 1176000);
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 2);
    QCOMPARE(s[0].bytes, qint64(1237800 + 1176000));
    QVERIFY(qAbs(s[0].intervalSeconds - 0.2) < 1e-9);
    QVERIFY(s[0].bytesPerSecond() <= LineRig::kLine);
    QCOMPARE(s[1].bytes, qint64(1176000));
}

void TestThroughputMeter::fastTailIsDrawnWithTheSampleBefore()
{
    // 1 MB a full interval, then 4 MB in the last 5 ms (a receive buffer read out at the end): 800 MB/s against a
    // run of 10 MB/s. Drawn with the sample before it: 5 MB over 105 ms.
    Rig rig;
    rig.addAt(100, 1000000);
    rig.addAt(200, 1000000);
    rig.addAt(205, 4000000);
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 2);
    QCOMPARE(s[1].bytes, qint64(5000000));
    QVERIFY(qAbs(s[1].intervalSeconds - 0.105) < 1e-9);
    QVERIFY(qAbs(s[1].endSeconds - 0.205) < 1e-9);
    QCOMPARE(rig.observer.live.size(), 2);
    QCOMPARE(sum(rig.observer.live), qint64(6000000));
}

void TestThroughputMeter::eachStreamIsSplitAsTheSum()
{
    // Two streams: 300 kB on stream 0 over 50-250 ms (a quarter, half, quarter over three intervals), 40 kB on
    // stream 1 at 280 ms (over 250-280 ms, all in the third interval).
    Rig rig(2);
    rig.addAt(50, 0);
    rig.at(250);
    rig.meter.addSpan(300000, rig.ns(50), rig.ns(250), 0);
    QCOMPARE(rig.meter.samples().size(), 2);
    QCOMPARE(rig.observer.live.size(), 1); // the second is held: the next interval may still give it bytes
    rig.at(280);
    rig.meter.add(40000, 1); // spread over 250-280 ms: the third interval
    rig.meter.finish();
    const SampleList &live = rig.observer.live;
    QCOMPARE(live.size(), 3);
    QCOMPARE(live.at(0).streamBytes, (QList<qint64>{75000, 0}));
    QCOMPARE(live.at(1).streamBytes, (QList<qint64>{150000, 0}));
    QCOMPARE(live.at(2).streamBytes, (QList<qint64>{75000, 40000}));
    for (const Sample &sample : live)
        QCOMPARE(sample.streamBytes.at(0) + sample.streamBytes.at(1), sample.bytes);
    QCOMPARE(sum(live), qint64(340000));
}

void TestThroughputMeter::streamCountsAreSplitAsTheSum()
{
    // Cumulative per-stream counters (TCP_INFO of each socket) read at 150 ms and 310 ms: each reading's shares
    // split at the boundaries in proportion to time, as the sum is; the sum is the counters' sum.
    Rig rig(3);
    rig.at(150);
    rig.meter.setReceived(std::vector<qint64>{30000, 60000, 0});
    rig.at(310);
    rig.meter.setReceived(std::vector<qint64>{30000 + 16000, 60000, 32000});
    rig.meter.finish();
    const SampleList &live = rig.observer.live;
    QCOMPARE(live.size(), 4); // 0-100, 100-200, 200-300, 300-310
    QCOMPARE(live.at(0).streamBytes, (QList<qint64>{20000, 40000, 0}));
    QCOMPARE(live.at(1).streamBytes, (QList<qint64>{10000 + 5000, 20000, 10000}));
    QCOMPARE(live.at(2).streamBytes, (QList<qint64>{10000, 0, 20000}));
    QCOMPARE(live.at(3).streamBytes, (QList<qint64>{1000, 0, 2000}));
    qint64 total = 0;
    for (const Sample &sample : live) {
        QCOMPARE(sample.streamBytes.at(0) + sample.streamBytes.at(1) + sample.streamBytes.at(2), sample.bytes);
        total += sample.bytes;
    }
    QCOMPARE(total, qint64(30000 + 16000 + 60000 + 32000));
    // A counter that goes back is ignored, not taken off.
    Rig back(2);
    back.at(50);
    back.meter.setReceived(std::vector<qint64>{5000, 5000});
    back.at(120);
    back.meter.setReceived(std::vector<qint64>{4000, 12000});
    back.meter.finish();
    QCOMPARE(sum(back.observer.live), qint64(17000));
}

void TestThroughputMeter::oneStreamCarriesNoShares()
{
    Rig rig;
    rig.addAt(150, 1000);
    rig.meter.add(500, 0); // a stream index without setStreams counts in the sum only
    rig.meter.finish();
    QCOMPARE(sum(rig.observer.live), qint64(1500));
    for (const Sample &sample : rig.observer.live)
        QVERIFY(sample.streamBytes.isEmpty());
}

void TestThroughputMeter::overlappingCallsAreSummedNotSqueezed()
{
    // Two connections, each writing 1.2 MB per 200 ms call, half a call apart: together a steady 12 MB/s from
    // 100 ms on. Reported as they end, each call would be squeezed into the 100 ms since the other ended.
    Rig rig;
    ConcurrentSpans spans;
    const qint64 call = 1200000;
    // Lane A: 0-200, 200-400, 400-600; lane B: 100-300, 300-500, 500-700 (ms). Flushed each time a call
    // ends, up to the other lane's last end (its next call starts after it).
    struct Step
    {
        double from, to, settled;
    };
    const Step steps[]
        = {{0, 200, 100}, {100, 300, 200}, {200, 400, 300}, {300, 500, 400}, {400, 600, 500}, {500, 700, 600}};
    for (const Step &st : steps) {
        rig.at(st.to);
        spans.add(call, rig.ns(st.from), rig.ns(st.to));
        spans.flush(rig.ns(st.settled), rig.meter);
    }
    spans.flushAll(rig.meter);
    QVERIFY(spans.empty());
    rig.at(700);
    rig.meter.finish();
    const SampleList &samples = rig.meter.samples();
    QCOMPARE(samples.size(), 7);
    QCOMPARE(sum(samples), 6 * call);
    // 0-100 ms: lane A alone (0.6 MB); 100-600 ms: both (1.2 MB per 100 ms); 600-700 ms: lane B alone.
    QCOMPARE(samples.first().bytes, call / 2);
    for (int i = 1; i < 6; ++i)
        QCOMPARE(samples.at(i).bytes, call);
    QCOMPARE(samples.last().bytes, call / 2);
}

void TestThroughputMeter::intervalsAreTheClocksNotTheCalls_data()
{
    // A steady 11.77 MB/s (100 Mbit/s goodput) reported at these steps (ms): the samples must not care.
    QTest::addColumn<QList<double>>("stepsMs");
    QTest::newRow("every 10 ms") << QList<double>{10};
    QTest::newRow("every 115 and 194 ms (tcp-send's old write loop)") << QList<double>{115, 194};
    QTest::newRow("every 37 ms") << QList<double>{37};
    QTest::newRow("every 250 ms (longer than an interval)") << QList<double>{250};
    QTest::newRow("irregular") << QList<double>{3, 91, 7, 160, 1, 44};
}

void TestThroughputMeter::intervalsAreTheClocksNotTheCalls()
{
    QFETCH(QList<double>, stepsMs);
    const double rate = 11.77e6; // B/s
    Rig rig;
    double t = 0;
    qint64 reported = 0;
    for (int i = 0; t < 2000; ++i) {
        t = qMin(2000.0, t + stepsMs.at(i % stepsMs.size()));
        rig.at(t);
        const qint64 due = qint64(rate * t / 1000);
        rig.meter.add(due - reported);
        reported = due;
    }
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 20);
    QCOMPARE(rig.observer.live.size(), s.size()); // the observer saw the same samples, as they were made
    QCOMPARE(sum(rig.observer.live), sum(s));
    for (int k = 0; k < s.size(); ++k) {
        QCOMPARE(s[k].runIndex, 7);
        QCOMPARE(s[k].intervalSeconds, 0.1);
        QVERIFY(qAbs(s[k].endSeconds - (k + 1) * 0.1) < 1e-9);
        // Whole bytes per sample: within 2 bytes of the rate's share.
        QVERIFY2(qAbs(s[k].bytes - rate * 0.1) <= 2,
                 qPrintable(QStringLiteral("sample %1: %2 B").arg(k).arg(s[k].bytes)));
    }
    QCOMPARE(sum(s), reported);
    QCOMPARE(rig.meter.total(), reported);
}

void TestThroughputMeter::spanAcrossBoundariesIsSplitByTime()
{
    // One SMB call of 3 MB from 50 to 350 ms: 0.5 MB, 1 MB, 1 MB, 0.5 MB in the four intervals it touches.
    Rig rig;
    rig.at(360);
    rig.meter.addSpan(3000000, rig.ns(50), rig.ns(350));
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 3); // the fourth is not over yet
    QCOMPARE(s[0].bytes, 500000);
    QCOMPARE(s[1].bytes, 1000000);
    QCOMPARE(s[2].bytes, 1000000);
    rig.meter.finish();
    QCOMPARE(s.size(), 4);
    QCOMPARE(s[3].bytes, 500000);
    QVERIFY(qAbs(s[3].intervalSeconds - 0.05) < 1e-9); // 300 to 350 ms: the last byte, not the finish at 360
    QVERIFY(qAbs(s[3].endSeconds - 0.35) < 1e-9);
    QVERIFY(qAbs(s[3].bytesPerSecond() - 1e7) < 1);
}

void TestThroughputMeter::lastSampleIsOverItsOwnDuration()
{
    // Odd byte counts that do not divide evenly: every sample is whole bytes, the sum is exact, and the last
    // (partial) one has the rate of the rest.
    Rig rig;
    qint64 reported = 0;
    for (int ms = 7; ms <= 1234; ms += 7) {
        rig.addAt(ms, 7777); // 1.111 MB/s
        reported += 7777;
    }
    rig.at(1300);
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 13);
    QCOMPARE(sum(s), reported);
    QVERIFY(qAbs(s.last().intervalSeconds - 0.032) < 1e-9); // 1200 to 1232 ms, the last report with bytes
    QVERIFY2(qAbs(s.last().bytesPerSecond() / 1.111e6 - 1) < 0.01,
             qPrintable(QString::number(s.last().bytesPerSecond())));
    QCOMPARE(rig.meter.elapsedSeconds(), 1.3); // the figure's time is the finish, as before
}

void TestThroughputMeter::oldMeterSpikedOnTheLastChunk()
{
    // smb-read at 11.77 MB/s in 2 MiB calls of 178 ms each: the last call ends 20 ms after a boundary. The
    // old meter put the whole last call into those 20 ms (about 25 MB/s at the end of the graph).
    Rig rig;
    const qint64 call = 2 * 1024 * 1024;
    const double callMs = call / 11.77e6 * 1000;
    double t = 0;
    for (int i = 0; i < 6; ++i) {
        rig.at(t + callMs);
        rig.meter.addSpan(call, rig.ns(t), rig.ns(t + callMs));
        t += callMs;
    }
    rig.at(t + 5);
    rig.meter.finish();
    for (const Sample &s : rig.meter.samples())
        QVERIFY2(qAbs(s.bytesPerSecond() / 11.77e6 - 1) < 0.001,
                 qPrintable(QStringLiteral("%1 MB/s over %2 s").arg(s.bytesPerSecond() / 1e6).arg(s.intervalSeconds)));
    QCOMPARE(sum(rig.meter.samples()), 6 * call);
}

void TestThroughputMeter::stallShowsAsEmptyIntervals()
{
    Rig rig;
    rig.addAt(100, 10000);
    for (int ms = 150; ms <= 450; ms += 50) { // waiting, nothing arrives
        rig.addAt(ms, 0);
    }
    rig.addAt(520, 1200);
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 6);
    QCOMPARE(s[0].bytes, 10000);
    for (int k = 1; k <= 3; ++k) {
        QCOMPARE(s[k].bytes, 0);
        QCOMPARE(s[k].intervalSeconds, 0.1);
    }
    // 450 to 520 ms had no report: the 1200 bytes spread over it, 50 ms before the boundary and 20 after.
    QCOMPARE(s[4].bytes, qint64(1200 * 50 / 70.0 + 0.5));
    QCOMPARE(s[4].bytes + s[5].bytes, 1200);
    QVERIFY(qAbs(s[5].intervalSeconds - 0.02) < 1e-9);
}

void TestThroughputMeter::lateReportIsSpreadUpToNow()
{
    // A span that ends before what was already reported (bytes learnt late) counts up to now, never in the past.
    Rig rig;
    rig.addAt(150, 0);
    rig.at(180);
    rig.meter.addSpan(3000, rig.ns(20), rig.ns(60));
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(s.size(), 2);
    QCOMPARE(s[0].bytes, 0);
    QCOMPARE(s[1].bytes, 3000);
    QVERIFY(qAbs(s[1].intervalSeconds - 0.08) < 1e-9);
}

void TestThroughputMeter::cumulativeCountFeedsTheDifference()
{
    // tcpi_bytes_acked read every 30 ms: the meter takes the growth; a lower reading changes nothing.
    Rig rig;
    const QList<qint64> readings = {0, 30000, 60000, 50000, 90000, 120000, 150000, 165000};
    double t = 0;
    for (qint64 r : readings) {
        rig.at(t);
        rig.meter.setReceived(r);
        t += 30;
    }
    rig.meter.finish();
    const SampleList &s = rig.meter.samples();
    QCOMPARE(rig.meter.total(), 165000);
    QCOMPARE(sum(s), 165000);
    QCOMPARE(s.size(), 3);
    // The 90 ms reading of 50000 changed nothing; the 120 ms one brought 30000 over 60 to 120 ms, 20000 of
    // them before the boundary; the last 15000 over 180 to 210 ms, 10000 of them before the next.
    QCOMPARE(s[0].bytes, 80000);
    QCOMPARE(s[1].bytes, 80000);
    QVERIFY(qAbs(s[2].intervalSeconds - 0.01) < 1e-9);
}

void TestThroughputMeter::trailingWaitIsNoSample()
{
    // After the last byte the driver waits for the far end's word: no zero sample at the end.
    Rig rig;
    rig.addAt(100, 5000);
    rig.addAt(180, 0);
    rig.at(210);
    rig.meter.finish();
    QCOMPARE(rig.meter.samples().size(), 1);
    QCOMPARE(rig.meter.samples().first().bytes, 5000);
}

void TestThroughputMeter::endSeenByTheMoverStopsTheClock()
{
    // SMB write lanes: the last call ended at 228 ms and the last close was answered at 230 ms (as the lanes read
    // their clocks); the driver noticed at 262 ms and reported the last bytes as arrived by 228 ms. The run took
    // 230 ms; the last interval ends with its last byte.
    Rig rig;
    rig.addAt(150, 6000);
    rig.at(262);
    rig.meter.addSpan(3000, 0, rig.ns(228));
    rig.meter.finish(rig.ns(230));
    QCOMPARE(rig.meter.elapsedSeconds(), 0.230);
    QCOMPARE(sum(rig.meter.samples()), 9000);
    const Sample &last = rig.meter.samples().last();
    QVERIFY(qAbs(last.endSeconds - 0.228) < 1e-9);
    QVERIFY(qAbs(last.intervalSeconds - 0.028) < 1e-9);

    // Never before the reports end: bytes reported at 310 ms were spread up to then, and would crowd into a
    // shorter last interval (a rate the line cannot carry). The clock stops at 310 ms.
    Rig late;
    late.addAt(120, 3000);
    late.addAt(310, 3000);
    late.meter.finish(late.ns(250));
    QCOMPARE(late.meter.elapsedSeconds(), 0.310);
    QCOMPARE(sum(late.meter.samples()), 6000);
    QVERIFY(qAbs(late.meter.samples().last().intervalSeconds - 0.010) < 1e-9);

    // Looks after the last bytes that found nothing new (the driver's counters, read while it had not yet heard
    // of the last call's end) do not hold the clock: the run ended at 230 ms, not at the last look at 262 ms.
    Rig looked;
    looked.addAt(150, 6000);
    looked.addAt(228, 3000);
    looked.addAt(245, 0);
    looked.addAt(262, 0);
    looked.meter.finish(looked.ns(230));
    QCOMPARE(looked.meter.elapsedSeconds(), 0.230);
    QCOMPARE(sum(looked.meter.samples()), 9000);
    QVERIFY(qAbs(looked.meter.samples().last().endSeconds - 0.228) < 1e-9);
    // Such looks past a boundary closed the interval of the last bytes, and the next ones, empty (looks at 305 and
    // 410 ms): they are taken back, and the run ends at 230 ms in the interval [200, 300).
    Rig closed;
    closed.addAt(150, 6000);
    closed.addAt(228, 3000);
    closed.addAt(305, 0);
    closed.addAt(410, 0);
    QCOMPARE(closed.meter.samples().size(), 4);
    closed.meter.finish(closed.ns(230));
    QCOMPARE(closed.meter.elapsedSeconds(), 0.230);
    QCOMPARE(closed.meter.samples().size(), 3);
    QCOMPARE(sum(closed.meter.samples()), 9000);
    QVERIFY(qAbs(closed.meter.samples().last().endSeconds - 0.230) < 1e-9);
    QVERIFY(qAbs(closed.meter.samples().last().intervalSeconds - 0.030) < 1e-9);
    // An end at a boundary belongs to the interval that ends there.
    Rig boundary;
    boundary.addAt(150, 6000);
    boundary.addAt(200, 4000);
    boundary.addAt(305, 0);
    boundary.meter.finish(boundary.ns(200));
    QCOMPARE(boundary.meter.elapsedSeconds(), 0.200);
    QCOMPARE(boundary.meter.samples().size(), 2);
    QCOMPARE(boundary.meter.samples().last().bytes, 6000); // 2000 of the first report (100-150 ms), and the 4000

    // finish() after finish(endNs) changes nothing.
    late.at(400);
    late.meter.finish();
    QCOMPARE(late.meter.elapsedSeconds(), 0.310);
}

void TestThroughputMeter::nothingBeforeStartOrAfterFinish()
{
    Observer observer;
    qint64 now = kEpoch;
    ThroughputMeter meter(1, 100, observer, [&now] { return now; });
    meter.add(100);
    QCOMPARE(meter.total(), 0);
    QCOMPARE(meter.elapsedSeconds(), 0.0);
    meter.start();
    now += 50 * kMs;
    meter.add(100);
    meter.finish();
    now += 500 * kMs;
    meter.add(100);
    meter.finish();
    QCOMPARE(meter.total(), 100);
    QCOMPARE(meter.samples().size(), 1);
    QCOMPARE(meter.elapsedSeconds(), 0.05);
}

QTEST_GUILESS_MAIN(TestThroughputMeter)
#include "TestThroughputMeter.moc"
