#pragma once

#include <cstdint>
#include <vector>

namespace wb::platform {

/// The files this process holds open: a library's own sockets (libsmbclient's) are found among them.
/// Linux: /proc/self/fd; a Windows port would list its sockets with GetTcpTable2 and its process id.
class ProcessFiles
{
public:
    virtual ~ProcessFiles() = default;
    /// The open descriptors, ascending.
    virtual std::vector<int> openDescriptors() const = 0;
    /// The inodes of the sockets among them (SocketDiagnostics reports the same numbers).
    virtual std::vector<std::uint64_t> socketInodes() const = 0;
};

} // namespace wb::platform
