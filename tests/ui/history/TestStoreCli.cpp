// The built wirebench-cli against a store in a temporary folder: sessions, show (text and --json), report (HTML +
// PDF) and the import of a file the real iperf3 wrote against a server on 127.0.0.1 that this test starts.
#include "HistoryTestData.h"
#include "support/CiRule.h"
#include "support/FreePort.h"
#include "support/PostgresServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestStoreCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sessionsTable();
    void showText();
    void showJson();
    void unknownSession();
    void report();
    void importRealIperf3();
    void badStoreFile();
    void sessionsPage();
    void serverStore();
    void serverThatCannotBeReached();

private:
    Result cli(const QStringList &args);

    QTemporaryDir m_dir;
    QString m_storePath;
    qint64 m_a = 0;
    qint64 m_b = 0;
    QString m_uuidA;
};

Result TestStoreCli::cli(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(WIREBENCH_CLI), args);
    Result r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("wirebench-cli did not finish within 120 s");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestStoreCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_storePath = m_dir.filePath(QStringLiteral("results.sqlite"));
    ResultStore store;
    QString error;
    QVERIFY2(store.open(m_storePath, &error), qPrintable(error));
    const QDateTime t0(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC);
    m_a = histtest::addSession(store, histtest::plan({histtest::linuxHost(), histtest::windowsHost()}, {1500, 9000}),
                               t0);
    m_b = histtest::addSession(store, histtest::plan({histtest::linuxHost()}, {9000}, 2), t0.addDays(1),
                               SessionState::Cancelled);
    QVERIFY(m_a > 0 && m_b > 0);
    SessionInfo info;
    QVERIFY(store.session(m_a, &info));
    m_uuidA = info.uuid;
}

void TestStoreCli::sessionsTable()
{
    const Result r = cli({QStringLiteral("sessions"), QStringLiteral("--store"), m_storePath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3); // header + 2 sessions, newest first
    QVERIFY(lines.at(0).contains(QStringLiteral("STATE")));
    QVERIFY(lines.at(1).trimmed().startsWith(QString::number(m_b)));
    QVERIFY(lines.at(1).contains(QStringLiteral("cancelled")));
    QVERIFY(lines.at(1).contains(QStringLiteral("4/4")));
    QVERIFY(lines.at(2).contains(QStringLiteral("finished")));
    QVERIFY(lines.at(2).contains(QStringLiteral("24/24")));
    QVERIFY(lines.at(2).contains(QStringLiteral("1500,9000")));
    QVERIFY(lines.at(2).contains(QStringLiteral("win-fs (Windows Server 2003)")));
    QVERIFY(lines.at(2).contains(m_uuidA.left(8)));
    QVERIFY(lines.at(0).contains(QStringLiteral("COMPUTER")));
    QVERIFY2(lines.at(2).contains(QStringLiteral("  %1 ").arg(QSysInfo::machineHostName())), qPrintable(lines.at(2)));
}

void TestStoreCli::showText()
{
    const Result r = cli({QStringLiteral("show"), QString::number(m_a), QStringLiteral("--store=") + m_storePath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(
        r.out.contains(QStringLiteral("linux-fs (Linux)  tcp-send  frame 1500 B  rep 1  101.0 MB/s  808.0 Mbit/s")));
    QVERIFY2(r.out.contains(
                 QStringLiteral("linux-fs  tcp-send @ 1500 B  n=3  min 101.0  median 102.0  mean 102.0  max 103.0")),
             qPrintable(r.out));
}

void TestStoreCli::showJson()
{
    // By uuid prefix and by `latest`. (An all-digit prefix is first taken as an id by ResultStore::findSession and,
    // at the time of writing, not found as a uuid prefix: use a prefix with a letter or the dash.)
    QString prefix = m_uuidA.left(8);
    for (int n = 8; n < m_uuidA.size() && !prefix.contains(QRegularExpression(QStringLiteral("[a-f-]"))); ++n)
        prefix = m_uuidA.left(n + 1);
    const Result r
        = cli({QStringLiteral("show"), prefix, QStringLiteral("--json"), QStringLiteral("--store"), m_storePath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    QVERIFY2(!doc.isNull(), qPrintable(error.errorString()));
    const QJsonObject root = doc.object();
    const QJsonArray results = root.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 24);
    const QJsonObject first = results.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("host")).toString(), QStringLiteral("linux-fs"));
    QCOMPARE(first.value(QStringLiteral("protocol")).toString(), QStringLiteral("tcp-send"));
    QCOMPARE(first.value(QStringLiteral("frame_size")).toInt(), 1500);
    QCOMPARE(first.value(QStringLiteral("throughput_MBps")).toDouble(), 101.0);
    QCOMPARE(first.value(QStringLiteral("throughput_Mbps")).toDouble(), 808.0);
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(root.value(QStringLiteral("summary")).toArray().size(), 8);
    QCOMPARE(root.value(QStringLiteral("session")).toObject().value(QStringLiteral("uuid")).toString(), m_uuidA);

    const Result latest = cli({QStringLiteral("show"), QStringLiteral("latest"), QStringLiteral("--json"),
                               QStringLiteral("--samples"), QStringLiteral("--store"), m_storePath});
    QVERIFY2(latest.exitCode == 0, qPrintable(latest.err));
    const QJsonObject l = QJsonDocument::fromJson(latest.out.toUtf8()).object();
    QCOMPARE(l.value(QStringLiteral("session")).toObject().value(QStringLiteral("id")).toInteger(), m_b);
    QCOMPARE(l.value(QStringLiteral("results")).toArray().size(), 4);
    QCOMPARE(
        l.value(QStringLiteral("results")).toArray().at(0).toObject().value(QStringLiteral("samples")).toArray().size(),
        10);
}

void TestStoreCli::unknownSession()
{
    const Result r = cli({QStringLiteral("show"), QStringLiteral("ffffffff"), QStringLiteral("--store"), m_storePath});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("\"ffffffff\"")) && r.err.contains(QStringLiteral("wirebench-cli sessions")),
             qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
    const Result usage = cli({QStringLiteral("show"), QStringLiteral("--store"), m_storePath});
    QCOMPARE(usage.exitCode, 2);
    const Result bad
        = cli({QStringLiteral("sessions"), QStringLiteral("--bogus"), QStringLiteral("--store"), m_storePath});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains(QStringLiteral("unknown option --bogus")));
}

void TestStoreCli::report()
{
    const QString html = m_dir.filePath(QStringLiteral("r.html"));
    const QString pdf = m_dir.filePath(QStringLiteral("r.pdf"));
    const Result r = cli({QStringLiteral("report"), QString::number(m_a), QStringLiteral("--html"), html,
                          QStringLiteral("--pdf"), pdf, QStringLiteral("--store"), m_storePath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile file(html);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("data:image/png;base64,"));
    QVERIFY(text.contains("win-fs"));
    QVERIFY(text.contains("MB/s"));
    if (QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty())
        QFAIL("pdfinfo (poppler-utils) is missing: apt-get install poppler-utils");
    QProcess info;
    info.start(QStringLiteral("pdfinfo"), {pdf});
    QVERIFY(info.waitForFinished(60000));
    const auto m
        = QRegularExpression(QStringLiteral("Pages:\\s*(\\d+)")).match(QString::fromUtf8(info.readAllStandardOutput()));
    QVERIFY(m.hasMatch());
    QVERIFY(m.captured(1).toInt() >= 1);

    const Result none = cli({QStringLiteral("report"), QString::number(m_a), QStringLiteral("--store"), m_storePath});
    QCOMPARE(none.exitCode, 2);
    QVERIFY(none.err.contains(QStringLiteral("--html FILE, --pdf FILE or both")));
}

void TestStoreCli::importRealIperf3()
{
    const QString iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
    WB_REQUIRE(!iperf3.isEmpty(), QStringLiteral("iperf3 is not installed: apt-get install iperf3"));
    const quint16 port = test::freeLoopbackPort();
    QVERIFY(port != 0);
    QProcess server;
    server.start(iperf3,
                 {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-B"), QStringLiteral("127.0.0.1"),
                  QStringLiteral("-p"), QString::number(port)});
    WB_REQUIRE(server.waitForStarted(10000), QStringLiteral("iperf3 -s could not be started"));
    // Wait until it listens. (A probe connection would count as its one client under -1, so look at /proc/net/tcp.)
    const QString hexPort = QStringLiteral(":%1 ").arg(port, 4, 16, QLatin1Char('0')).toUpper();
    auto listening = [&] {
        QFile tcp(QStringLiteral("/proc/net/tcp"));
        if (!tcp.open(QIODevice::ReadOnly))
            return false;
        const QStringList lines = QString::fromLatin1(tcp.readAll()).split(QLatin1Char('\n'));
        for (const QString &line : lines) {
            const QStringList f = line.simplified().split(QLatin1Char(' '));
            if (f.size() > 3 && f.at(1).endsWith(hexPort.trimmed()) && f.at(3) == QLatin1String("0A"))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(listening(), 15000);

    QProcess client;
    client.start(iperf3,
                 {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(port),
                  QStringLiteral("-t"), QStringLiteral("1"), QStringLiteral("-J")});
    QVERIFY(client.waitForFinished(60000));
    const QByteArray json = client.readAllStandardOutput();
    QVERIFY2(client.exitCode() == 0, json.left(400).constData());
    server.waitForFinished(15000);
    const QString file = m_dir.filePath(QStringLiteral("iperf3-real.json"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
    }
    const QJsonObject received = QJsonDocument::fromJson(json)
                                     .object()
                                     .value(QStringLiteral("end"))
                                     .toObject()
                                     .value(QStringLiteral("sum_received"))
                                     .toObject();
    const double iperfMbps = received.value(QStringLiteral("bits_per_second")).toDouble() / 1e6;
    QVERIFY(iperfMbps > 0);

    const Result r = cli({QStringLiteral("import"), QStringLiteral("iperf3"), file, QStringLiteral("--name"),
                          QStringLiteral("loopback-iperf3"), QStringLiteral("--os"), QStringLiteral("Linux"),
                          QStringLiteral("--store"), m_storePath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.startsWith(QStringLiteral("Imported 1 run(s) (1 ok)")));
    // The session by the id the import names: it starts when iperf3's run did (whole seconds), which may be before
    // the sessions this test made in the same second, so it need not be the `latest`.
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral(" as session (\\d+) ")).match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(r.out));
    const Result show = cli(
        {QStringLiteral("show"), m.captured(1), QStringLiteral("--json"), QStringLiteral("--store"), m_storePath});
    QVERIFY2(show.exitCode == 0, qPrintable(show.err));
    const QJsonObject root = QJsonDocument::fromJson(show.out.toUtf8()).object();
    const QJsonArray results = root.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 1);
    const QJsonObject run = results.at(0).toObject();
    QCOMPARE(run.value(QStringLiteral("protocol")).toString(), QStringLiteral("iperf3-send"));
    QCOMPARE(run.value(QStringLiteral("host")).toString(), QStringLiteral("loopback-iperf3"));
    QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    // The same figure as iperf3's receiver (bytes over seconds), within rounding of the export.
    const double ours = run.value(QStringLiteral("throughput_Mbps")).toDouble();
    QVERIFY2(qAbs(ours - iperfMbps) / iperfMbps < 1e-3,
             qPrintable(QStringLiteral("%1 vs %2").arg(ours).arg(iperfMbps)));
    QVERIFY(root.value(QStringLiteral("session"))
                .toObject()
                .value(QStringLiteral("title"))
                .toString()
                .contains(QStringLiteral("iperf3-real.json")));
    qInfo("iperf3 on loopback: %.1f Mbit/s (iperf3 receiver), imported as %.1f Mbit/s", iperfMbps, ours);

    // A file that is not iperf3 output: a one-line reason, nothing stored.
    const QString junk = m_dir.filePath(QStringLiteral("junk.json"));
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"hello\": 1}");
    }
    const Result bad
        = cli({QStringLiteral("import"), QStringLiteral("iperf3"), junk, QStringLiteral("--store"), m_storePath});
    QCOMPARE(bad.exitCode, 1);
    QCOMPARE(bad.err.count(QLatin1Char('\n')), 1);
}

void TestStoreCli::badStoreFile()
{
    const QString garbage = m_dir.filePath(QStringLiteral("garbage.sqlite"));
    {
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
    }
    const Result r = cli({QStringLiteral("sessions"), QStringLiteral("--store"), garbage});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains(QStringLiteral("garbage.sqlite")));
    QFile f(garbage);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray(4096, 'x')); // untouched
}

// `sessions` lists the newest 50 and says how many there are; --limit N and --limit 0 list more. Last: it adds
// 53 sessions to the store the other cases read.
void TestStoreCli::sessionsPage()
{
    qsizetype total = 0;
    {
        ResultStore store;
        QString error;
        QVERIFY2(store.open(m_storePath, &error), qPrintable(error));
        const QDateTime t0(QDate(2026, 4, 1), QTime(9, 0), Qt::UTC);
        for (int i = 0; i < 53; ++i)
            QVERIFY(histtest::addSession(store, histtest::plan({histtest::linuxHost()}, {1500}, 1), t0) > 0);
        total = store.sessions().size(); // the earlier cases' sessions and these 53
    }
    QVERIFY(total >= 55);
    const QString countLine = QStringLiteral("The newest %1 of %2 sessions; --limit N shows more, --limit 0 all.");
    const Result page = cli({QStringLiteral("sessions"), QStringLiteral("--store"), m_storePath});
    QVERIFY2(page.exitCode == 0, qPrintable(page.err));
    QStringList lines = page.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 50 + 1); // header, 50 sessions, the count
    QCOMPARE(lines.last(), countLine.arg(50).arg(total));
    QVERIFY(!lines.at(50).contains(QString::number(m_a).rightJustified(5) + QLatin1Char(' ')));
    const Result all = cli({QStringLiteral("sessions"), QStringLiteral("--limit"), QStringLiteral("0"),
                            QStringLiteral("--store"), m_storePath});
    QVERIFY2(all.exitCode == 0, qPrintable(all.err));
    lines = all.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + total); // no count line when all are listed
    // The oldest of them: m_a, or the iperf3 import when its run began in the same second (its start is iperf3's,
    // in whole seconds).
    QVERIFY2(lines.last().trimmed().startsWith(QString::number(m_a) + QLatin1Char(' '))
                 || lines.last().contains(QStringLiteral("iperf3 import")),
             qPrintable(lines.last()));
    const Result ten = cli({QStringLiteral("sessions"), QStringLiteral("--limit"), QStringLiteral("10"),
                            QStringLiteral("--store"), m_storePath});
    QCOMPARE(ten.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).last(), countLine.arg(10).arg(total));
}

// Every store command against a team's store on a PostgreSQL server that this test starts on 127.0.0.1.
void TestStoreCli::serverStore()
{
    test::PostgresServer server;
    QString why;
    const bool started = server.start(&why);
    WB_REQUIRE(started, QStringLiteral("no PostgreSQL: %1").arg(why));
    const QString url = server.createDatabase(&why);
    QVERIFY2(!url.isEmpty(), qPrintable(why));
    qint64 id = 0;
    {
        ResultStore store;
        QString error;
        QVERIFY2(store.open(url, &error), qPrintable(error));
        id = histtest::addSession(store, histtest::plan({histtest::linuxHost(), histtest::windowsHost()}, {1500, 9000}),
                                  QDateTime(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC));
        QVERIFY(id > 0);
    }
    Result r = cli({QStringLiteral("sessions"), QStringLiteral("--store"), url});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines.at(1).contains(QStringLiteral("24/24")) && lines.at(1).contains(QSysInfo::machineHostName()),
             qPrintable(lines.at(1)));
    r = cli({QStringLiteral("show"), QStringLiteral("latest"), QStringLiteral("--store=") + url});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("on the computer %1").arg(QSysInfo::machineHostName())), qPrintable(r.out));
    QVERIFY(
        r.out.contains(QStringLiteral("linux-fs (Linux)  tcp-send  frame 1500 B  rep 1  101.0 MB/s  808.0 Mbit/s")));
    r = cli({QStringLiteral("show"), QString::number(id), QStringLiteral("--json"), QStringLiteral("--store"), url});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("results")).toArray().size(), 24);
    const QString html = m_dir.filePath(QStringLiteral("server.html"));
    r = cli({QStringLiteral("report"), QString::number(id), QStringLiteral("--html"), html, QStringLiteral("--store"),
             url});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(html));
    const QString iperf3 = QStringLiteral(WIREBENCH_SOURCE_DIR "/tests/data/iperf3-3.12-send.json");
    r = cli({QStringLiteral("import"), QStringLiteral("iperf3"), iperf3, QStringLiteral("--store"), url});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    r = cli({QStringLiteral("sessions"), QStringLiteral("--store"), url});
    QCOMPARE(r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 3);
}

// What each command says when the server is not there: which one, what failed, what to try; exit status 1.
void TestStoreCli::serverThatCannotBeReached()
{
    const quint16 port = test::freeLoopbackPort();
    const QString url = QStringLiteral("postgresql://bench@127.0.0.1:%1/wirebench").arg(port);
    for (const QStringList &command :
         {QStringList{QStringLiteral("sessions")}, QStringList{QStringLiteral("show"), QStringLiteral("latest")}}) {
        const Result r = cli(command + QStringList{QStringLiteral("--store"), url});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.startsWith(QStringLiteral("wirebench-cli: Result store %1: cannot connect to 127.0.0.1 port %2 (")
                                 .arg(url)
                                 .arg(port)),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("check the server's name and port")), qPrintable(r.err));
    }
    const Result r = cli({QStringLiteral("sessions"), QStringLiteral("--store"),
                          QStringLiteral("postgresql://bench:hunter2@127.0.0.1/wirebench")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("PGPASSWORD or ~/.pgpass")) && !r.err.contains(QStringLiteral("hunter2")),
             qPrintable(r.err));
}

QTEST_MAIN(TestStoreCli)
#include "TestStoreCli.moc"
