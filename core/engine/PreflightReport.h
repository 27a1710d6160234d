#pragma once

#include "model/PreflightProblem.h"
#include "model/RunSpec.h"
#include "plan/TestPlan.h"

#include <QMetaType>

namespace wb {

/// What the check before a plan's first run found (Preflight): every problem of every host and protocol at
/// once. The engine does not run what a problem stands in the way of; those runs are kept as "not run" with it.
struct PreflightReport
{
    PreflightProblemList problems;
    int pairsChecked = 0; ///< host x protocol pairs looked at
    /// Hosts whose reference streams (TestPlan::referenceStreams) cannot run, with the check's reason: they get
    /// none. Not problems: the plan's own runs do not need them.
    QList<ReferenceSkip> referenceSkipped;

    bool isClean() const { return problems.isEmpty(); }
    PreflightProblemList problemsOf(const Host &host, const QString &protocol) const;
    /// "not run: the check before the first run found: <message>"; empty when nothing stands in spec's way.
    QString notRunReason(const RunSpec &spec) const;
    /// How many of plan's runs the problems keep from running.
    int blockedRuns(const TestPlan &plan) const;
    /// The plan as it runs after this check: without the reference streams of referenceSkipped's hosts.
    TestPlan planToRun(TestPlan plan) const;
};

} // namespace wb

Q_DECLARE_METATYPE(wb::PreflightReport)
