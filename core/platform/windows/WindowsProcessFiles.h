#pragma once

#include "platform/ProcessFiles.h"

namespace wb::platform {

/// Not ported: only the client (libsmbclient's sockets) needs it, and it does not run on Windows yet.
class WindowsProcessFiles : public ProcessFiles
{
public:
    std::vector<int> openDescriptors() const override;
    std::vector<std::uint64_t> socketInodes() const override;
};

} // namespace wb::platform
