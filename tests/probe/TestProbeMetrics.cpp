// The probe endpoint's wire format (core/probe): MetricsText in both exposition formats and ProbeMetrics, the
// CLI's JSON as metrics; promtool reads what they write.
#include "probe/MetricsText.h"
#include "probe/ProbeMetrics.h"
#include "support/CiRule.h"
#include "PromtoolCheck.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>
#include <set>

using namespace wb::probe;
using nlohmann::json;

namespace {

/// One run of the CLI's JSON (docs/CLI.md): protocol, frame, status and the extra facts.
json run(const char *protocol, int frame, const char *status, json extra = json::object())
{
    json r = {{"protocol", protocol}, {"frame_size", frame}, {"status", status}, {"warnings", json::array()}};
    r.update(extra);
    return r;
}

json summary(const char *protocol, int frame, int okRuns, double medianMBps, json extra = json::object())
{
    json s = {{"protocol", protocol}, {"frame_size", frame}, {"ok_runs", okRuns},
              {"median", medianMBps}, {"unit", "MB/s"},      {"errors", json::array()}};
    s.update(extra);
    return s;
}

std::string rendered(const json &cli, TextFormat format, const std::string &problem = {})
{
    return MetricsText::render(ProbeMetrics::families(ProbeOutcome{"lan", 2.5, cli, problem}), format);
}

/// The sample line of name with exactly these labels (in order), e.g. name{a="1"} 2; empty when absent.
QString sampleLine(const std::string &text, const QString &start)
{
    for (const QString &line : QString::fromStdString(text).split(QLatin1Char('\n')))
        if (line.startsWith(start + QLatin1Char(' ')))
            return line;
    return QString();
}

} // namespace

class TestProbeMetrics : public QObject
{
    Q_OBJECT
private slots:
    void numbers_data();
    void numbers();
    void acceptPicksTheFormat_data();
    void acceptPicksTheFormat();
    void bothFormats();
    void metricsOfTheCliJson_data();
    void metricsOfTheCliJson();
    void promtoolAcceptsTheClassicText_data();
    void promtoolAcceptsTheClassicText();
    void examplesInResources();
};

void TestProbeMetrics::numbers_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("whole bytes per second") << 117000000.0 << "117000000";
    QTest::newRow("a ratio") << 0.9423 << "0.9423";
    QTest::newRow("an rtt in seconds") << 0.000123 << "0.000123";
    QTest::newRow("negative") << -2.5 << "-2.5";
    QTest::newRow("huge") << 1e300 << "1e+300";
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "NaN";
    QTest::newRow("+inf") << std::numeric_limits<double>::infinity() << "+Inf";
    QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-Inf";
}

void TestProbeMetrics::numbers()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(MetricsText::number(value)), text);
}

void TestProbeMetrics::acceptPicksTheFormat_data()
{
    QTest::addColumn<QString>("accept");
    QTest::addColumn<bool>("openMetrics");
    QTest::newRow("prometheus 2.42") << "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                                        "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
                                     << true;
    QTest::newRow("none (curl)") << "" << false;
    QTest::newRow("anything") << "*/*" << false;
    QTest::newRow("classic only") << "text/plain;version=0.0.4" << false;
    QTest::newRow("classic preferred") << "application/openmetrics-text;q=0.3, text/plain;q=0.9" << false;
    QTest::newRow("openmetrics refused") << "application/openmetrics-text;q=0" << false;
    QTest::newRow("upper case, spaces") << "Application/OpenMetrics-Text ; version=1.0.0" << true;
}

void TestProbeMetrics::acceptPicksTheFormat()
{
    QFETCH(QString, accept);
    QFETCH(bool, openMetrics);
    QCOMPARE(MetricsText::formatFor(accept.toStdString()) == TextFormat::OpenMetrics, openMetrics);
}

void TestProbeMetrics::bothFormats()
{
    const std::vector<MetricFamily> families{
        {"wirebench_x_bytes",
         MetricFamily::Type::Gauge,
         "Bytes, with a \\ and a \"quote\"\nand a line",
         {{{{"a", "1"}}, 5}}},
        {"wirebench_y", MetricFamily::Type::Info, "Words", {{{{"note", "say \"hi\"\\\n"}}, 1}}},
    };
    const std::string classic = MetricsText::render(families, TextFormat::Classic);
    QCOMPARE(QString::fromStdString(classic),
             QStringLiteral("# HELP wirebench_x_bytes Bytes, with a \\\\ and a \"quote\"\\nand a line\n"
                            "# TYPE wirebench_x_bytes gauge\n"
                            "wirebench_x_bytes{a=\"1\"} 5\n"
                            "# HELP wirebench_y_info Words\n"
                            "# TYPE wirebench_y_info gauge\n"
                            "wirebench_y_info{note=\"say \\\"hi\\\"\\\\\\n\"} 1\n"));
    const std::string open = MetricsText::render(families, TextFormat::OpenMetrics);
    QCOMPARE(QString::fromStdString(open),
             QStringLiteral("# HELP wirebench_x_bytes Bytes, with a \\\\ and a \\\"quote\\\"\\nand a line\n"
                            "# TYPE wirebench_x_bytes gauge\n"
                            "wirebench_x_bytes{a=\"1\"} 5\n"
                            "# HELP wirebench_y Words\n"
                            "# TYPE wirebench_y info\n"
                            "wirebench_y_info{note=\"say \\\"hi\\\"\\\\\\n\"} 1\n"
                            "# EOF\n"));
    QCOMPARE(QString::fromStdString(MetricsText::contentType(TextFormat::OpenMetrics)),
             QStringLiteral("application/openmetrics-text; version=1.0.0; charset=utf-8"));
    QCOMPARE(QString::fromStdString(MetricsText::contentType(TextFormat::Classic)),
             QStringLiteral("text/plain; version=0.0.4; charset=utf-8"));
}

void TestProbeMetrics::metricsOfTheCliJson_data()
{
    QTest::addColumn<QString>("cli");        // the CLI's JSON
    QTest::addColumn<QString>("problem");    // the probe's own failure
    QTest::addColumn<QStringList>("lines");  // sample lines that must be there (classic format)
    QTest::addColumn<QStringList>("absent"); // sample starts that must not

    json twoOk
        = {{"results",
            {run("tcp-send", 1500, "ok", {{"retransmits", 3}, {"rtt_us", 120}}),
             run("tcp-send", 1500, "ok", {{"retransmits", 4}, {"rtt_us", 80}, {"warnings", {"above the ceiling"}}})}},
           {"summary",
            {summary("tcp-send", 1500, 2, 117.5,
                     {{"percent_of_ceiling", 94.23},
                      {"ceiling_MBps", 124.69},
                      {"bottleneck", "the link: 94 % of its \"ceiling\""}})}}};
    QTest::newRow("two ok runs")
        << QString::fromStdString(twoOk.dump()) << QString()
        << QStringList{"wirebench_probe_success 1",
                       "wirebench_probe_duration_seconds 2.5",
                       "wirebench_probe_runs{status=\"ok\"} 2",
                       "wirebench_probe_runs{status=\"failed\"} 0",
                       "wirebench_probe_info{plan=\"lan\",problem=\"\"} 1",
                       "wirebench_throughput_bytes_per_second{protocol=\"tcp-send\",frame_size=\"1500\"} 117500000",
                       "wirebench_ceiling_ratio{protocol=\"tcp-send\",frame_size=\"1500\"} 0.9423",
                       "wirebench_ceiling_bytes_per_second{protocol=\"tcp-send\",frame_size=\"1500\"} 124690000",
                       "wirebench_retransmitted_segments{protocol=\"tcp-send\",frame_size=\"1500\"} 7",
                       "wirebench_rtt_seconds{protocol=\"tcp-send\",frame_size=\"1500\"} 0.0001",
                       "wirebench_test_info{protocol=\"tcp-send\",frame_size=\"1500\",bottleneck=\"the link: 94 % of "
                       "its "
                       "\\\"ceiling\\\"\",warnings=\"above the ceiling\",errors=\"\"} 1"}
        << QStringList();

    json oneFailed
        = {{"results", {run("tcp-recv", 9000, "ok", {{"rtt_us", 50}}), run("tcp-recv", 9000, "failed")}},
           {"summary", {summary("tcp-recv", 9000, 1, 800, {{"errors", {"127.0.0.1: connection refused"}}})}}};
    QTest::newRow("a run failed")
        << QString::fromStdString(oneFailed.dump()) << QString()
        << QStringList{"wirebench_probe_success 0", "wirebench_probe_runs{status=\"failed\"} 1",
                       "wirebench_throughput_bytes_per_second{protocol=\"tcp-recv\",frame_size=\"9000\"} 800000000",
                       "wirebench_rtt_seconds{protocol=\"tcp-recv\",frame_size=\"9000\"} 0.00005",
                       "wirebench_test_info{protocol=\"tcp-recv\",frame_size=\"9000\",bottleneck=\"\",warnings=\"\","
                       "errors=\"127.0.0.1: connection refused\"} 1"}
        << QStringList{"wirebench_ceiling_ratio", "wirebench_retransmitted_segments"};

    json none = {{"results", {run("tcp-send", 1500, "failed")}}, {"summary", {summary("tcp-send", 1500, 0, 0)}}};
    QTest::newRow("nothing measured") << QString::fromStdString(
        none.dump()) << QString() << QStringList{"wirebench_probe_success 0", "wirebench_probe_runs{status=\"ok\"} 0"}
                                      << QStringList{"wirebench_throughput_bytes_per_second", "wirebench_rtt_seconds"};

    json bothWays = {{"results", {run("tcp-bidir", 1500, "ok")}},
                     {"summary", {summary("tcp-bidir", 1500, 1, 50, {{"reverse", {{"median", 40}}}})}}};
    QTest::newRow("both ways")
        << QString::fromStdString(bothWays.dump()) << QString()
        << QStringList{"wirebench_throughput_bytes_per_second{protocol=\"tcp-bidir\",frame_size=\"1500\"} 50000000",
                       "wirebench_throughput_bytes_per_second{protocol=\"tcp-bidir\",frame_size=\"1500\",direction="
                       "\"reverse\"} 40000000"}
        << QStringList();

    QTest::newRow("no JSON, a deadline")
        << QStringLiteral("null") << QStringLiteral("the plan did not end within 4.5 s")
        << QStringList{"wirebench_probe_success 0", "wirebench_probe_runs{status=\"ok\"} 0",
                       "wirebench_probe_info{plan=\"lan\",problem=\"the plan did not end within 4.5 s\"} 1"}
        << QStringList{"wirebench_throughput_bytes_per_second", "wirebench_test_info"};
}

void TestProbeMetrics::metricsOfTheCliJson()
{
    QFETCH(QString, cli);
    QFETCH(QString, problem);
    QFETCH(QStringList, lines);
    QFETCH(QStringList, absent);
    const std::string text = rendered(json::parse(cli.toStdString()), TextFormat::Classic, problem.toStdString());
    for (const QString &line : lines)
        QVERIFY2(QString::fromStdString(text).split(QLatin1Char('\n')).contains(line),
                 qPrintable(line + QStringLiteral("\nnot in:\n") + QString::fromStdString(text)));
    for (const QString &start : absent)
        QVERIFY2(!QString::fromStdString(text).contains(QLatin1Char('\n') + start),
                 qPrintable(start + QStringLiteral(" in:\n") + QString::fromStdString(text)));
    // The same families in OpenMetrics: the info families are typed so, and it ends in # EOF.
    const QString open = QString::fromStdString(
        rendered(json::parse(cli.toStdString()), TextFormat::OpenMetrics, problem.toStdString()));
    QVERIFY(open.endsWith(QStringLiteral("\n# EOF\n")));
    QVERIFY2(open.contains(QStringLiteral("# TYPE wirebench_probe info\n")), qPrintable(open));
    QVERIFY(!sampleLine(open.toStdString(), QStringLiteral("wirebench_probe_success")).isEmpty());
}

void TestProbeMetrics::promtoolAcceptsTheClassicText_data()
{
    metricsOfTheCliJson_data();
}

void TestProbeMetrics::promtoolAcceptsTheClassicText()
{
    WB_REQUIRE(!wb::test::promtoolPath().isEmpty(),
               QStringLiteral("promtool is not installed: apt-get install prometheus "
                              "(scripts/install-deps.sh --test)"));
    QFETCH(QString, cli);
    QFETCH(QString, problem);
    const std::string text = rendered(json::parse(cli.toStdString()), TextFormat::Classic, problem.toStdString());
    QString said;
    QVERIFY2(wb::test::promtoolAccepts(QByteArray::fromStdString(text), &said),
             qPrintable(said + QStringLiteral("\n") + QString::fromStdString(text)));
}

void TestProbeMetrics::examplesInResources()
{
    // resources/prometheus: promtool checks the scrape configuration and the alerts it names.
    WB_REQUIRE(!wb::test::promtoolPath().isEmpty(),
               QStringLiteral("promtool is not installed: apt-get install prometheus"));
    const QString resources = qEnvironmentVariable("WIREBENCH_SOURCE_DIR") + QStringLiteral("/resources");
    QProcess promtool;
    promtool.setProcessChannelMode(QProcess::MergedChannels);
    promtool.start(wb::test::promtoolPath(),
                   {QStringLiteral("check"), QStringLiteral("config"),
                    resources + QStringLiteral("/prometheus/wirebench-probes.yml")});
    QVERIFY(promtool.waitForFinished(60000));
    const QString said = QString::fromUtf8(promtool.readAll());
    QVERIFY2(promtool.exitCode() == 0, qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("wirebench-alerts.yml")) && said.contains(QStringLiteral("4 rules found")),
             qPrintable(said));
    // resources/grafana: the dashboard is JSON, and every metric its panels ask for is one that the probes write.
    QFile file(resources + QStringLiteral("/grafana/wirebench-probes.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const json dashboard = json::parse(file.readAll().toStdString(), nullptr, false);
    QVERIFY(dashboard.is_object());
    json full = {{"results", {run("tcp-send", 1500, "ok", {{"retransmits", 1}, {"rtt_us", 100}})}},
                 {"summary", {summary("tcp-send", 1500, 1, 100, {{"percent_of_ceiling", 80}, {"ceiling_MBps", 125}})}}};
    std::set<std::string> written;
    for (const MetricFamily &f : ProbeMetrics::families(ProbeOutcome{"lan", 1, full, {}}))
        written.insert(f.type == MetricFamily::Type::Info ? f.name + "_info" : f.name);
    int exprs = 0;
    static const QRegularExpression metricName(QStringLiteral("\\bwirebench_[a-z_]+"));
    for (const json &panel : dashboard["panels"]) {
        for (const json &target : panel["targets"]) {
            const QString expr = QString::fromStdString(target["expr"].get<std::string>());
            ++exprs;
            for (const QRegularExpressionMatch &m : metricName.globalMatch(expr))
                QVERIFY2(written.count(m.captured().toStdString()),
                         qPrintable(m.captured() + QStringLiteral(" in ") + expr));
        }
    }
    QCOMPARE(exprs, 9);
}

QTEST_GUILESS_MAIN(TestProbeMetrics)
#include "TestProbeMetrics.moc"
