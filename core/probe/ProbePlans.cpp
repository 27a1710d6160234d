#include "ProbePlans.h"

#include "wire/Text.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace wb::probe {

namespace {

using nlohmann::json;
using wire::Arg;

bool endsWith(const std::string &text, const std::string &tail)
{
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

std::string stringOf(const json &o, const char *key)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double numberOf(const json &o, const char *key, double fallback)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : fallback;
}

const json &hostsOf(const json &file)
{
    static const json none = json::array();
    const json &plan = ProbePlans::planObject(file);
    const auto it = plan.find("hosts");
    return it != plan.end() && it->is_array() ? *it : none;
}

} // namespace

bool ProbePlans::validName(const std::string &name, std::string *why)
{
    const bool control = std::any_of(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
    if (name.empty())
        *why = "the plan name is empty";
    else if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
        *why = "a plan name is a file name in the plan directory, not a path (no / or \\)";
    else if (name.find("..") != std::string::npos || name.front() == '.')
        *why = "a plan name may not hold \"..\" or start with '.'";
    else if (control)
        *why = "a plan name may not hold control characters";
    else if (name.size() > 200)
        *why = "the plan name is longer than 200 bytes";
    else
        return true;
    return false;
}

ProbePlans::Lookup ProbePlans::find(const std::string &name, ProbePlan *plan, std::string *why) const
{
    if (!validName(name, why))
        return Lookup::BadName;
    const std::string base = endsWith(name, kSuffix) ? name.substr(0, name.size() - std::string(kSuffix).size()) : name;
    const std::string path = m_directory + "/" + base + kSuffix;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        *why = Arg("no plan \"%1\" in %2 (no file %3)").arg(base, m_directory, path);
        return Lookup::NotFound;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    if (!in) {
        *why = Arg("cannot read the plan file %1").arg(path);
        return Lookup::Unusable;
    }
    json file = json::parse(content.str(), nullptr, false);
    if (file.is_discarded() || !file.is_object()) {
        *why = Arg("the plan file %1 is not JSON: save it again from Wirebench (File > Save plan) or with "
                   "wirebench-cli run ... --save-plan")
                   .arg(path);
        return Lookup::Unusable;
    }
    if (file.contains("format") && stringOf(file, "format") != "wirebench-plan") {
        *why = Arg("%1 is not a Wirebench plan (format \"%2\")").arg(path, stringOf(file, "format"));
        return Lookup::Unusable;
    }
    if (!planObject(file).contains("protocols")) {
        *why = Arg("the plan file %1 lists no protocols").arg(path);
        return Lookup::Unusable;
    }
    *plan = ProbePlan{base, path, std::move(file)};
    return Lookup::Found;
}

std::vector<std::string> ProbePlans::names() const
{
    std::vector<std::string> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(m_directory, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (endsWith(file, kSuffix) && file.front() != '.')
            out.push_back(file.substr(0, file.size() - std::string(kSuffix).size()));
    }
    std::sort(out.begin(), out.end());
    return out;
}

const json &ProbePlans::planObject(const json &file)
{
    const auto it = file.find("plan");
    return file.contains("format") && it != file.end() && it->is_object() ? *it : file;
}

int ProbePlans::hostIndex(const json &file, const std::string &target)
{
    const json &hosts = hostsOf(file);
    const std::string wanted = lower(wire::trimmed(target));
    if (wanted.empty())
        return -1;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const json &host = hosts[i];
        if (!host.is_object())
            continue;
        const std::string address = lower(stringOf(host, "address"));
        const long long port = static_cast<long long>(numberOf(host, "port", 0));
        const std::string withPort = address.find(':') != std::string::npos
            ? Arg("[%1]:%2").arg(address).arg(port).str()
            : Arg("%1:%2").arg(address).arg(port).str();
        if (wanted == address || wanted == lower(stringOf(host, "name")) || (port > 0 && wanted == withPort))
            return int(i);
    }
    return -1;
}

std::string ProbePlans::hostsText(const json &file)
{
    std::string out;
    for (const json &host : hostsOf(file)) {
        if (!host.is_object())
            continue;
        const std::string name = stringOf(host, "name");
        out += (out.empty() ? "" : ", ") + stringOf(host, "address")
            + (name.empty() ? std::string() : " (" + name + ")");
    }
    return out.empty() ? std::string("none") : out;
}

json ProbePlans::withOnlyHost(const json &file, int index)
{
    json out = file;
    json &plan = file.contains("format") && out.contains("plan") ? out["plan"] : out;
    plan["hosts"] = json::array({hostsOf(file).at(std::size_t(index))});
    return out;
}

double ProbePlans::estimatedSeconds(const json &file)
{
    // TestPlan's defaults where the file leaves a field out (core/plan/TestPlan.h, core/model/TestParams.h).
    const json &plan = planObject(file);
    const json params = plan.contains("params") && plan["params"].is_object() ? plan["params"] : json::object();
    const double protocols
        = plan.contains("protocols") && plan["protocols"].is_array() ? double(plan["protocols"].size()) : 0;
    const double frames
        = plan.contains("frame_sizes") && plan["frame_sizes"].is_array() ? double(plan["frame_sizes"].size()) : 1;
    const double repetitions = numberOf(plan, "repetitions", 5);
    const double runSeconds = (numberOf(params, "duration_ms", 10000) + numberOf(params, "warmup_ms", 0)) / 1000;
    double seconds = protocols * frames * repetitions * runSeconds;
    const auto reference = plan.find("reference_streams");
    if (reference != plan.end() && reference->is_boolean() && reference->get<bool>())
        seconds += 2 * frames * numberOf(plan, "reference_ms", 3000) / 1000;
    return seconds;
}

} // namespace wb::probe
