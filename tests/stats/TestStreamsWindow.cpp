// The figure of a test over parallel streams: the sum of the streams' bytes over the window common to all of them.
#include "stats/StreamsWindow.h"

#include <QTest>

using namespace wb;

namespace {
constexpr qint64 kMs = 1000000;

/// One arrival: which stream, how many bytes, when (ms).
struct Arrival
{
    int stream;
    qint64 bytes;
    int ms;
};
} // namespace

Q_DECLARE_METATYPE(QList<Arrival>)

class TestStreamsWindow : public QObject
{
    Q_OBJECT
private slots:
    void commonWindow_data()
    {
        QTest::addColumn<int>("streams");
        QTest::addColumn<qint64>("warmupMs");
        QTest::addColumn<QList<Arrival>>("arrivals");
        QTest::addColumn<QList<qint64>>("streamBytes");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<qint64>("totalBytes");
        // Two streams in step: from the arrival before the second stream's first (0 ms) to the first stream's end.
        QTest::newRow("two in step") << 2 << qint64(0) << QList<Arrival>{{0, 1000, 0},   {1, 1000, 1},   {0, 1000, 100},
                                                                         {1, 1000, 101}, {0, 1000, 200}, {1, 1000, 201}}
                                     << QList<qint64>{2000, 2000} << 0.2 << qint64(6000);
        // The second stream starts 100 ms late: the first stream's lone start is not in the figure.
        QTest::newRow("late starter") << 2 << qint64(0)
                                      << QList<Arrival>{{0, 1000, 0},   {0, 1000, 50},  {0, 1000, 100},
                                                        {1, 1000, 100}, {0, 1000, 200}, {1, 1000, 200}}
                                      << QList<qint64>{1000, 2000} << 0.1 << qint64(6000);
        // One stream ends at 100 ms, the other runs on alone to 300 ms: its tail is not in the figure.
        QTest::newRow("early finisher") << 2 << qint64(0)
                                        << QList<Arrival>{{0, 1000, 0},   {1, 1000, 0},   {0, 1000, 100},
                                                          {1, 1000, 100}, {1, 1000, 200}, {1, 1000, 300}}
                                        << QList<qint64>{1000, 2000} << 0.1 << qint64(6000);
        // Warm-up 150 ms from the first byte of any stream: the window begins at the arrival before it ended.
        QTest::newRow("warm-up") << 2 << qint64(150)
                                 << QList<Arrival>{{0, 1000, 0},   {1, 1000, 0},   {0, 1000, 100}, {1, 1000, 100},
                                                   {0, 1000, 200}, {1, 1000, 200}, {0, 1000, 300}, {1, 1000, 300}}
                                 << QList<qint64>{2000, 2000} << 0.2 << qint64(8000);
        // A stream that never received anything: no common window, no figure.
        QTest::newRow("silent stream") << 3 << qint64(0)
                                       << QList<Arrival>{{0, 1000, 0}, {1, 1000, 0}, {0, 1000, 100}, {1, 1000, 100}}
                                       << QList<qint64>{0, 0, 0} << 0.0 << qint64(4000);
        // One stream that ended before the last one began: no second is common to all.
        QTest::newRow("no overlap") << 2 << qint64(0)
                                    << QList<Arrival>{{0, 1000, 0}, {0, 1000, 100}, {1, 1000, 200}, {1, 1000, 300}}
                                    << QList<qint64>{0, 0} << 0.0 << qint64(4000);
        // One stream is ReceiveWindow's rule: first byte to last byte, the first arrival's bytes included.
        QTest::newRow("one stream") << 1 << qint64(0)
                                    << QList<Arrival>{{0, 1000, 0}, {0, 1000, 100}, {0, 1000, 200}, {0, 1000, 300}}
                                    << QList<qint64>{4000} << 0.3 << qint64(4000);
        QTest::newRow("one stream, warm-up")
            << 1 << qint64(150) << QList<Arrival>{{0, 1000, 0}, {0, 1000, 100}, {0, 1000, 200}, {0, 1000, 300}}
            << QList<qint64>{2000} << 0.2 << qint64(4000);
    }
    void commonWindow()
    {
        QFETCH(int, streams);
        QFETCH(qint64, warmupMs);
        QFETCH(QList<Arrival>, arrivals);
        QFETCH(QList<qint64>, streamBytes);
        QFETCH(double, seconds);
        QFETCH(qint64, totalBytes);
        StreamsWindow w(streams, warmupMs * kMs);
        for (const Arrival &a : arrivals)
            w.add(a.stream, a.bytes, a.ms * kMs);
        const std::vector<std::int64_t> got = w.streamBytes();
        QCOMPARE(QList<qint64>(got.begin(), got.end()), streamBytes);
        qint64 sum = 0;
        for (qint64 b : streamBytes)
            sum += b;
        QCOMPARE(w.measuredBytes(), sum);
        QCOMPARE(w.measuredSeconds(), seconds);
        QCOMPARE(w.totalBytes(), totalBytes);
    }

    // The same arrivals as one stream and as that stream split in four equal ones give the same figure.
    void splitGivesTheSameFigure()
    {
        StreamsWindow one(1);
        StreamsWindow four(4);
        for (int ms = 0; ms <= 1000; ms += 10) {
            one.add(0, 4000, ms * kMs);
            for (int s = 0; s < 4; ++s)
                four.add(s, 1000, ms * kMs + s); // each a nanosecond after the last
        }
        // Four streams leave out what arrived before the fourth began (three streams' first 1000 B; the window
        // begins at the third's, 2 ns in) and the last round after the first stream's last arrival (three streams'
        // last 1000 B): 404,000 - 6,000 B over 1 s less 2 ns.
        QCOMPARE(one.measuredBytes(), qint64(404000));
        QCOMPARE(four.measuredBytes(), qint64(398000));
        QCOMPARE(four.measuredSeconds(), (1000 * kMs - 2) / 1e9);
        QCOMPARE(four.silentStreams(), 0);
        QCOMPARE(StreamsWindow(4).silentStreams(), 4);
    }
};

QTEST_GUILESS_MAIN(TestStreamsWindow)
#include "TestStreamsWindow.moc"
