#pragma once

#include "model/Host.h"
#include "model/RunSpec.h"
#include "model/TestParams.h"

#include <QList>
#include <QMetaType>
#include <QStringList>

namespace wb {

/// What the user asked for: hosts x protocols x frame sizes x repetitions, with shared parameters.
struct TestPlan
{
    QList<Host> hosts;
    QStringList protocols;            ///< protocol ids, in the order to run them
    QList<int> frameSizes{1500};      ///< MTU values; the MSS follows from each (Frame::maxSegFor)
    int repetitions = 5;
    bool interleaveHosts = false;     ///< A B A B rather than A A B B
    TestParams params;

    /// The matrix in run order. Default order: for each protocol, frame size, host, repetition.
    /// With interleaveHosts the repetition loop sits outside the host loop.
    QList<RunSpec> expand() const;
    int runCount() const { return int(hosts.size() * protocols.size() * frameSizes.size()) * repetitions; }
    /// Empty when the plan can run; otherwise one sentence per problem.
    QStringList validate() const;
};

} // namespace wb

Q_DECLARE_METATYPE(wb::TestPlan)
