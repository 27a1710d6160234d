#include "storage/ResultStore.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

/// The app is SIGKILLed in the middle of a plan: the next start finds every run that finished, whole, and the
/// session marked interrupted.
class TestStoreCrash : public QObject
{
    Q_OBJECT

private slots:
    void killDuringPlan();
};

void TestStoreCrash::killDuringPlan()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("results.sqlite"));

    QProcess helper;
    helper.setProgram(QStringLiteral(STORE_CRASH_HELPER));
    helper.setArguments({path});
    helper.setProcessChannelMode(QProcess::SeparateChannels);
    helper.start();
    QVERIFY2(helper.waitForStarted(30000), qPrintable(helper.errorString()));

    QByteArray out;
    int committed = 0;
    const QRegularExpression line(QStringLiteral("committed (\\d+)\\n"));
    auto lastCommitted = [&] {
        out += helper.readAllStandardOutput();
        int last = 0;
        for (const QRegularExpressionMatch &m : line.globalMatch(QString::fromLatin1(out)))
            last = m.captured(1).toInt();
        return last;
    };
    // Let it store a few runs; it keeps writing at full speed, so the kill lands in the middle of some run.
    QTRY_VERIFY_WITH_TIMEOUT((committed = lastCommitted()) >= 25 || helper.state() == QProcess::NotRunning, 120000);
    QVERIFY2(helper.state() == QProcess::Running, helper.readAllStandardError().constData());
    helper.kill(); // SIGKILL
    QVERIFY(helper.waitForFinished(30000));
    QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
    committed = lastCommitted(); // lines printed between the last read and the kill
    QVERIFY(committed >= 25);

    ResultStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.interruptedAtOpen(), 1);
    const SessionInfoList sessions = store.sessions();
    QCOMPARE(sessions.size(), 1);
    QCOMPARE(sessions.first().state, SessionState::Interrupted);

    const RunResultList runs = store.runs(sessions.first().id, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Every run it reported is there; at most one more (committed, killed before it could say so).
    QVERIFY2(runs.size() >= committed && runs.size() <= committed + 1,
             qPrintable(QStringLiteral("%1 runs stored, %2 reported").arg(runs.size()).arg(committed)));
    QCOMPARE(sessions.first().runCount, int(runs.size()));
    qInfo("killed after %d reported runs; the store holds %d whole runs", committed, int(runs.size()));
    // No half-written run: each has all its samples, adding up to its byte count.
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const RunResult &r = runs.at(i);
        QCOMPARE(r.spec.index, int(i));
        QCOMPARE(r.samples.size(), r.extra.value(QStringLiteral("sample_count")).toInt());
        qint64 sum = 0;
        for (const Sample &s : r.samples)
            sum += s.bytes;
        QCOMPARE(sum, r.bytes);
    }

    // Reopening again finds nothing new to mark, and the store takes new sessions.
    store.close();
    QVERIFY(store.open(path, &error));
    QCOMPARE(store.interruptedAtOpen(), 0);
    QVERIFY(store.beginSession(TestPlan()) > 0);
}

QTEST_GUILESS_MAIN(TestStoreCrash)
#include "TestStoreCrash.moc"
