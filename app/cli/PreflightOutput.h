#pragma once

#include "engine/PreflightReport.h"

namespace wb::cli {

/// What `wirebench-cli run` prints of the check before the first run: every problem at once, one line each,
/// and what happens next (the other runs run, or with --strict-check nothing does).
class PreflightOutput
{
public:
    /// Prints the problems of report (nothing when it is clean). Returns false when the plan must not run.
    static bool print(const PreflightReport &report, const TestPlan &plan, bool strict);
};

} // namespace wb::cli
