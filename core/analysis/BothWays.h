#pragma once

#include "Bottleneck.h"

#include <QString>
#include <QStringList>

namespace wb {

/// The verdict on a run of both directions at once (tcp-bidir, iperf3-bidir). Each direction is judged against what
/// it can carry while the other direction's ACKs share its wire (Ceiling::tcpGoodputBothWays: full duplex). When
/// the two figures instead add up to what one direction alone carries, the link is not full duplex for this
/// traffic (half duplex, a shared medium, one shaper or queue for both), and that is said. Pure functions;
/// Bottleneck hands them the evidence whose bothWays is set.
class BothWays
{
public:
    static QString sentence(const Evidence &e, const AnalysisThresholds &t = {});
    static QStringList warnings(const Evidence &e, const AnalysisThresholds &t = {});
    /// The two figures add up to the one-way ceiling (within nearLimitPercent and the tolerance) while neither
    /// direction is at line rate: what a half-duplex or shared medium gives.
    static bool sumIsBounded(const Evidence &e, const AnalysisThresholds &t = {});
};

} // namespace wb
