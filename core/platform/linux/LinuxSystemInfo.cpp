#include "LinuxSystemInfo.h"

#include "LinuxFiles.h"

#include <thread>

#include <sys/utsname.h>
#include <unistd.h>

namespace wb::platform {

namespace {

/// KEY=value and KEY="value" of an os-release file.
std::string osReleaseValue(const std::string &text, const std::string &key)
{
    std::string::size_type at = 0;
    while (at < text.size()) {
        const std::string::size_type end = text.find('\n', at);
        const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        at = end == std::string::npos ? text.size() : end + 1;
        if (line.compare(0, key.size() + 1, key + "=") != 0)
            continue;
        std::string value = line.substr(key.size() + 1);
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        return value;
    }
    return {};
}

} // namespace

SystemDescription LinuxSystemInfo::describe() const
{
    SystemDescription d;
    std::string release = LinuxFiles::read("/etc/os-release");
    if (release.empty())
        release = LinuxFiles::read("/usr/lib/os-release");
    d.osName = osReleaseValue(release, "PRETTY_NAME");
    d.osVersion = osReleaseValue(release, "VERSION_ID");
    utsname u{};
    if (::uname(&u) == 0) {
        d.kernel = std::string(u.sysname) + " " + u.release;
        if (d.osName.empty())
            d.osName = d.kernel;
    }
    char host[256] = {};
    if (::gethostname(host, sizeof(host) - 1) == 0)
        d.hostname = host;
    d.cpus = int(std::thread::hardware_concurrency());
    return d;
}

} // namespace wb::platform
