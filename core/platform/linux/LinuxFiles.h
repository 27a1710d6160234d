#pragma once

#include <string>

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
};

} // namespace wb::platform
