#pragma once

#include "platform/DropCounters.h"

namespace wb::platform {

/// GetIfEntry2's InDiscards and OutDiscards of the interface; Windows has no qdisc, input backlog or TcpExt counters to
/// read.
class WindowsDropCounters : public DropCounters
{
public:
    DropReading read(const std::string &interfaceName) const override;
};

} // namespace wb::platform
