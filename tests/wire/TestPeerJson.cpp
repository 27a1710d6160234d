// wire::parsePeerJson and the number rules every parser of a peer's JSON goes through (core/wire/PeerJson).
#include "wire/PeerJson.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace wb;

class TestPeerJson : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("why"); // empty: parsed
        QTest::newRow("object") << QByteArray(R"({"a":[1,2,{"b":null}]})") << QString();
        QTest::newRow("1e999") << QByteArray(R"({"a":1e999})") << QStringLiteral("a number out of range");
        QTest::newRow("-1e999") << QByteArray(R"([-1e999])") << QStringLiteral("a number out of range");
        QTest::newRow("1e-999 is zero") << QByteArray(R"([1e-999])") << QString();
        QTest::newRow("2^64 and beyond") << QByteArray(R"([18446744073709551616, -9223372036854775809])") << QString();
        QTest::newRow("syntax") << QByteArray(R"({"a":})") << QStringLiteral("syntax error at offset 5");
        QTest::newRow("bad UTF-8") << QByteArray("[\"\xff\"]") << QStringLiteral("syntax error");
        QTest::newRow("lone surrogate") << QByteArray(R"(["\ud800"])") << QStringLiteral("syntax error");
        QTest::newRow("32 levels") << QByteArray(32, '[') + QByteArray(32, ']') << QString();
        QTest::newRow("33 levels") << QByteArray(33, '[') + QByteArray(33, ']')
                                   << QStringLiteral("nested deeper than 32 levels");
        QTest::newRow("objects 40 deep")
            << QByteArray("{\"a\":").repeated(40).append(QByteArray("1")).append(QByteArray(40, '}'))
            << QStringLiteral("nested deeper than 32 levels");
        QTest::newRow("a million levels") << QByteArray(1000000, '[') << QStringLiteral("nested deeper than 32 levels");
    }
    void parse()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, why);
        nlohmann::json value = 5;
        std::string reason;
        const bool ok
            = wire::parsePeerJson(std::string_view(text.constData(), std::size_t(text.size())), &value, &reason);
        QCOMPARE(ok, why.isEmpty());
        if (!ok) {
            QVERIFY2(QString::fromStdString(reason).startsWith(why), reason.c_str());
            QVERIFY(value.is_null());
        }
    }

    void wholeNumbers_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<qint64>("minValue");
        QTest::addColumn<qint64>("maxValue");
        QTest::addColumn<bool>("ok");
        constexpr qint64 lo = std::numeric_limits<qint64>::min(), hi = std::numeric_limits<qint64>::max();
        QTest::newRow("5") << 5.0 << qint64(0) << qint64(10) << true;
        QTest::newRow("11 above 10") << 11.0 << qint64(0) << qint64(10) << false;
        QTest::newRow("-1 below 0") << -1.0 << qint64(0) << qint64(10) << false;
        QTest::newRow("0.5") << 0.5 << lo << hi << false;
        QTest::newRow("2^63") << 9223372036854775808.0 << lo << hi << false;
        QTest::newRow("-2^63") << -9223372036854775808.0 << lo << hi << true;
        QTest::newRow("1e300") << 1e300 << lo << hi << false;
        QTest::newRow("-1e300") << -1e300 << lo << hi << false;
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << lo << hi << false;
        QTest::newRow("nan") << std::nan("") << lo << hi << false;
        QTest::newRow("2^62") << 4611686018427387904.0 << lo << hi << true;
    }
    void wholeNumbers()
    {
        QFETCH(double, value);
        QFETCH(qint64, minValue);
        QFETCH(qint64, maxValue);
        QFETCH(bool, ok);
        std::int64_t out = 77;
        QCOMPARE(wire::wholeNumberIn(value, minValue, maxValue, &out), ok);
        QCOMPARE(out, ok ? std::int64_t(value) : std::int64_t(77));
    }

    void counts()
    {
        const nlohmann::json o = nlohmann::json::parse(
            R"({"big":1e300,"neg":-1e300,"two63":9223372036854775808,"n":42.9,"s":"7","list":[1]})");
        constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
        QCOMPARE(wire::countAt(o, "big", -1), hi);
        QCOMPARE(wire::countAt(o, "two63", -1), hi);
        QCOMPARE(wire::countAt(o, "neg", -1), std::int64_t(0));
        QCOMPARE(wire::countAt(o, "n", -1), std::int64_t(42));
        QCOMPARE(wire::countAt(o, "s", -1), std::int64_t(-1));
        QCOMPARE(wire::countAt(o, "list", -1), std::int64_t(-1));
        QCOMPARE(wire::countAt(o, "absent", -1), std::int64_t(-1));
        QCOMPARE(wire::countAt(nlohmann::json::array(), "big", -1), std::int64_t(-1));
    }
};

QTEST_APPLESS_MAIN(TestPeerJson)
#include "TestPeerJson.moc"
