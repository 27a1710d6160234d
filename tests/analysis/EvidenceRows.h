#pragma once

// The evidence that the warning and bottleneck tests' rows start from (TestWarnings, TestBottleneck).

#include "analysis/RunAnalyzer.h"

#include <QMetaType>

#include <functional>

Q_DECLARE_METATYPE(wb::Evidence)

namespace wb::test {

/// `runs` runs over a full-duplex link of linkMbps on eth0 at MTU 1500 (the local interface as fast) that measured
/// MBps MB/s; tweak changes the rest.
inline Evidence linkEvidence(int runs, double linkMbps, double MBps, const std::function<void(Evidence &)> &tweak)
{
    Evidence e;
    e.runs = runs;
    e.measuredBytesPerSecond = MBps * 1e6;
    e.linkSpeedMbps = linkMbps;
    e.localSpeedMbps = linkMbps;
    e.duplex = QStringLiteral("full");
    e.interfaceName = QStringLiteral("eth0");
    e.mtu = 1500;
    if (tweak)
        tweak(e);
    return e;
}

} // namespace wb::test
