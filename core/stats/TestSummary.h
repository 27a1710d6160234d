#pragma once

#include "Statistics.h"
#include "model/RunResult.h"

#include <QList>

namespace wb {

/// One test (host x protocol x frame size) summarized over its successful repetitions, in MB/s.
struct TestSummary
{
    Host host;
    QString protocol;
    int frameSize = 0;
    int mss = 0;             ///< the MSS of the last successful run (0 = unknown)
    Summary MBps;            ///< over status == ok runs only
    int okRuns = 0;
    int failedRuns = 0;      ///< failed, cancelled or not run
    QStringList errors;      ///< distinct errors of the runs that did not succeed

    /// Groups results in first-seen order of host, protocol and frame size.
    static QList<TestSummary> build(const RunResultList &results);
    /// True when the run belongs to this test (same host name, address and port, protocol, frame size).
    bool matches(const RunResult &result) const;
    /// The runs of this test, in their order in results.
    RunResultList runsOf(const RunResultList &results) const;
};

} // namespace wb
