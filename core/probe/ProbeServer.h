#pragma once

#include "ProbeConfig.h"
#include "responder/ServerConfig.h"

#include <cstdint>
#include <memory>
#include <string>

namespace wb::probe {

/// wirebenchd's probe endpoint, the pattern of Prometheus's blackbox exporter: GET /probe?target=HOST&plan=NAME runs
/// the named plan of the plan directory from this host to the target (wirebench-cli, one probe at a time) and
/// answers its figures as metrics (ProbeMetrics), in OpenMetrics when the scraper's Accept asks for it, else in the
/// classic text format. The refusals, each with its reason in the body and the log: 400 a broken request or plan
/// name, 403 a scraper outside --allow, a target the plan does not name or a plan longer than --probe-max-duration,
/// 404 an unknown path or plan, 405 not GET, 413 a request head over 8 KiB, 429 an address with
/// --probe-max-per-address requests in flight already, 503 a probe already running or 8 connections at once.
/// Standard C++ and the sockets of core/net: a thread accepts, one thread per connection answers.
class ProbeServer
{
public:
    ProbeServer(const ProbeConfig &config, LogSink log);
    ~ProbeServer();
    ProbeServer(const ProbeServer &) = delete;
    ProbeServer &operator=(const ProbeServer &) = delete;

    /// Binds and starts serving; false with a one-line reason in *error.
    bool start(std::string *error);
    /// Stops serving; a probe that runs is stopped (its child ended and reaped).
    void stop();
    std::uint16_t port() const;
    /// The plan folder is there (checked at start, before anything listens); false with what to do in *error.
    static bool checkPlanDirectory(const std::string &directory, std::string *error);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace wb::probe
