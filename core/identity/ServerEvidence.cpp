#include "ServerEvidence.h"

namespace wb {

ServerEvidence ServerEvidence::failure(const QString &source, const QString &error)
{
    ServerEvidence e;
    e.source = source;
    e.error = error;
    return e;
}

const ServerEvidence *bestEvidence(const ServerEvidenceList &evidence)
{
    const ServerEvidence *best = nullptr;
    for (const ServerEvidence &e : evidence) {
        if (e.failed() || e.suggests.isEmpty())
            continue;
        if (!best || e.rank > best->rank)
            best = &e;
    }
    return best;
}

QString bestOsLabel(const ServerEvidenceList &evidence)
{
    const ServerEvidence *best = bestEvidence(evidence);
    return best ? best->suggests : QString();
}

} // namespace wb
