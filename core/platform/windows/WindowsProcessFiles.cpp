#include "WindowsProcessFiles.h"

namespace wb::platform {

std::vector<int> WindowsProcessFiles::openDescriptors() const
{
    return {};
}

std::vector<std::uint64_t> WindowsProcessFiles::socketInodes() const
{
    return {};
}

} // namespace wb::platform
