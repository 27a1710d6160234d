#include "formats/ReportGenerator.h"
#include "storage/ResultStore.h"
#include "StoreTestData.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace wb;

/// The HTML report of a stored session: parse-able, the table holds the measured values with their units.
class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sessionReport();
    void unitsEverywhere();
    void escapesAndEmpty();
    void writesFile();
    void answerFirst();
    void eachStreamsShare();
    void latencyTable();

private:
    struct Table
    {
        QStringList headers;
        QList<QStringList> rows;
    };
    /// Parses the report as XML; fails the test on any error. Returns the tables by id and all text.
    static bool parse(const QString &html, QHash<QString, Table> *tables, QString *text, QStringList *imgSources);

    QTemporaryDir m_dir;
    ResultStore m_store;
    qint64 m_session = 0;
    ReportInput m_input;
};

// A 1 x 1 PNG, as a chart the GUI would render.
static const char kPng[]
    = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

void TestReport::initTestCase()
{
    QString error;
    QVERIFY2(m_store.open(m_dir.filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));
    TestPlan plan = wbtest::plan();
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.frameSizes = {1500};
    plan.repetitions = 3;
    m_session = m_store.beginSession(plan, &error);
    QVERIFY(m_session > 0);
    // linux-fs: 117, 118, 119 MB/s over 10 s. win-fs: 100 MB/s, then a failure, then 102 MB/s.
    const QList<RunSpec> specs = plan.expand();
    const QList<double> figures{117, 118, 119, 100, 0, 102};
    for (int i = 0; i < specs.size(); ++i) {
        RunResult r = wbtest::run(specs.at(i), 1000, 10);
        r.samples.clear();
        r.bytes = qint64(figures.at(i) * 1e6 * 10);
        r.seconds = 10;
        r.mss = 1448;
        r.extra.insert(QStringLiteral("link_speed_Mbps"), 1000);
        r.extra.insert(QStringLiteral("interface"), QStringLiteral("eth0"));
        r.extra.insert(QStringLiteral("interface_mtu"), 1500);
        r.extra.insert(QStringLiteral("path_mtu"), 1500);
        r.extra.insert(QStringLiteral("link_duplex"), QStringLiteral("full"));
        r.extra.insert(QStringLiteral("percent_of_ceiling"), figures.at(i) / 117.7 * 100);
        if (i == 2)
            r.extra.insert(QStringLiteral("bottleneck"),
                           QStringLiteral("linux-fs ran at line rate: the link is the limit."));
        if (i == 4) {
            r.status = RunStatus::Failed;
            r.error = QStringLiteral("win-fs (127.0.0.3:5301): connection reset by peer; check the server's log");
            r.bytes = 0;
        }
        if (i == 3 || i == 5)
            r.warnings << QStringLiteral("3 retransmissions (0.01 % of segments)");
        QVERIFY(m_store.addRun(m_session, r, &error) > 0);
    }
    QVERIFY(m_store.endSession(m_session, SessionState::Finished));

    QVERIFY2(ReportGenerator::fromStore(m_store, m_session, &m_input, &error), qPrintable(error));
    m_input.charts.append({QStringLiteral("Comparison: tcp-send @ 1500 B (median, MB/s)"), QByteArray::fromBase64(kPng),
                           QStringLiteral("linux-fs, win-fs; 1500 B")});
    m_input.generatedAt = QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC);
}

bool TestReport::parse(const QString &html, QHash<QString, Table> *tables, QString *text, QStringList *imgSources)
{
    QXmlStreamReader xml(html);
    QString tableId;
    QStringList row;
    QString cell;
    bool inCell = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("table"))
                tableId = xml.attributes().value(QLatin1String("id")).toString();
            else if (name == QLatin1String("tr"))
                row.clear();
            else if (name == QLatin1String("td") || name == QLatin1String("th")) {
                inCell = true;
                cell.clear();
            } else if (name == QLatin1String("img"))
                imgSources->append(xml.attributes().value(QLatin1String("src")).toString());
        } else if (xml.isEndElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("td") || name == QLatin1String("th")) {
                inCell = false;
                row.append(cell);
            } else if (name == QLatin1String("tr") && !tableId.isEmpty()) {
                Table &t = (*tables)[tableId];
                if (t.headers.isEmpty())
                    t.headers = row;
                else
                    t.rows.append(row);
            } else if (name == QLatin1String("table")) {
                tableId.clear();
            }
        } else if (xml.isCharacters()) {
            // Units are joined by a no-break space; compare with plain spaces.
            const QString chars = xml.text().toString().replace(QChar(0x00A0), QLatin1Char(' '));
            if (inCell)
                cell += chars;
            *text += chars;
        }
    }
    if (xml.hasError()) {
        qWarning("line %lld: %s", xml.lineNumber(), qPrintable(xml.errorString()));
        return false;
    }
    return true;
}

void TestReport::sessionReport()
{
    const QString html = ReportGenerator::html(m_input);
    QHash<QString, Table> tables;
    QString text;
    QStringList images;
    QVERIFY(parse(html, &tables, &text, &images));

    // The summary: one row per test, statistics with units.
    const Table summary = tables.value(QStringLiteral("summary"));
    QCOMPARE(summary.rows.size(), 2);
    const QStringList &lnx = summary.rows.at(0);
    const auto col = [&](const QString &header) { return summary.headers.indexOf(header); };
    QVERIFY(col(QStringLiteral("Median")) >= 0);
    QCOMPARE(lnx.at(col(QStringLiteral("Host"))), QStringLiteral("linux-fs"));
    QCOMPARE(lnx.at(col(QStringLiteral("OS"))), QStringLiteral("Linux"));
    QCOMPARE(lnx.at(col(QStringLiteral("Frame"))), QStringLiteral("1500 B"));
    QCOMPARE(lnx.at(col(QStringLiteral("MSS"))), QStringLiteral("1448 B"));
    QCOMPARE(lnx.at(col(QStringLiteral("Runs ok"))), QStringLiteral("3 of 3"));
    QCOMPARE(lnx.at(col(QStringLiteral("Min"))), QStringLiteral("117.00 MB/s"));
    QCOMPARE(lnx.at(col(QStringLiteral("Median"))), QStringLiteral("118.00 MB/s"));
    QCOMPARE(lnx.at(col(QStringLiteral("Mean"))), QStringLiteral("118.00 MB/s"));
    QCOMPARE(lnx.at(col(QStringLiteral("Max"))), QStringLiteral("119.00 MB/s"));
    QCOMPARE(lnx.at(col(QStringLiteral("Std dev"))), QStringLiteral("1.00 MB/s"));
    QCOMPARE(lnx.at(col(QStringLiteral("95% CI"))), QStringLiteral("\u00b1 2.48 MB/s")); // t(2) = 4.303, s/sqrt(3)
    QCOMPARE(lnx.at(col(QStringLiteral("Median (Mbit/s)"))), QStringLiteral("944.00 Mbit/s"));
    QCOMPARE(lnx.at(col(QStringLiteral("Of line rate"))), QStringLiteral("100.3 %"));
    const QStringList &windows = summary.rows.at(1);
    QCOMPARE(windows.at(col(QStringLiteral("OS"))), QStringLiteral("Windows Server 2003"));
    QCOMPARE(windows.at(col(QStringLiteral("Runs ok"))), QStringLiteral("2 of 3"));
    QCOMPARE(windows.at(col(QStringLiteral("Median"))), QStringLiteral("101.00 MB/s"));

    QVERIFY(html.contains(QStringLiteral("118.00\u00a0MB/s")));

    // Every run, failed ones with their error.
    const Table runs = tables.value(QStringLiteral("runs"));
    QCOMPARE(runs.rows.size(), 6);
    const int throughput = runs.headers.indexOf(QStringLiteral("Throughput"));
    QCOMPARE(runs.rows.at(0).at(throughput), QStringLiteral("117.00 MB/s"));
    QCOMPARE(runs.rows.at(0).at(runs.headers.indexOf(QStringLiteral("Bytes"))), QStringLiteral("1170000000 B"));
    QCOMPARE(runs.rows.at(0).at(runs.headers.indexOf(QStringLiteral("Time"))), QStringLiteral("10.000 s"));
    QCOMPARE(runs.rows.at(4).at(runs.headers.indexOf(QStringLiteral("Status"))), QStringLiteral("failed"));
    QVERIFY(
        runs.rows.at(4).at(runs.headers.indexOf(QStringLiteral("Error"))).contains(QStringLiteral("connection reset")));

    // Environment: hosts with OS, link speed, MTUs; this machine; the version.
    const Table hosts = tables.value(QStringLiteral("hosts"));
    QCOMPARE(hosts.rows.size(), 2);
    QCOMPARE(hosts.rows.at(1).at(hosts.headers.indexOf(QStringLiteral("OS label"))),
             QStringLiteral("Windows Server 2003"));
    QCOMPARE(hosts.rows.at(0).at(hosts.headers.indexOf(QStringLiteral("Link speed"))), QStringLiteral("1000 Mbit/s"));
    QCOMPARE(hosts.rows.at(0).at(hosts.headers.indexOf(QStringLiteral("Interface MTU"))),
             QStringLiteral("1500 B (eth0)"));
    QCOMPARE(hosts.rows.at(0).at(hosts.headers.indexOf(QStringLiteral("Path MTU"))), QStringLiteral("1500 B"));
    QCOMPARE(hosts.rows.at(0).at(hosts.headers.indexOf(QStringLiteral("Address"))), QStringLiteral("127.0.0.2:5301"));
    QVERIFY(text.contains(QStringLiteral(WIREBENCH_VERSION)));
    QVERIFY(text.contains(m_input.session.machineHostname));
    QVERIFY(text.contains(m_input.session.uuid));
    QVERIFY(text.contains(QStringLiteral("1472 B (1.4 KiB)")) || text.contains(QStringLiteral("1472 B")));
    QVERIFY(text.contains(QStringLiteral("3.0 s"))); // run length
    QVERIFY(text.contains(QStringLiteral("finished")));

    // Findings: the stored sentence of linux-fs; one computed by the analysis for win-fs.
    QVERIFY(text.contains(
        QStringLiteral("linux-fs, tcp-send @ 1500 B: linux-fs ran at line rate: the link is the limit.")));
    QVERIFY(text.contains(QStringLiteral("win-fs, tcp-send @ 1500 B: ")));
    // Warnings once, with the runs that raised them.
    QVERIFY(text.contains(QStringLiteral("3 retransmissions (0.01 % of segments) (run 4, 6)")));

    // The chart, embedded.
    QCOMPARE(images.size(), 1);
    QCOMPARE(images.first(), QStringLiteral("data:image/png;base64,") + QLatin1String(kPng));
    QVERIFY(text.contains(QStringLiteral("Comparison: tcp-send @ 1500 B (median, MB/s)")));
    // Named images for QTextDocument (the PDF path).
    const QString named = ReportGenerator::html(m_input, ReportGenerator::Images::Named);
    QVERIFY(named.contains(QStringLiteral("src=\"wirebench-chart:0\"")));
    QVERIFY(!named.contains(QStringLiteral("data:image")));

    // Caller's findings replace the computed ones.
    ReportInput custom = m_input;
    custom.findings = {QStringLiteral("The switch is the limit.")};
    custom.unit = RateUnit::Mbps;
    QHash<QString, Table> t2;
    QString text2;
    QStringList img2;
    QVERIFY(parse(ReportGenerator::html(custom), &t2, &text2, &img2));
    QVERIFY(text2.contains(QStringLiteral("The switch is the limit.")));
    QVERIFY(!text2.contains(QStringLiteral("ran at line rate")));
    const Table s2 = t2.value(QStringLiteral("summary"));
    QCOMPARE(s2.rows.at(0).at(s2.headers.indexOf(QStringLiteral("Median"))), QStringLiteral("944.00 Mbit/s"));
}

void TestReport::unitsEverywhere()
{
    QHash<QString, Table> tables;
    QString text;
    QStringList images;
    QVERIFY(parse(ReportGenerator::html(m_input), &tables, &text, &images));
    // A bare number is allowed only where it counts something: run number, repetition.
    const QRegularExpression bare(QStringLiteral("^[-+\u00b1 ]*[0-9][0-9.,]*$"));
    const QStringList counters{QStringLiteral("#"), QStringLiteral("Rep.")};
    int cells = 0;
    for (auto it = tables.cbegin(); it != tables.cend(); ++it) {
        for (const QStringList &row : it.value().rows) {
            for (qsizetype c = 0; c < row.size(); ++c) {
                ++cells;
                const QString header = it.value().headers.value(c);
                if (bare.match(row.at(c).trimmed()).hasMatch())
                    QVERIFY2(counters.contains(header),
                             qPrintable(QStringLiteral("table %1, column \"%2\": \"%3\" has no unit")
                                            .arg(it.key(), header, row.at(c))));
            }
        }
    }
    QVERIFY(cells > 50);
    QVERIFY(text.contains(QStringLiteral("MB/s = 10^6 bytes/s")));
}

void TestReport::eachStreamsShare()
{
    // A run over 4 streams keeps each stream's bytes over the common window (extra stream_bytes): the report's
    // "Parallel streams" table gives each one's rate and the slowest against the fastest; one stream gives none.
    ReportInput in;
    in.session.plan = wbtest::plan();
    in.unit = RateUnit::MBps;
    const QList<RunSpec> specs = in.session.plan.expand();
    RunResult four = wbtest::run(specs.first(), 10, 2); // 20 MB over 2 s in the common window
    four.bytes = 20000000;
    four.seconds = 2;
    four.extra.insert(QStringLiteral("streams"), 4);
    four.extra.insert(QStringLiteral("stream_bytes"), QVariantList{6000000, 5000000, 5000000, 4000000});
    RunResult both = wbtest::run(specs.first(), 10, 2);
    both.spec.protocol = QStringLiteral("tcp-bidir");
    both.extra.insert(QStringLiteral("stream_bytes"), QVariantList{1000000, 1000000});
    both.extra.insert(QStringLiteral("reverse_stream_bytes"), QVariantList{3000000, 1000000});
    both.reverse = RunResult::Reverse{4000000, 2.0, 4000000, {}};
    in.runs << four << wbtest::run(specs.first(), 10, 2) << both;
    QHash<QString, Table> tables;
    QString text;
    QStringList images;
    QVERIFY(parse(ReportGenerator::html(in), &tables, &text, &images));
    const Table t = tables.value(QStringLiteral("streams"));
    QCOMPARE(
        t.headers,
        (QStringList{QStringLiteral("#"), QStringLiteral("Host"), QStringLiteral("Test"), QStringLiteral("Streams"),
                     QStringLiteral("Each stream (MB/s)"), QStringLiteral("Slowest / fastest")}));
    QCOMPARE(t.rows.size(), 3); // the 4-stream run, and the bidir run's two directions; not the 1-stream run
    QCOMPARE(t.rows.at(0).at(0), QStringLiteral("1"));
    QCOMPARE(t.rows.at(0).at(3), QStringLiteral("4"));
    QCOMPARE(t.rows.at(0).at(4), QStringLiteral("3.00, 2.50, 2.50, 2.00"));
    QCOMPARE(t.rows.at(0).at(5), QStringLiteral("66.7%"));
    QCOMPARE(t.rows.at(1).at(0), QStringLiteral("3"));
    QCOMPARE(t.rows.at(1).at(2), QStringLiteral("tcp-bidir send"));
    QCOMPARE(t.rows.at(2).at(2), QStringLiteral("tcp-bidir receive"));
    QCOMPARE(t.rows.at(2).at(4), QStringLiteral("1.50, 0.50"));
    QVERIFY(text.contains(QStringLiteral("their sum is the run's figure), in MB/s")));
    // No run over several streams: no table.
    ReportInput one;
    one.session.plan = in.session.plan;
    one.runs << wbtest::run(specs.first(), 10, 2);
    QHash<QString, Table> none;
    QVERIFY(parse(ReportGenerator::html(one), &none, &text, &images));
    QVERIFY(!none.contains(QStringLiteral("streams")));
}

void TestReport::escapesAndEmpty()
{
    ReportInput in;
    in.session.plan = wbtest::plan();
    in.session.hosts
        = {wbtest::host(QStringLiteral("<b>lab & \"co\"</b>"), QStringLiteral("127.0.0.5"), QStringLiteral("Linux"))};
    RunResult r = wbtest::run(in.session.plan.expand().first(), 10, 3);
    r.spec.host = in.session.hosts.first();
    r.warnings << QStringLiteral("a < b & c > d");
    in.runs << r;
    QHash<QString, Table> tables;
    QString text;
    QStringList images;
    const QString html = ReportGenerator::html(in);
    QVERIFY(parse(html, &tables, &text, &images));
    QVERIFY(text.contains(QStringLiteral("<b>lab & \"co\"</b>")));
    QVERIFY(!html.contains(QStringLiteral("<b>lab")));

    // Nothing at all: still a valid document.
    QHash<QString, Table> none;
    QVERIFY(parse(ReportGenerator::html(ReportInput()), &none, &text, &images));
    QCOMPARE(none.value(QStringLiteral("runs")).rows.size(), 0);
}

void TestReport::answerFirst()
{
    // Issue 14, part 3: what was compared, the comparison chart, what the tests show together and what limited
    // each come before the figures; the plan, the environment, the runs and the warnings follow as an appendix.
    const QString html = ReportGenerator::html(m_input);
    const QList<qsizetype> at{html.indexOf(QStringLiteral("<p>Compared: tcp-send on ")),
                              html.indexOf(QStringLiteral("<img ")),
                              html.indexOf(QStringLiteral("<h2>What the tests show together</h2>")),
                              html.indexOf(QStringLiteral("<h2>Results</h2>")),
                              html.indexOf(QStringLiteral(">Appendix: ")),
                              html.indexOf(QStringLiteral("<h2>Plan</h2>")),
                              html.indexOf(QStringLiteral("<h2>Runs</h2>")),
                              html.indexOf(QStringLiteral("<h2>Warnings</h2>"))};
    for (qsizetype i = 0; i < at.size(); ++i) {
        QVERIFY2(at.at(i) > 0, qPrintable(QStringLiteral("part %1 missing").arg(i)));
        if (i > 0)
            QVERIFY2(at.at(i) > at.at(i - 1), qPrintable(QStringLiteral("part %1 before part %2").arg(i).arg(i - 1)));
    }
    // linux-fs 117/118/119 against win-fs 100/102 MB/s: +17%, and the intervals do not overlap.
    QVERIFY2(html.contains(QStringLiteral("tcp-send @ 1500 B: linux-fs ("))
                 && html.contains(QStringLiteral("118.0 MB/s against win-fs (")),
             qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("101.0 MB/s: +17%, beyond the noise.")));
    QVERIFY2(!html.contains(QStringLiteral("hover"), Qt::CaseInsensitive), "a printed report asks nobody to hover");
}

void TestReport::latencyTable()
{
    // The session without latency has no such section.
    QVERIFY(!ReportGenerator::html(m_input).contains(QStringLiteral("Latency under load")));
    // linux-fs's runs timed round trips: idle 0.4 ms, loaded 23.4 ms; stored and read back with the session.
    TestPlan plan = wbtest::plan();
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.repetitions = 1;
    QString error;
    const qint64 session = m_store.beginSession(plan, &error);
    QVERIFY(session > 0);
    RunResult r = wbtest::run(plan.expand().first(), 1000, 10);
    r.latency.method = QStringLiteral("udp-echo");
    r.latency.target = QStringLiteral("127.0.0.2 UDP port 5301");
    for (int i = 0; i < 10; ++i) {
        r.latency.samples.append({0, -1 + 0.1 * i, 0.4, false});
        r.latency.samples.append({0, 0.1 * i, i == 9 ? 30.0 : 23.4, true});
    }
    r.latency.summarize();
    QVERIFY(m_store.addRun(session, r, &error) > 0);
    QVERIFY(m_store.endSession(session, SessionState::Finished));
    ReportInput in;
    QVERIFY2(ReportGenerator::fromStore(m_store, session, &in, &error), qPrintable(error));
    QCOMPARE(in.runs.first().latency.loaded, r.latency.loaded);
    QCOMPARE(in.runs.first().latency.samples.size(), 20);
    QHash<QString, Table> tables;
    QString text;
    QStringList images;
    QVERIFY(parse(ReportGenerator::html(in), &tables, &text, &images));
    QVERIFY(text.contains(QStringLiteral("under 5 ms is good")));
    const Table t = tables.value(QStringLiteral("latency"));
    QCOMPARE(t.headers,
             (QStringList{QStringLiteral("Host"), QStringLiteral("Test"), QStringLiteral("Frame"),
                          QStringLiteral("Idle"), QStringLiteral("Loaded"), QStringLiteral("Loaded p99"),
                          QStringLiteral("Added by the load"), QStringLiteral("Judged")}));
    QCOMPARE(t.rows.size(), 1);
    // 23 ms is a note (5 to 30 ms), not a warning.
    QCOMPARE(t.rows.first().mid(3),
             (QStringList{QStringLiteral("0.4 ms"), QStringLiteral("23 ms"), QStringLiteral("30 ms"),
                          QStringLiteral("+23 ms"), QStringLiteral("note")}));
    QCOMPARE(in.runs.first().latency.toJson(), r.latency.toJson()); // every figure and round trip kept by the store
}

void TestReport::writesFile()
{
    const QString path = m_dir.filePath(QStringLiteral("report.html"));
    QString error;
    QVERIFY2(ReportGenerator::writeHtml(path, m_input, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), ReportGenerator::html(m_input));
    // WIREBENCH_KEEP_REPORT=FILE keeps a copy to look at.
    if (const QString keep = qEnvironmentVariable("WIREBENCH_KEEP_REPORT"); !keep.isEmpty()) {
        QFile::remove(keep);
        QVERIFY(QFile::copy(path, keep));
    }
    QVERIFY(!ReportGenerator::writeHtml(m_dir.filePath(QStringLiteral("no/such/dir/report.html")), m_input, &error));
    QVERIFY2(error.contains(QStringLiteral("cannot be written")), qPrintable(error));

    QVERIFY(!ReportGenerator::fromStore(m_store, 9999, nullptr, &error));
    QVERIFY2(error.contains(QStringLiteral("no session 9999")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestReport)
#include "TestReport.moc"
