#include "ProbeMetrics.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace wb::probe {

namespace {

using nlohmann::json;
using Labels = std::vector<std::pair<std::string, std::string>>;

/// A test of the plan: protocol and frame size, as the summary and the results name them.
using TestKey = std::pair<std::string, long long>;

const char *const kStatuses[] = {"ok", "failed", "cancelled", "not-run"};

std::string text(const json &o, const char *key)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool number(const json &o, const char *key, double *out)
{
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number())
        return false;
    *out = it->get<double>();
    return true;
}

TestKey keyOf(const json &o)
{
    double frame = 0;
    number(o, "frame_size", &frame);
    return {text(o, "protocol"), static_cast<long long>(frame)};
}

Labels labelsOf(const TestKey &key)
{
    return {{"protocol", key.first}, {"frame_size", std::to_string(key.second)}};
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The strings of an array, joined with "; " (distinct, in order).
std::string joined(const json &array)
{
    std::string out;
    std::set<std::string> seen;
    if (!array.is_array())
        return out;
    for (const json &item : array) {
        if (!item.is_string() || !seen.insert(item.get<std::string>()).second)
            continue;
        out += (out.empty() ? "" : "; ") + item.get<std::string>();
    }
    return out;
}

/// What the runs of each test say beside the summary: retransmissions, RTTs and warnings of the ok runs.
struct RunFacts
{
    double retransmits = 0;
    bool hasRetransmits = false;
    std::vector<double> rttSeconds;
    json warnings = json::array();
};

std::map<TestKey, RunFacts> runFacts(const json &results, std::map<std::string, int> *statusCounts)
{
    std::map<TestKey, RunFacts> facts;
    if (!results.is_array())
        return facts;
    for (const json &run : results) {
        if (!run.is_object())
            continue;
        ++(*statusCounts)[text(run, "status")];
        if (text(run, "status") != "ok")
            continue;
        RunFacts &f = facts[keyOf(run)];
        double value = 0;
        if (number(run, "retransmits", &value)) {
            f.retransmits += value;
            f.hasRetransmits = true;
        }
        if (number(run, "rtt_us", &value) && value > 0)
            f.rttSeconds.push_back(value / 1e6);
        if (run.contains("warnings") && run["warnings"].is_array())
            for (const json &w : run["warnings"])
                f.warnings.push_back(w);
    }
    return facts;
}

MetricFamily gauge(const char *name, const char *help)
{
    MetricFamily f;
    f.name = name;
    f.help = help;
    return f;
}

/// The per-test families from the summary and the runs' facts.
void addTests(const json &summary, const std::map<TestKey, RunFacts> &facts, std::vector<MetricFamily> *out)
{
    MetricFamily throughput = gauge(
        "wirebench_throughput_bytes_per_second",
        "Median throughput of the ok runs of a test, counted by the receiver, in bytes per second (10^6 = 1 MB/s)");
    MetricFamily ratio = gauge("wirebench_ceiling_ratio",
                               "That median over the line-rate TCP ceiling of the link (1 = 100 % of the ceiling); "
                               "only when the link speed is known");
    MetricFamily ceiling = gauge("wirebench_ceiling_bytes_per_second",
                                 "The line-rate TCP ceiling for the segments the runs sent, in bytes per second");
    MetricFamily retransmits = gauge("wirebench_retransmitted_segments",
                                     "TCP segments retransmitted by the sender, summed over the ok runs of the test");
    MetricFamily rtt = gauge("wirebench_rtt_seconds",
                             "Median over the ok runs of the sender's smoothed TCP round-trip time, in seconds");
    MetricFamily info{"wirebench_test",
                      MetricFamily::Type::Info,
                      "A test's likely bottleneck, warnings and errors in words (value 1)",
                      {}};
    for (const json &test : summary.is_array() ? summary : json::array()) {
        if (!test.is_object())
            continue;
        const TestKey key = keyOf(test);
        const Labels labels = labelsOf(key);
        double okRuns = 0, value = 0;
        number(test, "ok_runs", &okRuns);
        if (okRuns > 0 && number(test, "median", &value))
            throughput.samples.push_back({labels, value * 1e6});
        if (okRuns > 0 && test.contains("reverse") && number(test["reverse"], "median", &value)) {
            Labels reverse = labels;
            reverse.emplace_back("direction", "reverse");
            throughput.samples.push_back({reverse, value * 1e6});
        }
        if (number(test, "percent_of_ceiling", &value))
            ratio.samples.push_back({labels, value / 100});
        if (number(test, "ceiling_MBps", &value))
            ceiling.samples.push_back({labels, value * 1e6});
        const auto f = facts.find(key);
        if (f != facts.end() && f->second.hasRetransmits)
            retransmits.samples.push_back({labels, f->second.retransmits});
        if (f != facts.end() && !f->second.rttSeconds.empty())
            rtt.samples.push_back({labels, median(f->second.rttSeconds)});
        Labels words = labels;
        words.emplace_back("bottleneck", text(test, "bottleneck"));
        words.emplace_back("warnings", f == facts.end() ? std::string() : joined(f->second.warnings));
        words.emplace_back("errors", test.contains("errors") ? joined(test["errors"]) : std::string());
        info.samples.push_back({words, 1});
    }
    for (MetricFamily *family : {&throughput, &ratio, &ceiling, &retransmits, &rtt, &info})
        if (!family->samples.empty())
            out->push_back(std::move(*family));
}

} // namespace

std::vector<MetricFamily> ProbeMetrics::families(const ProbeOutcome &outcome)
{
    const json &cli = outcome.cliJson;
    const json results = cli.is_object() && cli.contains("results") ? cli["results"] : json::array();
    const json summary = cli.is_object() && cli.contains("summary") ? cli["summary"] : json::array();
    std::map<std::string, int> statusCounts;
    const std::map<TestKey, RunFacts> facts = runFacts(results, &statusCounts);
    int runs = 0;
    for (const auto &[status, count] : statusCounts)
        runs += count;
    const bool success = outcome.problem.empty() && runs > 0 && statusCounts["ok"] == runs;

    std::vector<MetricFamily> out;
    MetricFamily ok
        = gauge("wirebench_probe_success", "1 when the plan ran to its end and every run succeeded, else 0");
    ok.samples.push_back({{}, success ? 1.0 : 0.0});
    out.push_back(ok);
    MetricFamily duration = gauge("wirebench_probe_duration_seconds",
                                  "Time the probe took, from the request to the end of the plan, in seconds");
    duration.samples.push_back({{}, outcome.durationSeconds});
    out.push_back(duration);
    MetricFamily runCounts
        = gauge("wirebench_probe_runs", "Runs of the plan by their status (ok, failed, cancelled, not-run)");
    for (const char *status : kStatuses)
        runCounts.samples.push_back({{{"status", status}}, double(statusCounts[status])});
    out.push_back(runCounts);
    MetricFamily info{"wirebench_probe",
                      MetricFamily::Type::Info,
                      "The plan a probe ran and why it failed as a whole, if it did (value 1)",
                      {}};
    info.samples.push_back({{{"plan", outcome.plan}, {"problem", outcome.problem}}, 1});
    out.push_back(info);
    addTests(summary, facts, &out);
    return out;
}

} // namespace wb::probe
