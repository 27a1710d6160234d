#include "PreflightReport.h"

#include <QStringList>

#include <algorithm>

namespace wb {

PreflightProblemList PreflightReport::problemsOf(const Host &host, const QString &protocol) const
{
    PreflightProblemList out;
    for (const PreflightProblem &p : problems) {
        if (p.protocol == protocol && p.host == host)
            out << p;
    }
    return out;
}

QString PreflightReport::notRunReason(const RunSpec &spec) const
{
    QStringList lines;
    for (const PreflightProblem &p : problemsOf(spec.host, spec.protocol))
        lines << p.message;
    if (lines.isEmpty())
        return {};
    return QStringLiteral("not run: the check before the first run found: ") + lines.join(QStringLiteral("; and: "));
}

int PreflightReport::blockedRuns(const TestPlan &plan) const
{
    const QList<RunSpec> runs = plan.expand();
    return int(std::count_if(runs.cbegin(), runs.cend(),
                             [this](const RunSpec &spec) { return !problemsOf(spec.host, spec.protocol).isEmpty(); }));
}

TestPlan PreflightReport::planToRun(TestPlan plan) const
{
    for (const ReferenceSkip &s : referenceSkipped)
        if (!plan.referenceSkipped.contains(s))
            plan.referenceSkipped << s;
    return plan;
}

} // namespace wb
