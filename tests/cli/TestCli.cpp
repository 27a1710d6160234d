// Runs the built wirebench-cli as a user would; the end-to-end cases start a real wirebenchd on 127.0.0.1.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QSysInfo>
#include <QTest>

#include <csignal>

#include "support/CliTestSupport.h"

using namespace clitest;

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void help();
    void version();
    void protocols();
    void usageErrors_data();
    void usageErrors();
    void refusedPort();
    void realRun();
    void findingsAtTwoFrames();
    void parallelStreams();
    void bothWaysAtOnce();
    void headerSaysEachKindsLength_data();
    void headerSaysEachKindsLength();
    void chart_data();
    void chart();
    void interrupt();
    void runMapsNoGuiLibrary();
    void chartHelperMissingIsSaid();
    void sessionsShowRunsOfThePlan_data();
    void sessionsShowRunsOfThePlan();
    void cleanupTestCase();

private:
    Daemon m_daemon;
};

void TestCli::initTestCase()
{
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
}

void TestCli::help()
{
    const Outcome o = runCli({QStringLiteral("--help")});
    QCOMPARE(o.exitCode, 0);
    for (const char *text :
         {"Usage:", "wirebench-cli run", "--host", "--protocol", "--frame", "--reps", "--duration", "--message-size",
          "--json", "--csv", "--chart", "--unit", "MB/s = 10^6 bytes/s", "--plan FILE", "--save-plan FILE"})
        QVERIFY2(o.out.contains(QLatin1String(text)), text);
}

void TestCli::version()
{
    const Outcome o = runCli({QStringLiteral("--version")});
    QCOMPARE(o.exitCode, 0);
    QCOMPARE(o.out.trimmed(), QStringLiteral("wirebench-cli " WIREBENCH_VERSION));
}

void TestCli::protocols()
{
    const Outcome o = runCli({QStringLiteral("protocols")});
    QCOMPARE(o.exitCode, 0);
    QVERIFY2(o.out.contains(QStringLiteral("tcp-send")) && o.out.contains(QStringLiteral("tcp-recv")),
             qPrintable(o.out));
    QVERIFY2(o.out.contains(QStringLiteral("latency.idle_ms")), qPrintable(o.out)); // every --set key is listed
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no command") << QStringList{} << "no command";
    QTest::newRow("no host") << QStringList{"run"} << "--host";
    QTest::newRow("unknown option") << QStringList{"run", "--host", "127.0.0.1", "--bogus"} << "bogus";
    QTest::newRow("bad protocol") << QStringList{"run", "--host", "127.0.0.1", "--protocol", "udp"} << "udp";
    QTest::newRow("bad frame") << QStringList{"run", "--host", "127.0.0.1", "--frame", "15OO"} << "--frame";
    QTest::newRow("bad reps") << QStringList{"run", "--host", "127.0.0.1", "--reps", "-1"} << "--reps";
    QTest::newRow("bad port") << QStringList{"run", "--host", "127.0.0.1:65536"} << "port";
    QTest::newRow("bad v6") << QStringList{"run", "--host", "[::1"} << "]";
    QTest::newRow("bad unit") << QStringList{"run", "--host", "127.0.0.1", "--unit", "bps"} << "--unit";
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, reason);
    const Outcome o = runCli(args);
    QCOMPARE(o.exitCode, 2);
    const QString err = o.err.trimmed();
    QVERIFY2(err.contains(reason), qPrintable(err));
    QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err)); // one line
    QVERIFY(o.out.isEmpty());                                    // nothing was run
}

void TestCli::refusedPort()
{
    // Port 1 on loopback: nothing listens there, the connection is refused at once (the run itself meets it:
    // without --skip-check the check before the first run finds it, TestCliPreflight).
    const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:1"),
                              QStringLiteral("--reps"), QStringLiteral("1"), QStringLiteral("--duration"),
                              QStringLiteral("1"), QStringLiteral("--skip-check")});
    QVERIFY2(o.exitCode != 0 && o.exitCode != 2, qPrintable(QString::number(o.exitCode)));
    const QString err = o.err.trimmed();
    QVERIFY2(!err.isEmpty() && !err.contains(QLatin1Char('\n')), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("127.0.0.1:1")), qPrintable(err));
    QVERIFY2(o.out.contains(QStringLiteral("FAILED")), qPrintable(o.out));
}

void TestCli::realRun()
{
    CLITEST_START_DAEMON(m_daemon);
    const quint16 port = m_daemon.port();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString json = dir.filePath(QStringLiteral("run.json"));
    const QString csv = dir.filePath(QStringLiteral("run.csv"));
    const QString host = QStringLiteral("127.0.0.1:%1").arg(port);
    const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--host"), host, QStringLiteral("--protocol"),
                              QStringLiteral("tcp-send,tcp-recv"), QStringLiteral("--frame"), QStringLiteral("1500"),
                              QStringLiteral("--reps"), QStringLiteral("1"), QStringLiteral("--duration"),
                              QStringLiteral("1"), QStringLiteral("--json"), json, QStringLiteral("--csv"), csv});
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QVERIFY2(o.out.contains(QStringLiteral("run 1/2")) && o.out.contains(QStringLiteral("run 2/2")), qPrintable(o.out));
    QVERIFY(o.out.contains(QStringLiteral("MB/s")) && o.out.contains(QStringLiteral("Mbit/s")));
    QVERIFY(o.out.contains(QStringLiteral("Summary")));
    QVERIFY2(o.out.contains(QStringLiteral(
                 "repetitions); tcp-send, tcp-recv: 1 s each; about 6 s of measuring (2 s of idle round trips "
                 "before each run included)\n")),
             qPrintable(o.out));
    // Each run's round trips to wirebenchd's echo, and the test's over its runs (loopback: no bufferbloat sentence).
    const QRegularExpression runLatency(
        QStringLiteral("\n    latency under load [+-][0-9.]+ ms over the idle [0-9.]+ ms "
                       "\\(loaded: median [0-9.]+ ms, p90 [0-9.]+ ms, p99 [0-9.]+ ms, max "
                       "[0-9.]+ ms; idle: median .* udp-echo to 127.0.0.1 UDP port %1\\)\n")
            .arg(port));
    QCOMPARE(o.out.count(runLatency), 2);
    QVERIFY2(
        o.out.contains(QStringLiteral("\nLatency under load per test (round trips to the host before and during the "
                                      "load):\n")),
        qPrintable(o.out));
    QCOMPARE(o.out.count(QRegularExpression(
                 QStringLiteral(": latency under load [+-][0-9.]+ ms over the idle [0-9.]+ ms "
                                "\\(loaded [0-9.]+ ms; one run\\)(; the queue on the path adds [0-9.]+ ms at "
                                "full load; under 5 ms is good)?\n"))),
             2);
    // Loopback on a busy machine may queue a few ms: whatever it measured, the words follow the figure's grade (a
    // note line under 30 ms, a warning from 30 ms; nothing under 5 ms).

    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray results = root.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 2);
    QStringList protocols;
    for (const QJsonValue &v : results) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(r.value(QStringLiteral("address")).toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(r.value(QStringLiteral("port")).toInt(), int(port));
        QCOMPARE(r.value(QStringLiteral("frame_size")).toInt(), 1500);
        const double bytes = r.value(QStringLiteral("bytes")).toDouble();
        const double seconds = r.value(QStringLiteral("seconds")).toDouble();
        QVERIFY2(bytes > 0, "the receiver counted bytes");
        QVERIFY2(seconds > 0.5 && seconds < 30, qPrintable(QString::number(seconds)));
        QVERIFY(qAbs(r.value(QStringLiteral("throughput_MBps")).toDouble() - bytes / seconds / 1e6) < 1e-6);
        QVERIFY(qAbs(r.value(QStringLiteral("throughput_Mbps")).toDouble() - bytes * 8 / seconds / 1e6) < 1e-6);
        QVERIFY2(r.value(QStringLiteral("mss")).toInt() > 0, "the MSS in use was recorded");
        QVERIFY(!r.value(QStringLiteral("os")).toString().isEmpty()); // from wirebenchd's hello
        const QJsonObject latency = r.value(QStringLiteral("latency")).toObject();
        QCOMPARE(latency.value(QStringLiteral("method")).toString(), QStringLiteral("udp-echo"));
        QVERIFY(latency.value(QStringLiteral("idle")).toObject().value(QStringLiteral("count")).toInt() > 0);
        QVERIFY(latency.value(QStringLiteral("loaded")).toObject().value(QStringLiteral("median_ms")).toDouble() > 0);
        QVERIFY(latency.contains(QStringLiteral("increase_ms")));
        const QString grade = latency.value(QStringLiteral("grade")).toString();
        const QString sentence = latency.value(QStringLiteral("sentence")).toString();
        if (grade == QLatin1String("good"))
            QVERIFY2(sentence.isEmpty(), qPrintable(sentence));
        else if (grade == QLatin1String("note"))
            QVERIFY2(o.out.contains(QStringLiteral("\n    note: ") + sentence + QLatin1Char('\n')), qPrintable(o.out));
        else
            QVERIFY2(grade == QLatin1String("warning") && o.out.contains(QStringLiteral("\n    warning: ") + sentence),
                     qPrintable(grade + QLatin1Char(' ') + o.out));
        protocols << r.value(QStringLiteral("protocol")).toString();
    }
    QCOMPARE(protocols, QStringList({QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    const QJsonArray summary = root.value(QStringLiteral("summary")).toArray();
    QCOMPARE(summary.size(), 2);
    QCOMPARE(summary.at(0).toObject().value(QStringLiteral("ok_runs")).toInt(), 1);
    const QJsonObject testLatency = summary.at(0).toObject().value(QStringLiteral("latency")).toObject();
    QCOMPARE(testLatency.value(QStringLiteral("runs")).toInt(), 1);
    QVERIFY(testLatency.value(QStringLiteral("loaded_median_ms")).toDouble() > 0);
    QVERIFY2(testLatency.value(QStringLiteral("text")).toString().startsWith(QStringLiteral("latency under load ")),
             qPrintable(testLatency.value(QStringLiteral("text")).toString()));
    QVERIFY(summary.at(0).toObject().value(QStringLiteral("median")).toDouble() > 0);
    QVERIFY(root.value(QStringLiteral("meta"))
                .toObject()
                .value(QStringLiteral("unit_note"))
                .toString()
                .contains(QStringLiteral("10^6 bytes/s")));

    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csvFile.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines.first().contains(QStringLiteral("throughput_MBps,throughput_Mbps")));
}

void TestCli::parallelStreams()
{
    // --streams 4 against the real wirebenchd: the run line says so, the JSON keeps each stream's bytes.
    CLITEST_START_DAEMON(m_daemon);
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("streams.json"));
    const Outcome o
        = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:%1").arg(m_daemon.port()),
                  QStringLiteral("--protocol"), QStringLiteral("tcp-send,tcp-recv"), QStringLiteral("--reps"),
                  QStringLiteral("1"), QStringLiteral("--duration"), QStringLiteral("0.5"), QStringLiteral("--streams"),
                  QStringLiteral("4"), QStringLiteral("--json"), json});
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QCOMPARE(o.out.count(QStringLiteral(", 4 streams  rep 1/1  ")), 2);
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray results
        = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 2);
    for (const QJsonValue &v : results) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r.value(QStringLiteral("streams")).toInt(), 4);
        const QJsonArray perStream = r.value(QStringLiteral("stream_bytes")).toArray();
        QCOMPARE(perStream.size(), 4);
        double sum = 0;
        for (const QJsonValue &b : perStream)
            sum += b.toDouble();
        QCOMPARE(sum, r.value(QStringLiteral("bytes")).toDouble());
    }
}

void TestCli::bothWaysAtOnce()
{
    // tcp-bidir against the real wirebenchd: the run line gives both figures, the summary a row for each, the JSON
    // the second figure under "reverse".
    CLITEST_START_DAEMON(m_daemon);
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("bidir.json"));
    const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--host"),
                              QStringLiteral("127.0.0.1:%1").arg(m_daemon.port()), QStringLiteral("--protocol"),
                              QStringLiteral("tcp-bidir"), QStringLiteral("--reps"), QStringLiteral("1"),
                              QStringLiteral("--duration"), QStringLiteral("0.5"), QStringLiteral("--json"), json});
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const QRegularExpression line(
        QStringLiteral("tcp-bidir  frame 1500 .* rep 1/1  send [0-9.]+ MB/s  [0-9.]+ Mbit/s  \\(.* in "
                       "[0-9.]+ s\\)  receive [0-9.]+ MB/s  [0-9.]+ Mbit/s  \\(.* in [0-9.]+ s\\)"));
    QVERIFY2(line.match(o.out).hasMatch(), qPrintable(o.out));
    QVERIFY2(o.out.contains(QStringLiteral("tcp-bidir send @ 1500"))
                 && o.out.contains(QStringLiteral("tcp-bidir receive @ 1500")),
             qPrintable(o.out));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject r = QJsonDocument::fromJson(file.readAll())
                              .object()
                              .value(QStringLiteral("results"))
                              .toArray()
                              .first()
                              .toObject();
    QVERIFY(r.value(QStringLiteral("bytes")).toDouble() > 0);
    QVERIFY(r.value(QStringLiteral("reverse")).toObject().value(QStringLiteral("bytes")).toDouble() > 0);
}

void TestCli::findingsAtTwoFrames()
{
    // One test at two frame sizes: the run ends with what the two prove together (SessionFindings).
    CLITEST_START_DAEMON(m_daemon);
    const Outcome o
        = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:%1").arg(m_daemon.port()),
                  QStringLiteral("--protocol"), QStringLiteral("tcp-send"), QStringLiteral("--frame"),
                  QStringLiteral("1500,9000"), QStringLiteral("--reps"), QStringLiteral("2"),
                  QStringLiteral("--duration"), QStringLiteral("0.5")});
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const qsizetype at
        = o.out.indexOf(QStringLiteral("\nWhat the tests of this session show together (MB/s = 10^6 bytes/s):\n"));
    QVERIFY2(at > 0, qPrintable(o.out));
    const QStringList after = o.out.mid(at).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(after.size() >= 2, qPrintable(o.out));
    QVERIFY2(after.at(1).startsWith(QStringLiteral("  127.0.0.1, tcp-send: 9000 B frames against 1500 B: throughput ")),
             qPrintable(after.at(1)));
    QVERIFY2(after.at(1).contains(QStringLiteral("CPU per GB on this computer"))
                 && after.at(1).contains(QStringLiteral("on the server")),
             qPrintable(after.at(1)));
}

void TestCli::headerSaysEachKindsLength_data()
{
    // copy-write moves a file into a folder of this test: a file transfer that needs no server.
    QTest::addColumn<QString>("protocols");
    QTest::addColumn<QString>("header");
    QTest::newRow("timed and file") << QStringLiteral("tcp-send,copy-write")
                                    << QStringLiteral(
                                           "2 runs (1 host(s) x 2 protocol(s) x 1 frame size(s) x 1 repetitions); "
                                           "tcp-send: 0.5 s each; copy-write: a 1 MiB file each; about 2.5 s "
                                           "of timed measuring (2 s of idle round trips before each run "
                                           "included) and 1 MiB of file transfers");
    QTest::newRow("file only") << QStringLiteral("copy-write,copy-read")
                               << QStringLiteral(
                                      "2 runs (1 host(s) x 2 protocol(s) x 1 frame size(s) x 1 repetitions); "
                                      "copy-write, copy-read: a 1 MiB file each; 2 MiB to move in all");
}

void TestCli::headerSaysEachKindsLength()
{
    QFETCH(QString, protocols);
    QFETCH(QString, header);
    CLITEST_START_DAEMON(m_daemon);
    QTemporaryDir share;
    const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--host"), m_daemon.hostArgument(),
                              QStringLiteral("--protocol"), protocols, QStringLiteral("--reps"), QStringLiteral("1"),
                              QStringLiteral("--duration"), QStringLiteral("0.5"), QStringLiteral("--file-size"),
                              QStringLiteral("1M"), QStringLiteral("--set"),
                              QStringLiteral("copy.path=") + share.path(), QStringLiteral("--no-store")});
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const QString first = o.out.section(QLatin1Char('\n'), 0, 0);
    QCOMPARE(first, QStringLiteral("wirebench-cli " WIREBENCH_VERSION ": ") + header);
    // A file transfer is never said to last the duration.
    QVERIFY2(!first.contains(QStringLiteral("copy-write: 0.5 s"))
                 && !first.contains(QStringLiteral("copy-read: 0.5 s")),
             qPrintable(first));
}

void TestCli::chart_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("png") << QStringLiteral("chart.png");
    QTest::newRow("pdf") << QStringLiteral("chart.pdf");
}

void TestCli::chart()
{
    QFETCH(QString, file);
    CLITEST_START_DAEMON(m_daemon);
    const quint16 port = m_daemon.port();
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    const Outcome o = runCli({QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:%1").arg(port),
                              QStringLiteral("--reps"), QStringLiteral("2"), QStringLiteral("--duration"),
                              QStringLiteral("0.5"), QStringLiteral("--chart"), path, QStringLiteral("--chart-size"),
                              QStringLiteral("800x500"), QStringLiteral("--unit"), QStringLiteral("Mbps")});
#if WIREBENCH_CLI_HAS_CHART
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QFile f(path);
    QVERIFY2(f.open(QIODevice::ReadOnly), "the chart file exists");
    const QByteArray head = f.read(64);
    if (file.endsWith(QLatin1String(".png"))) {
        // PNG: signature, then the IHDR chunk with width and height as big-endian 32-bit numbers.
        QVERIFY(head.startsWith("\x89PNG\r\n\x1a\n"));
        auto be32 = [&](int at) {
            return (quint32(quint8(head.at(at))) << 24) | (quint32(quint8(head.at(at + 1))) << 16)
                | (quint32(quint8(head.at(at + 2))) << 8) | quint32(quint8(head.at(at + 3)));
        };
        QCOMPARE(be32(16), 800u);
        QCOMPARE(be32(20), 500u);
    } else {
        QVERIFY(head.startsWith("%PDF-"));
    }
    QVERIFY(o.out.contains(QStringLiteral("Mbit/s")));
#else
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(QStringLiteral("not available in this build")), qPrintable(o.err));
    QVERIFY(!QFile::exists(path));
#endif
}

void TestCli::interrupt()
{
#ifdef Q_OS_UNIX
    CLITEST_START_DAEMON(m_daemon);
    const quint16 port = m_daemon.port();
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("interrupted.json"));
    QProcess p;
    p.setProcessEnvironment(defaultSandbox());
    p.start(kCli,
            {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:%1").arg(port),
             QStringLiteral("--reps"), QStringLiteral("3"), QStringLiteral("--duration"), QStringLiteral("3"),
             QStringLiteral("--json"), json});
    QVERIFY(p.waitForStarted(30000));
    QString out;
    // Wait for the first run to end, then press Ctrl-C during the second.
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += QString::fromUtf8(p.readAllStandardOutput()), out.contains(QStringLiteral("run 1/3"))), 60000);
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(60000));
    out += QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(err.contains(QStringLiteral("interrupted")), qPrintable(err));
    QVERIFY2(out.contains(QStringLiteral("Summary")), qPrintable(out)); // finished runs still printed

    QFile file(json);
    QVERIFY2(file.open(QIODevice::ReadOnly), "the JSON file is written after an interrupt");
    const QJsonArray results
        = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 3); // every run of the plan, with what became of it
    QCOMPARE(results.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(results.at(2).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("not-run"));
#else
    QSKIP("SIGINT is a Unix test");
#endif
}

void TestCli::runMapsNoGuiLibrary()
{
#ifdef Q_OS_LINUX
    // A run (and every command but --chart and report) runs without Qt Gui, Widgets or QCustomPlot in the process:
    // they are most of what a CLI would otherwise hold resident (issue 17).
    CLITEST_START_DAEMON(m_daemon);
    QProcess p;
    p.setProcessEnvironment(defaultSandbox());
    p.start(kCli,
            {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:%1").arg(m_daemon.port()),
             QStringLiteral("--duration"), QStringLiteral("2")});
    QVERIFY(p.waitForStarted(30000));
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += QString::fromUtf8(p.readAllStandardOutput()), out.contains(QLatin1String("tcp-send"))), 60000);
    QFile maps(QStringLiteral("/proc/%1/maps").arg(p.processId()));
    QVERIFY(maps.open(QIODevice::ReadOnly));
    const QString mapped = QString::fromUtf8(maps.readAll());
    QVERIFY2(mapped.contains(QLatin1String("libQt6Core")), "the maps were read from the running CLI");
    for (const char *lib : {"libQt6Gui", "libQt6Widgets", "libQt6PrintSupport", "qcustomplot"})
        QVERIFY2(!mapped.contains(QLatin1String(lib), Qt::CaseInsensitive), lib);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
#else
    QSKIP("reads /proc/PID/maps");
#endif
}

void TestCli::chartHelperMissingIsSaid()
{
#if defined(Q_OS_LINUX) && WIREBENCH_CLI_HAS_CHART
    // wirebench-cli alone, without the wirebench-cli-charts it hands --chart to: the command says what is missing.
    QTemporaryDir dir;
    const QString lone = dir.filePath(QStringLiteral("wirebench-cli"));
    QVERIFY(QFile::copy(kCli, lone));
    QVERIFY(QFile::setPermissions(lone, QFile::permissions(kCli)));
    QProcess p;
    p.setProcessEnvironment(defaultSandbox());
    p.start(lone,
            {QStringLiteral("run"), QStringLiteral("--host"), QStringLiteral("127.0.0.1:9"), QStringLiteral("--chart"),
             dir.filePath(QStringLiteral("c.png"))});
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.contains(QLatin1String("wirebench-cli-charts, which draws the charts, is missing")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("reinstall Wirebench")), qPrintable(err));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("c.png"))));
#else
    QSKIP("wirebench-cli hands charts over only on Linux builds with the GUI library");
#endif
}

void TestCli::sessionsShowRunsOfThePlan_data()
{
    QTest::addColumn<int>("signal");
    QTest::addColumn<QString>("state");
#ifdef Q_OS_UNIX
    QTest::newRow("Ctrl-C") << int(SIGINT) << QStringLiteral("cancelled");
    QTest::newRow("killed") << int(SIGKILL) << QStringLiteral("interrupted");
#endif
}

void TestCli::sessionsShowRunsOfThePlan()
{
#ifdef Q_OS_UNIX
    QFETCH(int, signal);
    QFETCH(QString, state);
    CLITEST_START_DAEMON(m_daemon);
    QTemporaryDir home;
    const QProcessEnvironment env = sandboxEnvironment(home.path());
    // A 6-run plan stopped after its third run.
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(kCli,
            {QStringLiteral("run"), QStringLiteral("--host"), m_daemon.hostArgument(), QStringLiteral("--reps"),
             QStringLiteral("6"), QStringLiteral("--duration"), QStringLiteral("1")});
    QVERIFY(p.waitForStarted(30000));
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += QString::fromUtf8(p.readAllStandardOutput()), out.contains(QStringLiteral("run 3/6"))), 60000);
    ::kill(pid_t(p.processId()), signal);
    QVERIFY(p.waitForFinished(60000));
    out += QString::fromUtf8(p.readAllStandardOutput());
    static const QRegularExpression okLine(QStringLiteral("^run \\d/6 .* MB/s"), QRegularExpression::MultilineOption);
    const int done = int(out.count(okLine)); // 3, or 4 when the fourth ended before the signal
    QVERIFY2(done >= 3 && done < 6, qPrintable(out));

    const Outcome sessions = runCli({QStringLiteral("sessions")}, 60000, env);
    QCOMPARE(sessions.exitCode, 0);
    const QRegularExpression row(
        QStringLiteral("^\\s+1\\s+[0-9a-f]{8}\\s+\\S+ \\S+\\s+%1\\s+%3\\s+%2/6\\s+1500\\s+tcp-send\\s")
            .arg(state)
            .arg(done)
            .arg(QRegularExpression::escape(QSysInfo::machineHostName())),
        QRegularExpression::MultilineOption);
    QVERIFY2(sessions.out.contains(row), qPrintable(sessions.out));
    QVERIFY2(sessions.out.contains(QStringLiteral("RUNS done/planned")), qPrintable(sessions.out));

    // A whole plan reads 2/2.
    QVERIFY(runCli({QStringLiteral("run"), QStringLiteral("--host"), m_daemon.hostArgument(), QStringLiteral("--reps"),
                    QStringLiteral("2"), QStringLiteral("--duration"), QStringLiteral("0.5")},
                   60000, env)
                .exitCode
            == 0);
    static const QRegularExpression whole(
        QStringLiteral("^\\s+2\\s+[0-9a-f]{8}\\s+\\S+ \\S+\\s+finished\\s+\\S+\\s+2/2\\s+1500\\s"),
        QRegularExpression::MultilineOption);
    QVERIFY2(runCli({QStringLiteral("sessions")}, 60000, env).out.contains(whole), "a finished plan: 2/2");
#else
    QSKIP("signals are a Unix test");
#endif
}

void TestCli::cleanupTestCase()
{
    m_daemon.stop();
}

QTEST_GUILESS_MAIN(TestCli)
#include "TestCli.moc"
