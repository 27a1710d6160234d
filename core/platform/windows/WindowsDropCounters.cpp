#include "WindowsDropCounters.h"

#include "platform/windows/WindowsInterfaceTable.h"

namespace wb::platform {

DropReading WindowsDropCounters::read(const std::string &interfaceName) const
{
    DropReading r;
    r.interfaceName = interfaceName;
    if (interfaceName.empty())
        return r;
    // GetIfTable2's row is GetIfEntry2's, read for all interfaces at once.
    const std::optional<MIB_IF_ROW2> row = WindowsInterfaceTable::row(interfaceName);
    if (!row) {
        r.error = "interface " + interfaceName + ": not found (GetIfTable2)";
        return r;
    }
    r.rxDropped = std::int64_t(row->InDiscards);
    r.txDropped = std::int64_t(row->OutDiscards);
    return r;
}

} // namespace wb::platform
