#include "LinuxTcpTunables.h"

#include "platform/linux/LinuxFiles.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

namespace wb::platform {

namespace {

/// The whole numbers of a sysctl file ("4096 16384 4194304"); words that are not numbers are left out.
std::vector<std::int64_t> readNumbers(const std::string &path)
{
    std::vector<std::int64_t> out;
    for (const std::string &word : LinuxFiles::words(LinuxFiles::read(path))) {
        std::int64_t v = 0;
        const auto [at, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
        if (ec == std::errc() && at == word.data() + word.size())
            out.push_back(v);
    }
    return out;
}

} // namespace

std::optional<std::int64_t> LinuxTcpTunables::socketBufferMax() const
{
    const std::vector<std::int64_t> w = readNumbers("/proc/sys/net/ipv4/tcp_wmem");
    const std::vector<std::int64_t> r = readNumbers("/proc/sys/net/ipv4/tcp_rmem");
    if (w.size() < 3 || r.size() < 3)
        return std::nullopt;
    return std::min(w.at(2), r.at(2));
}

std::optional<bool> LinuxTcpTunables::timestamps() const
{
    const std::vector<std::int64_t> v = readNumbers("/proc/sys/net/ipv4/tcp_timestamps");
    if (v.empty())
        return std::nullopt;
    return v.front() != 0;
}

} // namespace wb::platform
