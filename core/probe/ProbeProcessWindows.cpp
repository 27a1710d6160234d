#include "ProbeProcess.h"

namespace wb::probe {

// Not yet: wirebenchd's probes run wirebench-cli as a child, which the Windows build does not ship (it is the
// responder alone, WIREBENCH_RESPONDER_ONLY). --probe-listen says so on Windows.

bool ProbeProcess::supported()
{
    return false;
}

ProcessResult ProbeProcess::run(const std::vector<std::string> &, std::int64_t, const std::atomic_bool &)
{
    ProcessResult result;
    result.error = "probes are not supported on Windows yet";
    return result;
}

std::string ProbeProcess::makeTempDir(std::string *error)
{
    *error = "probes are not supported on Windows yet";
    return std::string();
}

void ProbeProcess::removeTempDir(const std::string &) { }

} // namespace wb::probe
