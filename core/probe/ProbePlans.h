#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace wb::probe {

/// A plan of the probe directory, read: its file and what the probe needs of it.
struct ProbePlan
{
    std::string name;    ///< as the scraper asked for it ("lan")
    std::string path;    ///< DIR/lan.wbplan.json
    nlohmann::json file; ///< the whole file, {"format": "wirebench-plan", "plan": {...}} or a bare plan
};

/// The directory of plan files that wirebenchd's probes may run (--probe-plans): a plan is asked for by its file
/// name without ".wbplan.json", and a probe goes only to a host that its plan names.
class ProbePlans
{
public:
    explicit ProbePlans(std::string directory)
        : m_directory(std::move(directory))
    {
    }

    enum class Lookup { Found, BadName, NotFound, Unusable };

    const std::string &directory() const { return m_directory; }
    /// A plan name is a file name in the directory: not empty, no '/', '\\', "..", leading '.' or control
    /// characters, at most 200 bytes. False with the reason.
    static bool validName(const std::string &name, std::string *why);
    /// The plan called name: Found, or BadName / NotFound / Unusable (not JSON, not a plan) with the reason.
    Lookup find(const std::string &name, ProbePlan *plan, std::string *why) const;
    /// The plans of the directory by name, sorted (for the answer to an unknown name).
    std::vector<std::string> names() const;

    /// The plan object of a file (its "plan", or the file itself when bare).
    static const nlohmann::json &planObject(const nlohmann::json &file);
    /// The index of the plan's host that target names: its address, its name, or address:port; -1 when none does.
    static int hostIndex(const nlohmann::json &file, const std::string &target);
    /// "192.0.2.10 (lab-srv)" for the hosts the plan names, comma-separated.
    static std::string hostsText(const nlohmann::json &file);
    /// The file with that one host left, as wirebench-cli is to run it.
    static nlohmann::json withOnlyHost(const nlohmann::json &file, int index);
    /// Seconds the plan's timed runs take against one host: protocols x frame sizes x repetitions x (duration +
    /// warm-up), plus its reference streams; a file transfer's own time is not known before it runs.
    static double estimatedSeconds(const nlohmann::json &file);

    static constexpr const char *kSuffix = ".wbplan.json";

private:
    std::string m_directory;
};

} // namespace wb::probe
