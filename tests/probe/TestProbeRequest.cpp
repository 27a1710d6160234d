// What a probe request names (core/probe): HttpRequest's reading of the head, and ProbePlans' of the plan
// directory: which names are plans, which targets a plan names, how long it runs.
#include "probe/HttpRequest.h"
#include "probe/ProbePlans.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wb::probe;
using nlohmann::json;

namespace {

json planFile(const json &hosts, json extra = json::object())
{
    json plan = {{"hosts", hosts},
                 {"protocols", {"tcp-send"}},
                 {"frame_sizes", {1500}},
                 {"repetitions", 1},
                 {"params", {{"duration_ms", 1000}}}};
    plan.update(extra);
    return {{"format", "wirebench-plan"}, {"version", 1}, {"plan", plan}};
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

} // namespace

class TestProbeRequest : public QObject
{
    Q_OBJECT
private slots:
    void headEnd_data();
    void headEnd();
    void parse_data();
    void parse();
    void planNames_data();
    void planNames();
    void findsPlansInTheDirectory();
    void targets_data();
    void targets();
    void estimatedSeconds_data();
    void estimatedSeconds();
    void withOnlyHostKeepsTheRest();
};

void TestProbeRequest::headEnd_data()
{
    QTest::addColumn<QString>("buffer");
    QTest::addColumn<int>("end");
    QTest::newRow("crlf") << "GET / HTTP/1.1\r\nHost: x\r\n\r\n" << 27;
    QTest::newRow("bare lf") << "GET / HTTP/1.1\nHost: x\n\n" << 24;
    QTest::newRow("not yet") << "GET / HTTP/1.1\r\nHost: x\r\n" << 0;
    QTest::newRow("with more after") << "GET / HTTP/1.1\r\n\r\nrest" << 18;
}

void TestProbeRequest::headEnd()
{
    QFETCH(QString, buffer);
    QFETCH(int, end);
    QCOMPARE(int(HttpRequest::headEnd(buffer.toStdString())), end);
}

void TestProbeRequest::parse_data()
{
    QTest::addColumn<QString>("head");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("plan");
    QTest::addColumn<QString>("timeout"); // X-Prometheus-Scrape-Timeout-Seconds
    QTest::newRow("prometheus")
        << "GET /probe?plan=lan&target=192.0.2.10 HTTP/1.1\r\nHost: 127.0.0.1:9531\r\nUser-Agent: Prometheus/2.42.0\r\n"
           "Accept: application/openmetrics-text;version=1.0.0\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n"
        << true << "GET"
        << "/probe"
        << "192.0.2.10"
        << "lan"
        << "10";
    QTest::newRow("escapes") << "GET /probe?target=%5B%3A%3A1%5D%3A5301&plan=my+plan HTTP/1.0\r\n\r\n"
                             << true << "GET"
                             << "/probe"
                             << "[::1]:5301"
                             << "my plan"
                             << "";
    QTest::newRow("the first of a name") << "GET /probe?target=a&target=b&plan=x HTTP/1.1\r\n\r\n"
                                         << true << "GET"
                                         << "/probe"
                                         << "a"
                                         << "x"
                                         << "";
    QTest::newRow("header names in any case") << "POST / HTTP/1.1\r\nx-PROMETHEUS-scrape-timeout-seconds:  4.5 \r\n\r\n"
                                              << true << "POST"
                                              << "/"
                                              << ""
                                              << ""
                                              << "4.5";
    QTest::newRow("dot dot escaped") << "GET /probe?plan=%2e%2e%2Fetc HTTP/1.1\r\n\r\n"
                                     << true << "GET"
                                     << "/probe"
                                     << ""
                                     << "../etc"
                                     << "";
    QTest::newRow("broken escape") << "GET /probe?target=%zz HTTP/1.1\r\n\r\n"
                                   << false << ""
                                   << ""
                                   << ""
                                   << ""
                                   << "";
    QTest::newRow("truncated escape") << "GET /probe?target=%2 HTTP/1.1\r\n\r\n"
                                      << false << ""
                                      << ""
                                      << ""
                                      << ""
                                      << "";
    QTest::newRow("not http") << "HELLO\r\n\r\n"
                              << false << ""
                              << ""
                              << ""
                              << ""
                              << "";
    QTest::newRow("http/2 preface") << "PRI * HTTP/2.0\r\n\r\n"
                                    << false << ""
                                    << ""
                                    << ""
                                    << ""
                                    << "";
    QTest::newRow("no slash") << "GET probe HTTP/1.1\r\n\r\n"
                              << false << ""
                              << ""
                              << ""
                              << ""
                              << "";
    QTest::newRow("header without colon") << "GET / HTTP/1.1\r\nnonsense\r\n\r\n"
                                          << false << ""
                                          << ""
                                          << ""
                                          << ""
                                          << "";
}

void TestProbeRequest::parse()
{
    QFETCH(QString, head);
    QFETCH(bool, ok);
    HttpRequest r;
    std::string error;
    QCOMPARE(HttpRequest::parse(head.toStdString(), &r, &error), ok);
    if (!ok) {
        QVERIFY(!error.empty());
        return;
    }
    QTEST(QString::fromStdString(r.method), "method");
    QTEST(QString::fromStdString(r.path), "path");
    QTEST(QString::fromStdString(r.query.count("target") ? r.query.at("target") : std::string()), "target");
    QTEST(QString::fromStdString(r.query.count("plan") ? r.query.at("plan") : std::string()), "plan");
    QTEST(QString::fromStdString(r.header("x-prometheus-scrape-timeout-seconds")), "timeout");
}

void TestProbeRequest::planNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::newRow("plain") << "lan" << true;
    QTest::newRow("with the suffix") << "lan.wbplan.json" << true;
    QTest::newRow("dashes and dots") << "site-a.v2" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("a path") << "plans/lan" << false;
    QTest::newRow("absolute") << "/etc/passwd" << false;
    QTest::newRow("backslash") << "..\\lan" << false;
    QTest::newRow("dot dot") << ".." << false;
    QTest::newRow("dot dot inside") << "a..b" << false;
    QTest::newRow("hidden") << ".lan" << false;
    QTest::newRow("control") << "lan\n" << false;
    QTest::newRow("too long") << QString(201, QLatin1Char('a')) << false;
}

void TestProbeRequest::planNames()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    std::string why;
    QCOMPARE(ProbePlans::validName(name.toStdString(), &why), valid);
    QCOMPARE(why.empty(), valid);
}

void TestProbeRequest::findsPlansInTheDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(
        dir.filePath(QStringLiteral("lan.wbplan.json")),
        QByteArray::fromStdString(planFile(json::array({{{"address", "127.0.0.1"}, {"port", 5301}}})).dump())));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("broken.wbplan.json")), "{not json"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("other.wbplan.json")), R"({"format": "something-else"})"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("notes.txt")), "not a plan"));
    const ProbePlans plans(dir.path().toStdString());
    QCOMPARE(plans.names(), (std::vector<std::string>{"broken", "lan", "other"}));
    ProbePlan plan;
    std::string why;
    QCOMPARE(plans.find("lan", &plan, &why), ProbePlans::Lookup::Found);
    QCOMPARE(QString::fromStdString(plan.path), dir.filePath(QStringLiteral("lan.wbplan.json")));
    QCOMPARE(plans.find("lan.wbplan.json", &plan, &why), ProbePlans::Lookup::Found);
    QCOMPARE(QString::fromStdString(plan.name), QStringLiteral("lan"));
    QCOMPARE(plans.find("wan", &plan, &why), ProbePlans::Lookup::NotFound);
    QVERIFY2(QString::fromStdString(why).contains(QStringLiteral("no plan \"wan\"")), why.c_str());
    QCOMPARE(plans.find("broken", &plan, &why), ProbePlans::Lookup::Unusable);
    QVERIFY2(QString::fromStdString(why).contains(QStringLiteral("is not JSON")), why.c_str());
    QCOMPARE(plans.find("other", &plan, &why), ProbePlans::Lookup::Unusable);
    QVERIFY2(QString::fromStdString(why).contains(QStringLiteral("not a Wirebench plan")), why.c_str());
    QCOMPARE(plans.find("../lan", &plan, &why), ProbePlans::Lookup::BadName);
    QCOMPARE(plans.find("notes.txt", &plan, &why), ProbePlans::Lookup::NotFound);
}

void TestProbeRequest::targets_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<int>("index");
    QTest::newRow("address") << "192.0.2.10" << 0;
    QTest::newRow("address and port") << "192.0.2.10:5301" << 0;
    QTest::newRow("name, any case") << "Lab-Srv" << 0;
    QTest::newRow("second host") << "2001:db8::20" << 1;
    QTest::newRow("ipv6 and port") << "[2001:db8::20]:5400" << 1;
    QTest::newRow("wrong port") << "192.0.2.10:5302" << -1;
    QTest::newRow("not in the plan") << "192.0.2.99" << -1;
    QTest::newRow("empty") << "" << -1;
}

void TestProbeRequest::targets()
{
    QFETCH(QString, target);
    QFETCH(int, index);
    const json file = planFile(json::array({{{"name", "lab-srv"}, {"address", "192.0.2.10"}, {"port", 5301}},
                                            {{"address", "2001:db8::20"}, {"port", 5400}}}));
    QCOMPARE(ProbePlans::hostIndex(file, target.toStdString()), index);
    QCOMPARE(QString::fromStdString(ProbePlans::hostsText(file)), QStringLiteral("192.0.2.10 (lab-srv), 2001:db8::20"));
}

void TestProbeRequest::estimatedSeconds_data()
{
    QTest::addColumn<QString>("plan");
    QTest::addColumn<double>("seconds");
    QTest::newRow("one run of 1 s") << "{}" << 1.0;
    QTest::newRow("2 protocols x 2 frames x 3 reps x (2 s + 0.5 s)")
        << R"({"protocols": ["tcp-send", "tcp-recv"], "frame_sizes": [1500, 9000], "repetitions": 3,
               "params": {"duration_ms": 2000, "warmup_ms": 500}})"
        << 30.0;
    QTest::newRow("reference streams") << R"({"reference_streams": true, "reference_ms": 1500})" << 4.0;
    QTest::newRow("defaults: 5 reps of 10 s") << R"({"repetitions": null, "params": {}})" << 50.0;
}

void TestProbeRequest::estimatedSeconds()
{
    QFETCH(QString, plan);
    QFETCH(double, seconds);
    json file = planFile(json::array());
    json extra = json::parse(plan.toStdString());
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (it->is_null())
            file["plan"].erase(it.key());
        else
            file["plan"][it.key()] = *it;
    }
    QCOMPARE(ProbePlans::estimatedSeconds(file), seconds);
}

void TestProbeRequest::withOnlyHostKeepsTheRest()
{
    const json file
        = planFile(json::array({{{"address", "192.0.2.10"}}, {{"address", "192.0.2.11"}, {"options", {{"a", 1}}}}}),
                   {{"future_field", "kept"}});
    const json only = ProbePlans::withOnlyHost(file, 1);
    QCOMPARE(only["plan"]["hosts"].size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(only["plan"]["hosts"][0]["address"].get<std::string>()),
             QStringLiteral("192.0.2.11"));
    QCOMPARE(only["plan"]["hosts"][0]["options"]["a"].get<int>(), 1);
    QCOMPARE(QString::fromStdString(only["plan"]["future_field"].get<std::string>()), QStringLiteral("kept"));
    QCOMPARE(QString::fromStdString(only["format"].get<std::string>()), QStringLiteral("wirebench-plan"));
}

QTEST_GUILESS_MAIN(TestProbeRequest)
#include "TestProbeRequest.moc"
