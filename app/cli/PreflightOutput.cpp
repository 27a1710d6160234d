#include "PreflightOutput.h"

#include "Console.h"

namespace wb::cli {

bool PreflightOutput::print(const PreflightReport &report, const TestPlan &plan, bool strict)
{
    for (const ReferenceSkip &s : report.referenceSkipped) {
        const bool ended = s.reason.endsWith(QLatin1Char('.')) || s.reason.endsWith(QLatin1Char('?'));
        Console::out(QStringLiteral("No reference TCP stream for %1 (%2): %3%4")
                         .arg(s.name.isEmpty() ? s.address : s.name, s.address, s.reason,
                              ended ? QString() : QStringLiteral(".")));
    }
    if (report.isClean())
        return true;
    const int blocked = report.blockedRuns(plan);
    const int total = plan.runCount();
    Console::out(QStringLiteral("The check before the first run found %1 problem(s); %2 of %3 runs cannot work:")
                     .arg(report.problems.size())
                     .arg(blocked)
                     .arg(total));
    for (const PreflightProblem &p : report.problems)
        Console::out(QStringLiteral("  problem: %1: %2").arg(p.protocol, p.message));
    if (strict) {
        Console::err(QStringLiteral("wirebench-cli: the check before the first run found %1 problem(s) (above); "
                                    "nothing was run (--strict-check): fix them and run again")
                         .arg(report.problems.size()));
        return false;
    }
    Console::out(total > blocked
                     ? QStringLiteral("Running the other %1 run(s); those %2 are recorded as not run "
                                      "(--strict-check runs nothing then, --skip-check does not check).")
                           .arg(total - blocked)
                           .arg(blocked)
                     : QStringLiteral("No run can work: all %1 are recorded as not run. Fix the problems above and "
                                      "run again.")
                           .arg(total));
    return true;
}

} // namespace wb::cli
