#pragma once

#include "plan/TestPlan.h"

#include <QString>

namespace wb {

/// A test plan in a file of its own (".wbplan.json"), so that the same matrix can be run again, shared, or
/// run headless: the GUI's File > Save plan / Open plan and `wirebench-cli run --plan FILE` read and write
/// it. The plan is PlanJson's (hosts, protocols, frame sizes, repetitions, parameters) inside
/// {"format": "wirebench-plan", "version": 1, "plan": {...}}; passwords and keys are never written.
class PlanFile
{
public:
    static constexpr int kVersion = 1;
    static constexpr const char *kFormat = "wirebench-plan";
    static constexpr const char *kSuffix = ".wbplan.json";

    /// Writes the plan; false with a one-line reason (which file, what failed).
    static bool write(const QString &path, const TestPlan &plan, QString *error = nullptr);
    /// Reads a plan written by write(). It also takes a bare plan object (as the result store keeps it).
    /// False with a one-line reason when the file is missing, not JSON, not a plan or from a newer version.
    /// The plan is not validated: call TestPlan::validate() before running it.
    static bool read(const QString &path, TestPlan *plan, QString *error = nullptr);
};

} // namespace wb
