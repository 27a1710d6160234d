#include "StoredStreams.h"

#include "protocols/DriverRegistry.h"
#include "storage/ResultStore.h"

namespace wb {

StoredRunList StoredStreams::before(const ResultStore *store, const RunResultList &session)
{
    if (!store || !store->isOpen())
        return {};
    QDateTime start;
    for (const RunResult &r : session)
        if (r.startedAt.isValid() && (!start.isValid() || r.startedAt < start))
            start = r.startedAt;
    if (!start.isValid())
        start = QDateTime::currentDateTimeUtc();
    QStringList streams;
    for (const ProtocolInfo &p : DriverRegistry::protocols())
        if (p.rawTcp)
            streams << p.id;
    // A store that cannot be read leaves the finding to the session's own runs, as without a store.
    return store->runsBetween(start.addSecs(-kWindowSeconds), start, streams);
}

} // namespace wb
