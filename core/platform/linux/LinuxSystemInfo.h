#pragma once

#include "platform/SystemInfo.h"

namespace wb::platform {

/// /etc/os-release (PRETTY_NAME, VERSION_ID, as QSysInfo reads them) and uname(2).
class LinuxSystemInfo : public SystemInfo
{
public:
    SystemDescription describe() const override;
};

} // namespace wb::platform
