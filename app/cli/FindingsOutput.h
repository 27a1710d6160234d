#pragma once

#include "model/RunResult.h"

namespace wb {
class ResultStore;
}

namespace wb::cli {

/// What `run` and `show` print after the summary: the sentences the session's tests support together
/// (SessionFindings), under one heading; nothing when there are none.
class FindingsOutput
{
public:
    /// store: where a TCP stream from the hour before is looked for when the session has none to a host.
    static void print(const RunResultList &results, const ResultStore *store);
};

} // namespace wb::cli
