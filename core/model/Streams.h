#pragma once

#include "RunResult.h"

#include <QString>

namespace wb {

/// Parallel streams of one test (TestParams::streams): their range and how every label says them.
class Streams
{
public:
    static constexpr int kMin = 1;
    static constexpr int kMax = 128; ///< as iperf3's -P

    /// "4 streams", "1 stream": every label of how many parallel streams a run used.
    static QString label(int streams);
    /// The parallel streams a run used (its extra "streams", which the TCP and iperf3 drivers set), 1 when none.
    static int of(const RunResult &result);
    /// Why a run over several streams has no figure when some carried nothing in the time all shared (the figure is
    /// the sum over that common window): "stream 3 of 4 carried no data ...", what to try; empty when every stream
    /// carried some. bytesPerStream: each stream's bytes in the common window.
    static QString silentProblem(const QList<qint64> &bytesPerStream);
};

} // namespace wb
