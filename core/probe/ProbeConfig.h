#pragma once

#include "net/Address.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb::probe {

/// Settings of wirebenchd's probe endpoint (--probe-listen and the --probe-* options), with their defaults.
struct ProbeConfig
{
    platform::IpAddress address = net::anyAddress();
    std::uint16_t port = 9531;             ///< 0 = any free port
    std::string planDirectory;             ///< --probe-plans: the plans a scraper may name
    std::string cliPath = "wirebench-cli"; ///< beside wirebenchd, else from PATH (--probe-cli)
    std::string keyFile;                   ///< --probe-key-file: the targets' wirebenchd key, for wirebench-cli
    std::string secretsFile;               ///< --probe-secrets: the targets' passwords, wirebench-cli's --secrets
    int maxDurationMs = 30000;             ///< --probe-max-duration: the longest plan a probe runs
    std::vector<net::Subnet> allow;        ///< scrapers served (--allow); empty = all
    int requestTimeoutMs = 5000;           ///< a request's head must come whole within this
    int maxConnections = 8;                ///< connections at once; more are closed at once
    int maxPerAddress = 2;                 ///< --probe-max-per-address: requests in flight from one address; more: 429
};

} // namespace wb::probe
