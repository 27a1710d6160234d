#pragma once

#include "HttpRequest.h"
#include "HttpResponse.h"
#include "MetricsText.h"
#include "ProbeConfig.h"
#include "ProbeMetrics.h"
#include "ProbePlans.h"
#include "responder/ServerConfig.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace wb::probe {

/// What the probe endpoint answers to a request, apart from the sockets (ProbeServer reads and writes those):
/// the checks of the path, the plan and the target, one probe at a time, the deadline of --probe-max-duration and
/// of the scraper's X-Prometheus-Scrape-Timeout-Seconds, and wirebench-cli as a child (ProbeProcess) whose JSON
/// becomes the metrics (ProbeMetrics). Called from the connections' threads at once.
class ProbeRunner
{
public:
    ProbeRunner(const ProbeConfig &config, LogSink log);

    /// The answer to a request from client ("192.0.2.5:40312"), logged when it is a probe or a refusal.
    HttpResponse answer(const HttpRequest &request, const std::string &client);
    /// A running probe is stopped (its child ended); later requests get 503.
    void stop();

    /// Seconds wirebench-cli takes beyond the plan's timed runs (start, the check before the first run, handshakes).
    static constexpr double kOverheadSeconds = 3;

private:
    HttpResponse probe(const HttpRequest &request, const std::string &client);
    /// The plan's one host run by wirebench-cli until deadlineNs; the metrics, or 500 when the CLI cannot run it.
    HttpResponse runPlan(const ProbePlan &plan, int hostIndex, std::int64_t startNs, std::int64_t deadlineNs,
                         double scrapeTimeout, TextFormat format, const std::string &what);
    /// The time a probe may take: --probe-max-duration and the overhead, within the scraper's own timeout (a
    /// little before it, so that the answer reaches it).
    std::int64_t budgetNs(const HttpRequest &request, double *scrapeTimeout) const;
    HttpResponse refuse(int status, const std::string &client, const std::string &message);
    HttpResponse metrics(const ProbeOutcome &outcome, TextFormat format) const;
    void log(const std::string &line) const;

    ProbeConfig m_config;
    ProbePlans m_plans;
    LogSink m_log;
    std::atomic_bool m_stop{false};
    std::mutex m_mutex; // guards the two below
    bool m_busy = false;
    std::string m_running; ///< "plan lan to 192.0.2.10 for 192.0.2.5:40312, since 12:03:04"
};

} // namespace wb::probe
