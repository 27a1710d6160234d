#pragma once

#include "model/RunResult.h"
#include "storage/StoreTypes.h"

namespace wb {

class ResultStore;

/// The bare TCP streams (ProtocolInfo::rawTcp: tcp-send, tcp-recv, iperf3 TCP) that the result store kept from
/// the hour before a session, for SessionFindings to judge a transfer by when the session measured none to
/// its host.
class StoredStreams
{
public:
    /// How far back a stored stream still says something about the network today.
    static constexpr qint64 kWindowSeconds = 3600;

    /// The successful streams that started within kWindowSeconds before the session's first run (the earliest
    /// startedAt of `session`; now when none has one). Runs of the session itself start later, so none is
    /// among them. Empty without an open store, or when the store cannot be read.
    static StoredRunList before(const ResultStore *store, const RunResultList &session);
};

} // namespace wb
