// Plan files end to end: the built wirebench-cli saves a plan with --save-plan, runs it again with --plan against a
// real wirebenchd on 127.0.0.1, and writes a stored session's plan with `show N --save-plan`.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "support/CliTestSupport.h"

using namespace clitest;

namespace {

struct RunSummary
{
    int runs = 0;
    int ok = 0;
    QStringList protocols; ///< in run order, one per run
    QList<int> frames;     ///< distinct, in run order
};

/// The results array of a `run --json` file, as the counts the tests compare.
bool readResults(const QString &path, RunSummary *summary, QString *why)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("no JSON file %1").arg(path);
        return false;
    }
    const QJsonArray results
        = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("results")).toArray();
    for (const QJsonValue &v : results) {
        const QJsonObject r = v.toObject();
        ++summary->runs;
        summary->ok += r.value(QStringLiteral("status")).toString() == QLatin1String("ok") ? 1 : 0;
        summary->protocols << r.value(QStringLiteral("protocol")).toString();
        const int frame = r.value(QStringLiteral("frame_size")).toInt();
        if (!summary->frames.contains(frame))
            summary->frames << frame;
    }
    return true;
}

/// The JSON results at path: `runs` runs, all ok, of protocols (run by run) at frames. A caller that goes on checks
/// QTest::currentTestFailed() first.
void checkResults(const QString &path, int runs, const QStringList &protocols, const QList<int> &frames)
{
    RunSummary s;
    QString why;
    QVERIFY2(readResults(path, &s, &why), qPrintable(why));
    QCOMPARE(s.runs, runs);
    QCOMPARE(s.ok, runs);
    QCOMPARE(s.protocols, protocols);
    QCOMPARE(s.frames, frames);
}

} // namespace

class TestCliPlanFile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void saveThenRunThePlan();
    void storedSessionRoundTrips();
    void planErrorsExitWithUsageStatus();
    void cleanupTestCase();

private:
    QStringList storeArgs() const { return {QStringLiteral("--store"), m_dir.filePath(QStringLiteral("store.db"))}; }

    Daemon m_daemon;
    QTemporaryDir m_dir;
    QString m_plan; ///< saved by saveThenRunThePlan
};

void TestCliPlanFile::initTestCase()
{
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
    QVERIFY(m_dir.isValid());
    m_plan = m_dir.filePath(QStringLiteral("two.wbplan.json"));
}

void TestCliPlanFile::saveThenRunThePlan()
{
    CLITEST_START_DAEMON(m_daemon);
    const QString passwordFile = m_dir.filePath(QStringLiteral("ftp-password"));
    {
        QFile f(passwordFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not-in-the-plan\n");
    }
    // 1. A run with two protocols, 1 s, 1 rep saves its plan first.
    const Outcome saved = runCli(QStringList{"run", "--host", m_daemon.hostArgument(), "--protocol",
                                             "tcp-send,tcp-recv", "--frame", "1500", "--duration", "1", "--reps", "1",
                                             "--set", "ftp.password=@" + passwordFile, "--save-plan", m_plan}
                                 + storeArgs());
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.out + saved.err));
    QVERIFY2(saved.out.contains(QStringLiteral("plan saved to ") + m_plan), qPrintable(saved.out));
    QVERIFY2(saved.out.contains(QStringLiteral("--set ftp.password=@FILE")), qPrintable(saved.out));
    QVERIFY2(saved.out.contains(QStringLiteral("run 2/2")), qPrintable(saved.out));
    QFile planFile(m_plan);
    QVERIFY(planFile.open(QIODevice::ReadOnly));
    const QByteArray planBytes = planFile.readAll();
    QVERIFY2(!planBytes.contains("not-in-the-plan"), planBytes.constData());
    QCOMPARE(QJsonDocument::fromJson(planBytes).object().value(QStringLiteral("format")).toString(),
             QStringLiteral("wirebench-plan"));

    // 2. The plan alone runs the same matrix.
    const QString json = m_dir.filePath(QStringLiteral("again.json"));
    const Outcome again = runCli(QStringList{"run", "--plan", m_plan, "--json", json} + storeArgs());
    QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    checkResults(json, 2, QStringList({"tcp-send", "tcp-recv"}), {1500});
    if (QTest::currentTestFailed())
        return;

    // 3. --reps 2 overrides the file: twice the runs, the rest as saved.
    const QString twice = m_dir.filePath(QStringLiteral("twice.json"));
    const Outcome more = runCli(QStringList{"run", "--plan", m_plan, "--reps", "2", "--json", twice} + storeArgs());
    QVERIFY2(more.exitCode == 0, qPrintable(more.out + more.err));
    checkResults(twice, 4, QStringList({"tcp-send", "tcp-send", "tcp-recv", "tcp-recv"}), {1500});
    if (QTest::currentTestFailed())
        return;
}

void TestCliPlanFile::storedSessionRoundTrips()
{
    CLITEST_START_DAEMON(m_daemon);
    if (!QFile::exists(m_plan))
        QFAIL("saveThenRunThePlan saved no plan");
    // The newest session in the store is the --reps 2 run of the saved plan.
    const QString fromStore = m_dir.filePath(QStringLiteral("latest.wbplan.json"));
    const Outcome show = runCli(QStringList{"show", "latest", "--save-plan", fromStore} + storeArgs());
    QVERIFY2(show.exitCode == 0, qPrintable(show.out + show.err));
    QVERIFY2(show.out.contains(QStringLiteral("saved to ") + fromStore), qPrintable(show.out));
    QVERIFY2(show.out.contains(QStringLiteral("(4 runs;")), qPrintable(show.out));

    const QString json = m_dir.filePath(QStringLiteral("from-store.json"));
    const Outcome rerun = runCli(QStringList{"run", "--plan", fromStore, "--json", json, "--no-store"});
    QVERIFY2(rerun.exitCode == 0, qPrintable(rerun.out + rerun.err));
    checkResults(json, 4, QStringList({"tcp-send", "tcp-send", "tcp-recv", "tcp-recv"}), {1500});
    if (QTest::currentTestFailed())
        return;

    const Outcome usage = runCli(QStringList{"show", "latest", "--save-plan", fromStore, "--json"} + storeArgs());
    QCOMPARE(usage.exitCode, 2);
}

void TestCliPlanFile::planErrorsExitWithUsageStatus()
{
    const QString missing = m_dir.filePath(QStringLiteral("missing.wbplan.json"));
    const QString broken = m_dir.filePath(QStringLiteral("broken.wbplan.json"));
    const QString embedded = m_dir.filePath(QStringLiteral("embedded.wbplan.json"));
    {
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"wirebench-plan\",");
        QFile e(embedded);
        QVERIFY(e.open(QIODevice::WriteOnly));
        e.write(
            R"json({"format": "wirebench-plan", "version": 1, "plan": {"hosts": [{"name": "This computer (loopback)",
            "address": "127.0.0.1", "port": 41234, "embedded": true}], "protocols": ["tcp-send"], "repetitions": 1}})json");
    }
    const QList<QPair<QString, QString>> cases{{missing, QStringLiteral("does not exist")},
                                               {broken, QStringLiteral("not valid JSON")},
                                               {embedded, QStringLiteral("wirebenchd --listen 127.0.0.1:5301")}};
    for (const auto &[file, reason] : cases) {
        const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--plan"), file, QStringLiteral("--no-store")});
        QCOMPARE(o.exitCode, 2);
        const QString err = o.err.trimmed();
        QVERIFY2(err.contains(reason) && err.contains(file), qPrintable(err));
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
        QVERIFY(o.out.isEmpty()); // nothing was run
    }
}

void TestCliPlanFile::cleanupTestCase()
{
    m_daemon.stop();
}

QTEST_GUILESS_MAIN(TestCliPlanFile)
#include "TestCliPlanFile.moc"
