#pragma once

#include <string>

namespace wb::platform {

/// What this computer says it is, for wirebenchd's hello: the OS's name and version, its kernel, the host name
/// and the CPU count. Linux: /etc/os-release and uname(2); a Windows port asks RtlGetVersion and the registry's
/// ProductName ("Windows Server 2022 (10.0.20348)").
struct SystemDescription
{
    std::string osName;    ///< "Debian GNU/Linux 12 (bookworm)"
    std::string osVersion; ///< "12"
    std::string kernel;    ///< "Linux 6.1.0-18-amd64"
    std::string hostname;
    int cpus = 0;
};

class SystemInfo
{
public:
    virtual ~SystemInfo() = default;
    virtual SystemDescription describe() const = 0;
};

} // namespace wb::platform
