// A run that is not run says why, on its line, and a plan that measured nothing exits 1: the built wirebench-cli
// in the client namespace of this test's own lab (tests/lab/lab.sh, MTU 1500) against the built wirebenchd in the
// server namespace. A 9000-byte frame does not fit a 1500-byte link, so the engine does not run it.
#include "../lab/LabSession.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/CliTestSupport.h"

using namespace clitest;

class TestCliNotRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void nothingRunExitsOneWithTheReason();
    void oneNotRunIsNamed();
    void healthyPlanSaysNothingOfIt();
    void cleanupTestCase();

private:
    /// `run` against the lab's wirebenchd at these frame sizes, from the client namespace; `results`: the JSON's.
    Outcome runInLab(const QString &frames, QJsonArray *results);

    std::unique_ptr<wb::test::LabSession> m_lab;
    QTemporaryDir m_home;
};

void TestCliNotRun::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
    const QString missing = wb::test::LabSession::missingTool({QStringLiteral("ip"), QStringLiteral("tc")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing + QStringLiteral(" is missing: apt-get install iproute2")));
    m_lab = std::make_unique<wb::test::LabSession>(QStringLiteral(WB_SOURCE_DIR "/tests/lab/lab.sh"),
                                                   QStringLiteral("nr"));
    QString why;
    QVERIFY2(m_lab->up(1500, QStringLiteral("1gbit"), &why), qPrintable(why));
    bool ok = false;
    const QString served = m_lab->run({QStringLiteral("serve"), QStringLiteral("wirebenchd"), kDaemon}, &ok);
    QVERIFY2(ok, qPrintable(QStringLiteral("wirebenchd did not start in the lab: ") + served));
}

void TestCliNotRun::cleanupTestCase()
{
    m_lab.reset(); // lab.sh down: stops wirebenchd and removes the namespaces
}

Outcome TestCliNotRun::runInLab(const QString &frames, QJsonArray *results)
{
    const QString json = m_home.filePath(
        QStringLiteral("run-%1.json").arg(QString(frames).replace(QLatin1Char(','), QLatin1Char('-'))));
    QProcess p;
    p.setProcessEnvironment(sandboxEnvironment(m_home.path()));
    p.start(QStringLiteral("ip"),
            {QStringLiteral("netns"), QStringLiteral("exec"), QStringLiteral("wbl-cli-") + m_lab->id(), kCli,
             QStringLiteral("run"), QStringLiteral("--host"),
             QStringLiteral("lab=%1:5301").arg(wb::test::LabSession::serverAddress()), QStringLiteral("--frame"),
             frames, QStringLiteral("--reps"), QStringLiteral("1"), QStringLiteral("--duration"), QStringLiteral("0.5"),
             QStringLiteral("--json"), json});
    const Outcome o = outcomeOf(p, 120000);
    QFile f(json);
    if (f.open(QIODevice::ReadOnly))
        *results = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("results")).toArray();
    return o;
}

namespace {

/// The line of run `n` of the CLI's output.
QString lineOfRun(const QString &out, int n, int of)
{
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("run %1/%2 ").arg(n).arg(of)))
            return line;
    }
    return QString();
}

/// What the JSON says of a run that was not run, less the "not run: " that the line's status already says.
QString reasonOf(const QJsonObject &run)
{
    QString error = run.value(QStringLiteral("error")).toString();
    if (error.startsWith(QLatin1String("not run: ")))
        error = error.mid(9);
    return error;
}

} // namespace

void TestCliNotRun::nothingRunExitsOneWithTheReason()
{
    QJsonArray results;
    const Outcome o = runInLab(QStringLiteral("9000"), &results);
    QCOMPARE(results.size(), 1);
    const QJsonObject run = results.at(0).toObject();
    QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("not-run"));
    const QString reason = reasonOf(run);
    QVERIFY2(reason.contains(QLatin1String("9000")) && reason.contains(QLatin1String("1500")), qPrintable(reason));

    const QString line = lineOfRun(o.out, 1, 1);
    QVERIFY2(line.endsWith(QStringLiteral("NOT RUN: ") + reason), qPrintable(o.out));
    QCOMPARE(o.exitCode, 1);
    const QString err = o.err.trimmed();
    QCOMPARE(err,
             QStringLiteral("wirebench-cli: not one of the 1 runs succeeded (1 not run); first: run 1: not run: ")
                 + reason);
}

void TestCliNotRun::oneNotRunIsNamed()
{
    QJsonArray results;
    const Outcome o = runInLab(QStringLiteral("1500,9000"), &results);
    QCOMPARE(results.size(), 2);
    QCOMPARE(results.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    const QString reason = reasonOf(results.at(1).toObject());
    QVERIFY2(lineOfRun(o.out, 1, 2).contains(QLatin1String("MB/s"))
                 && !lineOfRun(o.out, 1, 2).contains(QLatin1String("NOT RUN")),
             qPrintable(o.out));
    QVERIFY2(lineOfRun(o.out, 2, 2).endsWith(QStringLiteral("NOT RUN: ") + reason), qPrintable(o.out));
    // The plan did not measure all it was asked to: not 0.
    QCOMPARE(o.exitCode, 1);
    QCOMPARE(o.err.trimmed(), QStringLiteral("wirebench-cli: run 2 was not run: ") + reason);
}

void TestCliNotRun::healthyPlanSaysNothingOfIt()
{
    QJsonArray results;
    const Outcome o = runInLab(QStringLiteral("1500"), &results);
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QCOMPARE(results.size(), 1);
    QVERIFY2(!o.out.contains(QLatin1String("NOT RUN")) && !o.out.contains(QLatin1String("not run")), qPrintable(o.out));
    QVERIFY2(o.err.isEmpty(), qPrintable(o.err));
}

QTEST_GUILESS_MAIN(TestCliNotRun)
#include "TestCliNotRun.moc"
