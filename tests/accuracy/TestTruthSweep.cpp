#include "../lab/FileServerLab.h"
#include "../lab/LabFileServers.h"
#include "../lab/LabBench.h"
#include "../lab/LabSession.h"
#include "../protocols/FileServerFixture.h"
#include "plan/TestPlan.h"
#include "support/EngineRun.h"
#include "plan/PlanFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace wb;

// The truth suite (issue 12): every sentence Wirebench says about a run is true, on lines other than the
// seeds' 1500/9000 at 1 Gbit/100 Mbit. The two-namespace lab (tests/lab/lab.sh) emulates an Ethernet line;
// the real wirebench-cli runs in the client namespace against the real wirebenchd, vsftpd and smbd in the
// server namespace, and its JSON is read back as a user's script would read it.
//
// Each plan holds the same server four times, as four hosts that differ only in the link speed the user
// set for them:
//   right    the shaper's rate: a healthy run, which gets no warning at all;
//   unknown  nothing set: both ends are veth, whose 10000 Mbit/s is made up, so no speed may be believed
//            (not even the far end's, reported through wirebenchd's hello) and nothing is compared;
//   high     10 times the shaper: the run is far below that ceiling, and is told so (a slower path);
//   low      a quarter of it: the run is above that ceiling, which cannot be, and is told so.
// Every label must name what was really used: the frame (the lab's MTU), the MSS (MTU - 52: IPv4 with TCP
// timestamps), and a ceiling computed for that MSS and the speed set. No sentence names a cable or duplex:
// a veth pair has neither, and counts no CRC or frame errors.
//
// The oracle is written here, not taken from core/analysis: an Ethernet line of R bit/s at MTU M carries
// R*(M-52)/(M+38)/8 bytes/s of TCP goodput (docs/FRAMES.md), which the lab's tbf shaper models.
class TestTruthSweep : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void tcpSentences_data();
    void tcpSentences();
    void fileTransferSentences_data();
    void fileTransferSentences();

private:
    struct HostKind
    {
        const char *name;
        double speedFactor; ///< of the shaper's rate; 0 = not set
    };
    QList<Host> hostsFor(double rateMbps, const QList<HostKind> &kinds, const QVariantMap &options) const;
    QJsonArray runCli(const TestPlan &plan, QString *output);
    void checkRun(const QJsonObject &run, double rateMbps, int mtu);
    static const QList<HostKind> &allKinds();

    test::FileServerLab m_rig;
    QTemporaryDir m_home;
    QString m_cli;
    int m_planNumber = 0;
};

namespace {

constexpr int kMtuOverheadBytes = 52; // IPv4 20 + TCP 20 + timestamps 12
constexpr int kEthernetBytes = 38;    // preamble 8, header 14, FCS 4, inter-frame gap 12

double theoryBytesPerSecond(double rateMbps, int mtu)
{
    return rateMbps * 1e6 * (mtu - kMtuOverheadBytes) / (mtu + kEthernetBytes) / 8;
}

QString fileName(const QString &kind, qint64 size)
{
    return QStringLiteral("truth-%1-%2.bin").arg(kind).arg(size);
}

qint64 fileSizeFor(double rateMbps)
{
    // About 2 s of the line, in whole MB (10^6 bytes).
    return qint64(qMax(2.0, rateMbps * 1e6 / 8 * 2 / 1e6)) * 1000 * 1000;
}

bool anyContains(const QStringList &lines, const QString &text)
{
    for (const QString &l : lines) {
        if (l.contains(text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

QStringList stringsOf(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
}

} // namespace

const QList<TestTruthSweep::HostKind> &TestTruthSweep::allKinds()
{
    static const QList<HostKind> kinds{{"right", 1.0}, {"unknown", 0.0}, {"high", 10.0}, {"low", 0.25}};
    return kinds;
}

void TestTruthSweep::initTestCase()
{
    WB_REQUIRE_LAB_ROOT();
    const QString daemon = test::LabBench::builtProgram(QStringLiteral("app/daemon/wirebenchd"));
    m_cli = test::LabBench::builtProgram(QStringLiteral("app/cli/wirebench-cli"));
    const QString missing
        = test::LabBench::missing({QStringLiteral("app/daemon/wirebenchd"), QStringLiteral("app/cli/wirebench-cli")});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY(m_home.isValid());

    QString why;
    WB_REQUIRE(m_rig.prepare(&why), QStringLiteral("file servers for the lab: ") + why);
    QVERIFY2(m_rig.up(QStringLiteral("ts"), QStringLiteral("1gbit"), &why), qPrintable(why));
    why = m_rig.serve({{QStringLiteral("wirebenchd"), daemon, QStringLiteral("--open")}});
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestTruthSweep::cleanupTestCase()
{
    m_rig.tearDown();
}

QList<Host> TestTruthSweep::hostsFor(double rateMbps, const QList<HostKind> &kinds, const QVariantMap &options) const
{
    QList<Host> hosts;
    for (const HostKind &kind : kinds) {
        Host h;
        h.name = QString::fromLatin1(kind.name);
        h.address = test::LabSession::serverAddress();
        h.port = 5301;
        h.linkSpeedMbps = rateMbps * kind.speedFactor;
        h.options = options;
        hosts << h;
    }
    return hosts;
}

QJsonArray TestTruthSweep::runCli(const TestPlan &plan, QString *output)
{
    const QString dir = m_home.path();
    const QString planPath = QStringLiteral("%1/plan-%2.wbplan.json").arg(dir).arg(++m_planNumber);
    const QString jsonPath = QStringLiteral("%1/result-%2.json").arg(dir).arg(m_planNumber);
    QString error;
    if (!PlanFile::write(planPath, test::withLabIdleLead(plan), &error)) {
        *output = error;
        return {};
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    // A sandboxed HOME: the default result store is the user's, not this machine's.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir);
    env.remove(QStringLiteral("XDG_DATA_HOME"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("ip"),
            {QStringLiteral("netns"), QStringLiteral("exec"), QStringLiteral("wbl-cli-") + m_rig.lab().id(), m_cli,
             QStringLiteral("run"), QStringLiteral("--plan"), planPath, QStringLiteral("--json"), jsonPath,
             QStringLiteral("--set"), QStringLiteral("ftp.password=") + m_rig.fixture().password(),
             QStringLiteral("--set"), QStringLiteral("smb.password=") + m_rig.fixture().password()});
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
    }
    *output = QString::fromUtf8(p.readAll());
    qInfo("%s", qPrintable(*output));
    QFile f(jsonPath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("results")).toArray();
}

void TestTruthSweep::checkRun(const QJsonObject &run, double rateMbps, int mtu)
{
    const QString host = run.value(QStringLiteral("host")).toString();
    const QString what = QStringLiteral("%1 to host '%2' at %3 Mbit/s MTU %4")
                             .arg(run.value(QStringLiteral("protocol")).toString(), host)
                             .arg(rateMbps)
                             .arg(mtu);
    QVERIFY2(run.value(QStringLiteral("status")).toString() == QLatin1String("ok"),
             qPrintable(what + QStringLiteral(": ") + run.value(QStringLiteral("error")).toString()));
    // The sweep judges the ceiling's sentences. The lab's shaper keeps a real interface's queue (1000 frames: 1.2 s
    // at 10 Mbit/s), which TCP fills: the bufferbloat warning (from 30 ms; 37 ms at 10 Mbit/s) is a true finding
    // about that queue, checked against the run's latency grade and then set aside (TestLatencyLab judges it).
    QStringList warnings = stringsOf(run.value(QStringLiteral("warnings")));
    const QJsonObject latency = run.value(QStringLiteral("latency")).toObject();
    for (qsizetype i = warnings.size() - 1; i >= 0; --i) {
        if (!warnings.at(i).startsWith(QStringLiteral("the queue on the path adds ")))
            continue;
        QCOMPARE(latency.value(QStringLiteral("grade")).toString(), QStringLiteral("warning"));
        QCOMPARE(warnings.at(i), latency.value(QStringLiteral("sentence")).toString());
        warnings.removeAt(i);
    }
    const QString sentence = run.value(QStringLiteral("bottleneck")).toString();
    const QString said = what + QStringLiteral(": warnings [") + warnings.join(QStringLiteral(" | "))
        + QStringLiteral("], sentence \"") + sentence + QLatin1Char('"');
    qInfo("%s", qPrintable(said));

    // The labels: the frame and MSS really used.
    QCOMPARE(run.value(QStringLiteral("frame_size")).toInt(), mtu);
    QCOMPARE(run.value(QStringLiteral("mss")).toInt(), mtu - kMtuOverheadBytes);
    // No cable, no duplex: a veth pair has neither.
    QVERIFY2(!anyContains(warnings + QStringList{sentence}, QStringLiteral("cable")), qPrintable(said));
    QVERIFY2(!anyContains(warnings + QStringList{sentence}, QStringLiteral("duplex")), qPrintable(said));

    const double mbps = run.value(QStringLiteral("throughput_MBps")).toDouble() * 1e6;
    const double theory = theoryBytesPerSecond(rateMbps, mtu);
    // Nothing gets through faster than the line (1% for the shaper's granularity).
    QVERIFY2(mbps <= 1.01 * theory,
             qPrintable(said + QStringLiteral(": above the line's theory of %1 MB/s").arg(theory / 1e6)));

    const QString source = run.value(QStringLiteral("link_speed_source")).toString();
    const double ceiling = run.value(QStringLiteral("ceiling_MBps")).toDouble() * 1e6;
    if (host == QLatin1String("unknown")) {
        QVERIFY2(warnings.isEmpty(), qPrintable(said));
        QCOMPARE(source, QStringLiteral("unknown"));
        QVERIFY2(!run.contains(QStringLiteral("ceiling_MBps")), qPrintable(said));
        QVERIFY2(sentence.contains(QStringLiteral("link speed unknown")), qPrintable(said));
        return;
    }
    const double factor = host == QLatin1String("right") ? 1.0 : host == QLatin1String("high") ? 10.0 : 0.25;
    QCOMPARE(source, QStringLiteral("override"));
    QCOMPARE(run.value(QStringLiteral("link_speed_Mbps")).toDouble(), rateMbps * factor);
    // The ceiling follows the MSS used and the speed set.
    QVERIFY2(qAbs(ceiling / theoryBytesPerSecond(rateMbps * factor, mtu) - 1) < 0.001,
             qPrintable(said + QStringLiteral(": ceiling %1 MB/s").arg(ceiling / 1e6)));
    if (host == QLatin1String("right")) {
        QVERIFY2(warnings.isEmpty(), qPrintable(said));
        return;
    }
    QCOMPARE(warnings.size(), 1);
    if (host == QLatin1String("high")) {
        QVERIFY2(warnings.first().contains(QStringLiteral("far below the line-rate ceiling")), qPrintable(said));
    } else {
        QVERIFY2(warnings.first().contains(QStringLiteral("above the line-rate ceiling")), qPrintable(said));
    }
}

void TestTruthSweep::tcpSentences_data()
{
    QTest::addColumn<double>("rateMbps");
    QTest::addColumn<int>("mtu");
    QTest::addColumn<int>("durationMs");
    QTest::newRow("2.5 Gbit/s MTU 1500, 2 s") << 2500.0 << 1500 << 2000;
    QTest::newRow("500 Mbit/s MTU 2000, 2 s") << 500.0 << 2000 << 2000;
    QTest::newRow("100 Mbit/s MTU 7000, 4 s") << 100.0 << 7000 << 4000;
    QTest::newRow("10 Mbit/s MTU 1500, 1 s") << 10.0 << 1500 << 1000;
}

void TestTruthSweep::tcpSentences()
{
    QFETCH(double, rateMbps);
    QFETCH(int, mtu);
    QFETCH(int, durationMs);
    QString why;
    QVERIFY2(m_rig.lab().setLine(mtu, QString::number(qint64(rateMbps)) + QStringLiteral("mbit"), &why),
             qPrintable(why));
    TestPlan plan;
    plan.hosts = hostsFor(rateMbps, allKinds(), {});
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    plan.frameSizes = {mtu};
    plan.repetitions = 1;
    plan.params.durationMs = durationMs;
    QString output;
    const QJsonArray runs = runCli(plan, &output);
    QCOMPARE(runs.size(), plan.runCount());
    for (const QJsonValue &run : runs)
        checkRun(run.toObject(), rateMbps, mtu);
    QVERIFY2(!output.contains(QStringLiteral("cable"), Qt::CaseInsensitive), qPrintable(output));
}

void TestTruthSweep::fileTransferSentences_data()
{
    QTest::addColumn<double>("rateMbps");
    QTest::addColumn<int>("mtu");
    QTest::newRow("500 Mbit/s MTU 2000") << 500.0 << 2000;
    QTest::newRow("100 Mbit/s MTU 7000") << 100.0 << 7000;
}

void TestTruthSweep::fileTransferSentences()
{
    QFETCH(double, rateMbps);
    QFETCH(int, mtu);
    QString why;
    QVERIFY2(m_rig.lab().setLine(mtu, QString::number(qint64(rateMbps)) + QStringLiteral("mbit"), &why),
             qPrintable(why));
    const qint64 size = fileSizeFor(rateMbps);
    // Reads use files made here of the exact size (no seed file goes through the shaped line).
    QVERIFY2(m_rig.makeReadFiles({size}, fileName, &why), qPrintable(why));
    QVariantMap options{{QStringLiteral("ftp.user"), m_rig.fixture().user()},
                        {QStringLiteral("ftp.port"), 21},
                        {QStringLiteral("smb.share"), test::LabFileServers::share()},
                        {QStringLiteral("smb.user"), m_rig.fixture().user()},
                        {QStringLiteral("smb.domain"), test::LabFileServers::workgroup()},
                        {QStringLiteral("smb.port"), 445}};
    const QList<HostKind> kinds{allKinds().at(0), allKinds().at(3)}; // right and low; the rest is TCP's
    QJsonArray runs;
    QString output;
    // GET/read and PUT/write name different files: one plan per direction.
    for (const bool reading : {true, false}) {
        QVariantMap o = options;
        o.insert(QStringLiteral("ftp.path"), fileName(reading ? QStringLiteral("get") : QStringLiteral("put"), size));
        o.insert(QStringLiteral("smb.path"),
                 fileName(reading ? QStringLiteral("read") : QStringLiteral("write"), size));
        const TestPlan plan = test::LabFileServers::memoryPlan(
            hostsFor(rateMbps, kinds, o),
            reading ? QStringList{QStringLiteral("ftp-get"), QStringLiteral("smb-read")}
                    : QStringList{QStringLiteral("ftp-put"), QStringLiteral("smb-write")},
            mtu, size);
        const QJsonArray got = runCli(plan, &output);
        QCOMPARE(got.size(), plan.runCount());
        for (const QJsonValue &run : got)
            runs.append(run);
    }
    for (const QJsonValue &run : runs) {
        QCOMPARE(qint64(run.toObject().value(QStringLiteral("bytes")).toDouble()), size);
        checkRun(run.toObject(), rateMbps, mtu);
    }
}

QTEST_GUILESS_MAIN(TestTruthSweep)
#include "TestTruthSweep.moc"
