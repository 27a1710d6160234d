#include "LinuxFiles.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb::platform {

std::string LinuxFiles::read(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            out.clear(); // a sysfs attribute without a value fails its read: nothing was read
            break;
        }
        if (n == 0)
            break;
        out.append(buf, size_t(n));
    }
    ::close(fd);
    return out;
}

std::string LinuxFiles::readTrimmed(const std::string &path)
{
    const std::string text = read(path);
    const char *space = " \t\n\v\f\r";
    const size_t first = text.find_first_not_of(space);
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(space) - first + 1);
}

std::string LinuxFiles::canonical(const std::string &path)
{
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr)
        return {};
    return resolved;
}

bool LinuxFiles::exists(const std::string &path)
{
    struct stat st = {};
    return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> LinuxFiles::lines(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        out.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

std::vector<std::string> LinuxFiles::words(const std::string &line)
{
    static constexpr const char *kSpace = " \t\r\n\v\f";
    std::vector<std::string> out;
    std::size_t at = line.find_first_not_of(kSpace);
    while (at != std::string::npos) {
        const std::size_t end = line.find_first_of(kSpace, at);
        out.push_back(line.substr(at, end == std::string::npos ? std::string::npos : end - at));
        at = end == std::string::npos ? end : line.find_first_not_of(kSpace, end);
    }
    return out;
}

} // namespace wb::platform
