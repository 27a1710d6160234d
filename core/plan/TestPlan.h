#pragma once

#include "model/Host.h"
#include "model/RunSpec.h"
#include "model/TestParams.h"

#include <QList>
#include <QMetaType>
#include <QStringList>

namespace wb {

/// A host that gets no reference stream (TestPlan::referenceStreams), and why.
struct ReferenceSkip
{
    QString name;
    QString address;
    QString reason; ///< "its wirebenchd port 5301 does not answer (Connection refused)"
    bool operator==(const ReferenceSkip &) const = default;
};

/// What the user asked for: hosts x protocols x frame sizes x repetitions, with shared parameters.
struct TestPlan
{
    QList<Host> hosts;
    QStringList protocols;       ///< protocol ids, in the order to run them
    QList<int> frameSizes{1500}; ///< MTU values; the MSS follows from each (Frame::maxSegFor)
    int repetitions = 5;
    bool interleaveHosts = false; ///< A B A B rather than A A B B
    TestParams params;
    /// The shoot-out's reference (issue 14): before the plan's own runs, one short tcp-send and tcp-recv
    /// (referenceMs, 3 s unless set) per host and frame size, the network's capacity that the session's findings judge
    /// each file transfer by. In the results, not part of the comparison. A protocol the plan runs itself is not added
    /// again; the hosts in referenceSkipped get none.
    bool referenceStreams = false;
    QList<ReferenceSkip> referenceSkipped;
    /// Length of each reference stream; long enough for TCP's slow start to be a small part of it on a LAN.
    int referenceMs = kReferenceMs;

    static constexpr int kReferenceMs = 3000;
    static constexpr int kReferenceMinMs = 100;
    static constexpr int kReferenceMaxMs = 60000;
    /// TestParams::options key that marks a reference run (kept with the run in the store and the JSON).
    /// What one plan may hold: checked before any work that grows with the plan (issue 32, item 9).
    static constexpr int kMaxHosts = 1000;
    static constexpr qint64 kMaxRuns = 100000;
    /// Why the plan is too large (hosts, or hosts x protocols x frame sizes x repetitions), or empty.
    QString limitProblem() const;

    static constexpr const char *ReferenceKey = "plan.reference_stream";
    static bool isReference(const RunSpec &spec);
    /// The protocols the reference adds: TCP both ways, less those the plan has.
    QStringList referenceProtocols() const;
    /// The host gets reference streams: they are on and it is not in referenceSkipped.
    bool getsReference(const Host &host) const;

    /// The matrix in run order: the reference streams first (per frame size, host, protocol), then for each
    /// protocol, frame size, host, repetition. With interleaveHosts the repetition loop sits outside the host loop.
    QList<RunSpec> expand() const;
    int runCount() const;
    int referenceRunCount() const;
    /// Empty when the plan can run; otherwise one sentence per problem.
    QStringList validate() const;
};

} // namespace wb

Q_DECLARE_METATYPE(wb::TestPlan)
