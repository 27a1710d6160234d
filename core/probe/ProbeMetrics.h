#pragma once

#include "MetricsText.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace wb::probe {

/// What one probe gave: the CLI's JSON (docs/CLI.md, "JSON schema") when it wrote one, and why the probe failed as
/// a whole when it did (the deadline, a CLI that could not run the plan).
struct ProbeOutcome
{
    std::string plan;           ///< the plan's name as the scraper asked for it
    double durationSeconds = 0; ///< from the request to the CLI's end
    nlohmann::json cliJson;     ///< {"meta", "results", "summary"}; null when there is none
    std::string problem;        ///< one line; empty when the probe ran to its end
};

/// The CLI's JSON as Prometheus metrics, in base units (bytes per second, seconds, ratios of 1):
///   wirebench_probe_success, wirebench_probe_duration_seconds, wirebench_probe_runs{status},
///   wirebench_probe_info{plan,problem},
///   and per protocol and frame size (labels protocol, frame_size; a both-ways test's second figure
///   direction="reverse"): wirebench_throughput_bytes_per_second (the median of the ok runs), wirebench_ceiling_ratio
///   (that median over the line-rate ceiling), wirebench_ceiling_bytes_per_second, wirebench_retransmitted_segments
///   (TCP retransmissions, summed over the runs), wirebench_rtt_seconds (the runs' median smoothed RTT), and
///   wirebench_test_info{bottleneck,warnings,errors} = 1.
class ProbeMetrics
{
public:
    static std::vector<MetricFamily> families(const ProbeOutcome &outcome);
};

} // namespace wb::probe
