#include "LinuxProcessFiles.h"

#include <algorithm>
#include <charconv>
#include <string>

#include <dirent.h>
#include <unistd.h>

namespace wb::platform {

std::vector<int> LinuxProcessFiles::openDescriptors() const
{
    std::vector<int> out;
    DIR *dir = ::opendir("/proc/self/fd");
    if (dir == nullptr)
        return out;
    const int own = ::dirfd(dir); // the listing's own descriptor, closed when it ends
    while (const dirent *e = ::readdir(dir)) {
        const std::string name = e->d_name;
        int fd = -1;
        const auto [at, ec] = std::from_chars(name.data(), name.data() + name.size(), fd);
        if (ec == std::errc() && at == name.data() + name.size() && fd != own)
            out.push_back(fd);
    }
    ::closedir(dir);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::uint64_t> LinuxProcessFiles::socketInodes() const
{
    std::vector<std::uint64_t> out;
    for (const int fd : openDescriptors()) {
        char target[64];
        const std::string link = "/proc/self/fd/" + std::to_string(fd);
        const ssize_t n = ::readlink(link.c_str(), target, sizeof(target) - 1);
        if (n <= 0)
            continue;
        const std::string text(target, size_t(n));
        // "socket:[12345]"
        if (text.rfind("socket:[", 0) != 0 || text.back() != ']')
            continue;
        std::uint64_t inode = 0;
        const char *first = text.data() + 8;
        const char *last = text.data() + text.size() - 1;
        const auto [at, ec] = std::from_chars(first, last, inode);
        if (ec == std::errc() && at == last)
            out.push_back(inode);
    }
    return out;
}

} // namespace wb::platform
