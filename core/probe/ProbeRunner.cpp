#include "ProbeRunner.h"

#include "ProbeMetrics.h"
#include "ProbeProcess.h"
#include "net/Socket.h"
#include "wire/PrintableText.h"
#include "wire/Text.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace wb::probe {

namespace {

using nlohmann::json;
using wire::Arg;

constexpr std::int64_t kSecondNs = 1'000'000'000;

/// Every occurrence of from in text replaced by to (the temporary plan's path by the plan's own in messages).
std::string replaced(std::string text, const std::string &from, const std::string &to)
{
    for (std::size_t at = text.find(from); !from.empty() && at != std::string::npos;
         at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

/// The child's stderr as one line for the body and the log: its lines joined, capped.
std::string oneLine(const std::string &text)
{
    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        line = wire::trimmed(line);
        if (!line.empty())
            out += (out.empty() ? "" : " | ") + line;
    }
    return wire::printableText(out, 600);
}

bool writeFile(const std::string &path, const std::string &content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    return bool(out.flush());
}

json readJson(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return nullptr;
    std::ostringstream content;
    content << in.rdbuf();
    json parsed = json::parse(content.str(), nullptr, false);
    return parsed.is_discarded() ? json(nullptr) : parsed;
}

/// The deadline's sentence for a CLI that was stopped at it.
std::string deadlineProblem(double budgetSeconds, double scrapeTimeout)
{
    return scrapeTimeout > 0
        ? Arg("the plan did not end within %1 s (the scrape timeout %2 s, or --probe-max-duration): "
              "shorten the plan or raise scrape_timeout")
              .arg(budgetSeconds, 0, 'f', 1)
              .arg(scrapeTimeout)
              .str()
        : Arg("the plan did not end within %1 s (--probe-max-duration and %2 s for wirebench-cli to "
              "start): shorten the plan or raise --probe-max-duration")
              .arg(budgetSeconds, 0, 'f', 1)
              .arg(ProbeRunner::kOverheadSeconds)
              .str();
}

} // namespace

ProbeRunner::ProbeRunner(const ProbeConfig &config, LogSink log)
    : m_config(config)
    , m_plans(config.planDirectory)
    , m_log(std::move(log))
{
}

void ProbeRunner::log(const std::string &line) const
{
    if (m_log)
        m_log(wire::safeLogLine(line));
}

void ProbeRunner::stop()
{
    m_stop.store(true);
}

HttpResponse ProbeRunner::refuse(int status, const std::string &client, const std::string &message)
{
    log(Arg("probe endpoint: %1 from %2: %3").arg(HttpResponse::statusText(status), client, message));
    HttpResponse r = HttpResponse::text(status, "wirebenchd: " + message);
    if (status == 405)
        r.extraHeaders = "Allow: GET\r\n";
    return r;
}

HttpResponse ProbeRunner::answer(const HttpRequest &request, const std::string &client)
{
    if (request.method != "GET")
        return refuse(405, client,
                      Arg("the probe endpoint answers GET only, not %1: ask GET /probe?target=HOST&plan=NAME")
                          .arg(wire::printableText(request.method, 40)));
    if (request.path == "/probe")
        return probe(request, client);
    if (request.path == "/") {
        std::string plans;
        for (const std::string &name : m_plans.names())
            plans += (plans.empty() ? "" : ", ") + name;
        return HttpResponse::text(
            200,
            Arg("wirebenchd %1 probe endpoint: GET /probe?target=HOST&plan=NAME runs the plan NAME of "
                "%2 against HOST, one of its hosts, and answers its figures as Prometheus metrics.\n"
                "Plans: %3")
                .arg(WIREBENCH_VERSION, m_config.planDirectory, plans.empty() ? "none" : plans));
    }
    return refuse(404, client,
                  Arg("no page %1 here: the probe endpoint is /probe?target=HOST&plan=NAME")
                      .arg(wire::printableText(request.path, 200)));
}

std::int64_t ProbeRunner::budgetNs(const HttpRequest &request, double *scrapeTimeout) const
{
    double seconds = m_config.maxDurationMs / 1000.0 + kOverheadSeconds;
    *scrapeTimeout = 0;
    const std::string header = request.header("x-prometheus-scrape-timeout-seconds");
    char *end = nullptr;
    const double timeout = std::strtod(header.c_str(), &end);
    if (!header.empty() && end && *end == '\0' && timeout > 0) {
        // Half a second before the scraper gives up (a tenth of a short timeout), so that the answer gets there.
        *scrapeTimeout = timeout;
        seconds = std::min(seconds, timeout - std::min(0.5, timeout / 10));
    }
    return std::int64_t(seconds * double(kSecondNs));
}

HttpResponse ProbeRunner::probe(const HttpRequest &request, const std::string &client)
{
    const std::int64_t startNs = net::nowNs();
    const auto targetIt = request.query.find("target");
    const auto planIt = request.query.find("plan");
    if (targetIt == request.query.end() || planIt == request.query.end() || targetIt->second.empty())
        return refuse(400, client, "a probe names its target and plan: /probe?target=HOST&plan=NAME");
    const std::string target = wire::printableText(targetIt->second, 200);
    ProbePlan plan;
    std::string why;
    switch (m_plans.find(planIt->second, &plan, &why)) {
    case ProbePlans::Lookup::Found:
        break;
    case ProbePlans::Lookup::BadName:
        return refuse(400, client, Arg("plan \"%1\": %2").arg(wire::printableText(planIt->second, 200), why));
    case ProbePlans::Lookup::NotFound: {
        std::string names;
        for (const std::string &name : m_plans.names())
            names += (names.empty() ? "" : ", ") + name;
        return refuse(
            404, client,
            Arg("%1; the plans here: %2").arg(why, names.empty() ? "none (put .wbplan.json files there)" : names));
    }
    case ProbePlans::Lookup::Unusable:
        return refuse(500, client, why);
    }
    const int hostIndex = ProbePlans::hostIndex(plan.file, target);
    if (hostIndex < 0)
        return refuse(403, client,
                      Arg("target %1 is not a host of plan %2 (its hosts: %3): a probe goes only to the hosts "
                          "its plan names; add the host to %4 or probe one of those")
                          .arg(target, plan.name, ProbePlans::hostsText(plan.file))
                          .arg(plan.path));
    const double estimate = ProbePlans::estimatedSeconds(plan.file);
    if (estimate > m_config.maxDurationMs / 1000.0)
        return refuse(403, client,
                      Arg("plan %1 takes about %2 s, longer than a probe may run (--probe-max-duration %3 s): "
                          "shorten its runs or raise --probe-max-duration")
                          .arg(plan.name)
                          .arg(estimate)
                          .arg(m_config.maxDurationMs / 1000.0));
    const std::string what = Arg("plan %1 to %2 for %3").arg(plan.name, target, client);
    {
        std::lock_guard lk(m_mutex);
        if (m_stop.load())
            return refuse(503, client, "wirebenchd is stopping");
        if (m_busy)
            return refuse(503, client,
                          Arg("busy: one probe at a time, and %1 is running; give this target's scrapes "
                              "a scrape_interval that leaves room for the others' probes")
                              .arg(m_running));
        m_busy = true;
        m_running = what;
    }
    double scrapeTimeout = 0;
    const std::int64_t budget = budgetNs(request, &scrapeTimeout);
    HttpResponse response;
    if (estimate + kOverheadSeconds / 3 > double(budget) / double(kSecondNs) && scrapeTimeout > 0) {
        ProbeOutcome outcome{
            plan.name, 0, nullptr,
            Arg("the plan takes about %1 s, more than the scrape timeout %2 s leaves it: raise this job's "
                "scrape_timeout (and scrape_interval) above %3 s, or shorten the plan")
                .arg(estimate)
                .arg(scrapeTimeout)
                .arg(estimate + kOverheadSeconds)
                .str()};
        log(Arg("probe endpoint: %1 not run: %2").arg(what, outcome.problem));
        response = metrics(outcome, MetricsText::formatFor(request.header("accept")));
    } else {
        response = runPlan(plan, hostIndex, startNs, startNs + budget, scrapeTimeout,
                           MetricsText::formatFor(request.header("accept")), what);
    }
    std::lock_guard lk(m_mutex);
    m_busy = false;
    m_running.clear();
    return response;
}

HttpResponse ProbeRunner::metrics(const ProbeOutcome &outcome, TextFormat format) const
{
    HttpResponse r;
    r.contentType = MetricsText::contentType(format);
    r.body = MetricsText::render(ProbeMetrics::families(outcome), format);
    return r;
}

HttpResponse ProbeRunner::runPlan(const ProbePlan &plan, int hostIndex, std::int64_t startNs, std::int64_t deadlineNs,
                                  double scrapeTimeout, TextFormat format, const std::string &what)
{
    std::string error;
    const std::string dir = ProbeProcess::makeTempDir(&error);
    if (dir.empty())
        return refuse(500, what, error);
    const std::string planPath = dir + "/" + plan.name + ProbePlans::kSuffix;
    const std::string resultPath = dir + "/results.json";
    if (!writeFile(planPath, ProbePlans::withOnlyHost(plan.file, hostIndex).dump(2))) {
        ProbeProcess::removeTempDir(dir);
        return refuse(500, what, Arg("cannot write the probe's plan to %1").arg(planPath));
    }
    std::vector<std::string> argv{m_config.cliPath, "run", "--plan", planPath, "--json", resultPath, "--no-store"};
    if (!m_config.keyFile.empty())
        argv.insert(argv.end(), {"--key-file", m_config.keyFile});
    if (!m_config.secretsFile.empty()) // lines of the plan's other hosts are left by wirebench-cli
        argv.insert(argv.end(), {"--secrets", m_config.secretsFile});
    log(Arg("probe endpoint: running %1").arg(what));
    const ProcessResult child = ProbeProcess::run(argv, deadlineNs, m_stop);
    ProbeOutcome outcome{plan.name, double(net::nowNs() - startNs) / double(kSecondNs), readJson(resultPath), {}};
    ProbeProcess::removeTempDir(dir);
    const std::string said = replaced(oneLine(child.errorOutput), planPath, plan.path);
    if (!child.started)
        return refuse(
            500, what,
            Arg("%1: install wirebench-cli beside wirebenchd or name it with --probe-cli PATH").arg(child.error));
    if (child.exitCode == 2 && !child.timedOut)
        return refuse(500, what, Arg("wirebench-cli cannot run plan %1 (%2): %3").arg(plan.name, plan.path, said));
    if (child.timedOut)
        outcome.problem = deadlineProblem(double(deadlineNs - startNs) / double(kSecondNs), scrapeTimeout);
    else if (child.stopped)
        outcome.problem = "wirebenchd stopped during the probe";
    else if (outcome.cliJson.is_null())
        outcome.problem = Arg("wirebench-cli wrote no results (exit status %1%2): %3")
                              .arg(child.exitCode)
                              .arg(child.error.empty() ? std::string() : ", " + child.error)
                              .arg(said.empty() ? std::string("it said nothing") : said);
    const ProbeOutcome &o = outcome;
    log(Arg("probe endpoint: %1: %2 in %3 s%4")
            .arg(what, o.problem.empty() ? "done" : "failed")
            .arg(o.durationSeconds, 0, 'f', 1)
            .arg(o.problem.empty() ? (child.exitCode == 0 ? std::string() : ": " + said) : ": " + o.problem));
    return metrics(outcome, format);
}

} // namespace wb::probe
