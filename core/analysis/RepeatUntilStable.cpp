#include "RepeatUntilStable.h"

#include "Ceiling.h"
#include "stats/Statistics.h"

#include <algorithm>
#include <cmath>

namespace wb {

StableDecision RepeatUntilStable::decide(const QList<double> &values, int minCount, int maxCount,
                                         double targetHalfWidthPercent)
{
    StableDecision d;
    const bool ruleOn = targetHalfWidthPercent > 0;
    minCount = std::max(minCount, ruleOn ? 2 : 1);
    maxCount = std::max(maxCount, minCount);
    QList<double> finite;
    for (double v : values) {
        if (std::isfinite(v))
            finite.append(v);
    }
    const Summary s = Statistics::summarize(finite);
    d.runs = s.n;
    d.mean = s.mean;
    d.halfWidth = s.ci95HalfWidth;
    if (s.n >= 2) {
        if (s.mean != 0)
            d.halfWidthPercent = std::fabs(s.ci95HalfWidth / s.mean) * 100.0;
        else if (s.stddev == 0)
            d.halfWidthPercent = 0; // all zero: as stable as it gets
    }
    d.targetReached = ruleOn && d.halfWidthPercent >= 0 && d.halfWidthPercent <= targetHalfWidthPercent;

    if (s.n < minCount)
        d.repeat = true;
    else if (s.n >= maxCount)
        d.repeat = false;
    else
        d.repeat = !(ruleOn && d.targetReached);

    if (!d.repeat && ruleOn) {
        const QString width = d.halfWidthPercent >= 0
            ? QStringLiteral("+/-%1 of the mean").arg(Ceiling::formatPercent(d.halfWidthPercent))
            : QStringLiteral("not computable (mean 0)");
        if (d.targetReached)
            d.note = QStringLiteral("stable after %1 runs: 95% confidence interval %2, within the target of +/-%3")
                         .arg(s.n)
                         .arg(width, Ceiling::formatPercent(targetHalfWidthPercent));
        else
            d.note = QStringLiteral("not stable after %1 runs (the maximum): 95% confidence interval %2, wider than "
                                    "the target of +/-%3; the network or the hosts vary, so look into that before "
                                    "comparing")
                         .arg(s.n)
                         .arg(width, Ceiling::formatPercent(targetHalfWidthPercent));
    }
    return d;
}

} // namespace wb
