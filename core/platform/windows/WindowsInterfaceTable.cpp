#include "WindowsInterfaceTable.h"

#include "platform/windows/WindowsText.h"

namespace wb::platform {

std::optional<MIB_IF_ROW2> WindowsInterfaceTable::row(const std::string &alias)
{
    MIB_IF_TABLE2 *table = nullptr;
    if (alias.empty() || ::GetIfTable2(&table) != NO_ERROR)
        return std::nullopt;
    std::optional<MIB_IF_ROW2> found;
    for (ULONG i = 0; i < table->NumEntries && !found; ++i) {
        if (WindowsText::utf8(table->Table[i].Alias) == alias)
            found = table->Table[i];
    }
    ::FreeMibTable(table);
    return found;
}

} // namespace wb::platform
