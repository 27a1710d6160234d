#include "model/Streams.h"

#include <QTest>

using namespace wb;

/// The parallel streams' labels and the sentence for a stream that carried nothing in the common window (the
/// figure is the sum over the time all streams shared, so there is none).
class TestStreams : public QObject
{
    Q_OBJECT
private slots:
    void labels()
    {
        QCOMPARE(Streams::label(1), QStringLiteral("1 stream"));
        QCOMPARE(Streams::label(4), QStringLiteral("4 streams"));
        RunResult r;
        QCOMPARE(Streams::of(r), 1);
        r.extra.insert(QStringLiteral("streams"), 8);
        QCOMPARE(Streams::of(r), 8);
    }

    void silentStreams_data()
    {
        QTest::addColumn<QList<qint64>>("bytes");
        QTest::addColumn<QString>("starts"); // empty: no sentence
        QTest::newRow("all carried") << QList<qint64>{10, 20, 30, 40} << QString();
        QTest::newRow("one stream") << QList<qint64>{0} << QString(); // one stream's 0 B is the plain "no data" case
        QTest::newRow("none given") << QList<qint64>{} << QString();
        QTest::newRow("third of four") << QList<qint64>{
            10, 20, 0, 40} << QStringLiteral("stream 3 of 4 carried no data in the time all streams shared");
        QTest::newRow("two of four") << QList<qint64>{0, 20, 0, 40}
                                     << QStringLiteral("streams 1 and 3 of 4 carried no data in the time");
        QTest::newRow("three of eight") << QList<qint64>{5, 0, 0, 5, 5, 5, 5, 0}
                                        << QStringLiteral("streams 2, 3 and 8 of 8 carried no data");
        QTest::newRow("all of two") << QList<qint64>{0, 0}
                                    << QStringLiteral("none of the 2 streams carried data in the time");
    }

    void silentStreams()
    {
        QFETCH(QList<qint64>, bytes);
        QFETCH(QString, starts);
        const QString text = Streams::silentProblem(bytes);
        if (starts.isEmpty()) {
            QVERIFY2(text.isEmpty(), qPrintable(text));
            return;
        }
        QVERIFY2(text.startsWith(starts), qPrintable(text));
        // What to try, as every failure says.
        QVERIFY2(text.contains(QLatin1String("try fewer streams")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("so there is no figure")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestStreams)
#include "TestStreams.moc"
