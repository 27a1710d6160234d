#pragma once

#include "platform/ProcessFiles.h"

namespace wb::platform {

/// /proc/self/fd: one entry per descriptor, a socket's link reading "socket:[INODE]".
class LinuxProcessFiles : public ProcessFiles
{
public:
    std::vector<int> openDescriptors() const override;
    std::vector<std::uint64_t> socketInodes() const override;
};

} // namespace wb::platform
