#pragma once

#include "probe/ProbeConfig.h"
#include "responder/ServerConfig.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb {

/// wirebenchd's command line: the options in the order --help lists them, read from argv (--name VALUE or
/// --name=VALUE, repeatable --allow) and turned into a ServerConfig with the checks and messages of each.
class DaemonOptions
{
public:
    /// -1: go on; else the exit code (0 after --help or --version, 1 for an unknown option or a missing value,
    /// said on stderr).
    int parse(int argc, char *argv[]);
    /// The values into config; false with a one-line message on stderr.
    bool toConfig(ServerConfig *config, std::uint16_t *iperf3Port) const;
    /// The probe endpoint's settings (--probe-*; the scrapers' networks are --allow's): *enabled when --probe-listen
    /// is given. False with a one-line message on stderr.
    bool toProbeConfig(const ServerConfig &server, probe::ProbeConfig *config, bool *enabled) const;

    bool open = false;
    bool service = false; ///< --service: under Windows' service control manager
    std::string keyFile;

private:
    bool has(const char *name) const { return m_values.count(name) > 0; }
    const std::string &value(const char *name) const { return m_values.at(name).back(); }
    /// A number option within [minValue, maxValue]; false with a message on stderr that calls it `what`.
    bool readNumber(const char *name, double minValue, double maxValue, double *out,
                    const char *what = "a number") const;
    bool readAddressAndDuration(ServerConfig *config, std::uint16_t *iperf3Port) const;
    bool readLimits(ServerConfig *config) const;
    static void printHelp(const char *program);

    std::map<std::string, std::vector<std::string>> m_values;
    std::string m_program; ///< argv[0]: wirebench-cli is looked for beside it
};

} // namespace wb
