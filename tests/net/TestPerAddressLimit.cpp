#include "net/PerAddressLimit.h"

#include <QTest>

using wb::net::PerAddressLimit;

// net::PerAddressLimit is what --max-unproven-per-address and --probe-max-per-address count: each address on its
// own, its refusals counted so that a flood is logged at its first refusal and, with its number, when it is over.
class TestPerAddressLimit : public QObject
{
    Q_OBJECT

private slots:
    void eachAddressOnItsOwn()
    {
        PerAddressLimit limit(4);
        for (int i = 1; i <= 4; ++i) {
            const PerAddressLimit::Taken t = limit.take("192.0.2.7");
            QVERIFY(t.ok);
            QCOMPARE(t.held, i);
        }
        const PerAddressLimit::Taken fifth = limit.take("192.0.2.7");
        QVERIFY(!fifth.ok);
        QCOMPARE(fifth.held, 4);
        QVERIFY(fifth.firstRefusal);
        // Another address holds nothing yet: it gets its own 4.
        const PerAddressLimit::Taken other = limit.take("2001:db8::1");
        QVERIFY(other.ok);
        QCOMPARE(other.held, 1);
        QCOMPARE(limit.release("2001:db8::1"), 0); // never refused: nothing to log
    }

    void aFloodIsLoggedTwice()
    {
        PerAddressLimit limit(2);
        QVERIFY(limit.take("192.0.2.7").ok);
        QVERIFY(limit.take("192.0.2.7").ok);
        int first = 0;
        for (int i = 0; i < 100; ++i) {
            const PerAddressLimit::Taken t = limit.take("192.0.2.7");
            QVERIFY(!t.ok);
            first += t.firstRefusal ? 1 : 0;
        }
        QCOMPARE(first, 1);
        // One given back: the address may take one again, and the flood is not over (it still holds one).
        QCOMPARE(limit.release("192.0.2.7"), 0);
        QVERIFY(limit.take("192.0.2.7").ok);
        QVERIFY(!limit.take("192.0.2.7").ok);
        QCOMPARE(limit.release("192.0.2.7"), 0);
        QCOMPARE(limit.release("192.0.2.7"), 101); // its last: the count of the whole flood, once
        // Holding nothing, it starts afresh: its next refusal is a first one again.
        QVERIFY(limit.take("192.0.2.7").ok);
        QVERIFY(limit.take("192.0.2.7").ok);
        QVERIFY(limit.take("192.0.2.7").firstRefusal);
    }

    void releaseOfNothingIsHarmless()
    {
        PerAddressLimit limit(0); // at least 1
        QCOMPARE(limit.limit(), 1);
        QCOMPARE(limit.release("192.0.2.7"), 0);
        QVERIFY(limit.take("192.0.2.7").ok);
        QVERIFY(!limit.take("192.0.2.7").ok);
    }
};

QTEST_GUILESS_MAIN(TestPerAddressLimit)
#include "TestPerAddressLimit.moc"
