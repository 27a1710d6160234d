// wirebenchd's key proofs: HMAC-SHA256 (nettle on Linux, BCrypt on Windows) against RFC 4231's test vectors, and
// the random bytes the nonces come from.
#include "wire/wirebenchd/Hmac.h"

#include <QByteArray>
#include <QTest>

using wb::auth::hmacSha256;
using wb::auth::randomBytes;

class TestHmac : public QObject
{
    Q_OBJECT

private slots:
    void rfc4231_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QByteArray>("hmac");
        QTest::newRow("case 1") << QByteArray(20, '\x0b') << QByteArray("Hi There")
                                << QByteArray("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
        QTest::newRow("case 2: key shorter than the digest")
            << QByteArray("Jefe") << QByteArray("what do ya want for nothing?")
            << QByteArray("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        QTest::newRow("case 3: 50 bytes of data")
            << QByteArray(20, '\xaa') << QByteArray(50, '\xdd')
            << QByteArray("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
        // A key longer than SHA-256's 64-byte block is hashed first (RFC 2104): the path a long key file takes.
        QTest::newRow("case 6: 131-byte key")
            << QByteArray(131, '\xaa') << QByteArray("Test Using Larger Than Block-Size Key - Hash Key First")
            << QByteArray("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    }
    void rfc4231()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, data);
        QFETCH(QByteArray, hmac);
        const std::string mac = hmacSha256(std::string_view(key.constData(), std::size_t(key.size())),
                                           std::string_view(data.constData(), std::size_t(data.size())));
        QCOMPARE(QByteArray(mac.data(), qsizetype(mac.size())).toHex(), hmac);
    }

    void randomBytesDifferEachTime()
    {
        const std::string a = randomBytes(32);
        const std::string b = randomBytes(32);
        QCOMPARE(a.size(), std::size_t(32));
        QVERIFY(a != b);
        QCOMPARE(randomBytes(0).size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestHmac)
#include "TestHmac.moc"
