#pragma once

#include "platform/SystemInfo.h"

namespace wb::platform {

/// RtlGetVersion (the real version, which GetVersionEx hides from programs without a manifest) and the registry's
/// ProductName: "Windows Server 2022 Datacenter (10.0.20348)".
class WindowsSystemInfo : public SystemInfo
{
public:
    SystemDescription describe() const override;
};

} // namespace wb::platform
