#include "model/Frame.h"

#include <QTest>

using namespace wb;

/// The frame rules (model/Frame): the range a plan may ask for, frame to MSS and UDP payload and back, and
/// the labels of the frame a run really used.
class TestFrame : public QObject
{
    Q_OBJECT
private slots:
    void range()
    {
        QVERIFY(!Frame::inRange(575));
        QVERIFY(Frame::inRange(576));
        QVERIFY(Frame::inRange(1500));
        QVERIFY(Frame::inRange(65535));
        QVERIFY(!Frame::inRange(65536));
        QCOMPARE(Frame::rangeText(), QStringLiteral("576..65535"));
    }

    void frameRule()
    {
        QCOMPARE(Frame::maxSegFor(1500, false), 1460);
        QCOMPARE(Frame::maxSegFor(1500, true), 1440);
        QCOMPARE(Frame::maxSegFor(9000, false), 8960);
        QCOMPARE(Frame::maxSegFor(100, false), 0); // below Linux's 88-byte TCP_MAXSEG
        QCOMPARE(Frame::mssFor(1500, false, true), 1448);
        QCOMPARE(Frame::mssFor(1500, true, true), 1428);
        QCOMPARE(Frame::mssFor(4000, false, true), 3948);
        QCOMPARE(Frame::frameOf(3948, false, true), 4000);
        QCOMPARE(Frame::frameOf(1428, true, true), 1500);
        QCOMPARE(Frame::frameOf(1460, false, false), 1500);
        QCOMPARE(Frame::frameOf(0, false, true), 0);
        // Timestamps, from the MTU the segments fit exactly.
        QCOMPARE(Frame::timestampsFromMss(1448, false, {1500}, false), true);
        QCOMPARE(Frame::timestampsFromMss(1460, false, {1500}, true), false);
        QCOMPARE(Frame::timestampsFromMss(1428, true, {1500}, false), true);
        QCOMPARE(Frame::timestampsFromMss(3948, false, {1500, 4000, 4000}, false), true); // SMB at MTU 4000
        QCOMPARE(Frame::timestampsFromMss(1000, false, {1500}, true), true);              // none fits: the fallback
        QCOMPARE(Frame::timestampsFromMss(1000, false, {1500}, false), false);
    }

    void frameText()
    {
        RunResult r;
        r.status = RunStatus::Ok;
        r.spec.frameSize = 1500;
        QCOMPARE(Frame::frameText(r), QStringLiteral("1500"));
        r.extra.insert(QStringLiteral("frame_used"), 1500);
        QCOMPARE(Frame::frameText(r), QStringLiteral("1500"));
        r.extra.insert(QStringLiteral("frame_used"), 4000);
        QCOMPARE(Frame::usedFrame(r), 4000);
        QCOMPARE(Frame::frameText(r), QStringLiteral("4000 (1500 planned)"));
        RunResult plain = r;
        plain.extra.insert(QStringLiteral("frame_used"), 1500);
        QCOMPARE(Frame::frameText(RunResultList{r, plain}), QStringLiteral("1500/4000 (1500 planned)"));
        RunResult failed = r;
        failed.status = RunStatus::Failed;
        failed.extra.clear();
        QCOMPARE(Frame::frameText(RunResultList{r, failed}), QStringLiteral("4000 (1500 planned)"));
    }

    void datagram()
    {
        QCOMPARE(Frame::datagramFor(1500), 1472);
        QCOMPARE(Frame::datagramFor(1500, true), 1452);
        QCOMPARE(Frame::datagramFor(9000), 8972);
        QCOMPARE(Frame::datagramFor(28), 0);
        QCOMPARE(Frame::frameOfDatagram(1472), 1500);
        QCOMPARE(Frame::frameOfDatagram(Frame::datagramFor(4000, true), true), 4000);
    }
};

QTEST_GUILESS_MAIN(TestFrame)
#include "TestFrame.moc"
