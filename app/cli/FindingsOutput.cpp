#include "FindingsOutput.h"

#include "Console.h"
#include "analysis/SessionFindings.h"
#include "analysis/StoredStreams.h"

namespace wb::cli {

void FindingsOutput::print(const RunResultList &results, const ResultStore *store)
{
    const FindingList found = SessionFindings::of(results, StoredStreams::before(store, results));
    if (found.isEmpty())
        return;
    Console::out(QStringLiteral("\nWhat the tests of this session show together (MB/s = 10^6 bytes/s):"));
    for (const Finding &f : found)
        Console::out(QStringLiteral("  ") + f.sentence);
}

} // namespace wb::cli
