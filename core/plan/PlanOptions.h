#pragma once

#include "plan/TestPlan.h"

#include <QString>

class QCommandLineParser;

namespace wb {

/// The command-line options that set a plan's protocols (--protocol), frame sizes (--frame), repetitions (--reps)
/// run length (--duration) and parallel streams (--streams): wirebench-cli's `run` and the GUI read them here, with one
/// set of rules and one set of messages. Each program declares the options under these names with its own help text; an
/// option that is not set leaves the plan's value. Each step is false with a one-line reason, so a program keeps its
/// own order of checks.
class PlanOptions
{
public:
    /// `planFile`: the file the plan was read from (the CLI's --plan); its own protocols are checked too and its
    /// name is in the reasons. Empty: the plan's protocols are checked only when --protocol replaces them.
    PlanOptions(const QCommandLineParser &parser, TestPlan *plan, const QString &planFile = {});

    bool protocols(QString *why) const;
    bool frames(QString *why) const;
    bool repetitions(QString *why) const;
    bool duration(QString *why) const;
    /// --streams N: parallel streams, 1..Streams::kMax (tcp-send, tcp-recv and the iperf3 tests).
    bool streams(QString *why) const;
    /// All five, in the order above (the GUI's plan overrides).
    bool apply(QString *why) const;
    /// A number of seconds from minSeconds to maxSeconds, as whole milliseconds: every "SECONDS" option's rule.
    static bool secondsToMs(const QString &text, double minSeconds, double maxSeconds, int *ms);

private:
    const QCommandLineParser &m_parser;
    TestPlan *m_plan;
    QString m_planFile;
};

} // namespace wb
