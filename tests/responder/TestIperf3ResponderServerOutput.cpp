// `iperf3 -c --get-server-output` against wirebenchd's iperf3 port (Iperf3Responder): the real client (Debian
// package) prints the server's output, whose figures are the responder's own, all on 127.0.0.1.
#include "responder/Iperf3Responder.h"
#include "support/CiRule.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace wb;

namespace {

struct TextRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// The summary line of one end's role ("sender" or "receiver") in a block of iperf3's text, without its stream
/// tag: "0.00-2.00   sec  3.95 GBytes  17.0 Gbits/sec   50             sender". With several streams, the [SUM] line.
QString summaryOf(const QString &text, const QString &role, bool sum)
{
    static const QRegularExpression line(QStringLiteral("^\\[(SUM|\\s*\\d+)\\]\\s+(0\\.00-\\S+\\s+sec\\s+.*\\S)\\s*$"),
                                         QRegularExpression::MultilineOption);
    QString found;
    for (auto it = line.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (m.captured(2).endsWith(role) && (m.captured(1) == QLatin1String("SUM")) == sum)
            found = m.captured(2);
    }
    return found;
}

/// "3.95 GBytes" as iperf3 writes it (steps of 1024), back to bytes.
double bytesOf(const QString &summary)
{
    static const QRegularExpression transfer(QStringLiteral("sec\\s+([\\d.]+) ([KMGT]?)Bytes"));
    const QRegularExpressionMatch m = transfer.match(summary);
    if (!m.hasMatch())
        return -1;
    const int power = QStringLiteral(" KMGT").indexOf(m.captured(2).isEmpty() ? QStringLiteral(" ") : m.captured(2));
    return m.captured(1).toDouble() * std::pow(1024.0, power);
}

} // namespace

class TestIperf3ResponderServerOutput : public QObject
{
    Q_OBJECT

private:
    QString m_iperf3;
    std::unique_ptr<Iperf3Responder> m_responder;

    TextRun runClient(const QStringList &args)
    {
        QProcess process;
        process.start(m_iperf3,
                      QStringList{QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                  QString::number(m_responder->port()), QStringLiteral("-t"), QStringLiteral("2")}
                          + args);
        TextRun run;
        if (!process.waitForStarted(5000) || !process.waitForFinished(30000)) {
            process.kill();
            process.waitForFinished(2000);
            run.err = QStringLiteral("iperf3 -c did not finish within 30 s");
            return run;
        }
        run.exitCode = process.exitCode();
        run.out = QString::fromLocal8Bit(process.readAllStandardOutput());
        run.err = QString::fromLocal8Bit(process.readAllStandardError());
        return run;
    }

    /// The responder's record of the test that just ended; completed false when none came within 10 s.
    Iperf3TestRecord waitForRecord(int countBefore)
    {
        if (!QTest::qWaitFor([&] { return m_responder->tests().size() > countBefore; }, 10000))
            return {};
        return m_responder->tests().last();
    }

private slots:
    void initTestCase()
    {
        m_iperf3 = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
        WB_REQUIRE(!m_iperf3.isEmpty(), QStringLiteral("iperf3 is not installed (apt-get install iperf3)"));
        ResponderConfig config;
        config.address = QHostAddress(QHostAddress::LocalHost);
        config.port = 0;
        m_responder = std::make_unique<Iperf3Responder>(config);
        QString error;
        QVERIFY2(m_responder->start(&error), qPrintable(error));
    }

    void cleanupTestCase()
    {
        if (m_responder)
            m_responder->stop();
    }

    void textClient_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("serverRole"); // what the responder was: its summary line ends so
        QTest::addColumn<int>("streams");
        QTest::addColumn<bool>("omit");
        QTest::newRow("plain") << QStringList{} << QStringLiteral("receiver") << 1 << false;
        QTest::newRow("-R") << QStringList{QStringLiteral("-R")} << QStringLiteral("sender") << 1 << false;
        QTest::newRow("-P 2") << QStringList{QStringLiteral("-P"), QStringLiteral("2")} << QStringLiteral("receiver")
                              << 2 << false;
        QTest::newRow("-R -P 2") << QStringList{QStringLiteral("-R"), QStringLiteral("-P"), QStringLiteral("2")}
                                 << QStringLiteral("sender") << 2 << false;
        QTest::newRow("-O 1") << QStringList{QStringLiteral("-O"), QStringLiteral("1")} << QStringLiteral("receiver")
                              << 1 << true;
        QTest::newRow("-u -b 50M") << QStringList{QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("50M")}
                                   << QStringLiteral("receiver") << 1 << false;
        QTest::newRow("-u -R -b 50M") << QStringList{QStringLiteral("-u"), QStringLiteral("-R"), QStringLiteral("-b"),
                                                     QStringLiteral("50M")}
                                      << QStringLiteral("sender") << 1 << false;
    }

    void textClient()
    {
        // The client prints "Server output:" and the responder's report. The client's own line for the
        // responder's end is built from the responder's results, formatted by iperf3 itself: the server
        // output's summary line must read the same (interval, transfer, bitrate, retransmits or loss).
        QFETCH(QStringList, args);
        QFETCH(QString, serverRole);
        QFETCH(int, streams);
        QFETCH(bool, omit);
        const int before = m_responder->tests().size();
        const TextRun run = runClient(args + QStringList{QStringLiteral("--get-server-output")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const int at = run.out.indexOf(QStringLiteral("\nServer output:\n"));
        QVERIFY2(at > 0, qPrintable(run.out));
        const QString client = run.out.left(at), server = run.out.mid(at);
        qInfo("%s", qPrintable(server.trimmed()));
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY2(rec.completed, rec.problem.c_str());

        QVERIFY2(server.contains(QStringLiteral("Accepted connection from 127.0.0.1, port ")), qPrintable(server));
        QCOMPARE(server.count(
                     QStringLiteral(" local 127.0.0.1 port %1 connected to 127.0.0.1 port ").arg(m_responder->port())),
                 streams);
        const QString ours = summaryOf(server, serverRole, streams > 1);
        QVERIFY2(!ours.isEmpty(), qPrintable(server));
        QCOMPARE(ours, summaryOf(client, serverRole, streams > 1));
        // And they are the responder's figures: its byte count (to iperf3's 3 digits) and its time.
        QVERIFY2(std::abs(bytesOf(ours) - double(rec.bytes)) <= 0.006 * double(rec.bytes),
                 qPrintable(QStringLiteral("%1 vs %2 B").arg(ours).arg(rec.bytes)));
        QVERIFY2(ours.startsWith(QStringLiteral("0.00-%1 ").arg(rec.seconds, 0, 'f', 2)), qPrintable(ours));
        // A report per second of the 2 s; "(omitted)" only for the -O second.
        static const QRegularExpression interval(
            QStringLiteral("^\\[\\s*\\d+\\]\\s+\\d+\\.\\d\\d-\\d+\\.\\d\\d\\s+sec\\s.*$"),
            QRegularExpression::MultilineOption);
        qsizetype reports = 0;
        for (auto it = interval.globalMatch(server); it.hasNext(); it.next())
            ++reports;
        QVERIFY2(reports >= 3 * streams, qPrintable(server)); // two seconds and the summary of each stream
        QCOMPARE(server.contains(QStringLiteral("(omitted)")), omit);
    }

    void jsonClient()
    {
        // -J: the client's JSON carries the server's text under "server_output_text" (as from `iperf3 -s`,
        // which sends JSON only when it runs with -J itself), its receiver line the responder's count.
        const int before = m_responder->tests().size();
        const TextRun run = runClient({QStringLiteral("-J"), QStringLiteral("--get-server-output")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QVERIFY2(report.value(QLatin1String("error")).toString().isEmpty(), qPrintable(run.out));
        const QString server = report.value(QLatin1String("server_output_text")).toString();
        const Iperf3TestRecord rec = waitForRecord(before);
        QVERIFY2(rec.completed, rec.problem.c_str());
        const qint64 received = qint64(report.value(QLatin1String("end"))
                                           .toObject()
                                           .value(QLatin1String("sum_received"))
                                           .toObject()
                                           .value(QLatin1String("bytes"))
                                           .toDouble());
        QCOMPARE(received, rec.bytes);
        const QString ours = summaryOf(server, QStringLiteral("receiver"), false);
        QVERIFY2(!ours.isEmpty(), qPrintable(server));
        QVERIFY2(std::abs(bytesOf(ours) - double(received)) <= 0.006 * double(received), qPrintable(ours));
    }

    void notAskedNotSent()
    {
        // Without --get-server-output nothing of the kind: no "Server output:", no server_output_text.
        const TextRun text = runClient({});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("receiver")) && !text.out.contains(QStringLiteral("Server output")),
                 qPrintable(text.out));
        const TextRun json = runClient({QStringLiteral("-J")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QVERIFY(report.contains(QLatin1String("end")));
        QVERIFY(!report.contains(QLatin1String("server_output_text"))
                && !report.contains(QLatin1String("server_output_json")));
    }
};

QTEST_GUILESS_MAIN(TestIperf3ResponderServerOutput)
#include "TestIperf3ResponderServerOutput.moc"
