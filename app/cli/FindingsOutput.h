#pragma once

#include "model/RunResult.h"

namespace wb::cli {

/// What `run` and `show` print after the summary: the sentences the session's tests support together
/// (SessionFindings), under one heading; nothing when there are none.
class FindingsOutput
{
public:
    static void print(const RunResultList &results);
};

} // namespace wb::cli
