#pragma once

#include <string>
#include <vector>

namespace wb::platform {

/// Small file helpers the Linux readers share, for /proc and sysfs, whose files report size 0 and whose
/// reads can fail (EINVAL) when there is no value.
class LinuxFiles
{
public:
    /// The whole file; empty when it cannot be opened or read.
    static std::string read(const std::string &path);
    /// read() without leading and trailing white space.
    static std::string readTrimmed(const std::string &path);
    /// The path with every symbolic link resolved; empty when it does not exist.
    static std::string canonical(const std::string &path);
    /// Whether path exists (following symbolic links).
    static bool exists(const std::string &path);
    /// text cut at its newlines (a last line without one too). With words(), what the readers parse /proc with
    /// instead of std::istringstream, whose first use wakes libstdc++'s locales: about 0.3 MiB more resident in
    /// wirebenchd, which reads the drop counters around every test.
    static std::vector<std::string> lines(const std::string &text);
    /// text cut at runs of white space (spaces, tabs, newlines), none empty.
    static std::vector<std::string> words(const std::string &text);
};

} // namespace wb::platform
